/**
 * Checks one delivery's signature in the webhook context: headers and time window first (nothing
 * unsigned or out of date reaches the secret lookup), then the HMAC against the signing keys
 * (secrets.ts), with one fresh look at a fetched secret after a mismatch (a rotation). The
 * verification itself is svix.ts.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { signingKeys } from './secrets';
import { checkTimestamp, FAILURE_TEXT, readSignatureHeaders, verifySignature } from './svix';
import type { HeaderBag, VerifyFailure } from './svix';

export type Verification =
	| { ok: true; id: string; timestampSeconds: number; scope: string }
	| { ok: false; status: 401 | 503; reason: string };

function refused(context: IWebhookFunctions, reason: VerifyFailure, id?: string): Verification {
	context.logger.debug(
		`Integration Platform Trigger: delivery ${id ?? '(no id)'} refused: ${FAILURE_TEXT[reason]}`,
	);
	return { ok: false, status: 401, reason: `Unauthorized: ${FAILURE_TEXT[reason]}` };
}

export async function verifyDelivery(
	context: IWebhookFunctions,
	body: Buffer | undefined,
	toleranceSeconds: number,
	nowSeconds: number,
): Promise<Verification> {
	const headers = context.getHeaderData() as HeaderBag;
	const parsed = readSignatureHeaders(headers);
	if (parsed === undefined) return refused(context, 'missing-headers');
	if (parsed === 'invalid') return refused(context, 'invalid-headers');
	if (!body) return refused(context, 'missing-body', parsed.id);
	const window = checkTimestamp(parsed.timestampSeconds, nowSeconds, toleranceSeconds);
	if (window) return refused(context, window, parsed.id);

	const source = await signingKeys(context);
	if ('unavailable' in source) {
		context.logger.error(`Integration Platform Trigger: ${source.unavailable}`);
		// The service retries refused deliveries; by then the secret may be reachable again.
		return {
			ok: false,
			status: 503,
			reason: 'Service Unavailable: the signing secret could not be fetched',
		};
	}

	const input = { headers, body, nowSeconds, toleranceSeconds };
	let result = verifySignature({ ...input, keys: source.keys });
	if (!result.ok && result.reason === 'bad-signature' && source.refresh) {
		// Perhaps the secret was rotated: one fresh look (rate-limited in SecretCache).
		const fresh = await source.refresh();
		if (fresh) result = verifySignature({ ...input, keys: fresh });
	}
	if (!result.ok) return refused(context, result.reason, result.id);
	return {
		ok: true,
		id: result.id,
		timestampSeconds: result.timestampSeconds,
		scope: source.scope,
	};
}
