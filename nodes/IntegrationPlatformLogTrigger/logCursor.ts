/**
 * The exactly-once cursor of the log trigger. Pure: no n8n imports, unit-tested on its own
 * (test/unit/IntegrationPlatformLogTrigger/logCursor.test.ts).
 *
 * What the API gives (docs/api-notes.md, "Operation logs"): GET …/operations/{id}/logs returns the whole retained log
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

/** One log entry as the API returns it (all three fields required, but be lenient). */
export type RawLogEntry = Record<string, unknown>;

/**
 * One entry of a response. The key, the ISO text and the nanoseconds are computed on first use
 * and kept: a poll over a long history only needs them for the few entries above the floor, and
 * hashing every entry of a 100,000-entry log would cost the poll more than reading it.
 */
export class LogEntry {
	private key?: string;

	private isoText?: string;

	private nanoseconds?: bigint;

	constructor(
		readonly operationId: string,
		/** The entry as returned (a non-object is wrapped as `{ message: value }`). */
		readonly raw: RawLogEntry,
		/** Sortable UTC key with nanosecond digits; undefined when the timestamp cannot be parsed. */
		readonly tsKey: string | undefined,
	) {}

	/** The stable key (see the design note at the top). */
	get entryKey(): string {
		this.key ??= hashKey(
			this.operationId,
			this.tsKey,
			this.raw.timestamp,
			this.raw.severity,
			this.raw.message,
		);
		return this.key;
	}

	/** ISO text in UTC with the fraction digits of the original (no rounding, no padding). */
	get iso(): string | undefined {
		if (this.tsKey === undefined) return undefined;
		this.isoText ??= isoWithOriginalPrecision(this.raw.timestamp, this.tsKey);
		return this.isoText;
	}

	/** Nanoseconds since the epoch. */
	get ns(): bigint | undefined {
		if (this.tsKey === undefined) return undefined;
		this.nanoseconds ??= keyToNs(this.tsKey);
		return this.nanoseconds;
	}
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

/** The key of a nanosecond instant (inverse of keyToNs). */
export function nsToKey(ns: bigint): string {
	const seconds = ns / 1_000_000_000n;
	const nanos = ns % 1_000_000_000n;
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
		if (keys.has(sorted[i].entryKey)) continue;
		keys.add(sorted[i].entryKey);
		picked.push(sorted[i]);
	}
	return picked.reverse();
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
 * One operation's step: which of `entries` (one response, parsed) are new, and the next cursor.
 * `previous` undefined = first sight: `seed` then records what is present as seen.
 *
 * Timestamps are compared as keys (fixed-width UTC text, ordered like the instants), and entries
 * are hashed only above the floor, or, when seeding, only the newest timestamp groups that the
 * next state can hold: the rest could never change the outcome.
 */
export function advanceOperation(
	previous: OperationCursor | undefined,
	entries: readonly LogEntry[],
	options: { seed: boolean; maxKeys: number; lookBackMs?: number },
): OperationStep {
	const lookBackNs =
		BigInt(Math.max(0, Math.floor(options.lookBackMs ?? LOOK_BACK_MS))) * 1_000_000n;
	const maxKeys = Math.max(1, options.maxKeys);

	// The previous state: the mark, the floor and each seen key with its timestamp key.
	let markKey = previous?.m;
	let floorKey: string | undefined;
	const seen = new Map<string, string>();
	if (markKey !== undefined) {
		const markNs = keyToNs(markKey);
		floorKey = nsToKey(markNs - fromBase36(previous?.f ?? '0'));
		for (const item of previous?.s ?? []) {
			const [, delta, key] = SEEN_PATTERN.exec(item) ?? [];
			if (key !== undefined) seen.set(key, nsToKey(markNs - fromBase36(delta)));
		}
	}

	// Below the floor: old, or too late. Only what is left can be new.
	const candidates = entries.filter(
		(e): e is LogEntry & { tsKey: string } =>
			e.tsKey !== undefined && (floorKey === undefined || e.tsKey >= floorKey),
	);
	for (const entry of candidates)
		if (markKey === undefined || entry.tsKey > markKey) markKey = entry.tsKey;

	const fresh: LogEntry[] = [];
	let lowestAllowed = floorKey;
	if (!options.seed) {
		for (const entry of candidates) {
			if (seen.has(entry.entryKey)) continue; // seen before, or a copy within this response
			fresh.push(entry);
			seen.set(entry.entryKey, entry.tsKey);
		}
	} else if (markKey !== undefined) {
		// First sight, nothing is emitted: record the newest groups, as many as the key share holds.
		const lookBackKey = nsToKey(keyToNs(markKey) - lookBackNs);
		const groups = new Map<string, LogEntry[]>();
		for (const entry of candidates) {
			if (entry.tsKey < lookBackKey) continue;
			const group = groups.get(entry.tsKey);
			if (group) group.push(entry);
			else groups.set(entry.tsKey, [entry]);
		}
		for (const tsKey of [...groups.keys()].sort().reverse()) {
			const keys = new Set(groups.get(tsKey)!.map((e) => e.entryKey));
			const adding = [...keys].filter((k) => !seen.has(k)).length;
			if (tsKey !== markKey && seen.size + adding > maxKeys) {
				lowestAllowed = nsToKey(keyToNs(tsKey) + 1n); // this group and older ones stay out
				break;
			}
			for (const key of keys) seen.set(key, tsKey);
		}
	}

	// Undated entries: remembered only while the API still returns them, within a small cap.
	const previousUndated = new Set(previous?.u ?? []);
	const undatedByKey = new Map<string, LogEntry>();
	for (const entry of entries)
		if (entry.tsKey === undefined) undatedByKey.set(entry.entryKey, entry);
	const undated = [...undatedByKey.values()].sort((a, b) =>
		a.entryKey < b.entryKey ? -1 : a.entryKey > b.entryKey ? 1 : 0,
	);
	const keptUndated = undated.filter((e) => previousUndated.has(e.entryKey)).map((e) => e.entryKey);
	const room = Math.max(0, MAX_UNDATED_PER_OPERATION - keptUndated.length);
	const acceptedUndated = undated.filter((e) => !previousUndated.has(e.entryKey)).slice(0, room);
	if (!options.seed) fresh.push(...acceptedUndated);
	const u = [...keptUndated, ...acceptedUndated.map((e) => e.entryKey)];

	if (markKey === undefined) {
		return { fresh, next: { s: [], ...(u.length ? { u } : {}) } };
	}

	// Raise the floor: the look-back window, then the key cap (whole timestamp groups only).
	const markNs = keyToNs(markKey);
	let newFloorKey = nsToKey(markNs - lookBackNs);
	if (lowestAllowed !== undefined && lowestAllowed > newFloorKey) newFloorKey = lowestAllowed;
	let kept = [...seen].filter(([, tsKey]) => tsKey >= newFloorKey);
	if (kept.length > maxKeys) {
		kept.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
		const cut = kept[kept.length - maxKeys - 1][1];
		// the mark's own group always stays
		newFloorKey = cut >= markKey ? markKey : nsToKey(keyToNs(cut) + 1n);
		kept = kept.filter(([, tsKey]) => tsKey >= newFloorKey);
	}
	kept.sort((a, b) =>
		a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0,
	);
	return {
		fresh,
		next: {
			m: markKey,
			f: toBase36(markNs - keyToNs(newFloorKey)),
			s: kept.map(([key, tsKey]) => `${toBase36(markNs - keyToNs(tsKey))}.${key}`),
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
