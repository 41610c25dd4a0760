/**
 * What Record → Write has already sent in this execution, so that a retry of the node does not
 * send it again (docs/architecture.md, "Record → Write: each record at most once").
 *
 * n8n's Retry On Fail runs the node's whole execute again, in the same process, with the same
 * input items and the same run index, a few seconds later; it also does so when Continue On Fail
 * is on and the first output item is an error. The write API has no idempotency key
 * (docs/api-notes.md, "Write"), so the node remembers, per node run (execution ID, node, run
 * index; for a tool call, the call), which of its items were written, accepted or may have been
 * written. Memory is bounded by runs, records, bytes and age; a run pushed out is remembered by
 * its key alone, and a retry of it sends nothing rather than risk writing twice. Keys are only
 * ever Map keys, so no record ID or field name can reach an object's prototype. Pure: no n8n
 * imports.
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
	/** Bytes remembered over all runs, as estimated by sizeOf() (outcomes may carry the record). */
	bytes: number;
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
	bytes: 32 * 1024 * 1024,
	ttlMs: 60 * 60 * 1000,
	forgottenRuns: 20_000,
	forgottenTtlMs: 24 * 60 * 60 * 1000,
};

interface Run {
	at: number;
	items: RememberedItem[];
	bytes: number;
}

/** Per item beyond its text: the entry, its outcome object and the Map slot. */
const ITEM_OVERHEAD_BYTES = 200;

/**
 * What an item costs in memory, estimated from its JSON text (two bytes per character, as
 * JavaScript strings hold them, plus a fixed overhead): an outcome holds the provider's answer
 * for the record, which may be as large as the record.
 */
export function sizeOf(item: RememberedItem): number {
	let text: string;
	try {
		text = JSON.stringify(item.outcome) ?? '';
	} catch {
		text = '';
	}
	return ITEM_OVERHEAD_BYTES + 2 * (text.length + item.fingerprint.length);
}

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

export class WriteMemory {
	/** Insertion order is the order of last use: the first entry is the oldest. */
	private readonly runs = new Map<string, Run>();
	private readonly forgotten = new Map<string, number>();
	private itemCount = 0;
	private byteCount = 0;

	/** Replaced only by tests, to reach a bound without writing megabytes. */
	constructor(public limits: MemoryLimits = DEFAULT_LIMITS) {}

	/** The bounds, for messages: "100,000 records and 32 MB per process, for 60 minutes". */
	describeLimits(): string {
		const { items, bytes, ttlMs } = this.limits;
		return `${items.toLocaleString('en-US')} records and ${megabytes(bytes)} per n8n process, for ${Math.round(ttlMs / 60_000)} minutes after a try`;
	}

	/**
	 * What an earlier try of this run remembered: `undefined` when nothing (a first try, or earlier
	 * tries sent nothing that must not be sent again), `'forgotten'` when it was pushed out.
	 */
	recall(runKey: string, now: number): RememberedItem[] | 'forgotten' | undefined {
		this.expire(now);
		if (this.forgotten.has(runKey)) return 'forgotten';
		return this.runs.get(runKey)?.items;
	}

	/**
	 * Replaces what is remembered of the run (what every try so far left to remember). Returns
	 * false when the run alone is beyond the bounds: it is then remembered by its key only, so
	 * that a retry sends nothing and says why.
	 */
	remember(runKey: string, items: RememberedItem[], now: number): boolean {
		this.drop(runKey);
		this.forgotten.delete(runKey);
		if (items.length === 0) return true;
		let bytes = 0;
		for (const item of items) {
			bytes += sizeOf(item);
			if (bytes > this.limits.bytes) break;
		}
		if (items.length > this.limits.items || bytes > this.limits.bytes) {
			// Too much to keep: a retry is told, rather than other runs losing their memory.
			this.pushOut(runKey, now);
			return false;
		}
		this.runs.set(runKey, { at: now, items: [...items], bytes });
		this.itemCount += items.length;
		this.byteCount += bytes;
		while (
			this.runs.size > this.limits.runs ||
			this.itemCount > this.limits.items ||
			this.byteCount > this.limits.bytes
		) {
			const oldest = this.runs.keys().next().value as string;
			this.pushOut(oldest, now);
		}
		this.expire(now);
		return true;
	}

	/** The run ended without an item a retry could resend: nothing to remember. */
	forget(runKey: string): void {
		this.drop(runKey);
		this.forgotten.delete(runKey);
	}

	/** Sizes, for tests. */
	get size(): { runs: number; items: number; bytes: number; forgottenRuns: number } {
		return {
			runs: this.runs.size,
			items: this.itemCount,
			bytes: this.byteCount,
			forgottenRuns: this.forgotten.size,
		};
	}

	private drop(runKey: string): void {
		const run = this.runs.get(runKey);
		if (!run) return;
		this.itemCount -= run.items.length;
		this.byteCount -= run.bytes;
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
