/**
 * The log trigger's pure cursor (nodes/IntegrationPlatformLogTrigger/logCursor.ts): keys,
 * ordering, "new" decisions, bounds, and a seeded property test against an oracle.
 */
import {
	advanceCursor,
	advanceOperation,
	canonicalJson,
	CLOCK_TOLERANCE_MS,
	compareEntries,
	CURSOR_VERSION,
	entryKeyOf,
	isoWithOriginalPrecision,
	keyToNs,
	latestEntries,
	LOOK_BACK_MS,
	MAX_UNDATED_PER_OPERATION,
	MAX_WINDOW_ENTRIES,
	MIN_BYTES_PER_OPERATION,
	normalizeEntries,
	nsToKey,
	readState,
	recordStart,
	shareOf,
	STATE_BUDGET_BYTES,
	type CursorState,
	type LogEntry,
	type OperationCursor,
} from '../../../nodes/IntegrationPlatformLogTrigger/logCursor';
import { AHEAD_ITEM_BYTES } from '../../../nodes/IntegrationPlatformLogTrigger/cursor/ahead';
import { timestampKey } from '../../../nodes/common/timestamps';

/** A small seeded PRNG (the simulator's mulberry32) so that failures reproduce. */
const prng = (
	require('../../simulator/logTransforms') as { seededRandom: (seed: number) => () => number }
).seededRandom;

const OP = 'op-1';
const OP2 = 'op-2';
const BASE = Date.UTC(2025, 5, 2, 8, 0, 0); // ms

/** RFC 3339 with microseconds at BASE + micros. */
function ts(micros: number): string {
	const ms = BASE + Math.floor(micros / 1000);
	return `${new Date(ms).toISOString().slice(0, 23)}${String(micros % 1000).padStart(3, '0')}Z`;
}

function log(micros: number, msg: string, severity = 'INFO', extra: Record<string, unknown> = {}) {
	return { timestamp: ts(micros), severity, message: { msg, ...extra } };
}

const norm = (entries: unknown[], op = OP) => normalizeEntries(op, entries);
const msgs = (entries: LogEntry[]) => entries.map((e) => (e.raw.message as { msg: string }).msg);

/** Runs polls of one operation; returns what each poll emitted and the last state. */
function polls(responses: unknown[][], options: { emitExisting?: boolean; start?: unknown } = {}) {
	let state: unknown = options.start;
	const emitted: string[][] = [];
	for (const response of responses) {
		const { fresh, next } = advanceCursor(state, [{ operationId: OP, entries: norm(response) }], {
			emitExisting: options.emitExisting,
		});
		emitted.push(msgs(fresh));
		state = next;
	}
	return { emitted, state: state as CursorState };
}

describe('canonicalJson', () => {
	test('sorts keys at every depth and keeps array order', () => {
		expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
			'{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
		);
	});

	test('undefined members are left out, undefined in arrays and at the top become null', () => {
		expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
		expect(canonicalJson([undefined, 1])).toBe('[null,1]');
		expect(canonicalJson(undefined)).toBe('null');
		expect(canonicalJson('text')).toBe('"text"');
		expect(canonicalJson(Number.NaN)).toBe('null');
	});
});

describe('entry keys', () => {
	const message = { msg: 'Fetched page', details: { records: '100', page: '2' } };

	test('are 16 base64url characters and stable whatever the key order of the message', () => {
		const a = entryKeyOf(OP, ts(1), 'INFO', message);
		const b = entryKeyOf(OP, ts(1), 'INFO', {
			details: { page: '2', records: '100' },
			msg: 'Fetched page',
		});
		expect(a).toMatch(/^[A-Za-z0-9_-]{16}$/);
		expect(a).toBe(b);
	});

	test('differ by operation, timestamp (to the second), severity and message', () => {
		const a = entryKeyOf(OP, ts(1), 'INFO', message);
		expect(entryKeyOf(OP2, ts(1), 'INFO', message)).not.toBe(a);
		expect(entryKeyOf(OP, ts(1_000_001), 'INFO', message)).not.toBe(a);
		expect(entryKeyOf(OP, ts(1), 'DEBUG', message)).not.toBe(a);
		expect(entryKeyOf(OP, ts(1), 'INFO', { ...message, msg: 'other' })).not.toBe(a);
	});

	test('use the normalised timestamp: the same instant written differently is the same entry', () => {
		const key = entryKeyOf(OP, '2025-06-02T08:15:41.5Z', 'INFO', message);
		expect(entryKeyOf(OP, '2025-06-02T08:15:41.500000Z', 'INFO', message)).toBe(key);
		expect(entryKeyOf(OP, '2025-06-02T10:15:41.500+02:00', 'INFO', message)).toBe(key);
	});

	test('do not depend on the digits below the second: a re-rendered timestamp keeps the key', () => {
		const key = entryKeyOf(OP, '2025-06-02T08:15:41.816354Z', 'INFO', message);
		expect(entryKeyOf(OP, '2025-06-02T08:15:41.816Z', 'INFO', message)).toBe(key);
		expect(entryKeyOf(OP, '2025-06-02T08:15:41Z', 'INFO', message)).toBe(key);
		expect(entryKeyOf(OP, '2025-06-02T08:15:42Z', 'INFO', message)).not.toBe(key);
	});

	test('unparseable timestamps are keyed by their text', () => {
		expect(entryKeyOf(OP, 'yesterday', 'INFO', message)).not.toBe(
			entryKeyOf(OP, 'today', 'INFO', message),
		);
		expect(entryKeyOf(OP, 'yesterday', 'INFO', message)).toBe(
			entryKeyOf(OP, 'yesterday', 'INFO', message),
		);
	});
});

describe('normalizeEntries', () => {
	test('identical entries of one response (whatever their key order) are emitted once', () => {
		const response = [
			log(1, 'a'),
			{ message: { msg: 'a' }, severity: 'INFO', timestamp: ts(1) },
			log(1, 'b'),
		];
		const entries = norm(response);
		expect(entries[0].entryKey).toBe(entries[1].entryKey);
		const sorted = (emitted: string[][]) => emitted.map((e) => [...e].sort());
		expect(sorted(polls([response], { emitExisting: true }).emitted)).toEqual([['a', 'b']]);
		expect(sorted(polls([[log(0, 'before')], response]).emitted)).toEqual([[], ['a', 'b']]);
	});

	test('keeps microseconds (Date would not): nanosecond key, ISO text with the original digits', () => {
		const [e] = norm([
			{ timestamp: '2023-07-13T21:34:44.816354Z', severity: 'DEBUG', message: { msg: 'x' } },
		]);
		expect(e.tsKey).toBe('2023-07-13T21:34:44.816354000Z');
		expect(e.iso).toBe('2023-07-13T21:34:44.816354Z');
		expect(e.ns).toBe(1689284084816354000n);
	});

	test('ISO text: offsets become UTC, fraction digits are kept as given (none, 3, 9)', () => {
		expect(
			isoWithOriginalPrecision(
				'2023-07-13T23:34:44.816354+02:00',
				timestampKey('2023-07-13T23:34:44.816354+02:00')!,
			),
		).toBe('2023-07-13T21:34:44.816354Z');
		expect(
			isoWithOriginalPrecision('2024-01-15T10:30:00Z', timestampKey('2024-01-15T10:30:00Z')!),
		).toBe('2024-01-15T10:30:00Z');
		expect(
			isoWithOriginalPrecision(
				'2024-01-15T10:30:00.120Z',
				timestampKey('2024-01-15T10:30:00.120Z')!,
			),
		).toBe('2024-01-15T10:30:00.120Z');
		expect(
			isoWithOriginalPrecision(
				'2024-01-15T10:30:00.123456789Z',
				timestampKey('2024-01-15T10:30:00.123456789Z')!,
			),
		).toBe('2024-01-15T10:30:00.123456789Z');
	});

	test('non-objects and unparseable timestamps become undated entries', () => {
		const entries = norm([
			'just text',
			{ timestamp: 'soon', severity: 'INFO', message: { msg: 'y' } },
			null,
		]);
		expect(entries).toHaveLength(3);
		expect(entries.every((e) => e.tsKey === undefined && e.iso === undefined)).toBe(true);
		expect(entries[0].raw).toEqual({ message: 'just text' });
	});

	test('keyToNs agrees with the key order', () => {
		const keys = [ts(0), ts(1), ts(999), ts(1000), ts(59_999_999)].map((t) => timestampKey(t)!);
		const ns = keys.map(keyToNs);
		for (let i = 1; i < ns.length; i++) expect(ns[i] > ns[i - 1]).toBe(true);
		expect(ns[1] - ns[0]).toBe(1000n);
	});
});

describe('ordering', () => {
	test('by timestamp to the microsecond, then by entry key; undated last', () => {
		const entries = norm([
			log(300, 'late in the ms'),
			{ timestamp: 'n/a', message: { msg: 'undated' } },
			log(0, 'first'),
			log(300, 'twin'),
		]);
		const sorted = [...entries].sort(compareEntries);
		expect(msgs(sorted).slice(0, 1)).toEqual(['first']);
		expect(msgs(sorted)[3]).toBe('undated');
		const [, x, y] = sorted;
		expect(x.tsKey).toBe(y.tsKey);
		expect(x.entryKey < y.entryKey).toBe(true);
	});

	test('latestEntries: the newest, oldest first; undated only when nothing is dated', () => {
		const entries = norm([
			log(5, 'e'),
			log(1, 'a'),
			log(3, 'c'),
			{ timestamp: 'x', message: { msg: 'u' } },
		]);
		expect(msgs(latestEntries(entries, 2))).toEqual(['c', 'e']);
		expect(msgs(latestEntries(norm([{ message: { msg: 'u' } }]), 2))).toEqual(['u']);
	});
});

describe('advanceCursor: what is new', () => {
	test('first poll starts from now: nothing emitted, later entries are', () => {
		const first = [log(1, 'a'), log(2, 'b')];
		const { emitted } = polls([first, [...first, log(3, 'c')], [...first, log(3, 'c')]]);
		expect(emitted).toEqual([[], ['c'], []]);
	});

	test('emitExisting: the first poll emits the existing entries, oldest first', () => {
		const { emitted } = polls(
			[
				[log(2, 'b'), log(1, 'a')],
				[log(1, 'a'), log(2, 'b'), log(3, 'c')],
			],
			{ emitExisting: true },
		);
		expect(emitted).toEqual([['a', 'b'], ['c']]);
	});

	test('an operation without entries at first: everything that appears later is new', () => {
		const { emitted } = polls([[], [log(1, 'a')]]);
		expect(emitted).toEqual([[], ['a']]);
	});

	test('unordered responses give the same emissions, in timestamp order', () => {
		const r1 = [log(1, 'a')];
		const r2 = [log(4, 'd'), log(1, 'a'), log(2, 'b'), log(3, 'c')];
		const r2shuffled = [log(2, 'b'), log(4, 'd'), log(3, 'c'), log(1, 'a')];
		expect(polls([r1, r2]).emitted).toEqual([[], ['b', 'c', 'd']]);
		expect(polls([r1, r2shuffled]).emitted).toEqual([[], ['b', 'c', 'd']]);
	});

	test('equal timestamps: entries sharing the mark that arrive later are emitted once', () => {
		const t = 10;
		const { emitted } = polls([
			[log(t, 'x1')],
			[log(t, 'x1'), log(t, 'x2')],
			[log(t, 'x3'), log(t, 'x1'), log(t, 'x2')],
			[log(t, 'x1'), log(t, 'x2'), log(t, 'x3')],
		]);
		expect(emitted).toEqual([[], ['x2'], ['x3'], []]);
	});

	test('a burst sharing one timestamp is emitted in entry-key order', () => {
		const burst = Array.from({ length: 20 }, (_, i) => log(50, `b${i}`));
		const { fresh } = advanceCursor(undefined, [{ operationId: OP, entries: norm(burst) }], {
			emitExisting: true,
		});
		const keys = fresh.map((e) => e.entryKey);
		expect(keys).toEqual([...keys].sort());
		expect(fresh).toHaveLength(20);
	});

	test('duplicate entries in one response are emitted once', () => {
		const { emitted } = polls([
			[log(1, 'a')],
			[log(1, 'a'), log(2, 'b'), log(2, 'b'), log(2, 'b')],
		]);
		expect(emitted).toEqual([[], ['b']]);
	});

	test('late entries: slightly older than the mark are emitted once; older than the look-back are not', () => {
		const hour = LOOK_BACK_MS * 1000; // micros
		const mark = 2 * hour;
		const { emitted } = polls([
			[log(mark, 'mark')],
			[log(mark, 'mark'), log(mark - 5_000_000, 'late by 5 s')],
			[log(mark, 'mark'), log(mark - 5_000_000, 'late by 5 s')],
			[log(mark, 'mark'), log(mark - 5_000_000, 'late by 5 s'), log(mark - hour - 1, 'too late')],
		]);
		expect(emitted).toEqual([[], ['late by 5 s'], [], []]);
	});

	test('retention: vanished entries change nothing, and they do not come back as new', () => {
		const all = [log(1, 'a'), log(2, 'b'), log(3, 'c')];
		const { emitted } = polls([
			all,
			all.slice(1),
			[...all.slice(2), log(4, 'd')],
			[log(4, 'd')],
			all.concat(log(4, 'd')),
		]);
		expect(emitted).toEqual([[], [], ['d'], [], []]);
	});

	test('re-reading: advancing twice with the same response emits nothing and keeps the state', () => {
		const response = [log(1, 'a'), log(1, 'a2'), log(2, 'b')];
		const first = advanceCursor(undefined, [{ operationId: OP, entries: norm(response) }], {
			emitExisting: true,
		});
		const again = advanceCursor(first.next, [{ operationId: OP, entries: norm(response) }]);
		expect(again.fresh).toEqual([]);
		expect(again.next).toEqual(first.next);
	});

	test('does not modify the previous state', () => {
		const first = polls([[log(1, 'a')]]).state;
		const copy = JSON.parse(JSON.stringify(first));
		advanceCursor(first, [{ operationId: OP, entries: norm([log(1, 'a'), log(2, 'b')]) }]);
		expect(first).toEqual(copy);
	});
});

describe('advanceCursor: several operations', () => {
	test('entries of all operations come out in one timestamp order', () => {
		const start = advanceCursor(undefined, [
			{ operationId: OP, entries: [] },
			{ operationId: OP2, entries: [] },
		]).next;
		const { fresh } = advanceCursor(start, [
			{ operationId: OP, entries: norm([log(3, 'op1-c'), log(1, 'op1-a')]) },
			{ operationId: OP2, entries: norm([log(2, 'op2-b')], OP2) },
		]);
		expect(msgs(fresh)).toEqual(['op1-a', 'op2-b', 'op1-c']);
		expect(fresh.map((e) => e.operationId)).toEqual([OP, OP2, OP]);
	});

	test('an operation added later starts from now on its own; removed ones leave the state', () => {
		const s1 = advanceCursor(undefined, [{ operationId: OP, entries: norm([log(1, 'a')]) }]).next;
		const r2 = advanceCursor(s1, [
			{ operationId: OP, entries: norm([log(1, 'a'), log(2, 'b')]) },
			{ operationId: OP2, entries: norm([log(1, 'old')], OP2) },
		]);
		expect(msgs(r2.fresh)).toEqual(['b']);
		expect(r2.seeded).toEqual([OP2]);
		const r3 = advanceCursor(r2.next, [
			{ operationId: OP2, entries: norm([log(1, 'old'), log(5, 'new')], OP2) },
		]);
		expect(msgs(r3.fresh)).toEqual(['new']);
		expect(Object.keys(r3.next.ops)).toEqual([OP2]);
	});

	test('the same operation listed twice is polled once', () => {
		const entries = norm([log(1, 'a')]);
		const r = advanceCursor(
			undefined,
			[
				{ operationId: OP, entries },
				{ operationId: OP, entries },
			],
			{ emitExisting: true },
		);
		expect(msgs(r.fresh)).toEqual(['a']);
	});
});

describe('stored state', () => {
	test('shape: version, per operation mark (upper end of the newest text), floor, exact list', () => {
		const { state } = polls([[log(1, 'a'), log(2, 'b')]]);
		expect(state.v).toBe(CURSOR_VERSION);
		const op = state.ops[OP];
		// ts(2) has microseconds: the instant lies somewhere in [.000002, .000003)
		expect(op.m).toBe(nsToKey(keyToNs(timestampKey(ts(2))!) + 999n));
		expect(op.f).toBe((BigInt(LOOK_BACK_MS) * 1_000_000n).toString(36)); // the look-back
		expect(op.s).toMatch(/^[A-Za-z0-9_-]+$/);
		expect(Buffer.from(op.s!, 'base64url')).toHaveLength(16); // two entries, 8 bytes each
		expect(op.t).toBeUndefined(); // nothing older than the list
	});

	test('version 1 cursors continue from their mark: later entries are emitted, the old ones are not', () => {
		const v1 = {
			v: 1,
			ops: {
				[OP]: { m: timestampKey(ts(2)), f: '0', s: ['0.AAAAAAAAAAAAAAAA'] },
				[OP2]: { s: [] },
			},
		};
		const read = readState(v1);
		expect(read.v).toBe(CURSOR_VERSION);
		expect(read.ops[OP2]).toEqual({});
		const r = advanceCursor(v1, [
			{ operationId: OP, entries: norm([log(1, 'a'), log(2, 'b'), log(3, 'c')]) },
		]);
		expect(msgs(r.fresh)).toEqual(['c']);
		expect(r.seeded).toEqual([]);
	});

	test('readState drops what it does not understand (that operation starts afresh)', () => {
		expect(readState(undefined)).toEqual({ v: CURSOR_VERSION, ops: {} });
		expect(readState({ v: 99, ops: { [OP]: { s: [] } } }).ops).toEqual({});
		const good = polls([[log(1, 'a')]]).state.ops[OP];
		const bad: Record<string, unknown> = {
			a: { s: 'x' },
			b: { m: 'not a key', s: [] },
			c: { s: ['zz'] },
			d: { m: good.m, s: ['0.short'] },
			e: { s: ['0.AAAAAAAAAAAAAAAA'] }, // keys without a mark
			f: { ...good, u: [1] },
		};
		const state = readState({ v: CURSOR_VERSION, ops: { ...bad, good } });
		expect(Object.keys(state.ops)).toEqual(['good']);
	});

	test('stays small whatever the history: 20,000 entries over 200 polls', () => {
		let state: unknown;
		let largest = 0;
		const history: ReturnType<typeof log>[] = [];
		for (let poll = 0; poll < 200; poll++) {
			for (let i = 0; i < 100; i++) history.push(log(poll * 1_000_000 + i * 7, `p${poll}-${i}`));
			const { next } = advanceCursor(state, [
				{ operationId: OP, entries: norm(history.slice(-2000)) },
			]);
			state = next;
			largest = Math.max(largest, JSON.stringify(state).length);
		}
		const op = (state as CursorState).ops[OP];
		expect(Buffer.from(op.s ?? '', 'base64url').length / 8).toBeLessThanOrEqual(
			shareOf(1).listItems,
		);
		expect(Buffer.from(op.t ?? '', 'base64url').length / 11).toBe(shareOf(1).cells);
		expect(largest).toBeLessThan(6144);
	});

	test('share per operation: the budget split equally, at least MIN_BYTES_PER_OPERATION each', () => {
		expect(shareOf(1)).toEqual({ listItems: 144, cells: 195 });
		expect(shareOf(3)).toEqual({ listItems: 48, cells: 63 });
		expect(shareOf(20)).toEqual({ listItems: 8, cells: 12 });
		for (const n of [1, 2, 3, 5, 8, 13, 20]) {
			const { listItems, cells } = shareOf(n);
			expect(cells % 3).toBe(0);
			expect(listItems * 8 + cells * 11).toBeLessThanOrEqual(
				Math.max(MIN_BYTES_PER_OPERATION, STATE_BUDGET_BYTES / n),
			);
		}
	});
});

describe('advanceOperation: window, exact list and sketch', () => {
	const share = { listItems: 4, cells: 12 };
	const opts = { seed: false, share };
	/** One entry in each whole second. */
	const second = (i: number) => log(i * 1_000_000, `s${i}`);
	const seconds = (from: number, to: number) =>
		Array.from({ length: to - from + 1 }, (_, i) => second(from + i));

	test('the newest whole seconds go to the exact list, older ones to the sketch; late entries in either are emitted once', () => {
		const all = seconds(1, 10);
		const r1 = advanceOperation(undefined, norm(all), opts);
		expect(r1.fresh).toHaveLength(10);
		expect(Buffer.from(r1.next.s!, 'base64url')).toHaveLength(4 * 8);
		expect(Buffer.from(r1.next.t!, 'base64url')).toHaveLength(12 * 11);
		const again = advanceOperation(r1.next, norm(all), opts);
		expect(again.fresh).toEqual([]);
		expect(again.next).toEqual(r1.next);
		const late = [log(2_500_000, 'late in the sketch'), log(9_500_000, 'late in the list')];
		const r2 = advanceOperation(r1.next, norm([...all, ...late]), opts);
		expect(msgs(r2.fresh).sort()).toEqual(['late in the list', 'late in the sketch']);
		expect(advanceOperation(r2.next, norm([...late, ...all]), opts).fresh).toEqual([]);
	});

	test('entries that vanish from an answer stay recorded: when they come back they are not new', () => {
		const all = seconds(1, 10);
		const r1 = advanceOperation(undefined, norm(all), opts);
		const r2 = advanceOperation(r1.next, norm(all.slice(3)), opts); // 1–3 gone (sketch)
		expect(r2.fresh).toEqual([]);
		const r3 = advanceOperation(r2.next, norm(all.filter((_, i) => i !== 8)), opts); // 9 gone (list)
		expect(r3.fresh).toEqual([]);
		expect(advanceOperation(r3.next, norm(all), opts).fresh).toEqual([]);
	});

	test('more changes below the list than the sketch can list: those late entries are skipped, the floor rises to the list, nothing repeats', () => {
		const all = Array.from({ length: 20 }, (_, i) => second(2 * i + 2)); // seconds 2, 4, …, 40
		const r1 = advanceOperation(undefined, norm(all), { seed: true, share });
		const late = Array.from({ length: 100 }, (_, i) => log(3_000_000 + i * 1_000, `late ${i}`));
		const r2 = advanceOperation(r1.next, norm([...all, ...late]), opts);
		expect(r2.fresh).toEqual([]);
		expect(r2.next.t).toBeUndefined(); // the sketch's seconds are below the floor now
		const r3 = advanceOperation(
			r2.next,
			norm([...all, ...late, second(41), log(33_000_000, 'below the list')]),
			opts,
		);
		expect(msgs(r3.fresh)).toEqual(['s41']);
		expect(advanceOperation(r3.next, norm([...all, ...late, second(41)]), opts).fresh).toEqual([]);
	});

	test('a small sketch still lists a few late entries (seeded: 300 polls of 1–4 late entries in 12 cells)', () => {
		const random = prng(77);
		const all = seconds(1, 40);
		const base = advanceOperation(undefined, norm(all), { seed: true, share }).next;
		let listed = 0;
		for (let trial = 0; trial < 300; trial++) {
			const n = 1 + Math.floor(random() * 4);
			const late = Array.from({ length: n }, (_, i) =>
				log(Math.floor(random() * 30_000_000) + 1_000_000, `late ${trial}.${i}`),
			);
			const r = advanceOperation(base, norm([...all, ...late]), opts);
			if (r.fresh.length === new Set(late.map((e) => e.message.msg)).size) listed++;
		}
		expect(listed).toBe(300);
	});

	test('MAX_WINDOW_ENTRIES: the floor rises to the N-th newest entry; late entries below it are skipped', () => {
		const all = seconds(1, 10);
		const capped = { ...opts, maxWindowEntries: 5 };
		const r1 = advanceOperation(undefined, norm(all), capped);
		const late = [log(6_500_000, 'within the newest 5'), log(5_500_000, 'beyond them')];
		expect(msgs(advanceOperation(r1.next, norm([...all, ...late]), capped).fresh)).toEqual([
			'within the newest 5',
		]);
	});
});

describe('copies (same second, severity and message, other sub-second digits)', () => {
	const copy = (micros: number) => log(micros, 'Retrying request');

	test('are distinct entries: each emitted once, exact duplicates once', () => {
		const { emitted } = polls([
			[log(0, 'history')],
			[log(0, 'history'), copy(5_100_000), copy(5_100_000), copy(5_200_000)],
			[log(0, 'history'), copy(5_100_000), copy(5_200_000), copy(5_300_000)],
			[log(0, 'history'), copy(5_300_000), copy(5_200_000), copy(5_100_000)],
		]);
		expect(emitted).toEqual([
			[],
			['Retrying request', 'Retrying request'],
			['Retrying request'],
			[],
		]);
	});

	test('one that shows up late is emitted once (with the digits of a copy that sorts after it)', () => {
		const r = polls([
			[log(0, 'history')],
			[log(0, 'history'), copy(5_200_000)],
			[log(0, 'history'), copy(5_200_000), copy(5_100_000)],
			[log(0, 'history'), copy(5_100_000), copy(5_200_000)],
		]);
		expect(r.emitted).toEqual([[], ['Retrying request'], ['Retrying request'], []]);
	});

	test('rendered with whole seconds they merge (nothing new), and come back apart (nothing new)', () => {
		const coarse = { ...copy(5_000_000), timestamp: '2025-06-02T08:00:05Z' };
		const { emitted } = polls([
			[log(0, 'history')],
			[log(0, 'history'), copy(5_100_000), copy(5_200_000)],
			[log(0, 'history'), coarse, coarse],
			[log(0, 'history'), copy(5_100_000), copy(5_200_000)],
		]);
		expect(emitted).toEqual([[], ['Retrying request', 'Retrying request'], [], []]);
	});
});

describe('the state bound as written (logCursor.ts, "Guarantee")', () => {
	const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
	test.each([
		[1, 4608],
		[10, 5427],
		[20, 7680],
	])('%i operation(s) with full lists and sketches: under %i bytes', (n, bound) => {
		const ops = Array.from({ length: n }, (_, i) => uuid(i));
		const answer = (op: string, extra: number) =>
			Array.from({ length: 3000 + extra }, (_, i) => log(i * 1_000_003, `${op} ${i}`));
		let state: unknown;
		let largest = 0;
		for (let poll = 0; poll < 3; poll++) {
			state = advanceCursor(
				state,
				ops.map((op) => ({ operationId: op, entries: norm(answer(op, poll), op) })),
			).next;
			largest = Math.max(largest, JSON.stringify(state).length);
		}
		expect(largest).toBeLessThan(bound);
	});
});

describe('advanceOperation: undated entries', () => {
	const undated = (i: number) => ({
		timestamp: `bad-${i}`,
		severity: 'INFO',
		message: { msg: `u${i}` },
	});

	test('are emitted once, after the dated ones, and forgotten when the API drops them', () => {
		const r1 = advanceOperation({}, norm([undated(1), log(1, 'a')]), { seed: false });
		expect(msgs(r1.fresh)).toEqual(['a', 'u1']);
		const r2 = advanceOperation(r1.next, norm([undated(1), log(1, 'a')]), { seed: false });
		expect(r2.fresh).toEqual([]);
		const r3 = advanceOperation(r2.next, norm([log(1, 'a')]), { seed: false });
		expect(r3.next.u).toBeUndefined();
	});

	test('the first poll records them; beyond the cap they wait instead of repeating', () => {
		const many = Array.from({ length: MAX_UNDATED_PER_OPERATION + 3 }, (_, i) => undated(i));
		const seeded = advanceOperation(undefined, norm(many.slice(0, 2)), { seed: true });
		expect(seeded.fresh).toEqual([]);
		const r1 = advanceOperation(seeded.next, norm(many), { seed: false });
		expect(r1.fresh).toHaveLength(MAX_UNDATED_PER_OPERATION - 2);
		expect(r1.next.u).toHaveLength(MAX_UNDATED_PER_OPERATION);
		const r2 = advanceOperation(r1.next, norm(many), { seed: false });
		expect(r2.fresh).toEqual([]);
		// retention frees room: the waiting ones come out, once
		const r3 = advanceOperation(r2.next, norm(many.slice(5)), { seed: false });
		const emittedOverall = new Set([...r1.fresh, ...r3.fresh].map((e) => e.entryKey));
		expect(emittedOverall.size).toBe(r1.fresh.length + r3.fresh.length);
		expect(r3.fresh.length).toBeGreaterThan(0);
	});
});

describe('property: exactly once against an oracle (pure, seeded)', () => {
	const seed = Number(process.env.LOG_CURSOR_SEED ?? 20251121);

	test(`3 operations, 2,000 polls, shuffles, duplicates, bursts, late entries, retention, stale states (seed ${seed})`, () => {
		const random = prng(seed);
		const ops = [OP, OP2, 'op-3'];
		const logs = new Map<string, ReturnType<typeof log>[]>(ops.map((o) => [o, []]));
		const clock = new Map(ops.map((o) => [o, 0]));
		let counter = 0;
		let state: unknown;
		let lastEmittedState: unknown;
		const emittedCount = new Map<string, number>();
		const mustEmit = new Set<string>();
		const history = new Set<string>();
		let largest = 0;

		for (let poll = 0; poll < 2000; poll++) {
			for (const op of ops) {
				const list = logs.get(op)!;
				const n = Math.floor(random() * 4);
				for (let i = 0; i < n; i++) {
					const burst = random() < 0.1 ? 1 + Math.floor(random() * 5) : 1;
					let t = clock.get(op)! + 1 + Math.floor(random() * 2_000_000);
					clock.set(op, t);
					// a late entry: up to 20 entries' worth below the newest (well within the window and the key cap)
					if (random() < 0.1) t -= Math.floor(random() * 2_000_000);
					for (let b = 0; b < burst; b++)
						list.push(log(Math.max(0, t), `${op}#${counter++}`, random() < 0.2 ? 'ERROR' : 'INFO'));
				}
				// retention: now and then a few of the oldest go; the log keeps at most 60 entries
				if (random() < 0.05 && list.length > 30) list.splice(0, Math.floor(random() * 10));
				if (list.length > 60) list.splice(0, list.length - 60);
			}
			const responses = ops.map((op) => {
				const list = [...logs.get(op)!];
				if (random() < 0.5) list.sort(() => random() - 0.5);
				if (random() < 0.2 && list.length) list.push(list[Math.floor(random() * list.length)]);
				return { operationId: op, entries: normalizeEntries(op, list) };
			});
			// Restart: back to the state of the last poll that emitted (n8n's default persistence).
			if (random() < 0.03 && lastEmittedState !== undefined)
				state = JSON.parse(JSON.stringify(lastEmittedState));
			const first = state === undefined;
			const { fresh, next } = advanceCursor(state, responses, { emitExisting: false });
			for (const r of responses) {
				for (const e of r.entries) {
					// the start: what exists at the first poll is history, never emitted
					if (first) history.add(e.entryKey);
					else if (!history.has(e.entryKey)) mustEmit.add(e.entryKey);
				}
			}
			// n8n persists the state after the activation poll (see the node's comment)
			if (first) lastEmittedState = next;
			for (const e of fresh) emittedCount.set(e.entryKey, (emittedCount.get(e.entryKey) ?? 0) + 1);
			state = next;
			if (fresh.length) lastEmittedState = next;
			largest = Math.max(largest, JSON.stringify(state).length);
		}
		const duplicates = [...emittedCount.values()].filter((c) => c > 1).length;
		const misses = [...mustEmit].filter((k) => !emittedCount.has(k)).length;
		// eslint-disable-next-line no-console
		console.log(
			`logCursor property seed=${seed}: ${counter} entries, ${emittedCount.size} emitted, ${duplicates} duplicates, ${misses} misses, largest state ${largest} B`,
		);
		expect(duplicates).toBe(0);
		expect(misses).toBe(0);
		expect(largest).toBeLessThan(8192);
	});
});

/**
 * Traces of the review of the cursor's edges: each one failed before the change it names
 * (bounded state for equal timestamps, "start from now" after an empty first answer, identity
 * whatever the timestamp's precision, a lateness guarantee that holds with many operations).
 */
describe('review traces', () => {
	const stateBytes = (state: unknown) => JSON.stringify(state).length;
	const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

	/** Polls several operations; `answers[i]` maps operation → its answer in poll i. */
	function multiPolls(
		ops: string[],
		answers: Array<Record<string, unknown[]>>,
		options: { now?: number } = {},
	) {
		let state: unknown;
		const emitted: string[][] = [];
		let largest = 0;
		for (const answer of answers) {
			const logs = ops.map((op) => ({ operationId: op, entries: norm(answer[op] ?? [], op) }));
			const { fresh, next } = advanceCursor(state, logs, options);
			emitted.push(msgs(fresh));
			state = next;
			largest = Math.max(largest, stateBytes(state));
		}
		return { emitted, state, largest };
	}

	test('(a) 5,000 entries sharing one timestamp: each emitted once, the state stays under 6 KB', () => {
		const t = 5_000_000;
		const burst = Array.from({ length: 5000 }, (_, i) => log(t, `same instant ${i}`));
		const history = [log(0, 'history')];
		const responses = [
			history,
			[...history, ...burst],
			[...history, ...burst],
			[...history, ...burst, log(t, 'late twin')],
			[...history, ...burst, log(t, 'late twin'), log(t + 1, 'next')],
			[...history, ...burst, log(t, 'late twin'), log(t + 1, 'next')],
		];
		let state: unknown;
		const emitted: string[][] = [];
		const sizes: number[] = [];
		for (const response of responses) {
			const { fresh, next } = advanceCursor(state, [
				{ operationId: uuid(1), entries: norm(response, uuid(1)) },
			]);
			emitted.push(msgs(fresh));
			state = next;
			sizes.push(stateBytes(state));
		}
		expect(emitted[1]).toHaveLength(5000);
		expect(new Set(emitted[1]).size).toBe(5000);
		expect(emitted.slice(2)).toEqual([[], ['late twin'], ['next'], []]);
		expect(Math.max(...sizes)).toBeLessThan(6144);
	});

	test('(a) the same with 20 operations: the whole state stays bounded', () => {
		const ops = Array.from({ length: 20 }, (_, i) => uuid(i));
		const t = 5_000_000;
		const burst = (op: string) => Array.from({ length: 5000 }, (_, i) => log(t, `${op} ${i}`));
		const seed = Object.fromEntries(ops.map((op) => [op, [log(0, 'history')]]));
		const all = Object.fromEntries(ops.map((op) => [op, [log(0, 'history'), ...burst(op)]]));
		const { emitted, largest } = multiPolls(ops, [seed, all, all]);
		expect(emitted[1]).toHaveLength(20 * 5000);
		expect(emitted[2]).toEqual([]);
		expect(largest).toBeLessThan(7680);
	});

	test('(b) an empty first answer still starts from now: the activation time is the floor', () => {
		const now = BASE + 60_000; // ms: the poll's clock, one minute after the history began
		const history = Array.from({ length: 500 }, (_, i) => log(i * 100_000, `history ${i}`));
		const after = log(61_000_000, 'after the activation');
		const { emitted } = multiPolls(
			[OP],
			[{ [OP]: [] }, { [OP]: history }, { [OP]: [...history, after] }],
			{ now },
		);
		expect(emitted).toEqual([[], [], ['after the activation']]);
	});

	test('(b) recordStart: operations without a cursor get the activation time as their floor (a failed first poll)', () => {
		const now = BASE + 60_000;
		const started = recordStart(undefined, [OP], now);
		const history = Array.from({ length: 500 }, (_, i) => log(i * 100_000, `history ${i}`));
		const r = advanceCursor(started, [{ operationId: OP, entries: norm(history) }], {
			now: now + 60_000,
		});
		expect(r.fresh).toEqual([]);
		expect(r.seeded).toEqual([]);
		const r2 = advanceCursor(
			r.next,
			[{ operationId: OP, entries: norm([...history, log(61_000_000, 'new')]) }],
			{ now: now + 120_000 },
		);
		expect(msgs(r2.fresh)).toEqual(['new']);
		// an operation that already has a cursor keeps it
		expect(recordStart(r2.next, [OP], now + 999_999)).toBeUndefined();
	});

	test('(c) a timestamp re-rendered with milliseconds or whole seconds is the same entry', () => {
		const entry = (timestamp: string) => ({ timestamp, severity: 'INFO', message: { msg: 'e' } });
		const base = [log(0, 'history')];
		const { emitted } = polls([
			base,
			[...base, entry('2025-06-02T08:00:05.123456Z')],
			[...base, entry('2025-06-02T08:00:05.123Z')],
			[...base, entry('2025-06-02T08:00:05Z')],
			[...base, entry('2025-06-02T08:00:05.123456Z')],
			[...base, entry('2025-06-02T08:00:05.1234Z'), log(6_000_000, 'later')],
		]);
		expect(emitted).toEqual([[], ['e'], [], [], [], ['later']]);
		expect(entryKeyOf(OP, '2025-06-02T08:00:05.123Z', 'INFO', { msg: 'e' })).toBe(
			entryKeyOf(OP, '2025-06-02T08:00:05.123456Z', 'INFO', { msg: 'e' }),
		);
	});

	test('(c) the other way round: seen with whole seconds first, then with microseconds', () => {
		const entry = (timestamp: string, msg: string) => ({
			timestamp,
			severity: 'INFO',
			message: { msg },
		});
		const base = [log(0, 'history')];
		const { emitted } = polls([
			base,
			[...base, entry('2025-06-02T08:00:05Z', 'a')],
			[...base, entry('2025-06-02T08:00:05.900001Z', 'a')],
			[
				...base,
				entry('2025-06-02T08:00:05.900001Z', 'a'),
				entry('2025-06-02T08:00:05.950000Z', 'b'),
			],
		]);
		expect(emitted).toEqual([[], ['a'], [], ['b']]);
	});

	test('(d) 20 operations, a burst of 40 entries, then one 0.34 s behind the newest: emitted', () => {
		const ops = Array.from({ length: 20 }, (_, i) => uuid(i));
		const seed = Object.fromEntries(ops.map((op) => [op, [log(0, `${op} history`)]]));
		const burst = Array.from({ length: 40 }, (_, i) => log(1_000_000 + i * 8_500, `burst ${i}`));
		const newest = 1_000_000 + 39 * 8_500;
		const late = log(newest - 340_000, 'late by 0.34 s');
		const withBurst = { ...seed, [ops[0]]: [...seed[ops[0]], ...burst] };
		const withLate = { ...seed, [ops[0]]: [...seed[ops[0]], ...burst, late] };
		const { emitted, largest } = multiPolls(ops, [seed, withBurst, withLate, withLate]);
		expect(emitted[1]).toHaveLength(40);
		expect(emitted.slice(2)).toEqual([['late by 0.34 s'], []]);
		expect(largest).toBeLessThan(8192);
	});

	test('(d) the guarantee as written: up to an hour and MAX_WINDOW_ENTRIES behind the newest, beyond that skipped', () => {
		const hour = LOOK_BACK_MS * 1000;
		const many = Array.from({ length: MAX_WINDOW_ENTRIES + 10 }, (_, i) =>
			log(hour + i * 10, `e${i}`),
		);
		const newest = hour + (MAX_WINDOW_ENTRIES + 9) * 10;
		const { emitted } = polls([
			[log(0, 'history')],
			[log(0, 'history'), ...many],
			[
				log(0, 'history'),
				...many,
				log(newest - 10 * (MAX_WINDOW_ENTRIES - 50) - 5, 'behind 450 entries'),
				log(newest - 10 * (MAX_WINDOW_ENTRIES + 5) - 5, 'behind 505 entries'),
				log(newest - hour - 1, 'more than an hour behind'),
			],
		]);
		expect(emitted[1]).toHaveLength(MAX_WINDOW_ENTRIES + 10);
		expect(emitted[2]).toEqual(['behind 450 entries']);
	});
});

describe('OperationCursor type', () => {
	test('a hand-made cursor is accepted', () => {
		const op: OperationCursor = { m: timestampKey(ts(1)), f: '0' };
		expect(readState({ v: CURSOR_VERSION, ops: { x: op } }).ops.x).toEqual(op);
	});
});

describe('entries ahead of the clock (cursor/ahead.ts)', () => {
	const now = BASE + 3_600_000; // the poll's clock: an hour after BASE
	const farAhead = {
		timestamp: '9999-12-31T23:59:59.000001Z',
		severity: 'INFO',
		message: { msg: 'far' },
	};
	const step = (state: unknown, entries: unknown[], at = now) =>
		advanceCursor(state, [{ operationId: OP, entries: norm(entries) }], { now: at });

	test('emitted once, never lifting the mark; the entries after it come out; the state reads back', () => {
		const first = step(undefined, [log(0, 'history')]);
		const second = step(first.next, [log(0, 'history'), farAhead, log(1_000_000, 'a')]);
		expect(msgs(second.fresh)).toEqual(['a', 'far']);
		const cursor = second.next.ops[OP];
		expect(cursor.m! < '2026').toBe(true);
		expect(Buffer.from(cursor.x!, 'base64url')).toHaveLength(AHEAD_ITEM_BYTES);
		expect(readState(JSON.parse(JSON.stringify(second.next))).ops[OP]).toEqual(cursor);
		const third = step(second.next, [
			log(0, 'history'),
			farAhead,
			log(1_000_000, 'a'),
			log(2_000_000, 'b'),
		]);
		expect(msgs(third.fresh)).toEqual(['b']);
	});

	test('one within the tolerance is the present: it lifts the mark as any other', () => {
		const soon = {
			timestamp: new Date(now + CLOCK_TOLERANCE_MS - 1000).toISOString(),
			severity: 'INFO',
			message: { msg: 'soon' },
		};
		const first = step(undefined, [log(0, 'history')]);
		const second = step(first.next, [log(0, 'history'), soon]);
		expect(msgs(second.fresh)).toEqual(['soon']);
		expect(second.next.ops[OP].x).toBeUndefined();
		expect(second.next.ops[OP].m! >= soon.timestamp.slice(0, 19)).toBe(true);
	});

	test('not emitted again when the clock reaches it', () => {
		const dayAhead = {
			timestamp: new Date(now + 86_400_000).toISOString(),
			severity: 'INFO',
			message: { msg: 'tomorrow' },
		};
		const first = step(undefined, [log(0, 'history')]);
		const second = step(first.next, [log(0, 'history'), dayAhead]);
		expect(msgs(second.fresh)).toEqual(['tomorrow']);
		const later = now + 2 * 86_400_000;
		const third = step(second.next, [log(0, 'history'), dayAhead], later);
		expect(third.fresh).toEqual([]);
		expect(third.next.ops[OP].x).toBeUndefined(); // the ordinary window holds it now
		expect(step(third.next, [log(0, 'history'), dayAhead], later).fresh).toEqual([]);
	});
});
