/**
 * The exactly-once cursor of the log trigger. Pure: no n8n imports, unit-tested on its own
 * (test/unit/IntegrationPlatformLogTrigger/logCursor.test.ts).
 *
 * What the API gives (docs/api-notes.md, "Operation logs"): GET …/operations/{id}/logs returns the
 * whole retained log of one operation as a bare array, in no documented order, without
 * pagination, without an entry id; timestamps carry microseconds; old entries vanish by
 * retention; several entries may share a timestamp. So every poll re-reads everything and decides
 * itself what is new. No order is documented, not even among entries that share a timestamp, so
 * nothing here depends on where an entry sits in the answer.
 *
 * Guarantee, per operation ("the newest" = the newest timestamp seen for that operation):
 * - No dated entry is emitted twice (entries are compared by identity, see Design; a timestamp
 *   shown with fewer digits must be cut, not rounded). Undated entries: see Design.
 * - An entry that shows up late (its timestamp below entries already seen) is emitted once if,
 *   when it first shows up in a poll that succeeds, it is at most LOOK_BACK_MS (one hour) and
 *   at most MAX_WINDOW_ENTRIES (500) entries behind the newest, and either
 *   - it falls in the exact list, the newest whole seconds that together hold at most 8 seen
 *     entries with 20 operations (48 with 3, 144 with one): always; or
 *   - the entries that showed up late or vanished below that list since the cursor was last
 *     stored are few enough for the sketch to list: one always, about a quarter of its cells
 *     reliably (3 with 20 operations, 15 with 3, 48 with one). When they are not, those late
 *     entries are skipped and the floor rises to the list.
 *   Anything further behind is skipped. An entry stamped more than an hour ahead of the others (a
 *   skewed clock) lifts the newest, so entries stamped normally afterwards count as too late until
 *   real time catches up.
 * - Start from now: an operation's first poll records the entries present and emits none. When
 *   that poll saw no dated entry (an empty answer) or failed (recordStart, called by the node),
 *   the poll's time is the start instead: entries stamped before it are never emitted, later
 *   ones are (an API clock running behind n8n's by d skips entries stamped within d).
 * - Copies, entries equal in operation, second, severity and message, count by their sub-second
 *   digits: each is emitted once, but one that shows up late may come out carrying another
 *   copy's digits, and a copy that shows up late within the second of the floor is skipped.
 * - The state is bounded whatever the history, equal timestamps included: under 4.6 KB for one
 *   operation, 5.3 KB for 10, 7.5 KB for 20 (operation IDs as UUIDs), plus at most 16 keys of
 *   undated entries per operation. A poll hashes at most about MAX_WINDOW_ENTRIES entries per
 *   operation plus the new ones, never the whole history.
 *
 * Design
 * - Identity: sha256 over operation id, the timestamp cut to the whole second (UTC), severity and
 *   the canonical JSON of the message (keys sorted); copies get their number among themselves (by
 *   timestamp) mixed in. The whole second, so that a timestamp re-rendered with more or fewer
 *   digits (…:05.123456Z, …:05.123Z, …:05Z) keeps its identity. entryKey is the first 96 bits;
 *   the state keeps 48 bits with the second.
 * - Intervals: a text stands for an interval (…:05.123Z is some instant in [.123, .124); renderings
 *   truncate, as Go's time formatting and the simulator's coarsenTimestamp do). `m`, the mark, is
 *   the largest upper end seen, so an entry whose text lies above it cannot have been seen: new,
 *   without a lookup. The window is what lies at or below the mark and reaches the floor; it is
 *   reconciled with what was seen there.
 * - The window's seen entries are kept in two parts. The newest whole seconds that fit the
 *   operation's share go to an exact list (8 bytes each). The rest go to a sketch of fixed size,
 *   an invertible Bloom lookup table (11 bytes a cell): subtracting the sketch of the current
 *   answer from the stored one leaves only the differences, which peel off however many entries
 *   both share. So a burst of 5,000 entries with one timestamp costs the state nothing, and a few
 *   that show up late among them are listed. Vanished entries come out too and stay recorded
 *   while they reach the floor, so one that returns is not new.
 * - Why not rely on the answer's order among entries that share a timestamp (a count, or the
 *   position of the last one seen): the API documents no order at all (docs/api-notes.md,
 *   "Operation logs"), and the simulator shuffles answers as a real one may.
 * - Floor = max(previous floor, mark − LOOK_BACK_MS, the MAX_WINDOW_ENTRIES-th newest seen entry,
 *   and, when the sketch's difference cannot be listed, the list's lowest second (just above the
 *   mark when everything is in the sketch)). Entries wholly below it are never hashed.
 * - Each operation gets an equal share of STATE_BUDGET_BYTES, at least MIN_BYTES_PER_OPERATION
 *   (shareOf): about a third for the list, the rest for the sketch. Operations that are no longer
 *   configured are dropped from the state.
 * - Entries whose timestamp cannot be parsed (not RFC 3339, or not an object at all) are keyed by
 *   their raw content and emitted once, after the dated ones. Up to MAX_UNDATED_PER_OPERATION of
 *   their keys are kept, only while the API still returns them; if more arrive at once, the rest
 *   wait (they are emitted when room frees up) rather than being emitted twice. An undated entry
 *   that vanishes from one answer and comes back is emitted again (nothing else to go by).
 * - Order of emission: timestamp key, then entry key, across all operations; undated last.
 * - The caller computes the next state aside and stores it only when every fetch of the poll
 *   succeeded (a failed first poll only records its start, recordStart). Polling again from the
 *   last persisted state is harmless: n8n persists static data whenever a poll emits (see the
 *   node), so every emitted entry is recorded there, and entries that were only filtered out are
 *   filtered out again.
 */
import { createHash } from 'node:crypto';

import { timestampKey } from '../common/timestamps';

export const CURSOR_VERSION = 2;
/** How far below the newest entry late entries are still caught. */
export const LOOK_BACK_MS = 60 * 60 * 1000;
/** How many entries below the newest one late entries are still caught (also what a poll hashes). */
export const MAX_WINDOW_ENTRIES = 500;
/** Bytes of seen-entry data (exact list and sketch) over all operations, split equally. */
export const STATE_BUDGET_BYTES = 3300;
/** The least any operation gets, whatever the number of operations. */
export const MIN_BYTES_PER_OPERATION = 200;
export const MAX_UNDATED_PER_OPERATION = 16;

/** Item offsets are 16-bit seconds below the mark, so the look-back is capped. */
const MAX_LOOK_BACK_MS = 18 * 60 * 60 * 1000;
const NS_PER_S = 1_000_000_000n;
const LIST_ITEM_BYTES = 8;
const CELL_BYTES = 11;
const KEY_PATTERN = /^[A-Za-z0-9_-]{16}$/;
const TS_KEY_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;
const BASE36_PATTERN = /^[0-9a-z]+$/;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]*$/;
const V1_SEEN_PATTERN = /^[0-9a-z]+\.[A-Za-z0-9_-]{16}$/;

/** One log entry as the API returns it (all three fields required, but be lenient). */
export type RawLogEntry = Record<string, unknown>;

/**
 * One entry of a response. Its hash, ISO text and instants are computed on first use and kept:
 * a poll over a long history only needs them for the entries near the top, and hashing every
 * entry of a 100,000-entry log would cost the poll more than reading it.
 */
export class LogEntry {
	private digest?: Buffer;

	private copyDigest?: Buffer;

	private copyIndex = 0;

	private key?: string;

	private isoText?: string;

	private nanoseconds?: bigint;

	private upper?: bigint;

	private fraction?: number;

	private wholeSecond?: number;

	constructor(
		readonly operationId: string,
		/** The entry as returned (a non-object is wrapped as `{ message: value }`). */
		readonly raw: RawLogEntry,
		/** Sortable UTC key with nanosecond digits; undefined when the timestamp cannot be parsed. */
		readonly tsKey: string | undefined,
	) {}

	private get content(): Buffer {
		this.digest ??= hashEntry(
			this.operationId,
			this.tsKey,
			this.raw.timestamp,
			this.raw.severity,
			this.raw.message,
		);
		return this.digest;
	}

	/** The hash of the identity without the copy number: what copies have in common. */
	get contentKey(): string {
		return this.content.toString('base64url', 0, 12);
	}

	private get hash(): Buffer {
		if (this.copyIndex === 0) return this.content;
		if (!this.copyDigest) {
			// copy n: the content's digest with its first 12 bytes mixed with n (no second hash)
			const copy = Buffer.from(this.content.subarray(0, 12));
			for (let at = 0; at < 12; at += 4) {
				const mixed = copy.readUInt32BE(at) ^ mix(at, this.copyIndex, 0, COPY_SEED);
				copy.writeUInt32BE(mixed >>> 0, at);
			}
			this.copyDigest = copy;
		}
		return this.copyDigest;
	}

	/**
	 * Numbers this entry among its copies (same second, severity and message, other sub-second
	 * digits), by timestamp; the cursor step does this before anything reads the key.
	 */
	setCopy(index: number): void {
		if (index === this.copyIndex) return;
		this.copyIndex = index;
		this.copyDigest = undefined;
		this.key = undefined;
	}

	/** The stable key (see the design note at the top): 96 bits, base64url. */
	get entryKey(): string {
		this.key ??= this.hash.toString('base64url', 0, 12);
		return this.key;
	}

	/** The 48-bit item key the state stores: the first 6 bytes of the same hash. */
	get itemKey(): [number, number] {
		return [this.hash.readUInt16BE(0), this.hash.readUInt32BE(2)];
	}

	/** ISO text in UTC with the fraction digits of the original (no rounding, no padding). */
	get iso(): string | undefined {
		if (this.tsKey === undefined) return undefined;
		this.isoText ??= isoWithOriginalPrecision(this.raw.timestamp, this.tsKey);
		return this.isoText;
	}

	/** Nanoseconds since the epoch, as written (the lower end of what the text can mean). */
	get ns(): bigint | undefined {
		if (this.tsKey === undefined) return undefined;
		this.nanoseconds ??= keyToNs(this.tsKey);
		return this.nanoseconds;
	}

	/**
	 * The upper end of what the text can mean: `…:05.123Z` is some instant in [.123, .124), so a
	 * finer rendering of the same entry lies at or below this (renderings truncate, as Go's time
	 * formatting and the simulator's coarsenTimestamp do).
	 */
	get hiNs(): bigint | undefined {
		if (this.tsKey === undefined) return undefined;
		this.upper ??= this.ns! + UNIT_NS[this.digits] - 1n;
		return this.upper;
	}

	/** How many fraction digits the text carries (0 to 9). */
	get digits(): number {
		this.fraction ??= fractionDigits(this.raw.timestamp);
		return this.fraction;
	}

	/** Whole seconds since the epoch (part of the identity). */
	get second(): number | undefined {
		if (this.tsKey === undefined) return undefined;
		this.wholeSecond ??= Math.floor(Date.parse(`${this.tsKey.slice(0, 19)}Z`) / 1000);
		return this.wholeSecond;
	}
}

/**
 * An operation's stored cursor: everything but `u` is absent until a dated entry was seen (or
 * the activation time was recorded as the start, see recordStart).
 */
export interface OperationCursor {
	/** The mark: every entry seen lies at or before this instant (timestamp key, ns digits). */
	m?: string;
	/** The floor, as base36 nanoseconds below the mark: entries wholly below it are ignored. */
	f?: string;
	/** The exact list: 8 bytes per seen entry (seconds below the mark, item key), base64url. */
	s?: string;
	/** The sketch of the older seen entries: 11 bytes per cell, base64url. */
	t?: string;
	/** Keys of undated entries already emitted (or recorded by the first poll). */
	u?: string[];
}

export interface CursorState {
	v: number;
	ops: Record<string, OperationCursor>;
}

export interface AdvanceOptions {
	/** On an operation's first poll, emit what already exists (default: start from now). */
	emitExisting?: boolean;
	/** This poll's time (ms since the epoch): the start when a first poll sees no dated entry. */
	now?: number;
	lookBackMs?: number;
	maxWindowEntries?: number;
	stateBudgetBytes?: number;
}

export interface OperationLogs {
	operationId: string;
	entries: LogEntry[];
}

export interface AdvanceResult {
	/** New entries of every operation, in emission order. */
	fresh: LogEntry[];
	next: CursorState;
	/** Operations seen for the first time in this poll (recorded, nothing emitted unless emitExisting). */
	seeded: string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with object keys sorted at every depth, so equal messages give equal text. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) {
		return `[${value.map((v) => (v === undefined || typeof v === 'function' ? 'null' : canonicalJson(v))).join(',')}]`;
	}
	if (isObject(value)) {
		const parts = Object.keys(value)
			.sort()
			.filter((k) => value[k] !== undefined && typeof value[k] !== 'function')
			.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`);
		return `{${parts.join(',')}}`;
	}
	if (value === undefined) return 'null';
	return JSON.stringify(value) ?? 'null';
}

/** Nanoseconds since the epoch of a key from timestampKey(). */
export function keyToNs(tsKey: string): bigint {
	const seconds = Date.parse(`${tsKey.slice(0, 19)}Z`);
	return BigInt(seconds) * 1_000_000n + BigInt(tsKey.slice(20, 29));
}

/** The key of a nanosecond instant (inverse of keyToNs). */
export function nsToKey(ns: bigint): string {
	let seconds = ns / NS_PER_S;
	let nanos = ns % NS_PER_S;
	if (nanos < 0n) {
		seconds -= 1n;
		nanos += NS_PER_S;
	}
	return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${nanos.toString().padStart(9, '0')}Z`;
}

function toBase36(value: bigint): string {
	return value.toString(36);
}

function fromBase36(text: string): bigint {
	let out = 0n;
	for (const char of text) out = out * 36n + BigInt(parseInt(char, 36));
	return out;
}

function secondOf(ns: bigint): number {
	const s = ns / NS_PER_S;
	return Number(ns < 0n && s * NS_PER_S !== ns ? s - 1n : s);
}

/** Full-precision ISO text: UTC, with as many fraction digits as the original had (max 9). */
export function isoWithOriginalPrecision(raw: unknown, tsKey: string): string {
	const digits = typeof raw === 'string' ? (/:\d{2}[.,](\d+)/.exec(raw)?.[1].length ?? 0) : 0;
	const fraction = Math.min(digits, 9);
	return `${tsKey.slice(0, 19)}${fraction ? `.${tsKey.slice(20, 20 + fraction)}` : ''}Z`;
}

/** The unit of a text's last digit by its number of fraction digits: 1 s for none, 1 µs for 6. */
const UNIT_NS = Array.from({ length: 10 }, (_, digits) => 10n ** BigInt(9 - digits));

/** Fraction digits of a timestamp text (0 to 9), cheaply for the API's own form. */
function fractionDigits(raw: unknown): number {
	if (typeof raw !== 'string') return 0;
	let start = 20;
	if (raw[19] !== '.' || raw[10] !== 'T') {
		const match = /:\d{2}:\d{2}[.,](\d)/.exec(raw);
		if (!match) return 0;
		start = match.index + 7;
	}
	let end = start;
	while (end < raw.length && raw.charCodeAt(end) >= 48 && raw.charCodeAt(end) <= 57) end++;
	return Math.min(9, end - start);
}

/**
 * Whether an entry's text may stand for an instant at or after `floor` (its upper end reaches
 * it), by text comparison only: one threshold key per number of fraction digits.
 */
function reachesFloor(floor: bigint): (entry: LogEntry) => boolean {
	const thresholds = UNIT_NS.map((unit) => nsToKey(floor - unit + 1n));
	const lowest = thresholds[0];
	return (entry) => entry.tsKey! >= lowest && entry.tsKey! >= thresholds[entry.digits];
}

/**
 * The identity of an entry: operation, timestamp cut to the whole second (UTC), severity and the
 * canonical message. The second, not the full timestamp, so that the same entry rendered with
 * microseconds, milliseconds or whole seconds is one entry; undated entries use their raw text.
 */
function hashEntry(
	operationId: string,
	tsKey: string | undefined,
	timestamp: unknown,
	severity: unknown,
	message: unknown,
): Buffer {
	const ts = tsKey === undefined ? `raw:${canonicalJson(timestamp)}` : `${tsKey.slice(0, 19)}Z`;
	const sev = typeof severity === 'string' ? severity : canonicalJson(severity);
	return createHash('sha256')
		.update(`${operationId}\u0000${ts}\u0000${sev}\u0000${canonicalJson(message)}`)
		.digest();
}

/** The stable key of one entry (see the design note at the top). */
export function entryKeyOf(
	operationId: string,
	timestamp: unknown,
	severity: unknown,
	message: unknown,
): string {
	return hashEntry(operationId, timestampKey(timestamp), timestamp, severity, message).toString(
		'base64url',
		0,
		12,
	);
}

/**
 * Parses an operation's response: one LogEntry per element, timestamps parsed, nothing hashed
 * yet. Identical entries collapse when the cursor step keys them (advanceOperation).
 */
export function normalizeEntries(operationId: string, response: readonly unknown[]): LogEntry[] {
	return response.map((item) => {
		const raw: RawLogEntry = isObject(item) ? item : { message: item };
		return new LogEntry(operationId, raw, timestampKey(raw.timestamp));
	});
}

/** Emission order: timestamp, then entry key; undated entries last (by key). */
export function compareEntries(a: LogEntry, b: LogEntry): number {
	if (a.tsKey !== undefined && b.tsKey !== undefined && a.tsKey !== b.tsKey) {
		return a.tsKey < b.tsKey ? -1 : 1;
	}
	if (a.tsKey !== undefined && b.tsKey === undefined) return -1;
	if (a.tsKey === undefined && b.tsKey !== undefined) return 1;
	return a.entryKey < b.entryKey ? -1 : a.entryKey > b.entryKey ? 1 : 0;
}

/** The `count` newest distinct entries, oldest first (for "Fetch Test Event"). */
export function latestEntries(entries: readonly LogEntry[], count: number): LogEntry[] {
	const dated = entries.filter((e) => e.tsKey !== undefined);
	const sorted = [...(dated.length ? dated : entries)].sort(compareEntries);
	const picked: LogEntry[] = [];
	const keys = new Set<string>();
	for (let i = sorted.length - 1; i >= 0 && picked.length < count; i--) {
		const key = `${sorted[i].entryKey} ${sorted[i].tsKey}`; // copies differ in their digits
		if (keys.has(key)) continue;
		keys.add(key);
		picked.push(sorted[i]);
	}
	return picked.reverse();
}

/** An operation's share of the state: exact-list entries and sketch cells (a multiple of 3). */
export interface Share {
	listItems: number;
	cells: number;
}

/** Each operation's share of STATE_BUDGET_BYTES: about a third for the list, the rest for the sketch. */
export function shareOf(operations: number, budget = STATE_BUDGET_BYTES): Share {
	const bytes = Math.max(MIN_BYTES_PER_OPERATION, Math.floor(budget / Math.max(1, operations)));
	const listItems = Math.max(8, Math.floor((bytes * 0.35) / LIST_ITEM_BYTES));
	const parts = Math.floor((bytes - listItems * LIST_ITEM_BYTES) / CELL_BYTES / 3);
	return { listItems, cells: Math.max(12, parts * 3) };
}

// ---------------------------------------------------------------------------------------------
// Seen entries and the sketch
// ---------------------------------------------------------------------------------------------

/** A seen entry as the state keeps it: its whole second and 48 bits of its hash. */
interface Item {
	sec: number;
	k1: number;
	k2: number;
}

/** An item with the instants it may lie between (for the floor). */
interface Seen extends Item {
	lo: bigint;
	hi: bigint;
}

const idOf = (item: Item) => `${item.sec}/${item.k1}/${item.k2}`;

function seenOfEntry(entry: LogEntry): Seen {
	const [k1, k2] = entry.itemKey;
	return { sec: entry.second!, k1, k2, lo: entry.ns!, hi: entry.hiNs! };
}

/** A seen entry that is not in the current answer: all we know is its second. */
function seenOfItem(item: Item): Seen {
	const lo = BigInt(item.sec) * NS_PER_S;
	return { ...item, lo, hi: lo + NS_PER_S - 1n };
}

function mix(off: number, k1: number, k2: number, seed: number): number {
	let h = (seed ^ k2) >>> 0;
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
	h = (h ^ ((k1 << 16) | off)) >>> 0;
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	h = Math.imul(h ^ (h >>> 16), 0x27d4eb2d);
	return (h ^ (h >>> 15)) >>> 0;
}

const CELL_SEEDS = [0x9e3779b1, 0x7f4a7c15, 0x6a09e667];
const COPY_SEED = 0xbb67ae85;
const CHECK_SEED = 0x3c6ef372;

/**
 * An invertible Bloom lookup table over (seconds below the mark, item key): each item is XORed
 * into one cell of each of three parts, with a count and a 16-bit check. Subtracting the sketch
 * of the current answer from the stored one leaves only the differences, which peel off one by
 * one (a cell holding exactly one item gives it away), however many items both sides share.
 */
class Sketch {
	readonly part: number;

	readonly count: Uint8Array;

	readonly check: Uint16Array;

	readonly off: Uint16Array;

	readonly k1: Uint16Array;

	readonly k2: Uint32Array;

	constructor(readonly cells: number) {
		this.part = cells / 3;
		this.count = new Uint8Array(cells);
		this.check = new Uint16Array(cells);
		this.off = new Uint16Array(cells);
		this.k1 = new Uint16Array(cells);
		this.k2 = new Uint32Array(cells);
	}

	static decode(text: string): Sketch | undefined {
		const bytes = Buffer.from(text, 'base64url');
		if (bytes.length === 0 || bytes.length % (3 * CELL_BYTES) !== 0) return undefined;
		const sketch = new Sketch(bytes.length / CELL_BYTES);
		for (let c = 0; c < sketch.cells; c++) {
			const at = c * CELL_BYTES;
			sketch.count[c] = bytes[at];
			sketch.check[c] = bytes.readUInt16BE(at + 1);
			sketch.off[c] = bytes.readUInt16BE(at + 3);
			sketch.k1[c] = bytes.readUInt16BE(at + 5);
			sketch.k2[c] = bytes.readUInt32BE(at + 7);
		}
		return sketch;
	}

	encode(): string {
		const bytes = Buffer.alloc(this.cells * CELL_BYTES);
		for (let c = 0; c < this.cells; c++) {
			const at = c * CELL_BYTES;
			bytes[at] = this.count[c];
			bytes.writeUInt16BE(this.check[c], at + 1);
			bytes.writeUInt16BE(this.off[c], at + 3);
			bytes.writeUInt16BE(this.k1[c], at + 5);
			bytes.writeUInt32BE(this.k2[c], at + 7);
		}
		return bytes.toString('base64url');
	}

	clone(): Sketch {
		const copy = new Sketch(this.cells);
		copy.count.set(this.count);
		copy.check.set(this.check);
		copy.off.set(this.off);
		copy.k1.set(this.k1);
		copy.k2.set(this.k2);
		return copy;
	}

	cellsOf(off: number, k1: number, k2: number): number[] {
		return CELL_SEEDS.map((seed, j) => j * this.part + (mix(off, k1, k2, seed) % this.part));
	}

	/** Adds (+1) or removes (-1) one item: `off` is its seconds below the mark. */
	toggle(off: number, k1: number, k2: number, delta: 1 | -1): void {
		const check = mix(off, k1, k2, CHECK_SEED) & 0xffff;
		for (const c of this.cellsOf(off, k1, k2)) {
			this.count[c] = (this.count[c] + delta) & 0xff;
			this.check[c] ^= check;
			this.off[c] ^= off;
			this.k1[c] ^= k1;
			this.k2[c] = (this.k2[c] ^ k2) >>> 0;
		}
	}

	empty(c: number): boolean {
		return (
			this.count[c] === 0 &&
			this.check[c] === 0 &&
			this.off[c] === 0 &&
			this.k1[c] === 0 &&
			this.k2[c] === 0
		);
	}

	/** The one item a cell holds, with its side (+1 stored only, -1 current only), if it is pure. */
	pure(c: number): { off: number; k1: number; k2: number; sign: 1 | -1 } | undefined {
		const n = this.count[c];
		if (n !== 1 && n !== 0xff) return undefined;
		const off = this.off[c];
		const k1 = this.k1[c];
		const k2 = this.k2[c];
		if ((mix(off, k1, k2, CHECK_SEED) & 0xffff) !== this.check[c]) return undefined;
		if (!this.cellsOf(off, k1, k2).includes(c)) return undefined;
		return { off, k1, k2, sign: n === 1 ? 1 : -1 };
	}
}

interface Difference {
	/** In the current answer, not in the stored set: new. */
	added: Item[];
	/** In the stored set, not in the current answer: vanished (for now). */
	gone: Item[];
}

/**
 * The difference between the stored sketch and the current items of the same seconds, or
 * undefined when it cannot be listed (too many differences for the sketch's size). When plain
 * peeling stalls, the additions are still among the current items: one, then two, then three of
 * them are tried as additions (a wrong guess comes back out as a vanished item and cancels),
 * within a small budget.
 */
function listDifference(
	stored: Sketch,
	current: readonly Item[],
	markSecond: number,
	maxOff: number,
): Difference | undefined {
	const diff = stored.clone();
	const byId = new Map<string, Item>();
	for (const item of current) {
		byId.set(idOf(item), item);
		diff.toggle(markSecond - item.sec, item.k1, item.k2, -1);
	}
	type Net = Map<string, { item: Item; n: number }>;
	const note = (into: Net, item: Item, n: number) => {
		const id = idOf(item);
		const was = into.get(id);
		if (was) was.n += n;
		else into.set(id, { item, n });
	};
	let attempts = 200;

	/** Peels what it can; with `guesses` left, tries current items as additions when stuck. */
	const peel = (sketch: Sketch, guesses: number, after: number): Net | undefined => {
		const found: Net = new Map();
		for (let progress = true; progress; ) {
			progress = false;
			for (let c = 0; c < sketch.cells; c++) {
				const p = sketch.pure(c);
				if (!p) continue;
				const item = { sec: markSecond - p.off, k1: p.k1, k2: p.k2 };
				if (p.sign < 0 ? !byId.has(idOf(item)) : p.off > maxOff) continue; // not really pure
				note(found, item, p.sign);
				sketch.toggle(p.off, p.k1, p.k2, p.sign === 1 ? -1 : 1);
				progress = true;
			}
		}
		let settled = true;
		for (let c = 0; c < sketch.cells && settled; c++) settled = sketch.empty(c);
		if (settled) return found;
		if (guesses === 0) return undefined;
		const candidates = [...byId.values()];
		for (let i = after; i < candidates.length; i++) {
			const item = candidates[i];
			const off = markSecond - item.sec;
			if (!sketch.cellsOf(off, item.k1, item.k2).every((c) => !sketch.empty(c))) continue;
			if (attempts-- <= 0) return undefined;
			const trial = sketch.clone();
			trial.toggle(off, item.k1, item.k2, 1);
			const rest = peel(trial, guesses - 1, i + 1);
			if (rest) {
				note(rest, item, -1);
				for (const { item: other, n } of found.values()) note(rest, other, n);
				return rest;
			}
		}
		return undefined;
	};

	let found: Net | undefined;
	for (let guesses = 0; guesses <= 3 && !found && attempts > 0; guesses++) {
		found = peel(diff.clone(), guesses, 0);
	}
	if (!found) return undefined;
	const out: Difference = { added: [], gone: [] };
	for (const { item, n } of found.values()) {
		if (n === -1) out.added.push(item);
		else if (n === 1) out.gone.push(item);
		else if (n !== 0) return undefined;
	}
	return out;
}

function encodeList(items: readonly Item[], markSecond: number): string {
	const bytes = Buffer.alloc(items.length * LIST_ITEM_BYTES);
	items.forEach((item, i) => {
		const at = i * LIST_ITEM_BYTES;
		bytes.writeUInt16BE(markSecond - item.sec, at);
		bytes.writeUInt16BE(item.k1, at + 2);
		bytes.writeUInt32BE(item.k2, at + 4);
	});
	return bytes.toString('base64url');
}

function decodeList(text: string, markSecond: number): Item[] | undefined {
	const bytes = Buffer.from(text, 'base64url');
	if (bytes.length % LIST_ITEM_BYTES !== 0) return undefined;
	const items: Item[] = [];
	for (let at = 0; at < bytes.length; at += LIST_ITEM_BYTES) {
		items.push({
			sec: markSecond - bytes.readUInt16BE(at),
			k1: bytes.readUInt16BE(at + 2),
			k2: bytes.readUInt32BE(at + 4),
		});
	}
	return items;
}

const isBase64url = (text: unknown): text is string =>
	typeof text === 'string' && BASE64URL_PATTERN.test(text) && text.length % 4 !== 1;

/** A stored cursor, or undefined when it is missing or not in the expected shape. */
function readOperation(value: unknown): OperationCursor | undefined {
	if (!isObject(value)) return undefined;
	const { m, f, s, t, u } = value;
	if (m !== undefined && (typeof m !== 'string' || !TS_KEY_PATTERN.test(m))) return undefined;
	if (m === undefined && (f !== undefined || s !== undefined || t !== undefined)) return undefined;
	if (f !== undefined && (typeof f !== 'string' || !BASE36_PATTERN.test(f))) return undefined;
	const listBytes = isBase64url(s) ? Buffer.from(s, 'base64url').length : -1;
	if (s !== undefined && (listBytes < 0 || listBytes % LIST_ITEM_BYTES !== 0)) return undefined;
	if (t !== undefined && !(isBase64url(t) && Sketch.decode(t))) return undefined;
	if (
		u !== undefined &&
		!(Array.isArray(u) && u.every((x) => typeof x === 'string' && KEY_PATTERN.test(x)))
	) {
		return undefined;
	}
	const out: OperationCursor = {};
	if (typeof m === 'string') out.m = m;
	if (typeof f === 'string') out.f = f;
	if (typeof s === 'string' && s) out.s = s;
	if (typeof t === 'string' && t) out.t = t;
	if (u !== undefined) out.u = u as string[];
	return out;
}

/**
 * A cursor of version 1 (keys of the full timestamp, which version 2 cannot use): the operation
 * continues from its old mark as if just started there. Entries after the mark are emitted; late
 * entries that were still catchable at the upgrade are skipped; nothing is emitted twice when the
 * API writes microseconds (version 1 assumed them too).
 */
function readVersion1(value: unknown): OperationCursor | undefined {
	if (!isObject(value) || !Array.isArray(value.s)) return undefined;
	const { m, s, u } = value;
	if (!s.every((x) => typeof x === 'string' && V1_SEEN_PATTERN.test(x))) return undefined;
	const undated =
		Array.isArray(u) && u.every((x) => typeof x === 'string' && KEY_PATTERN.test(x))
			? { u: u as string[] }
			: {};
	if (m === undefined) return s.length ? undefined : undated;
	if (typeof m !== 'string' || !TS_KEY_PATTERN.test(m)) return undefined;
	return { m: nsToKey(keyToNs(m) + 1000n), f: '0', ...undated };
}

/** The stored state, with any operation in an unexpected shape left out (it starts afresh). */
export function readState(value: unknown): CursorState {
	const ops: Record<string, OperationCursor> = {};
	if (isObject(value) && isObject(value.ops) && (value.v === CURSOR_VERSION || value.v === 1)) {
		const read = value.v === CURSOR_VERSION ? readOperation : readVersion1;
		for (const [id, op] of Object.entries(value.ops)) {
			const parsed = read(op);
			if (parsed) ops[id] = parsed;
		}
	}
	return { v: CURSOR_VERSION, ops };
}

/**
 * "Start from now" for operations that have no cursor yet, when the poll could not read them (a
 * failed request): the activation time becomes their mark and floor, so the history stays history
 * and what is stamped later is emitted. Operations that have a cursor keep it. Returns undefined
 * when there is nothing to record.
 */
export function recordStart(
	previous: unknown,
	operationIds: readonly string[],
	now: number,
): CursorState | undefined {
	const state = readState(previous);
	const missing = operationIds.filter((id) => !state.ops[id]);
	if (!missing.length) return undefined;
	const ops = { ...state.ops };
	for (const id of missing) ops[id] = { m: nsToKey(BigInt(Math.floor(now)) * 1_000_000n), f: '0' };
	return { v: CURSOR_VERSION, ops };
}

interface OperationStep {
	fresh: LogEntry[];
	next: OperationCursor;
}

export interface StepOptions {
	/** First sight without "emit existing": record what is present, emit nothing. */
	seed: boolean;
	share?: Share;
	lookBackMs?: number;
	maxWindowEntries?: number;
	/** The time of this poll (ms); a first sight that sees no dated entry starts here. */
	now?: number;
}

/** Undated entries: remembered only while the API still returns them, within a small cap. */
function stepUndated(
	previous: OperationCursor | undefined,
	entries: readonly LogEntry[],
	seed: boolean,
): { fresh: LogEntry[]; u: string[] } {
	const previousUndated = new Set(previous?.u ?? []);
	const undatedByKey = new Map<string, LogEntry>();
	for (const entry of entries)
		if (entry.tsKey === undefined) undatedByKey.set(entry.entryKey, entry);
	const undated = [...undatedByKey.values()].sort((a, b) =>
		a.entryKey < b.entryKey ? -1 : a.entryKey > b.entryKey ? 1 : 0,
	);
	const kept = undated.filter((e) => previousUndated.has(e.entryKey)).map((e) => e.entryKey);
	const room = Math.max(0, MAX_UNDATED_PER_OPERATION - kept.length);
	const accepted = undated.filter((e) => !previousUndated.has(e.entryKey)).slice(0, room);
	return { fresh: seed ? [] : accepted, u: [...kept, ...accepted.map((e) => e.entryKey)] };
}

/**
 * One operation's step: which of `entries` (one response, parsed) are new, and the next cursor.
 * `previous` undefined = first sight: with `seed` what is present is recorded and nothing emitted.
 * Only the entries that can still matter are hashed: those at or above the floor, and on first
 * sight those within the window that the next state keeps.
 */
export function advanceOperation(
	previous: OperationCursor | undefined,
	entries: readonly LogEntry[],
	options: StepOptions,
): OperationStep {
	const lookBackMs = Math.min(MAX_LOOK_BACK_MS, Math.max(0, options.lookBackMs ?? LOOK_BACK_MS));
	const lookBackNs = BigInt(Math.floor(lookBackMs)) * 1_000_000n;
	const maxWindow = Math.max(1, Math.floor(options.maxWindowEntries ?? MAX_WINDOW_ENTRIES));
	const share = options.share ?? shareOf(1);
	const { fresh: undatedFresh, u } = stepUndated(previous, entries, options.seed);
	const withUndated = (op: OperationCursor): OperationCursor => (u.length ? { ...op, u } : op);

	// The previous state: mark, floor, the exact list and the sketch.
	const markHi = previous?.m === undefined ? undefined : keyToNs(previous.m);
	const floor = markHi === undefined ? undefined : markHi - fromBase36(previous?.f ?? '0');
	const markSecond = markHi === undefined ? 0 : secondOf(markHi);
	const list =
		previous?.s && markHi !== undefined ? (decodeList(previous.s, markSecond) ?? []) : [];
	const sketch = previous?.t && markHi !== undefined ? Sketch.decode(previous.t) : undefined;
	const boundary = list.length ? Math.min(...list.map((i) => i.sec)) : Infinity;

	const dated = entries.filter((e) => e.tsKey !== undefined);
	let candidates: LogEntry[];
	let cutFloor: bigint | undefined;
	if (floor !== undefined) {
		candidates = dated.filter(reachesFloor(floor));
	} else if (options.seed) {
		// First sight, nothing emitted: only what the next window can hold needs hashing.
		({ window: candidates, floor: cutFloor } = firstWindow(dated, lookBackNs, maxWindow));
	} else {
		candidates = dated;
	}
	numberCopies(candidates);

	// One representative per item; an item with any copy at or below the mark is reconciled.
	const markKey = markHi === undefined ? undefined : nsToKey(markHi);
	const byId = new Map<string, { entry: LogEntry; seen: Seen; above: boolean }>();
	for (const entry of candidates) {
		const seen = seenOfEntry(entry);
		const above = markKey === undefined || entry.tsKey! > markKey;
		const id = idOf(seen);
		const was = byId.get(id);
		if (!was) {
			byId.set(id, { entry, seen, above });
			continue;
		}
		if (seen.lo < was.seen.lo) was.seen.lo = seen.lo;
		if (seen.hi > was.seen.hi) was.seen.hi = seen.hi;
		if (!above) was.above = false;
	}

	const fresh: LogEntry[] = [];
	const next = new Map<string, Seen>();
	const listRegion: Item[] = [];
	const tailRegion: Item[] = [];
	for (const [id, { entry, seen, above }] of byId) {
		next.set(id, seen);
		if (above) fresh.push(entry);
		else (seen.sec >= boundary ? listRegion : tailRegion).push(seen);
	}

	// The newest seconds: exact.
	const listIds = new Set(list.map(idOf));
	for (const item of listRegion) {
		if (!listIds.has(idOf(item))) fresh.push(byId.get(idOf(item))!.entry);
	}
	const present = new Set(listRegion.map(idOf));
	for (const item of list) if (!present.has(idOf(item))) next.set(idOf(item), seenOfItem(item));

	// The older ones: the sketch's difference, or, when it cannot be listed, the floor rises to
	// the list (those late entries are skipped, never repeated).
	let raiseTo: bigint | undefined;
	if (tailRegion.length || sketch) {
		const maxOff = floor === undefined ? 0 : markSecond - secondOf(floor) + 1;
		const difference = sketch
			? listDifference(sketch, tailRegion, markSecond, maxOff)
			: { added: tailRegion, gone: [] };
		if (difference) {
			for (const item of difference.added) fresh.push(byId.get(idOf(item))!.entry);
			for (const item of difference.gone) next.set(idOf(item), seenOfItem(item));
		} else {
			for (const item of tailRegion) next.delete(idOf(item));
			raiseTo = boundary === Infinity ? markHi! + 1n : BigInt(boundary) * NS_PER_S;
		}
	}

	// The next mark (from what this answer holds: vanished entries were covered already) and floor.
	let nextMark = markHi;
	for (const { seen } of byId.values()) {
		if (nextMark === undefined || seen.hi > nextMark) nextMark = seen.hi;
	}
	const step = (op: OperationCursor): OperationStep => ({
		fresh: options.seed ? undatedFresh : [...fresh, ...undatedFresh],
		next: withUndated(op),
	});
	if (nextMark === undefined) {
		if (previous === undefined && options.seed && options.now !== undefined) {
			return step({ m: nsToKey(BigInt(Math.floor(options.now)) * 1_000_000n), f: '0' });
		}
		return step({});
	}
	let nextFloor = nextMark - lookBackNs;
	if (floor !== undefined && floor > nextFloor) nextFloor = floor;
	if (cutFloor !== undefined && cutFloor > nextFloor) nextFloor = cutFloor;
	if (raiseTo !== undefined && raiseTo > nextFloor) nextFloor = raiseTo;
	if (nextFloor > nextMark) nextMark = nextFloor;
	let kept = [...next.values()].filter((s) => s.hi >= nextFloor);
	if (kept.length > maxWindow) {
		kept.sort((a, b) => (a.lo > b.lo ? -1 : a.lo < b.lo ? 1 : 0));
		const cut = kept[maxWindow - 1].lo;
		if (cut > nextFloor) nextFloor = cut;
		kept = kept.filter((s) => s.hi >= nextFloor);
	}

	// The newest whole seconds that fit go to the exact list, the rest to the sketch.
	const nextSecond = secondOf(nextMark);
	kept.sort((a, b) => b.sec - a.sec || a.k1 - b.k1 || a.k2 - b.k2);
	let split = 0;
	while (split < kept.length) {
		let end = split;
		while (end < kept.length && kept[end].sec === kept[split].sec) end++;
		if (end > share.listItems) break;
		split = end;
	}
	const op: OperationCursor = { m: nsToKey(nextMark), f: toBase36(nextMark - nextFloor) };
	if (split > 0) op.s = encodeList(kept.slice(0, split), nextSecond);
	if (split < kept.length) {
		const tail = new Sketch(share.cells);
		for (const item of kept.slice(split)) tail.toggle(nextSecond - item.sec, item.k1, item.k2, 1);
		op.t = tail.encode();
	}
	return step(op);
}

/**
 * First sight without emitting: the entries the next window holds (within the look-back of the
 * newest, at most about `maxWindow`), found by timestamp text before anything is hashed.
 */
function firstWindow(
	dated: readonly LogEntry[],
	lookBackNs: bigint,
	maxWindow: number,
): { window: LogEntry[]; floor?: bigint } {
	if (!dated.length) return { window: [] };
	// the newest upper end: per number of fraction digits, the newest text
	const newest: Array<string | undefined> = [];
	for (const e of dated) {
		const was = newest[e.digits];
		if (was === undefined || e.tsKey! > was) newest[e.digits] = e.tsKey!;
	}
	let mark: bigint | undefined;
	newest.forEach((key, digits) => {
		if (key === undefined) return;
		const hi = keyToNs(key) + UNIT_NS[digits] - 1n;
		if (mark === undefined || hi > mark) mark = hi;
	});
	const window = dated.filter(reachesFloor(mark! - lookBackNs));
	if (window.length <= maxWindow) return { window };
	// the maxWindow-th newest text, counted over distinct texts
	const counts = new Map<string, number>();
	for (const e of window) counts.set(e.tsKey!, (counts.get(e.tsKey!) ?? 0) + 1);
	const keys = [...counts.keys()].sort().reverse();
	let seen = 0;
	let cut = keys[keys.length - 1];
	for (const key of keys) {
		seen += counts.get(key)!;
		cut = key;
		if (seen >= maxWindow) break;
	}
	const floor = keyToNs(cut);
	return { window: window.filter(reachesFloor(floor)), floor };
}

/**
 * Copies (same operation, second, severity and message; different sub-second digits) are
 * distinct entries: numbered 0, 1, … by timestamp among the candidates, so that their keys
 * differ. Exact duplicates (same digits too) get the same number: one entry.
 */
function numberCopies(candidates: readonly LogEntry[]): void {
	const groups = new Map<string, LogEntry[]>();
	for (const entry of candidates) {
		entry.setCopy(0);
		const group = groups.get(entry.contentKey);
		if (group) group.push(entry);
		else groups.set(entry.contentKey, [entry]);
	}
	for (const group of groups.values()) {
		if (group.length < 2) continue;
		group.sort((a, b) => (a.tsKey! < b.tsKey! ? -1 : a.tsKey! > b.tsKey! ? 1 : 0));
		let index = 0;
		group.forEach((entry, i) => {
			if (i > 0 && entry.tsKey !== group[i - 1].tsKey) index++;
			entry.setCopy(index);
		});
	}
}

/**
 * One poll over several operations: the new entries in emission order and the next state.
 * Operations absent from `logs` are dropped from the state. Pure: `previous` is not modified.
 */
export function advanceCursor(
	previous: unknown,
	logs: readonly OperationLogs[],
	options: AdvanceOptions = {},
): AdvanceResult {
	const state = readState(previous);
	const share = shareOf(new Set(logs.map((l) => l.operationId)).size, options.stateBudgetBytes);
	const ops: Record<string, OperationCursor> = {};
	const fresh: LogEntry[] = [];
	const seeded: string[] = [];
	for (const { operationId, entries } of logs) {
		if (ops[operationId]) continue; // the same operation listed twice
		const before = state.ops[operationId];
		if (!before) seeded.push(operationId);
		const step = advanceOperation(before, entries, {
			seed: !before && !options.emitExisting,
			share,
			lookBackMs: options.lookBackMs,
			maxWindowEntries: options.maxWindowEntries,
			now: options.now,
		});
		ops[operationId] = step.next;
		fresh.push(...step.fresh);
	}
	fresh.sort(compareEntries);
	return { fresh, next: { v: CURSOR_VERSION, ops }, seeded };
}
