/**
 * What Record → Write has already sent in this execution, so that a retry of the node does not
 * send it again (docs/architecture.md, "Record → Write: each record at most once").
 *
 * n8n's Retry On Fail runs the node's whole execute again, in the same process, with the same
 * input items and the same run index, a few seconds later; it also does so when Continue On Fail
 * is on and the first output item is an error. The write API has no idempotency key
 * (docs/api-notes.md, "Write"), so the node remembers, per node run (execution ID, node, run
 * index), which of its items were written, accepted or may have been written. Memory is bounded
 * by runs, records and age; a run pushed out is remembered by its key alone, and a retry of it
 * sends nothing rather than risk writing twice. Pure: no n8n imports.
 */

/** An item's outcome that a retry must not change by sending the record again. */
export type RememberedOutcome =
	| { kind: 'written' | 'accepted'; json: Record<string, unknown> }
	| {
			kind: 'unknown';
			message: string;
			description: string;
			operationId?: string;
			httpCode?: string;
	  };

export interface RememberedItem {
	/** The input item's position. */
	item: number;
	/** fingerprintOf() the input item, so that another item at that position is never taken for it. */
	fingerprint: string;
	outcome: RememberedOutcome;
}

export interface MemoryLimits {
	/** Node runs remembered at once. */
	runs: number;
	/** Items remembered over all runs. */
	items: number;
	/** How long a run is remembered after its last try (n8n waits at most 5 s between tries). */
	ttlMs: number;
	/** Runs pushed out or expired, remembered by key only. */
	forgottenRuns: number;
	/** How long a forgotten run's key is kept. */
	forgottenTtlMs: number;
}

export const DEFAULT_LIMITS: MemoryLimits = {
	runs: 500,
	items: 100_000,
	ttlMs: 60 * 60 * 1000,
	forgottenRuns: 20_000,
	forgottenTtlMs: 24 * 60 * 60 * 1000,
};

interface Run {
	at: number;
	items: RememberedItem[];
}

export class WriteMemory {
	/** Insertion order is the order of last use: the first entry is the oldest. */
	private readonly runs = new Map<string, Run>();
	private readonly forgotten = new Map<string, number>();
	private itemCount = 0;

	constructor(private readonly limits: MemoryLimits = DEFAULT_LIMITS) {}

	/**
	 * What an earlier try of this run remembered: `undefined` when nothing (a first try, or earlier
	 * tries sent nothing that must not be sent again), `'forgotten'` when it was pushed out.
	 */
	recall(runKey: string, now: number): RememberedItem[] | 'forgotten' | undefined {
		this.expire(now);
		if (this.forgotten.has(runKey)) return 'forgotten';
		return this.runs.get(runKey)?.items;
	}

	/** Replaces what is remembered of the run (what every try so far left to remember). */
	remember(runKey: string, items: RememberedItem[], now: number): void {
		this.drop(runKey);
		this.forgotten.delete(runKey);
		if (items.length === 0) return;
		if (items.length > this.limits.items) {
			// Too many to keep: a retry is told, rather than other runs losing their memory.
			this.pushOut(runKey, now);
			return;
		}
		this.runs.set(runKey, { at: now, items: [...items] });
		this.itemCount += items.length;
		while (this.runs.size > this.limits.runs || this.itemCount > this.limits.items) {
			const oldest = this.runs.keys().next().value as string;
			this.pushOut(oldest, now);
		}
		this.expire(now);
	}

	/** The run ended without an item a retry could resend: nothing to remember. */
	forget(runKey: string): void {
		this.drop(runKey);
		this.forgotten.delete(runKey);
	}

	/** Sizes, for tests. */
	get size(): { runs: number; items: number; forgottenRuns: number } {
		return { runs: this.runs.size, items: this.itemCount, forgottenRuns: this.forgotten.size };
	}

	private drop(runKey: string): void {
		const run = this.runs.get(runKey);
		if (!run) return;
		this.itemCount -= run.items.length;
		this.runs.delete(runKey);
	}

	private pushOut(runKey: string, now: number): void {
		this.drop(runKey);
		this.forgotten.delete(runKey);
		this.forgotten.set(runKey, now);
		while (this.forgotten.size > this.limits.forgottenRuns) {
			this.forgotten.delete(this.forgotten.keys().next().value as string);
		}
	}

	private expire(now: number): void {
		for (const [key, run] of this.runs) {
			if (now - run.at <= this.limits.ttlMs) break;
			this.pushOut(key, now);
		}
		for (const [key, at] of this.forgotten) {
			if (now - at <= this.limits.forgottenTtlMs) break;
			this.forgotten.delete(key);
		}
	}
}

/**
 * A short fingerprint of an input item's JSON (two 32-bit FNV-1a hashes of its text). It tells
 * items apart where the position alone cannot (an AI tool's call sees each item as item 0).
 */
export function fingerprintOf(json: unknown): string {
	let text: string;
	try {
		text = JSON.stringify(json) ?? '';
	} catch {
		text = '';
	}
	let a = 0x811c9dc5;
	let b = 0x01000193 ^ text.length;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		a = Math.imul(a ^ code, 0x01000193);
		b = Math.imul(b ^ code, 0x5bd1e995);
	}
	return `${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}:${text.length}`;
}
