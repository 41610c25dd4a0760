/**
 * The stored cursor: its shape, its limits, reading it back (version 2, or version 1 upgraded),
 * "start from now" for operations that could not be read, and each operation's share. Pure.
 */
import { dict } from '../dict';
import { decodeAhead } from './ahead';
import { isObject } from './entry';
import { CELL_BYTES, LIST_ITEM_BYTES, Sketch } from './sketch';
import { keyToNs, nsToKey } from './time';

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
export const MAX_LOOK_BACK_MS = 18 * 60 * 60 * 1000;

const KEY_PATTERN = /^[A-Za-z0-9_-]{16}$/;
const TS_KEY_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;
const BASE36_PATTERN = /^[0-9a-z]+$/;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]*$/;
const V1_SEEN_PATTERN = /^[0-9a-z]+\.[A-Za-z0-9_-]{16}$/;

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
	/** Entries ahead of the clock already emitted (or recorded by the first poll): cursor/ahead.ts. */
	x?: string;
}

export interface CursorState {
	v: number;
	ops: Record<string, OperationCursor>;
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

const isBase64url = (text: unknown): text is string =>
	typeof text === 'string' && BASE64URL_PATTERN.test(text) && text.length % 4 !== 1;

/** A stored cursor, or undefined when it is missing or not in the expected shape. */
function readOperation(value: unknown): OperationCursor | undefined {
	if (!isObject(value)) return undefined;
	const { m, f, s, t, u, x } = value;
	if (m !== undefined && (typeof m !== 'string' || !TS_KEY_PATTERN.test(m))) return undefined;
	if (m === undefined && (f !== undefined || s !== undefined || t !== undefined)) return undefined;
	if (f !== undefined && (typeof f !== 'string' || !BASE36_PATTERN.test(f))) return undefined;
	const listBytes = isBase64url(s) ? Buffer.from(s, 'base64url').length : -1;
	if (s !== undefined && (listBytes < 0 || listBytes % LIST_ITEM_BYTES !== 0)) return undefined;
	if (t !== undefined && !(isBase64url(t) && Sketch.decode(t))) return undefined;
	if (x !== undefined && !(typeof x === 'string' && decodeAhead(x))) return undefined;
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
	if (typeof x === 'string' && x) out.x = x;
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
	const ops = dict<OperationCursor>();
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
	const ops = dict(Object.entries(state.ops));
	for (const id of missing) ops[id] = { m: nsToKey(BigInt(Math.floor(now)) * 1_000_000n), f: '0' };
	return { v: CURSOR_VERSION, ops };
}
