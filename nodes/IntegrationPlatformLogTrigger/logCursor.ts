/**
 * The exactly-once cursor of the log trigger. Pure: no n8n imports, unit-tested on its own
 * (test/unit/logTrigger/logCursor.test.ts).
 *
 * What the API gives (api-facts §8): GET …/operations/{id}/logs returns the whole retained log
 * of one operation as a bare array, in no promised order, without pagination, without an entry
 * id; timestamps carry microseconds; old entries vanish by retention; several entries may share
 * a timestamp. So every poll re-reads everything and decides itself what is new.
 *
 * Design
 * - Entry key: sha256 over operation id, normalised timestamp key (nanosecond digits, UTC,
 *   nodes/shared/timestamps.ts), severity and the canonical JSON of the message (keys sorted),
 *   base64url, first 16 characters (96 bits). Identical entries in one response are one entry.
 * - Per operation: a high-water mark `m` (largest timestamp seen), a floor, and the keys of the
 *   entries seen with floor <= timestamp <= m. Invariant: every entry ever processed whose
 *   timestamp is >= floor has its key in the set. An entry is new when its timestamp is >= floor
 *   and its key is not in the set; so entries above the mark, entries sharing the mark's
 *   timestamp, and late entries slightly older than the mark are each emitted once.
 * - Bounded: floor = max(previous floor, m − LOOK_BACK_MS); when more keys remain than the
 *   operation's share of KEY_BUDGET, whole timestamp groups are dropped from the bottom and the
 *   floor rises above them (the group at the mark is never dropped). Keys are stored as
 *   "<base36 nanoseconds below m>.<key>", about 28 bytes each: ~3.6 KB for one operation,
 *   ~5.5 KB for three or more (at least MIN_KEYS_PER_OPERATION each). Operations that are no
 *   longer configured are dropped from the state.
 * - Late entries older than the floor (more than LOOK_BACK_MS, or more than the operation's key
 *   share, below the mark) are not emitted: the one documented way to miss an entry. A corollary:
 *   an entry stamped more than LOOK_BACK_MS ahead of the others (a skewed clock) lifts the mark,
 *   and entries stamped normally afterwards count as too late until real time catches up.
 * - First sight of an operation: without "emit existing" every entry present is recorded as seen
 *   and nothing is emitted ("start from now"); with it, everything present is new.
 * - Entries whose timestamp cannot be parsed (not RFC 3339, or not an object at all) are keyed
 *   by their raw content and emitted once, after the dated ones. Up to MAX_UNDATED_PER_OPERATION
 *   of their keys are kept, only while the API still returns them; if more arrive at once, the
 *   rest wait (they are emitted when room frees up) rather than being emitted twice. An undated
 *   entry that vanishes from one answer and comes back is emitted again (nothing else to go by).
 * - Order of emission: timestamp key, then entry key, across all operations; undated last.
 * - The caller computes the next state aside and stores it only when every fetch of the poll
 *   succeeded. Polling again from the last persisted state is harmless: n8n persists static data
 *   whenever a poll emits (see the node), so every emitted entry is recorded there, and entries
 *   that were only filtered out are filtered out again.
 */
import { createHash } from 'node:crypto';

import { timestampKey } from '../shared/timestamps';

export const CURSOR_VERSION = 1;
/** How far below the mark late entries are still caught (bounded further by the key share). */
export const LOOK_BACK_MS = 60 * 60 * 1000;
/** Keys kept over all operations; each operation gets an equal share within the bounds below. */
export const KEY_BUDGET = 192;
export const MAX_KEYS_PER_OPERATION = 128;
export const MIN_KEYS_PER_OPERATION = 32;
export const MAX_UNDATED_PER_OPERATION = 16;

const KEY_LENGTH = 16;
const KEY_PATTERN = /^[A-Za-z0-9_-]{16}$/;
const SEEN_PATTERN = /^([0-9a-z]+)\.([A-Za-z0-9_-]{16})$/;
const TS_KEY_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;
const BASE36_PATTERN = /^[0-9a-z]+$/;

/** One log entry as the API returns it (api-facts §8: all three fields required, but be lenient). */
export type RawLogEntry = Record<string, unknown>;

export interface LogEntry {
	operationId: string;
	/** The entry as returned (a non-object is wrapped as `{ message: value }`). */
	raw: RawLogEntry;
	/** Sortable UTC key with nanosecond digits; undefined when the timestamp cannot be parsed. */
	tsKey?: string;
	/** Nanoseconds since the epoch, for arithmetic on the window. */
	ns?: bigint;
	/** ISO text in UTC with the fraction digits of the original (no rounding, no padding). */
	iso?: string;
	entryKey: string;
}

export interface OperationCursor {
	/** high-water mark: the largest timestamp key seen */
	m?: string;
	/** floor, as base36 nanoseconds below the mark */
	f?: string;
	/** keys seen with floor <= timestamp <= mark: "<base36 ns below m>.<key>", ascending */
	s: string[];
	/** keys of undated entries already emitted (or recorded by the first poll) */
	u?: string[];
}

export interface CursorState {
	v: number;
	ops: Record<string, OperationCursor>;
}

export interface AdvanceOptions {
	/** On an operation's first poll, emit what already exists (default: start from now). */
	emitExisting?: boolean;
	lookBackMs?: number;
	keyBudget?: number;
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

function toBase36(value: bigint): string {
	return value.toString(36);
}

function fromBase36(text: string): bigint {
	let out = 0n;
	for (const char of text) out = out * 36n + BigInt(parseInt(char, 36));
	return out;
}

/** Full-precision ISO text: UTC, with as many fraction digits as the original had (max 9). */
export function isoWithOriginalPrecision(raw: unknown, tsKey: string): string {
	const digits = typeof raw === 'string' ? (/:\d{2}[.,](\d+)/.exec(raw)?.[1].length ?? 0) : 0;
	const fraction = Math.min(digits, 9);
	return `${tsKey.slice(0, 19)}${fraction ? `.${tsKey.slice(20, 20 + fraction)}` : ''}Z`;
}

function hashKey(
	operationId: string,
	tsKey: string | undefined,
	timestamp: unknown,
	severity: unknown,
	message: unknown,
): string {
	const ts = tsKey ?? `raw:${canonicalJson(timestamp)}`;
	const sev = typeof severity === 'string' ? severity : canonicalJson(severity);
	return createHash('sha256')
		.update(`${operationId}\u0000${ts}\u0000${sev}\u0000${canonicalJson(message)}`)
		.digest('base64url')
		.slice(0, KEY_LENGTH);
}

/** The stable key of one entry (see the design note at the top). */
export function entryKeyOf(
	operationId: string,
	timestamp: unknown,
	severity: unknown,
	message: unknown,
): string {
	return hashKey(operationId, timestampKey(timestamp), timestamp, severity, message);
}

/** Parses and keys an operation's response; identical entries collapse into one. */
export function normalizeEntries(operationId: string, response: readonly unknown[]): LogEntry[] {
	const byKey = new Map<string, LogEntry>();
	for (const item of response) {
		const raw: RawLogEntry = isObject(item) ? item : { message: item };
		const tsKey = timestampKey(raw.timestamp);
		const entryKey = hashKey(operationId, tsKey, raw.timestamp, raw.severity, raw.message);
		if (byKey.has(entryKey)) continue;
		byKey.set(
			entryKey,
			tsKey === undefined
				? { operationId, raw, entryKey }
				: {
						operationId,
						raw,
						entryKey,
						tsKey,
						ns: keyToNs(tsKey),
						iso: isoWithOriginalPrecision(raw.timestamp, tsKey),
					},
		);
	}
	return [...byKey.values()];
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

/** The `count` newest entries, oldest first (for "Fetch Test Event"). */
export function latestEntries(entries: readonly LogEntry[], count: number): LogEntry[] {
	const sorted = [...entries].sort(compareEntries);
	const dated = sorted.filter((e) => e.tsKey !== undefined);
	return (dated.length ? dated : sorted).slice(-count);
}

/** Each operation's share of the key budget. */
export function keysPerOperation(operations: number, budget = KEY_BUDGET): number {
	const share = Math.floor(budget / Math.max(1, operations));
	return Math.max(MIN_KEYS_PER_OPERATION, Math.min(MAX_KEYS_PER_OPERATION, share));
}

/** A stored operation cursor, or undefined when it is missing or not in the expected shape. */
function readOperation(value: unknown): OperationCursor | undefined {
	if (!isObject(value) || !Array.isArray(value.s)) return undefined;
	const { m, f, s, u } = value;
	if (m !== undefined && (typeof m !== 'string' || !TS_KEY_PATTERN.test(m))) return undefined;
	if (m === undefined && (s.length > 0 || f !== undefined)) return undefined;
	if (f !== undefined && (typeof f !== 'string' || !BASE36_PATTERN.test(f))) return undefined;
	if (!s.every((x) => typeof x === 'string' && SEEN_PATTERN.test(x))) return undefined;
	if (
		u !== undefined &&
		!(Array.isArray(u) && u.every((x) => typeof x === 'string' && KEY_PATTERN.test(x)))
	) {
		return undefined;
	}
	const out: OperationCursor = { s: s as string[] };
	if (typeof m === 'string') out.m = m;
	if (typeof f === 'string') out.f = f;
	if (u !== undefined) out.u = u as string[];
	return out;
}

/** The stored state, with any operation in an unexpected shape left out (it starts afresh). */
export function readState(value: unknown): CursorState {
	const ops: Record<string, OperationCursor> = {};
	if (isObject(value) && value.v === CURSOR_VERSION && isObject(value.ops)) {
		for (const [id, op] of Object.entries(value.ops)) {
			const parsed = readOperation(op);
			if (parsed) ops[id] = parsed;
		}
	}
	return { v: CURSOR_VERSION, ops };
}

interface OperationStep {
	fresh: LogEntry[];
	next: OperationCursor;
}

/**
 * One operation's step: which of `entries` (one response, normalised) are new, and the next
 * cursor. `previous` undefined = first sight: `seed` then records everything as seen.
 */
export function advanceOperation(
	previous: OperationCursor | undefined,
	entries: readonly LogEntry[],
	options: { seed: boolean; maxKeys: number; lookBackMs?: number },
): OperationStep {
	const lookBackNs =
		BigInt(Math.max(0, Math.floor(options.lookBackMs ?? LOOK_BACK_MS))) * 1_000_000n;
	const maxKeys = Math.max(1, options.maxKeys);

	// Decode the previous state: absolute nanoseconds for the floor and each seen key.
	let mark: bigint | undefined;
	let markKey: string | undefined;
	let floor: bigint | undefined;
	const seen = new Map<string, bigint>();
	if (previous?.m !== undefined) {
		markKey = previous.m;
		mark = keyToNs(markKey);
		floor = mark - fromBase36(previous.f ?? '0');
		for (const item of previous.s) {
			const [, delta, key] = SEEN_PATTERN.exec(item) ?? [];
			if (key !== undefined) seen.set(key, mark - fromBase36(delta));
		}
	}

	const fresh: LogEntry[] = [];
	for (const entry of entries) {
		if (entry.ns === undefined) continue;
		if (floor !== undefined && entry.ns < floor) continue; // below the floor: old, or too late
		if (!seen.has(entry.entryKey)) {
			if (!options.seed) fresh.push(entry);
			seen.set(entry.entryKey, entry.ns);
		}
		if (mark === undefined || entry.ns > mark) {
			mark = entry.ns;
			markKey = entry.tsKey;
		}
	}

	// Undated entries: remembered only while the API still returns them, within a small cap.
	const previousUndated = new Set(previous?.u ?? []);
	const undated = entries
		.filter((e) => e.ns === undefined)
		.sort((a, b) => (a.entryKey < b.entryKey ? -1 : a.entryKey > b.entryKey ? 1 : 0));
	const keptUndated = undated.filter((e) => previousUndated.has(e.entryKey)).map((e) => e.entryKey);
	const room = Math.max(0, MAX_UNDATED_PER_OPERATION - keptUndated.length);
	const acceptedUndated = undated.filter((e) => !previousUndated.has(e.entryKey)).slice(0, room);
	if (!options.seed) fresh.push(...acceptedUndated);
	const u = [...keptUndated, ...acceptedUndated.map((e) => e.entryKey)];

	if (mark === undefined || markKey === undefined) {
		return { fresh, next: { s: [], ...(u.length ? { u } : {}) } };
	}

	// Raise the floor: the look-back window, then the key cap (whole timestamp groups only).
	let newFloor = mark - lookBackNs;
	if (floor !== undefined && floor > newFloor) newFloor = floor;
	let kept = [...seen].filter(([, ns]) => ns >= newFloor);
	if (kept.length > maxKeys) {
		kept.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
		let cut = kept[kept.length - maxKeys - 1][1];
		if (cut >= mark) cut = mark - 1n; // the mark's own group always stays
		newFloor = cut + 1n;
		kept = kept.filter(([, ns]) => ns >= newFloor);
	}
	kept.sort((a, b) =>
		a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0,
	);
	const top = mark;
	return {
		fresh,
		next: {
			m: markKey,
			f: toBase36(top - newFloor),
			s: kept.map(([key, ns]) => `${toBase36(top - ns)}.${key}`),
			...(u.length ? { u } : {}),
		},
	};
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
	const maxKeys = keysPerOperation(logs.length, options.keyBudget);
	const ops: Record<string, OperationCursor> = {};
	const fresh: LogEntry[] = [];
	const seeded: string[] = [];
	for (const { operationId, entries } of logs) {
		if (ops[operationId]) continue; // the same operation listed twice
		const before = state.ops[operationId];
		if (!before) seeded.push(operationId);
		const step = advanceOperation(before, entries, {
			seed: !before && !options.emitExisting,
			maxKeys,
			lookBackMs: options.lookBackMs,
		});
		ops[operationId] = step.next;
		fresh.push(...step.fresh);
	}
	fresh.sort(compareEntries);
	return { fresh, next: { v: CURSOR_VERSION, ops }, seeded };
}
