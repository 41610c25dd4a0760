/**
 * The per-process memory of destination signing secrets. Pure: no n8n imports
 * (test/unit/eventTrigger/secrets.test.ts).
 *
 * Why a cache: fetching the destination (GET …/destinations/{name}?includeSecrets=true,
 * api-facts §1 op 7) on every delivery would cost an API round trip per message, at up to 1000
 * messages per second (api-facts §4.1). Why not static data: n8n stores a workflow's static data
 * unencrypted with the workflow and returns it from the public API and in exports, so a secret
 * kept there would leak. Memory only, then; a new process fetches once.
 *
 * Rotation: entries live `ttlMs` (10 minutes); a delivery whose signature does not match asks
 * for one early refresh, at most once per `minRefreshMs` per destination, so forged requests
 * cannot turn into a flood of API calls.
 */

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
