/**
 * Memory of accepted message ids, per process: what tells a replayed request from a new message.
 * Pure: no n8n imports (test/unit/IntegrationPlatformTrigger/replay.test.ts).
 *
 * - The same id with the same timestamp is a replay of a captured request: refused.
 * - The same id with a different timestamp is the service delivering again after our answer got
 *   lost (Svix signs every attempt afresh, with the attempt's time): acknowledged, started once.
 *
 * A claim is kept until its timestamp leaves the tolerance window; after that the timestamp check
 * refuses the message anyway. The memory never forgets a claim that is still inside the window:
 * once it holds `capacity` live claims, new messages are refused ('full', answered 503, so that
 * Svix delivers them again later, when older claims have expired). Forgetting the oldest claim
 * instead would let a replay of that message start the workflow again.
 *
 * Capacity: 320,000 claims. A claim lives tolerance + 1 seconds (longer by as much as the
 * sender's clock is ahead of n8n's), so this holds every message at the service's documented
 * maximum, 1000 messages per second (docs/api-notes.md, "Webhook signatures (Svix)"), for the
 * default 300 s tolerance, with clocks up to 19 s apart. In general it holds about
 * 320,000 ÷ (tolerance + 1) messages per second: 10,000/s at 30 s, 88/s at 3600 s. Each claim
 * takes about 300 bytes, so a full memory takes about 100 MB.
 *
 * Per process: in queue mode with several webhook processes, or after a restart, a replay that
 * reaches another process within the window is not recognised (documented in the README).
 */

/**
 * 'redelivery': a fresh signature for an id already acknowledged. 'inProgress': the same, while the
 * first attempt is still being processed; it may yet fail, so the copy must not be acknowledged.
 */
export type ReplayVerdict = 'new' | 'replay' | 'redelivery' | 'inProgress' | 'full';

export const REPLAY_CAPACITY = 320_000;

interface Claim {
	timestampSeconds: number;
	expiresAt: number;
	/** Set once the message was acknowledged (the workflow started, or it was deliberately skipped). */
	settled?: boolean;
}

export class ReplayGuard {
	private readonly claims = new Map<string, Claim>();

	/** When the memory was last swept completely (seconds): a full one is swept once a second. */
	private lastFullSweep = Number.NEGATIVE_INFINITY;

	constructor(private capacity = REPLAY_CAPACITY) {}

	get size(): number {
		return this.claims.size;
	}

	/**
	 * Looks the id up and, when it is new, claims it at once (no await in between, so two
	 * simultaneous copies cannot both pass). Call `release` if the message is then not accepted.
	 */
	claim(
		scope: string,
		id: string,
		timestampSeconds: number,
		nowSeconds: number,
		toleranceSeconds: number,
	): ReplayVerdict {
		this.sweepFront(nowSeconds);
		const key = `${scope}\u0000${id}`;
		const seen = this.claims.get(key);
		if (seen && seen.expiresAt > nowSeconds) {
			if (seen.timestampSeconds === timestampSeconds) return 'replay';
			return seen.settled ? 'redelivery' : 'inProgress';
		}
		if (this.claims.size >= this.capacity && !this.sweepAll(nowSeconds)) return 'full';
		this.claims.delete(key);
		this.claims.set(key, {
			timestampSeconds,
			// From then on the timestamp check refuses the message (now - timestamp > tolerance).
			expiresAt: timestampSeconds + toleranceSeconds + 1,
		});
		return 'new';
	}

	/** The claimed message was acknowledged: later copies are redeliveries. */
	settle(scope: string, id: string): void {
		const claim = this.claims.get(`${scope}\u0000${id}`);
		if (claim) claim.settled = true;
	}

	release(scope: string, id: string): void {
		this.claims.delete(`${scope}\u0000${id}`);
	}

	/** Forgets everything; `capacity` changes the limit (tests). */
	clear(capacity?: number): void {
		this.claims.clear();
		this.lastFullSweep = Number.NEGATIVE_INFINITY;
		if (capacity !== undefined) this.capacity = capacity;
	}

	/** Drops expired claims from the front (insertion order is close to expiry order). */
	private sweepFront(nowSeconds: number): void {
		for (const [key, claim] of this.claims) {
			if (claim.expiresAt > nowSeconds) break;
			this.claims.delete(key);
		}
	}

	/**
	 * Drops every expired claim, wherever it is (a claim for a future timestamp expires later
	 * than those behind it), at most once a second. Whether there is room now.
	 */
	private sweepAll(nowSeconds: number): boolean {
		if (nowSeconds > this.lastFullSweep) {
			this.lastFullSweep = nowSeconds;
			for (const [key, claim] of this.claims) {
				if (claim.expiresAt <= nowSeconds) this.claims.delete(key);
			}
		}
		return this.claims.size < this.capacity;
	}
}

/** The per-process memory all triggers share. */
export const replayMemory = new ReplayGuard();
