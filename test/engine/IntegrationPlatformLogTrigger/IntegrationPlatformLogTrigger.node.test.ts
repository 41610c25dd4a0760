/**
 * The log trigger's real poll() against the simulator, deterministic cases: output shape,
 * "start from now", several operations, filters, failures that leave the cursor alone, "Fetch
 * Test Event", restarts under n8n's persistence rules, and the documented limits.
 */
import type { IDataObject } from 'n8n-workflow';

import { CURSOR_VERSION } from '../../../nodes/IntegrationPlatformLogTrigger/logCursor';
import { REQUEST_TIMEOUT_MS } from '../../../nodes/IntegrationPlatformLogTrigger/transport';
import {
	isoMicros,
	json,
	msgs,
	rl,
	runner,
	SEED,
	useLogSimulator,
} from '../../harness/logTriggerEngine';
import { fakeDateOnly } from '../../harness/fakeDate';
import type { PollRunner } from '../../harness/poll';
import { triggerSchemaErrors } from '../../harness/outputSchemas';

const sim = useLogSimulator();

const OP = SEED.operationId;
const OP2 = SEED.secondOperationId;
const logRequests = () => sim().journal.find({ routeId: 'listOperationLogs' });

/**
 * The tests that stamp entries in 2031–2032 run on a clock set after them (Date alone), so that
 * those entries are the present to the trigger, not ahead of its clock (clockAhead.test.ts).
 */
function useClockAfterTheTestTimestamps() {
	beforeEach(() => {
		fakeDateOnly();
		jest.setSystemTime(new Date('2033-01-01T00:00:00.000Z'));
	});
	afterEach(() => jest.useRealTimers());
}

describe('first poll and output', () => {
	test('starts from now: the activation poll emits nothing and records the history; new entries come out once, oldest first', async () => {
		const r = runner(sim(), {});
		const first = await r.poll();
		expect(first.error).toBeUndefined();
		expect(first).toMatchObject({ items: null, persisted: true });
		const cursor = r.staticData.logCursor as IDataObject;
		// the mark: the newest entry's timestamp, to the end of its last digit (a microsecond)
		expect(cursor).toMatchObject({
			v: CURSOR_VERSION,
			ops: { [OP]: { m: '2025-06-02T08:15:46.000001999Z' } },
		});

		const a = sim().appendLog(OP, { severity: 'WARNING', message: { msg: 'first new' } });
		const b = sim().appendLog(OP, {
			severity: 'ERROR',
			message: { msg: 'second new', error: 'boom' },
		});
		sim().journal.clear();
		const second = await r.poll();
		expect(msgs(second.items)).toEqual(['first new', 'second new']);
		expect(second.persisted).toBe(true);
		const [item] = json(second.items);
		expect(item).toEqual({
			timestamp: a.timestamp,
			severity: 'WARNING',
			message: { msg: 'first new', operation_id: OP },
			timestampIso: a.timestamp,
			operationId: OP,
			projectId: SEED.projectId,
			entryKey: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
		});
		expect(json(second.items)[1].timestamp).toBe(b.timestamp);
		// the project was named, so its ID was looked up once, with the same credential
		expect(sim().journal.find({ routeId: 'getProject' })).toHaveLength(1);
		expect(logRequests()[0].headers['x-api-key']).toBe(SEED.apiKey);

		sim().journal.clear();
		expect((await r.poll()).items).toBeNull();
		expect(sim().journal.find({ routeId: 'getProject' })).toHaveLength(0);
		expect(logRequests()).toHaveLength(1);
	});

	test('timestamps keep their microseconds; entries 1 µs apart are told apart and ordered', async () => {
		const r = runner(sim(), {});
		await r.poll();
		sim().appendLog(OP, {
			timestamp: '2030-01-01T00:00:00.000002Z',
			message: { msg: 'second µs' },
		});
		sim().appendLog(OP, { timestamp: '2030-01-01T00:00:00.000001Z', message: { msg: 'first µs' } });
		sim().appendLog(OP, {
			timestamp: '2030-01-01T01:00:00.000001+01:00',
			message: { msg: 'same instant, other zone' },
		});
		const out = await r.poll();
		const rows = json(out.items).map((j) => [(j.message as IDataObject).msg, j.timestampIso]);
		// two entries at the same instant (written in two zones) come out by entry key, before the later one
		expect(rows.slice(0, 2).map((r) => r[1])).toEqual([
			'2030-01-01T00:00:00.000001Z',
			'2030-01-01T00:00:00.000001Z',
		]);
		expect(
			rows
				.slice(0, 2)
				.map((r) => r[0])
				.sort(),
		).toEqual(['first µs', 'same instant, other zone']);
		expect(rows[2]).toEqual(['second µs', '2030-01-01T00:00:00.000002Z']);
		const keys = json(out.items)
			.slice(0, 2)
			.map((j) => j.entryKey as string);
		expect(keys[0] < keys[1]).toBe(true);
	});

	test('emitExisting: the first poll emits the whole history oldest first (shared timestamp by key)', async () => {
		const r = runner(sim(), { options: { emitExisting: true } });
		const out = await r.poll();
		const items = json(out.items);
		expect(items).toHaveLength(12);
		// Version 1 (the harness's), as the editor previews it (__schema__/v1.0.0.json).
		expect(triggerSchemaErrors('IntegrationPlatformLogTrigger', 1, items)).toEqual([]);
		const stamps = items.map((i) => i.timestampIso as string);
		expect(stamps).toEqual([...stamps].sort());
		const shared = items.filter((i) => i.timestamp === SEED.sharedLogTimestamp);
		expect(shared).toHaveLength(2);
		expect((shared[0].entryKey as string) < (shared[1].entryKey as string)).toBe(true);
		expect((await r.poll()).items).toBeNull();
	});

	test('project by ID: no lookup; bearer token credential works too', async () => {
		const r = runner(sim(), { authentication: 'bearerToken', project: rl(SEED.projectId, 'id') });
		await r.poll();
		sim().appendLog(OP, { message: { msg: 'x' } });
		sim().journal.clear();
		const out = await r.poll();
		expect(json(out.items)[0].projectId).toBe(SEED.projectId);
		expect(sim().journal.find({ routeId: 'getProject' })).toHaveLength(0);
		expect(logRequests()[0].headers.authorization).toBe(`Bearer ${SEED.bearerToken}`);
	});
});

describe('several operations', () => {
	test('entries of all operations in one timestamp order; an operation added later starts from now; removed ones leave the state', async () => {
		const op3 = sim().addOperation().id;
		const r = runner(sim(), { operationIds: `${OP}, ${OP2}` });
		await r.poll();
		sim().appendLog(OP2, { timestamp: '2030-01-01T00:00:02.000000Z', message: { msg: 'op2 b' } });
		sim().appendLog(OP, { timestamp: '2030-01-01T00:00:03.000000Z', message: { msg: 'op1 c' } });
		sim().appendLog(OP, { timestamp: '2030-01-01T00:00:01.000000Z', message: { msg: 'op1 a' } });
		const out = await r.poll();
		expect(msgs(out.items)).toEqual(['op1 a', 'op2 b', 'op1 c']);
		expect(json(out.items).map((j) => j.operationId)).toEqual([OP, OP2, OP]);

		sim().appendLog(op3, { message: { msg: 'op3 history' } });
		const r2 = runner(sim(), { operationIds: [OP2, op3] });
		r2.persistedJson = r.persistedJson;
		r2.restart();
		expect((await r2.poll()).items).toBeNull(); // op3 is new: start from now
		expect(Object.keys((r2.staticData.logCursor as IDataObject).ops as IDataObject).sort()).toEqual(
			[OP2, op3].sort(),
		);
		sim().appendLog(op3, { message: { msg: 'op3 new' } });
		expect(msgs((await r2.poll()).items)).toEqual(['op3 new']);
	});

	test('operation IDs: comma, space or newline separated, or a list; duplicates polled once', async () => {
		const r = runner(sim(), { operationIds: `${OP},${OP}\n ${OP2}` });
		await r.poll();
		expect(logRequests().map((e) => e.pathname.split('/')[5])).toEqual([OP, OP2]);
	});
});

describe('filters', () => {
	test('severity (common and custom, any case) and message text (msg or error); filtered entries still move the cursor', async () => {
		const r = runner(sim(), {
			severities: ['ERROR'],
			options: { customSeverities: 'warn, Fatal', messageContains: 'TIMEOUT' },
		});
		await r.poll();
		sim().appendLog(OP, { severity: 'error', message: { msg: 'Read timeout' } });
		sim().appendLog(OP, {
			severity: 'ERROR',
			message: { msg: 'Failed', error: 'upstream timeout' },
		});
		sim().appendLog(OP, { severity: 'warn', message: { msg: 'slow: timeout soon' } });
		sim().appendLog(OP, { severity: 'INFO', message: { msg: 'timeout (but INFO)' } });
		sim().appendLog(OP, { severity: 'ERROR', message: { msg: 'other error' } });
		const out = await r.poll();
		expect(msgs(out.items)).toEqual(['Read timeout', 'Failed', 'slow: timeout soon']);
		// the INFO and "other error" entries are not new any more
		const all = runner(sim(), { options: {} });
		all.persistedJson = r.persistedJson;
		all.restart();
		expect((await all.poll()).items).toBeNull();
	});

	test('a poll whose new entries are all filtered out returns null; re-reading after a restart stays quiet', async () => {
		const r = runner(sim(), { severities: ['CRITICAL'] });
		await r.poll();
		sim().appendLog(OP, { severity: 'INFO', message: { msg: 'noise' } });
		const quiet = await r.poll();
		expect(quiet).toMatchObject({ items: null, persisted: false });
		r.restart(); // back to the activation's copy: the INFO entry is read again, and filtered again
		expect((await r.poll()).items).toBeNull();
		sim().appendLog(OP, { severity: 'critical', message: { msg: 'signal' } });
		expect(msgs((await r.poll()).items)).toEqual(['signal']);
	});
});

describe('failures leave the cursor where it was', () => {
	const cases: Array<[string, IDataObject, RegExp]> = [
		['500', { status: 500 }, /Could not get the logs of operation .*: Internal Server Error/],
		['429 with Retry-After', { status: 429, retryAfterSeconds: 7 }, /Too Many Requests/],
		[
			'timeout (hang)',
			{ hang: true },
			/: The Integration Platform API at 127\.0\.0\.1:\d+ did not answer in time$/,
		],
		[
			'malformed JSON',
			{ malformed: true },
			/: The service answered HTTP 200 with a body that is not valid JSON$/,
		],
		[
			'connection reset',
			{ reset: true },
			/: The Integration Platform API at 127\.0\.0\.1:\d+ closed the connection before answering$/,
		],
		[
			'not an array',
			{ status: 200, body: { results: [] } },
			/expected a JSON array of log entries, got object/,
		],
	];

	test.each(cases)(
		'%s on the second of two operations: clear error, static data untouched, next poll emits once',
		async (_name, fault, message) => {
			const r = runner(sim(), { operationIds: `${OP}, ${OP2}` });
			await r.poll();
			sim().appendLog(OP, { message: { msg: 'one' } });
			sim().appendLog(OP2, { message: { msg: 'two' } });
			const before = JSON.stringify(r.staticData);
			const persistedBefore = r.persistedJson;
			sim().faults.add({ route: 'listOperationLogs', skip: 1, times: 1, ...fault });
			const failed = await r.poll();
			expect(failed.items).toBeNull();
			expect(failed.error?.message).toMatch(message);
			expect(failed.error?.message).toContain(OP2);
			expect(failed.error?.description).toMatch(/cursor did not move/);
			// the hang ended by the node's own request timeout (the harness ends it at once,
			// test/harness/hangs.ts), not by a shorter deadline of the test's
			if (fault.hang)
				expect(failed.error?.description).toContain(`timeout of ${REQUEST_TIMEOUT_MS}ms exceeded`);
			expect(JSON.stringify(r.staticData)).toBe(before);
			expect(r.persistedJson).toBe(persistedBefore);
			const next = await r.poll();
			expect(msgs(next.items)).toEqual(['one', 'two']);
		},
	);

	test('429: the problem document and Retry-After reach the error description', async () => {
		const r = runner(sim(), {});
		await r.poll();
		sim().faults.add({ route: 'listOperationLogs', status: 429, retryAfterSeconds: 7, times: 1 });
		const failed = await r.poll();
		expect(failed.error?.constructor.name).toBe('NodeApiError');
		expect(failed.error?.httpCode).toBe('429');
		expect(failed.error?.description).toMatch(/retry after 7 s/);
	});

	test("unknown operation: 404 with the service's words", async () => {
		const r = runner(sim(), { operationIds: 'no-such-operation' });
		const failed = await r.poll();
		expect(failed.error?.message).toMatch(
			/Could not get the logs of operation no-such-operation: .*Operation not found/,
		);
		expect(r.nextPollIsActivation).toBe(true); // n8n retries a failed activation
	});

	test('the project lookup failing: nothing emitted, cursor unchanged, emitted on the next poll', async () => {
		const r = runner(sim(), {});
		await r.poll();
		sim().appendLog(OP, { message: { msg: 'waiting for the project id' } });
		const before = JSON.stringify(r.staticData);
		sim().faults.add({ route: 'getProject', status: 503, times: 1 });
		const failed = await r.poll();
		expect(failed.error?.message).toMatch(/Could not get project demo-project/);
		expect(JSON.stringify(r.staticData)).toBe(before);
		expect(msgs((await r.poll()).items)).toEqual(['waiting for the project id']);
	});

	test('parameter problems are reported before any request', async () => {
		expect((await runner(sim(), { operationIds: ' , ' }).poll()).error?.message).toBe(
			'Enter at least one operation ID',
		);
		expect((await runner(sim(), { project: rl('', 'name') }).poll()).error?.message).toBe(
			'Select a project',
		);
		const many = Array.from({ length: 21 }, (_, i) => `op-${i}`).join(',');
		expect((await runner(sim(), { operationIds: many }).poll()).error?.message).toBe(
			'Too many operation IDs: 21',
		);
		expect(logRequests()).toHaveLength(0);
	});
});

/**
 * Traces of the review of the cursor's edges, through the real poll(): each failed before the
 * change it names (see the same traces in test/unit/IntegrationPlatformLogTrigger/logCursor.test.ts).
 */
/** The persisted poll state, and apart from it the hand-off's copy of an earlier one (handOff.ts). */
function pollStateBytes(r: PollRunner): number {
	const { handOff, ...state } = (JSON.parse(r.persistedJson) as IDataObject)[
		`node:${r.node.name}`
	] as IDataObject;
	return Math.max(JSON.stringify(state).length, JSON.stringify(handOff ?? {}).length);
}

describe('review traces', () => {
	useClockAfterTheTestTimestamps();
	test('(a) 5,000 entries sharing one timestamp: each emitted once, static data under 6 KB', async () => {
		const r = runner(sim(), {});
		await r.poll();
		const shared = '2031-02-03T04:05:06.000007Z';
		sim().appendLogBurst(OP, 5000, { timestamp: shared });
		const out = await r.poll();
		expect(out.items).toHaveLength(5000);
		expect(new Set(msgs(out.items)).size).toBe(5000);
		expect(pollStateBytes(r)).toBeLessThan(6144);
		expect((await r.poll()).items).toBeNull();
		sim().appendLog(OP, { timestamp: shared, message: { msg: 'late twin' } });
		expect(msgs((await r.poll()).items)).toEqual(['late twin']);
		expect((await r.poll()).items).toBeNull();
		expect(pollStateBytes(r)).toBeLessThan(6144);
	});

	test.each([
		['an empty answer', { status: 200, body: [] }],
		['a failed request', { status: 500 }],
	])(
		'(b) %s on the first poll: the history stays history, what comes after the activation is emitted',
		async (_name, fault) => {
			// stamped a minute before and after the activation: the simulator's clock may be a few
			// milliseconds off n8n's (the documented clock-skew limit is not what this is about)
			const activation = Date.now() * 1000;
			for (let i = 0; i < 500; i++) {
				sim().appendLog(OP, {
					timestamp: isoMicros(activation - 60_000_000 + i),
					message: { msg: `history ${i}` },
				});
			}
			sim().faults.add({ route: 'listOperationLogs', times: 1, ...fault });
			const r = runner(sim(), {});
			expect((await r.poll()).items).toBeNull();
			sim().appendLog(OP, {
				timestamp: isoMicros(activation + 60_000_000),
				message: { msg: 'after the activation' },
			});
			expect(msgs((await r.poll()).items)).toEqual(['after the activation']);
			expect((await r.poll()).items).toBeNull();
		},
	);

	test('(c) an entry re-rendered with milliseconds, then whole seconds, is not emitted again', async () => {
		const r = runner(sim(), {});
		await r.poll();
		sim().appendLog(OP, { timestamp: '2031-03-04T05:06:07.123456Z', message: { msg: 'once' } });
		expect(msgs((await r.poll()).items)).toEqual(['once']);
		sim().faults.add({ route: 'listOperationLogs', logs: { coarsen: 'millisecond' } });
		expect((await r.poll()).items).toBeNull();
		sim().faults.clear();
		sim().faults.add({ route: 'listOperationLogs', logs: { coarsen: 'second' } });
		expect((await r.poll()).items).toBeNull();
		sim().faults.clear();
		expect((await r.poll()).items).toBeNull();
	});

	test('(d) 20 operations, a burst of 40 entries, then one 0.34 s behind the newest: emitted once', async () => {
		const ops = [OP, OP2];
		while (ops.length < 20) ops.push(sim().addOperation().id);
		const r = runner(sim(), { operationIds: ops.join(',') });
		await r.poll();
		const start = Date.UTC(2032, 0, 1) * 1000;
		for (let i = 0; i < 40; i++)
			sim().appendLog(OP, {
				timestamp: isoMicros(start + i * 8_500),
				message: { msg: `burst ${i}` },
			});
		expect((await r.poll()).items).toHaveLength(40);
		sim().appendLog(OP, {
			timestamp: isoMicros(start + 39 * 8_500 - 340_000),
			message: { msg: 'late by 0.34 s' },
		});
		expect(msgs((await r.poll()).items)).toEqual(['late by 0.34 s']);
		expect((await r.poll()).items).toBeNull();
		expect(r.persistedJson.length).toBeLessThan(8192);
	});

	test.each([
		['by name (looked up before the first emission)', {}],
		['by ID (no lookup)', { project: rl(SEED.projectId, 'id') }],
	])(
		'two overlapping slow polls (n8n does not serialize them), project %s: each entry once',
		async (_name, parameters) => {
			const r = runner(sim(), parameters);
			await r.poll();
			sim().appendLog(OP, { message: { msg: 'one' } });
			sim().appendLog(OP, { message: { msg: 'two' } });
			sim().faults.add({ route: 'getProject', latencyMs: 150 });
			sim().faults.add({ route: 'listOperationLogs', latencyMs: 50 });
			const [a, b] = await Promise.all([r.poll(), r.poll()]);
			expect(a.error ?? b.error).toBeUndefined();
			expect([...msgs(a.items), ...msgs(b.items)]).toEqual(['one', 'two']);
			expect((await r.poll()).items).toBeNull();
		},
	);
});

describe("the API's liberties (simulator transformations)", () => {
	useClockAfterTheTestTimestamps();
	test('shuffled answers, duplicates inside one answer, dropped oldest entries: each entry once', async () => {
		const r = runner(sim(), {});
		await r.poll();
		const emitted: string[] = [];
		for (let i = 0; i < 6; i++) {
			sim().appendLog(OP, { message: { msg: `e${i}` } });
			sim().faults.clear();
			sim().faults.add({
				route: 'listOperationLogs',
				logs: { shuffle: true, duplicate: 4, dropOldest: i % 2, seed: i },
			});
			emitted.push(...msgs((await r.poll()).items));
		}
		expect(emitted).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5']);
	});

	test('timestamps cut to whole seconds (many entries share one): each entry once, later ones too', async () => {
		sim().faults.add({ route: 'listOperationLogs', logs: { coarsen: 'second' } });
		const r = runner(sim(), {});
		await r.poll();
		const shared = '2031-05-05T10:00:00.250000Z';
		sim().appendLog(OP, { timestamp: shared, message: { msg: 'a' } });
		sim().appendLog(OP, { timestamp: shared, message: { msg: 'b' } });
		const first = await r.poll();
		expect(msgs(first.items).sort()).toEqual(['a', 'b']);
		expect(json(first.items)[0].timestamp).toBe('2031-05-05T10:00:00Z');
		sim().appendLog(OP, {
			timestamp: '2031-05-05T10:00:00.900000Z',
			message: { msg: 'c, same second' },
		});
		expect(msgs((await r.poll()).items)).toEqual(['c, same second']);
		expect((await r.poll()).items).toBeNull();
	});

	test("bursts sharing the mark's timestamp, late entries and retention", async () => {
		const r = runner(sim(), {});
		await r.poll();
		const burst = sim().appendLogBurst(OP, 3, { timestamp: '2032-01-01T00:00:00.000500Z' });
		expect(msgs((await r.poll()).items)).toHaveLength(3);
		sim().appendLog(OP, {
			timestamp: burst[0].timestamp,
			message: { msg: 'late twin of the burst' },
		});
		sim().appendLog(OP, {
			timestamp: '2031-12-31T23:59:58.000000Z',
			message: { msg: 'two seconds late' },
		});
		expect(msgs((await r.poll()).items)).toEqual(['two seconds late', 'late twin of the burst']);
		sim().applyLogRetention({ keepLast: 2 });
		expect((await r.poll()).items).toBeNull();
		sim().appendLog(OP, {
			timestamp: '2032-01-01T00:00:01.000000Z',
			message: { msg: 'after retention' },
		});
		expect(msgs((await r.poll()).items)).toEqual(['after retention']);
		// documented limit: more than the look-back (1 h) below the newest entry is too late
		sim().appendLog(OP, {
			timestamp: '2031-12-31T22:00:00.000000Z',
			message: { msg: 'two hours before the mark' },
		});
		expect((await r.poll()).items).toBeNull();
	});

	test('static data stays small with a long history', async () => {
		const r = runner(sim(), {});
		await r.poll();
		for (let i = 0; i < 3000; i++) sim().appendLog(OP, { message: { msg: `bulk ${i}` } });
		const out = await r.poll();
		expect(out.items).toHaveLength(3000);
		expect(r.persistedJson.length).toBeLessThan(4500);
	});
});

describe('Fetch Test Event (manual mode)', () => {
	test('returns the latest 5 entries, oldest first, and neither reads nor writes the cursor', async () => {
		const r = runner(sim(), { operationIds: `${OP} ${OP2}` });
		const out = await r.poll('manual');
		const items = json(out.items);
		expect(items).toHaveLength(5);
		const stamps = items.map((i) => i.timestampIso as string);
		expect(stamps).toEqual([...stamps].sort());
		expect(items[4]).toMatchObject({ operationId: OP2, projectId: SEED.projectId });
		expect(r.staticData.logCursor).toBeUndefined();
		expect(r.persistedJson).toBe('{}');
		// production still starts from now afterwards
		expect((await r.poll()).items).toBeNull();
	});

	test('applies the filters; says so when nothing matches', async () => {
		const errors = await runner(sim(), { severities: ['ERROR'] }).poll('manual');
		expect(msgs(errors.items)).toEqual(['Failed to fetch associations']);
		const none = await runner(sim(), { severities: ['EMERGENCY'] }).poll('manual');
		expect(none.error?.message).toBe(
			'No log entry matches the filters (severity EMERGENCY) among 12 entries',
		);
		const empty = await runner(sim(), { operationIds: sim().addOperation().id }).poll('manual');
		expect(empty.error?.message).toBe('The operations have no log entries yet');
	});
});

describe("restarts and n8n's persistence (see the node's comment and test/harness/poll.ts)", () => {
	test('n8n 2.41 default: a restart before any emission neither replays history nor skips what came meanwhile', async () => {
		const r = runner(sim(), {}, { persistence: 'legacy' });
		expect((await r.poll()).persisted).toBe(true); // the activation poll's record is saved
		sim().appendLog(OP, { message: { msg: 'seen by a null poll? no: emitted' } });
		sim().appendLog(OP, { severity: 'X', message: { msg: 'meanwhile' } });
		r.restart();
		expect(msgs((await r.poll()).items)).toEqual(['seen by a null poll? no: emitted', 'meanwhile']);
		r.restart();
		expect((await r.poll()).items).toBeNull();
	});

	test('durable scheduler without durable cursors (each tick from the database): still exactly once', async () => {
		const r = runner(sim(), { severities: ['ERROR'] }, { persistence: 'freshPerTick' });
		await r.poll();
		sim().appendLog(OP, { severity: 'INFO', message: { msg: 'filtered' } });
		expect((await r.poll()).items).toBeNull();
		sim().appendLog(OP, { severity: 'ERROR', message: { msg: 'kept' } });
		expect(msgs((await r.poll()).items)).toEqual(['kept']);
		expect((await r.poll()).items).toBeNull();
	});

	test('the same with "emit existing": nothing is skipped under durable cursors', async () => {
		const r = runner(sim(), { options: { emitExisting: true } }, { persistence: 'durableCursors' });
		expect((await r.poll()).items).toHaveLength(12);
		sim().appendLog(OP, { message: { msg: 'next' } });
		r.restart();
		expect(msgs((await r.poll()).items)).toEqual(['next']);
	});

	test("static data is only replaced at the top level (what n8n's observable object notices)", async () => {
		const r = runner(sim(), {});
		await r.poll();
		sim().appendLog(OP, { message: { msg: 'x' } });
		const out = await r.poll();
		expect(out.persisted).toBe(true);
		expect(JSON.parse(r.persistedJson)['node:Log Trigger'].logCursor).toEqual(
			JSON.parse(JSON.stringify(r.staticData.logCursor)),
		);
	});
});
