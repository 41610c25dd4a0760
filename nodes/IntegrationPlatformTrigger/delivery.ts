/**
 * One delivery, from the raw bytes to the answer: size, signature (verify.ts), replay memory
 * (replay.ts), then the message (events.ts), its `url` result downloaded (download.ts), and the
 * items that start the workflow, or the status that tells the sender what happened:
 * 413 too large, 401 not verified or replayed, 409 a copy while the first attempt is in progress
 * or n8n has not yet answered it,
 * 503 secret unavailable or replay memory full
 * (the sender retries), 400 not a JSON object, 502 download failed (retried), 200 otherwise.
 */
import type {
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DownloadRefusal, downloadRecords } from './download';
import type { DownloadPolicy } from './download';
import {
	buildItems,
	classify,
	filterEntries,
	pickHeaders,
	resultLocation,
	selectMessage,
} from './events';
import type { DeliveryInfo, Json } from './events';
import { safeUrl } from './registration';
import { replayMemory } from './replay';
import {
	downloadsOf,
	optionsOf,
	outputModeOf,
	selectionOf,
	toleranceOf,
	verifying,
} from './settings';
import { verifyDelivery } from './verify';

/**
 * Largest body accepted. The service sends at most 300 KB (docs/api-notes.md, "Webhook
 * signatures (Svix)"); anything far above is not from it. Checked before the signature, so a huge
 * body costs no HMAC work: 413.
 */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * An error n8n should record as a failed execution: it concerns a verified message, so the user
 * needs to see it where executions are listed. n8n answers 500, so the sender delivers again.
 */
export class VerifiedMessageError extends NodeOperationError {}

type Verified = { id: string; timestampSeconds: number; scope: string };

/** Answers itself, so the workflow does not start (docs/n8n-notes.md, "Webhook triggers"). */
export function refuse(
	context: IWebhookFunctions,
	status: number,
	text: string,
): IWebhookResponseData {
	const res = context.getResponseObject();
	res.status(status).type('text/plain').send(text);
	return { noWebhookResponse: true };
}

function acknowledge(context: IWebhookFunctions, reason: string): IWebhookResponseData {
	context.logger.debug(
		`Integration Platform Trigger: message acknowledged, not started (${reason})`,
	);
	return { webhookResponse: { received: true, started: false } };
}

/** The raw body bytes n8n read (gunzipped already), reading them if n8n has not. */
async function rawBodyOf(context: IWebhookFunctions): Promise<Buffer | undefined> {
	const req = context.getRequestObject();
	const contentType = String(req.headers['content-type'] ?? '');
	// n8n's form parser consumes multipart bodies and keeps no raw bytes.
	if (contentType.toLowerCase().startsWith('multipart/')) return undefined;
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') {
		try {
			await req.readRawBody();
		} catch (error) {
			context.logger.debug(
				`Integration Platform Trigger: could not read the raw body: ${(error as Error).message}`,
			);
			return undefined;
		}
	}
	return Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined;
}

/** Claims the message id; what to answer instead when it is a replay, a redelivery or no room. */
function claim(
	context: IWebhookFunctions,
	verified: Verified,
	nowSeconds: number,
	toleranceSeconds: number,
): IWebhookResponseData | undefined {
	const { scope, id, timestampSeconds } = verified;
	const verdict = replayMemory.claim(scope, id, timestampSeconds, nowSeconds, toleranceSeconds);
	switch (verdict) {
		case 'replay':
			context.logger.debug(`Integration Platform Trigger: delivery ${id} refused: replayed`);
			return refuse(context, 401, 'Unauthorized: this message was already received');
		case 'redelivery':
			// A fresh signature for an id already accepted: the service trying again after our
			// answer was lost. Acknowledge, so it stops, but start nothing a second time.
			return acknowledge(context, `message ${id} was already received`);
		case 'inProgress':
			// The first attempt is still being processed (a download, say) and may yet fail: answering
			// 200 here would lose the message if it did. The sender tries again later.
			context.logger.debug(
				`Integration Platform Trigger: delivery ${id} refused for now: the first attempt is in progress`,
			);
			return refuse(context, 409, 'Conflict: this message is being processed; deliver again later');
		case 'full':
			// Forgetting an older claim would let its replay through: the sender retries later.
			context.logger.warn(
				`Integration Platform Trigger: delivery ${id} refused for now: the replay memory is full (more messages within the timestamp tolerance than it holds)`,
			);
			return refuse(context, 503, 'Service Unavailable: too many messages; deliver again later');
		default:
			return undefined;
	}
}

/** One delivery, from the raw bytes to the items that start the workflow (or the refusal). */
export async function handleDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const receivedAt = new Date().toISOString();
	const body = await rawBodyOf(context);
	// Size before anything else: a body this large is not from the service (300 KB limit).
	if (body && body.length > MAX_BODY_BYTES) {
		return refuse(context, 413, 'Payload Too Large');
	}

	// Each parameter is read at most once per delivery, and only when needed.
	const options = optionsOf(context);
	let verified: Verified | undefined;
	if (verifying(context)) {
		const tolerance = toleranceOf(options(), context.getNode());
		const now = Math.floor(Date.now() / 1000);
		const outcome = await verifyDelivery(context, body, tolerance, now);
		if (!outcome.ok) return refuse(context, outcome.status, outcome.reason);
		const answered = claim(context, outcome, now, tolerance);
		if (answered) return answered;
		verified = outcome;
	}
	// Unless the message ends up acknowledged (2xx), its claim is dropped again, so that the
	// service's next attempt is processed, not taken as a copy.
	let outcome: Processed | undefined;
	try {
		outcome = await processMessage(context, body, verified, receivedAt, options);
		return outcome.response;
	} finally {
		if (verified && outcome?.started) awaitN8nAnswer(context, verified);
		else if (verified && outcome?.acknowledged) replayMemory.settle(verified.scope, verified.id);
		else if (verified) replayMemory.release(verified.scope, verified.id);
	}
}

/**
 * A started message counts as received only once n8n has answered it with a 2xx: n8n answers
 * after it has stored the execution (in queue mode, after it has also put it on the queue), and
 * answers 500 when it could not (docs/n8n-notes.md, "Webhook triggers"). Until then a copy gets
 * 409; after a refusal the next copy starts the workflow.
 */
function awaitN8nAnswer(context: IWebhookFunctions, verified: Verified): void {
	const { scope, id } = verified;
	const res = context.getResponseObject();
	replayMemory.awaitAnswer(scope, id, () => {
		if (!res.writableEnded) return 'pending';
		return res.statusCode >= 200 && res.statusCode < 300 ? 'acknowledged' : 'refused';
	});
	// Known when n8n ends the response; if the sender left first, the next copy looks again.
	if (typeof res.once === 'function') {
		const settleNow = () => replayMemory.answered(scope, id);
		res.once('finish', settleNow);
		res.once('close', settleNow);
	}
}

/** Stateless between calls (no `stream` option), so one serves every delivery. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as a JSON object, or undefined (not UTF-8, not JSON, or not an object). */
function parseJsonObject(body: Buffer): Json | undefined {
	let text: string;
	try {
		text = utf8.decode(body);
	} catch {
		return undefined;
	}
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	try {
		const value = JSON.parse(text) as unknown;
		return typeof value === 'object' && value !== null && !Array.isArray(value)
			? (value as Json)
			: undefined;
	} catch {
		return undefined;
	}
}

/**
 * The records behind a verified message's download URL; undefined when the download failed. A
 * download the rules refuse fails the execution, naming the host and the rule.
 */
async function download(
	context: IWebhookFunctions,
	verified: Verified,
	url: string,
	policy: DownloadPolicy,
): Promise<Json[] | undefined> {
	const http = async (options: IHttpRequestOptions) => await context.helpers.httpRequest(options);
	const outcome = await downloadRecords(http, url, policy).then(
		(records) => ({ records }),
		(error: unknown) => ({ error: error as Error }),
	);
	if ('records' in outcome) return outcome.records;
	const { error } = outcome;
	if (error instanceof DownloadRefusal) {
		context.logger.warn(
			`Integration Platform Trigger: message ${verified.id}: ${error.message} (rule: ${error.rule})`,
		);
		throw new VerifiedMessageError(context.getNode(), error.message, {
			description: `Message ${verified.id}. ${error.description}`,
		});
	}
	// Not acknowledged: the service delivers again (5 s, 5 min later), while the URL is still
	// valid (15 minutes).
	context.logger.warn(
		`Integration Platform Trigger: could not download the result of message ${verified.id} from ${safeUrl(url)}: ${error.message}`,
	);
	return undefined;
}

/** What webhook() answers; `started` when n8n is to start the workflow with it. */
interface Processed {
	response: IWebhookResponseData;
	acknowledged: boolean;
	started?: boolean;
}

async function processMessage(
	context: IWebhookFunctions,
	body: Buffer | undefined,
	verified: Verified | undefined,
	receivedAt: string,
	options: () => IDataObject,
): Promise<Processed> {
	const ack = (reason: string) => ({ response: acknowledge(context, reason), acknowledged: true });
	const fail = (status: number, text: string) => ({
		response: refuse(context, status, text),
		acknowledged: false,
	});

	// Only JSON objects are messages. Checked after the signature, so unsigned junk gets 401.
	let message: Json | undefined;
	if (body) {
		message = parseJsonObject(body);
	} else if (!verified) {
		const parsed = context.getBodyData() as unknown;
		message =
			typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
				? (parsed as Json)
				: undefined;
	}
	if (!message) return fail(400, 'Bad Request: the body is not a JSON object');

	const classified = classify(message);
	const selection = selectionOf(context);
	const decision = selectMessage(classified, selection);
	if (!decision.accept) return ack(decision.reason);

	const location = resultLocation(classified);
	let records: Json[] | undefined;
	if (location.type === 'inline') records = location.records;
	// Only a verified message's URL is fetched: an unverified one could make n8n request any
	// address an outsider chooses (server-side request forgery).
	const downloads = location.type === 'url' && verified ? downloadsOf(options()) : undefined;
	if (location.type === 'url' && verified && downloads?.enabled) {
		records = await download(context, verified, location.url, downloads.policy);
		if (!records) return fail(502, 'Bad Gateway: the result could not be downloaded');
	}
	if (records !== undefined) records = filterEntries(classified, records, selection);
	if (classified.kind === 'subscribe' && records !== undefined && records.length === 0) {
		return ack('no subscribe event of the selected types');
	}

	const headers = context.getHeaderData() as Record<string, unknown>;
	const delivery: DeliveryInfo = {
		...(verified
			? { id: verified.id, timestamp: new Date(verified.timestampSeconds * 1000).toISOString() }
			: {}),
		verified: verified !== undefined,
		receivedAt,
		headers: pickHeaders(headers),
	};
	if (!verified) {
		const id = headers['svix-id'] ?? headers['webhook-id'];
		if (typeof id === 'string') delivery.id = id;
	}
	const items = buildItems(classified, records, outputModeOf(context), delivery);
	if (items.length === 0) return ack('the message holds no records');
	const data: INodeExecutionData[] = items.map((json) => ({ json: json as IDataObject }));
	return { response: { workflowData: [data] }, acknowledged: true, started: true };
}
