/**
 * Memory of accepted message ids, per process: what tells a replayed request from a new message.
 * Pure: no n8n imports (test/unit/IntegrationPlatformTrigger/replay.test.ts).
 *
 * - The same id with the same timestamp is a replay of a captured request: refused.
 * - The same id with a different timestamp is the service delivering again after our answer got
 *   lost (Svix signs every attempt afresh, with the attempt's time): acknowledged, started once,
 *   but only once n8n's own answer to the attempt that started the workflow was a 2xx. n8n
 *   answers after it has stored (and in queue mode enqueued) the execution, so that answer is
 *   the proof the execution exists; a 5xx from n8n means it does not, and the copy starts it.
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
 * first attempt is still being processed or n8n has not answered it yet; it may yet fail, so the
 * copy must not be acknowledged.
 */
export type ReplayVerdict = 'new' | 'replay' | 'redelivery' | 'inProgress' | 'full';

/**
 * What n8n answered the attempt that started the workflow: 'pending' until it has answered,
 * 'acknowledged' for a 2xx (the execution exists), 'refused' otherwise (it does not).
 */
export type StartAnswer = 'pending' | 'acknowledged' | 'refused';

export const REPLAY_CAPACITY = 320_000;

interface Claim {
	timestampSeconds: number;
	expiresAt: number;
	/** Set once the message was acknowledged (the workflow started, or it was deliberately skipped). */
	settled?: boolean;
	/** Reads n8n's answer to the attempt that started the workflow, until it is known. */
	startAnswer?: () => StartAnswer;
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
		// n8n refused the attempt that started the workflow: the claim goes, this copy is new.
		if (seen?.startAnswer) this.resolveStart(key, seen);
		if (seen && seen.expiresAt > nowSeconds && this.claims.has(key)) {
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

	/**
	 * The claimed message started the workflow: it counts as acknowledged once `answer` reports
	 * n8n's 2xx, and is forgotten if n8n answered anything else. Call `answered` when n8n's answer
	 * may be known; until then, copies are 'inProgress'.
	 */
	awaitAnswer(scope: string, id: string, answer: () => StartAnswer): void {
		const claim = this.claims.get(`${scope}\u0000${id}`);
		if (claim) claim.startAnswer = answer;
	}

	/** Settles or forgets the claim if n8n's answer is known now (and lets go of the reader). */
	answered(scope: string, id: string): void {
		const key = `${scope}\u0000${id}`;
		const claim = this.claims.get(key);
		if (claim?.startAnswer) this.resolveStart(key, claim);
	}

	release(scope: string, id: string): void {
		this.claims.delete(`${scope}\u0000${id}`);
	}

	private resolveStart(key: string, claim: Claim): void {
		const answer = claim.startAnswer?.() ?? 'pending';
		if (answer === 'pending') return;
		claim.startAnswer = undefined;
		if (answer === 'acknowledged') claim.settled = true;
		else this.claims.delete(key);
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
