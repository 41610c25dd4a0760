/**
 * One poll's step: which entries of each operation are new, and the next state. Pure.
 */
import { dict } from '../dict';
import type { LogEntry } from './entry';
import { compareEntries, reachesFloor } from './entry';
import { aheadHorizon, decodeAhead, encodeAhead, MAX_AHEAD_PER_OPERATION } from './ahead';
import type { Item, Seen } from './sketch';
import {
	decodeList,
	encodeList,
	idOf,
	listDifference,
	seenOfEntry,
	seenOfItem,
	Sketch,
} from './sketch';
import type { CursorState, OperationCursor, Share } from './state';
import {
	CURSOR_VERSION,
	LOOK_BACK_MS,
	MAX_LOOK_BACK_MS,
	MAX_UNDATED_PER_OPERATION,
	MAX_WINDOW_ENTRIES,
	readState,
	shareOf,
} from './state';
import { fromBase36, keyToNs, NS_PER_S, nsToKey, secondOf, toBase36, UNIT_NS } from './time';

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
	/**
	 * This operation's own "emit existing" on first sight, overriding the poll's option: an
	 * operation discovered after the watch began is new as a whole (all its entries are emitted).
	 */
	emitExisting?: boolean;
}

export interface AdvanceResult {
	/** New entries of every operation, in emission order. */
	fresh: LogEntry[];
	next: CursorState;
	/** Operations seen for the first time in this poll (recorded, nothing emitted unless emitExisting). */
	seeded: string[];
	/**
	 * Operations with more entries ahead of the clock than their cursor remembers
	 * (MAX_AHEAD_PER_OPERATION): those entries were neither emitted nor recorded.
	 */
	aheadOverflow: Array<{ operationId: string; waiting: number }>;
}
interface OperationStep {
	fresh: LogEntry[];
	next: OperationCursor;
	/** Entries ahead of the clock left out for want of room (see AdvanceResult). */
	aheadWaiting: number;
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
	// Entries dated past the horizon (the poll's clock and its tolerance) are ahead of the clock:
	// kept apart (`x`), so that they never lift the mark (docs/architecture.md, "The log trigger").
	const horizonSecond = options.now === undefined ? undefined : aheadHorizon(options.now);
	const isAhead = (e: LogEntry) => horizonSecond !== undefined && e.second! > horizonSecond;
	const aheadBefore = new Map((decodeAhead(previous?.x ?? '') ?? []).map((i) => [idOf(i), i]));

	// The previous state: mark, floor, the exact list and the sketch.
	const markHi = previous?.m === undefined ? undefined : keyToNs(previous.m);
	const floor = markHi === undefined ? undefined : markHi - fromBase36(previous?.f ?? '0');
	const markSecond = markHi === undefined ? 0 : secondOf(markHi);
	const list =
		previous?.s && markHi !== undefined ? (decodeList(previous.s, markSecond) ?? []) : [];
	const sketch = previous?.t && markHi !== undefined ? Sketch.decode(previous.t) : undefined;
	const boundary = list.length ? Math.min(...list.map((i) => i.sec)) : Infinity;

	const allDated = entries.filter((e) => e.tsKey !== undefined);
	const dated = allDated.filter((e) => !isAhead(e));
	const aheadEntries = allDated.filter(isAhead);
	numberCopies(aheadEntries); // whole seconds: all copies of a second are on the same side
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
		if (aheadBefore.has(id)) continue; // emitted while it was ahead of the clock
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
			for (const item of difference.added) {
				if (!aheadBefore.has(idOf(item))) fresh.push(byId.get(idOf(item))!.entry);
			}
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
	// Entries ahead of the clock: those remembered stay while still ahead and returned, or, once
	// the clock caught up, while they reach the floor unless this answer returned them (then the
	// seen entries hold them); new ones are emitted and remembered while there is room.
	const aheadNow = new Map<string, { entry: LogEntry; item: Item }>();
	for (const entry of aheadEntries) {
		const { sec, k1, k2 } = seenOfEntry(entry);
		aheadNow.set(idOf({ sec, k1, k2 }), { entry, item: { sec, k1, k2 } });
	}
	const aheadFresh: LogEntry[] = [];
	let aheadWaiting = 0;
	const aheadKept = (floorNs: bigint | undefined): Item[] => {
		const kept: Item[] = [];
		for (const [id, item] of aheadBefore) {
			const still = horizonSecond !== undefined && item.sec > horizonSecond;
			if (still ? aheadNow.has(id) : !byId.has(id) && reachesSecond(item, floorNs)) {
				kept.push(item);
			}
		}
		for (const [id, { entry, item }] of aheadNow) {
			if (aheadBefore.has(id)) continue;
			if (kept.length >= MAX_AHEAD_PER_OPERATION) {
				aheadWaiting++;
				continue;
			}
			kept.push(item);
			aheadFresh.push(entry);
		}
		return kept;
	};
	const step = (op: OperationCursor, floorNs?: bigint): OperationStep => {
		const kept = aheadKept(floorNs);
		const withAhead = kept.length ? { ...op, x: encodeAhead(kept) } : op;
		return {
			fresh: options.seed ? undatedFresh : [...fresh, ...aheadFresh, ...undatedFresh],
			next: withUndated(withAhead),
			aheadWaiting,
		};
	};
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
	return step(op, nextFloor);
}

/** Whether an item's whole second reaches `floorNs` (undefined: no floor yet). */
function reachesSecond(item: Item, floorNs: bigint | undefined): boolean {
	return floorNs === undefined || (BigInt(item.sec) + 1n) * NS_PER_S - 1n >= floorNs;
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
	const ops = dict<OperationCursor>();
	const fresh: LogEntry[] = [];
	const seeded: string[] = [];
	const aheadOverflow: AdvanceResult['aheadOverflow'] = [];
	for (const { operationId, entries, emitExisting } of logs) {
		if (ops[operationId]) continue; // the same operation listed twice
		const before = state.ops[operationId];
		if (!before) seeded.push(operationId);
		const step = advanceOperation(before, entries, {
			seed: !before && !(emitExisting ?? options.emitExisting),
			share,
			lookBackMs: options.lookBackMs,
			maxWindowEntries: options.maxWindowEntries,
			now: options.now,
		});
		ops[operationId] = step.next;
		fresh.push(...step.fresh);
		if (step.aheadWaiting) aheadOverflow.push({ operationId, waiting: step.aheadWaiting });
	}
	fresh.sort(compareEntries);
	return { fresh, next: { v: CURSOR_VERSION, ops }, seeded, aheadOverflow };
}
