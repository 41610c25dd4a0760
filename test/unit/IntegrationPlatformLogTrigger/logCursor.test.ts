/**
 * The log trigger's pure cursor (nodes/IntegrationPlatformLogTrigger/logCursor.ts): keys,
 * ordering, "new" decisions, bounds, and a seeded property test against an oracle.
 */
import {
	advanceCursor,
	advanceOperation,
	canonicalJson,
	compareEntries,
	CURSOR_VERSION,
	entryKeyOf,
	isoWithOriginalPrecision,
	keysPerOperation,
	keyToNs,
	latestEntries,
	LOOK_BACK_MS,
	MAX_KEYS_PER_OPERATION,
	MAX_UNDATED_PER_OPERATION,
	MIN_KEYS_PER_OPERATION,
	normalizeEntries,
	readState,
	type CursorState,
	type LogEntry,
	type OperationCursor,
} from '../../../nodes/IntegrationPlatformLogTrigger/logCursor';
import { timestampKey } from '../../../nodes/shared/timestamps';

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

	test('differ by operation, timestamp (to the microsecond), severity and message', () => {
		const a = entryKeyOf(OP, ts(1), 'INFO', message);
		expect(entryKeyOf(OP2, ts(1), 'INFO', message)).not.toBe(a);
		expect(entryKeyOf(OP, ts(2), 'INFO', message)).not.toBe(a);
		expect(entryKeyOf(OP, ts(1), 'DEBUG', message)).not.toBe(a);
		expect(entryKeyOf(OP, ts(1), 'INFO', { ...message, msg: 'other' })).not.toBe(a);
	});

	test('use the normalised timestamp: the same instant written differently is the same entry', () => {
		const key = entryKeyOf(OP, '2025-06-02T08:15:41.5Z', 'INFO', message);
		expect(entryKeyOf(OP, '2025-06-02T08:15:41.500000Z', 'INFO', message)).toBe(key);
		expect(entryKeyOf(OP, '2025-06-02T10:15:41.500+02:00', 'INFO', message)).toBe(key);
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
		expect(polls([response], { emitExisting: true }).emitted).toEqual([['a', 'b']]);
		expect(polls([[log(0, 'before')], response]).emitted).toEqual([[], ['a', 'b']]);
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
	test('shape: version, per operation mark, floor, keys', () => {
		const { state } = polls([[log(1, 'a'), log(2, 'b')]]);
		expect(state.v).toBe(CURSOR_VERSION);
		const op = state.ops[OP];
		expect(op.m).toBe(timestampKey(ts(2)));
		expect(op.f).toMatch(/^[0-9a-z]+$/);
		expect(op.s).toHaveLength(2);
		for (const s of op.s) expect(s).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]{16}$/);
		expect(op.s[1].startsWith('0.')).toBe(true); // the mark's own entry
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

	test('stays small whatever the history: 20,000 entries over 100 polls', () => {
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
		expect((state as CursorState).ops[OP].s.length).toBeLessThanOrEqual(MAX_KEYS_PER_OPERATION);
		expect(largest).toBeLessThan(4500);
	});

	test('key share per operation: 128 for one, budget split for more, at least 32', () => {
		expect(keysPerOperation(1)).toBe(MAX_KEYS_PER_OPERATION);
		expect(keysPerOperation(3)).toBe(64);
		expect(keysPerOperation(100)).toBe(MIN_KEYS_PER_OPERATION);
	});
});

describe('advanceOperation: the key cap', () => {
	const opts = { seed: false, maxKeys: 4 };

	test('drops the oldest timestamps, raises the floor above them, and stays exact above it', () => {
		const r1 = advanceOperation(
			undefined,
			norm([1, 2, 3, 4, 5, 6].map((i) => log(i, `e${i}`))),
			opts,
		);
		expect(msgs(r1.fresh)).toHaveLength(6);
		expect(r1.next.s).toHaveLength(4);
		// e1 and e2 are below the floor now: not emitted again even though their keys are gone
		const r2 = advanceOperation(
			r1.next,
			norm([1, 2, 3, 4, 5, 6, 7].map((i) => log(i, `e${i}`))),
			opts,
		);
		expect(msgs(r2.fresh)).toEqual(['e7']);
	});

	test('a timestamp group at the cut goes as a whole', () => {
		const entries = norm([log(1, 'a'), log(2, 'b1'), log(2, 'b2'), log(3, 'c'), log(4, 'd')]);
		const r = advanceOperation(undefined, entries, opts);
		// 5 keys, cap 4: the cut falls on t=1 → kept b1, b2, c, d
		expect(r.next.s).toHaveLength(4);
		const r2 = advanceOperation(
			undefined,
			norm([log(1, 'a'), log(1, 'a2'), log(2, 'b1'), log(2, 'b2'), log(3, 'c')]),
			{
				seed: false,
				maxKeys: 3,
			},
		);
		// cut needs 2 keys gone: the t=1 group (a, a2); b1, b2, c stay
		expect(r2.next.s).toHaveLength(3);
		const again = advanceOperation(
			r2.next,
			norm([log(1, 'a'), log(1, 'a2'), log(2, 'b1'), log(2, 'b2'), log(3, 'c')]),
			{
				seed: false,
				maxKeys: 3,
			},
		);
		expect(again.fresh).toEqual([]);
	});

	test('the group at the mark is never dropped, even beyond the cap', () => {
		const burst = Array.from({ length: 10 }, (_, i) => log(9, `m${i}`));
		const r = advanceOperation(undefined, norm([log(1, 'old'), ...burst]), opts);
		expect(r.next.s).toHaveLength(10);
		const again = advanceOperation(r.next, norm([log(1, 'old'), ...burst, log(9, 'm10')]), opts);
		expect(msgs(again.fresh)).toEqual(['m10']);
	});
});

describe('advanceOperation: undated entries', () => {
	const undated = (i: number) => ({
		timestamp: `bad-${i}`,
		severity: 'INFO',
		message: { msg: `u${i}` },
	});

	test('are emitted once, after the dated ones, and forgotten when the API drops them', () => {
		const r1 = advanceOperation({ s: [] }, norm([undated(1), log(1, 'a')]), {
			seed: false,
			maxKeys: 10,
		});
		expect(msgs(r1.fresh)).toEqual(['a', 'u1']);
		const r2 = advanceOperation(r1.next, norm([undated(1), log(1, 'a')]), {
			seed: false,
			maxKeys: 10,
		});
		expect(r2.fresh).toEqual([]);
		const r3 = advanceOperation(r2.next, norm([log(1, 'a')]), { seed: false, maxKeys: 10 });
		expect(r3.next.u).toBeUndefined();
	});

	test('the first poll records them; beyond the cap they wait instead of repeating', () => {
		const many = Array.from({ length: MAX_UNDATED_PER_OPERATION + 3 }, (_, i) => undated(i));
		const seeded = advanceOperation(undefined, norm(many.slice(0, 2)), { seed: true, maxKeys: 10 });
		expect(seeded.fresh).toEqual([]);
		const r1 = advanceOperation(seeded.next, norm(many), { seed: false, maxKeys: 10 });
		expect(r1.fresh).toHaveLength(MAX_UNDATED_PER_OPERATION - 2);
		expect(r1.next.u).toHaveLength(MAX_UNDATED_PER_OPERATION);
		const r2 = advanceOperation(r1.next, norm(many), { seed: false, maxKeys: 10 });
		expect(r2.fresh).toEqual([]);
		// retention frees room: the waiting ones come out, once
		const r3 = advanceOperation(r2.next, norm(many.slice(5)), { seed: false, maxKeys: 10 });
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

describe('OperationCursor type', () => {
	test('a hand-made cursor is accepted', () => {
		const op: OperationCursor = { s: [] };
		expect(readState({ v: CURSOR_VERSION, ops: { x: op } }).ops.x).toEqual({ s: [] });
	});
});
