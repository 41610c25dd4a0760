/**
 * Where the signing secret comes from: the signing-secret credential (typed in by the user, kept
 * encrypted by n8n, read for each delivery and never kept afterwards), or the destination itself,
 * fetched with the API credential and kept in this process's memory. SecretCache is pure
 * (test/unit/IntegrationPlatformTrigger/secrets.test.ts).
 *
 * Why a cache: fetching the destination (GET …/destinations/{name}?includeSecrets=true,
 * docs/api-notes.md, "getDestination") on every delivery would cost an API round trip per
 * message, at up to 1000 messages per second. Why not static data: n8n stores a workflow's static
 * data unencrypted with the workflow and returns it from the public API and in exports, so a
 * secret kept there would leak. Memory only, then; a new process fetches once.
 *
 * Rotation: entries live `ttlMs` (10 minutes); a delivery whose signature does not match asks
 * for one early refresh, at most once per `minRefreshMs` per destination, so forged requests
 * cannot turn into a flood of API calls.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../common/api';
import { encodePathSegment } from '../common/paths';
import {
	apiCredentialType,
	authentication,
	destinationNameFor,
	isTest,
	projectOf,
	secretFromCredential,
} from './settings';
import { decodeSecret, splitSecrets } from './svix';

export const SIGNING_SECRET_CREDENTIAL = 'integrationPlatformSigningSecretApi';

/** The signing-secret fetch must end well within Svix's 15 s delivery timeout. */
const SECRET_FETCH_TIMEOUT_MS = 8_000;

export type Clock = () => number;

interface Entry {
	secrets: string[];
	fetchedAt: number;
}

interface Failure {
	error: unknown;
	at: number;
}

export type SecretFetcher = () => Promise<string[]>;

export class SecretCache {
	private readonly entries = new Map<string, Entry>();

	private readonly pending = new Map<string, Promise<string[]>>();

	/** Last refresh per key (a fetch asked for by a mismatch): the refresh rate limit. */
	private readonly refreshes = new Map<string, number>();

	/** The last failed fetch per key, answered again for `failureBackoffMs` instead of refetching. */
	private readonly failures = new Map<string, Failure>();

	constructor(
		private readonly ttlMs = 10 * 60_000,
		private readonly minRefreshMs = 30_000,
		private readonly now: Clock = Date.now,
		private readonly maxEntries = 1000,
		// Below Svix's first retry delay (5 s), so that the service's retry finds a fresh fetch.
		private readonly failureBackoffMs = 4_000,
	) {}

	/**
	 * The cached secrets, fetched when absent or expired; concurrent callers share one fetch. A
	 * failed fetch is remembered for `failureBackoffMs`, so an unreachable service is not asked
	 * again for every delivery in the meantime.
	 */
	async get(key: string, fetch: SecretFetcher): Promise<string[]> {
		const entry = this.entries.get(key);
		if (entry && this.now() - entry.fetchedAt < this.ttlMs) return entry.secrets;
		const failure = this.failures.get(key);
		if (failure && this.now() - failure.at < this.failureBackoffMs) throw failure.error;
		return await this.load(key, fetch);
	}

	/**
	 * Fetches again after a signature mismatch, unless the last such refresh was less than
	 * `minRefreshMs` ago: then `undefined`, and the caller refuses the delivery. The first
	 * mismatch after a rotation always gets its refresh; a stream of forged deliveries gets one per
	 * `minRefreshMs`. The service retries refused deliveries (5 s, then 5 min…).
	 */
	async refresh(key: string, fetch: SecretFetcher): Promise<string[] | undefined> {
		const inFlight = this.pending.get(key);
		if (inFlight) return await inFlight;
		const last = this.refreshes.get(key);
		if (last !== undefined && this.now() - last < this.minRefreshMs) return undefined;
		if (this.refreshes.size >= this.maxEntries && !this.refreshes.has(key)) this.refreshes.clear();
		this.refreshes.set(key, this.now());
		return await this.load(key, fetch);
	}

	invalidate(key: string): void {
		this.entries.delete(key);
		this.failures.delete(key);
	}

	clear(): void {
		this.entries.clear();
		this.pending.clear();
		this.refreshes.clear();
		this.failures.clear();
	}

	private async load(key: string, fetch: SecretFetcher): Promise<string[]> {
		const inFlight = this.pending.get(key);
		if (inFlight) return await inFlight;
		const promise = fetch()
			.then(
				(secrets) => {
					if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
						const oldest = this.entries.keys().next();
						if (!oldest.done) this.entries.delete(oldest.value);
					}
					this.entries.delete(key);
					this.entries.set(key, { secrets, fetchedAt: this.now() });
					this.failures.delete(key);
					return secrets;
				},
				(error: unknown) => {
					if (this.failures.size >= this.maxEntries) this.failures.clear();
					this.failures.set(key, { error, at: this.now() });
					throw error;
				},
			)
			.finally(() => this.pending.delete(key));
		this.pending.set(key, promise);
		return await promise;
	}
}

/** The fetched secrets of every destination this process verifies for. */
export const destinationSecrets = new SecretCache();

async function fetchSigningSecret(
	context: IWebhookFunctions,
	project: string,
	destination: string,
): Promise<string[]> {
	const body = await apiRequest<IDataObject>(
		context,
		'GET',
		`/projects/${encodePathSegment(project)}/destinations/${encodePathSegment(destination)}`,
		// Deliveries wait on this fetch (and share it), so it must end well within the sender's
		// own 15 s timeout: a hung request would otherwise time out every delivery meanwhile.
		{ qs: { includeSecrets: true }, timeout: SECRET_FETCH_TIMEOUT_MS },
	);
	const secrets = (body?.secrets ?? {}) as IDataObject;
	const key = secrets.webhookSigningKey;
	if (typeof key !== 'string' || key === '') {
		throw new NodeOperationError(
			context.getNode(),
			`The destination "${destination}" has no webhook signing key (is it a webhook destination?)`,
		);
	}
	return [key];
}

function keysOf(secrets: string[]): Buffer[] {
	return secrets.map(decodeSecret).filter((k): k is Buffer => k !== undefined);
}

/**
 * Reads of the signing-secret credential in progress, by node and credential. Only while a read
 * runs: the entry goes when it settles.
 */
const credentialReads = new Map<string, Promise<Buffer[]>>();

/**
 * The HMAC keys in the signing-secret credential, read for this delivery. A delivery that arrives
 * while a read for the same node and credential is in progress waits for that read instead of
 * starting its own: in n8n 2.41 each read costs a database query, a decryption and, with n8n's
 * default expression engine, a fresh isolate (docs/n8n-notes.md, "Webhook triggers"). The keys
 * stay referenced only by the deliveries that awaited the read, as long as each of them runs, as
 * n8n keeps a credential for the duration of a call: nothing keeps them after that, so the next
 * delivery reads the credential anew and an edit takes effect at once.
 */
async function sharedCredentialRead(context: IWebhookFunctions, key: string): Promise<Buffer[]> {
	const inFlight = credentialReads.get(key);
	if (inFlight) return await inFlight;
	const read = (async () => {
		// Only the one field: the rest of the credential is not needed here.
		const { signingSecret } = await context.getCredentials(SIGNING_SECRET_CREDENTIAL);
		const keys = keysOf(splitSecrets(String(signingSecret ?? '')));
		if (keys.length === 0) {
			context.logger.warn(
				'Integration Platform Trigger: the signing-secret credential holds no usable secret (whsec_… or base64); every delivery is refused',
			);
		}
		return keys;
	})().finally(() => credentialReads.delete(key));
	credentialReads.set(key, read);
	return await read;
}

export interface SigningKeys {
	/** Whose messages these are: the replay memory keeps ids apart per scope. */
	scope: string;
	keys: Buffer[];
	/** One fresh look after a mismatch (fetched secrets only); undefined when there is none. */
	refresh?: () => Promise<Buffer[] | undefined>;
}

/** The destination's secret could not be fetched: the delivery gets 503 (the sender retries). */
export interface SecretUnavailable {
	unavailable: string;
}

/**
 * The HMAC keys to verify this delivery with, or why the destination's secret could not be
 * fetched. An unusable typed secret gives no keys (and a warning).
 */
export async function signingKeys(
	context: IWebhookFunctions,
): Promise<SigningKeys | SecretUnavailable> {
	const auth = authentication(context);
	if (secretFromCredential(context, auth)) {
		const node = context.getNode();
		const scope = `credential:${context.getWorkflow().id ?? ''}:${node.id}`;
		const credentialId = node.credentials?.[SIGNING_SECRET_CREDENTIAL]?.id ?? '';
		return { scope, keys: await sharedCredentialRead(context, `${scope}:${credentialId}`) };
	}
	const project = projectOf(context);
	const destination = destinationNameFor(context, isTest(context));
	const type = apiCredentialType(auth);
	const credentialId = context.getNode().credentials?.[type]?.id ?? '';
	const scope = JSON.stringify([type, credentialId, project, destination]);
	const fetch = async () => await fetchSigningSecret(context, project, destination);
	let keys: Buffer[];
	try {
		keys = keysOf(await destinationSecrets.get(scope, fetch));
	} catch (error) {
		return {
			unavailable: `could not fetch the signing secret of destination "${destination}": ${(error as Error).message}`,
		};
	}
	const refresh = async () => {
		try {
			const fresh = await destinationSecrets.refresh(scope, fetch);
			return fresh ? keysOf(fresh) : undefined;
		} catch (error) {
			context.logger.warn(
				`Integration Platform Trigger: could not refresh the signing secret of destination "${destination}": ${(error as Error).message}`,
			);
			return undefined;
		}
	};
	return { scope, keys, refresh };
}

/**
 * The signing-secret credential's test: whether what was typed is a signing secret at all. No
 * request: there is nothing on the service to check a secret against.
 */
export async function testSigningSecret(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const secrets = splitSecrets(String(credential.data?.signingSecret ?? ''));
	const unusable = secrets.filter((secret) => decodeSecret(secret) === undefined);
	if (secrets.length === 0 || unusable.length > 0) {
		return {
			status: 'Error',
			message:
				secrets.length === 0
					? 'No signing secret entered'
					: `${unusable.length} of ${secrets.length} entries are not a signing secret: expected whsec_ followed by base64, or base64 alone`,
		};
	}
	return {
		status: 'OK',
		message: `${secrets.length === 1 ? 'The secret is' : `All ${secrets.length} secrets are`} well-formed; only a delivery can show that it is the destination's`,
	};
}
