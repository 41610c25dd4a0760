'use strict';

// These tests wait for the simulator's processes, timers and sockets: a deadline only a hang
// reaches (Jest's default of 5 s can be reached by a loaded machine).
jest.setTimeout(60_000);

// Log growth (logGrowth.js), retention and bursts (index.js), and the logs route's response
// transformations (logTransforms.js via fault rules): what the log trigger is tested against.

const { spawn } = require('node:child_process');
const path = require('node:path');
const axios = require('axios');
const { setup, MICROS, P, SEED } = require('./helpers');
const { createLogGrowth } = require('../../simulator/logGrowth');
const {
	transformLogs,
	seededRandom,
	coarsenTimestamp,
	checkTransform,
} = require('../../simulator/logTransforms');
const { parseMicros } = require('../../simulator/time');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves once `probe()` is true; fails only after a deadline that only a hang reaches. */
async function until(what, probe, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	while (!(await probe())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(10);
	}
}
const logsUrl = (op = SEED.operationId) => `${P}/operations/${op}/logs`;

let t;
beforeAll(async () => {
	t = await setup();
});
afterEach(() => t.sim.reset());
afterAll(() => t.sim.close());

describe('log growth', () => {
	test('startSimulator({ logGrowth }) appends entries on a timer, microsecond timestamps', async () => {
		const sim = await require('../../simulator').startSimulator({
			logGrowth: { intervalMs: 20, perTick: 2 },
		});
		try {
			const before = 12;
			// two ticks, however long the machine takes for them
			await until('two ticks', () => sim.state.logs.get(SEED.operationId).length >= before + 4);
			const logs = sim.state.logs.get(SEED.operationId);
			const added = logs.slice(before);
			for (const entry of added) {
				expect(entry.timestamp).toMatch(MICROS);
				expect(entry.message).toMatchObject({
					msg: expect.any(String),
					operation_id: SEED.operationId,
					details: { tick: expect.any(String) },
				});
			}
			const ticks = sim.stopLogGrowth();
			expect(ticks).toBeGreaterThanOrEqual(2);
			const count = sim.state.logs.get(SEED.operationId).length;
			await sleep(60);
			expect(sim.state.logs.get(SEED.operationId).length).toBe(count);
		} finally {
			await sim.close();
		}
	});

	test('sim.startLogGrowth: several operations, visible through the API; reset() stops it', async () => {
		const growth = t.sim.startLogGrowth({
			intervalMs: 15,
			operations: [SEED.operationId, SEED.secondOperationId],
		});
		await until(
			'entries on the second operation',
			() => (t.sim.state.logs.get(SEED.secondOperationId) ?? []).length > 3,
		);
		expect(growth.running).toBe(true);
		const res = await t.api.get(logsUrl(SEED.secondOperationId));
		expect(res.status).toBe(200);
		expect(res.data.length).toBeGreaterThan(3);
		t.sim.reset();
		expect(growth.running).toBe(false);
	});

	test('tick(): severities in turn, ERROR entries carry message.error', () => {
		const sink = {
			entries: [],
			appendLog(operationId, partial) {
				this.entries.push({ operationId, ...partial });
				return partial;
			},
		};
		const growth = createLogGrowth(sink, { perTick: 6, operations: ['op'] });
		growth.tick();
		expect(sink.entries.map((e) => e.severity)).toEqual([
			'INFO',
			'DEBUG',
			'INFO',
			'WARNING',
			'INFO',
			'ERROR',
		]);
		expect(sink.entries[5].message.error).toMatch(/502/);
		expect(growth.appended).toHaveLength(6);
	});

	test('tick(): bursts share one timestamp; late entries are stamped in the past', () => {
		const sink = {
			entries: [],
			appendLog(operationId, partial) {
				this.entries.push(partial);
				return partial;
			},
		};
		const growth = createLogGrowth(sink, {
			perTick: 3,
			operations: ['op'],
			burstEvery: 1,
			burstSize: 4,
			lateEvery: 7,
			lateByMs: 5000,
		});
		growth.tick();
		const burst = sink.entries.slice(0, 4);
		expect(new Set(burst.map((e) => e.timestamp)).size).toBe(1);
		const rest = sink.entries.slice(4);
		const late = rest.find((e) => /Late entry/.test(e.message.msg));
		expect(late).toBeDefined();
		expect(parseMicros(late.timestamp)).toBeLessThan(parseMicros(burst[0].timestamp) - 4_000_000);
	});

	test('rejects nonsense options', () => {
		expect(() => createLogGrowth(t.sim, { intervalMs: 0 })).toThrow(/intervalMs/);
		expect(() => createLogGrowth(t.sim, { perTick: 1.5 })).toThrow(/perTick/);
	});
});

describe('bursts and retention (state)', () => {
	test('appendLogBurst: N entries sharing one timestamp', async () => {
		const burst = t.sim.appendLogBurst(SEED.operationId, 5, { severity: 'DEBUG' });
		expect(burst).toHaveLength(5);
		expect(new Set(burst.map((e) => e.timestamp)).size).toBe(1);
		expect(new Set(burst.map((e) => e.message.msg)).size).toBe(5);
		const res = await t.api.get(logsUrl());
		expect(res.data.filter((e) => e.timestamp === burst[0].timestamp)).toHaveLength(5);
	});

	test('applyLogRetention({ keepLast }) keeps the newest entries of each operation', async () => {
		const second = t.sim.state.logs.get(SEED.secondOperationId).length;
		const removed = t.sim.applyLogRetention({ keepLast: 3 });
		const logs = (await t.api.get(logsUrl())).data;
		expect(logs.map((e) => e.message.msg)).toEqual([
			'Retry succeeded',
			'Read finished',
			'Operation complete',
		]);
		expect(removed).toBe(12 - 3 + Math.max(0, second - 3));
		expect(t.sim.state.logs.get(SEED.secondOperationId)).toHaveLength(Math.min(3, second));
	});

	test('applyLogRetention({ maxAgeMs, operationId }) measures from the newest entry (or `now`)', () => {
		const second = t.sim.state.logs.get(SEED.secondOperationId).length;
		// seeded entries span 08:15:30.100001 … 08:15:46.000001
		expect(t.sim.applyLogRetention({ maxAgeMs: 10_000, operationId: SEED.operationId })).toBe(5);
		expect(t.sim.state.logs.get(SEED.operationId)[0].timestamp).toBe('2025-06-02T08:15:36.118822Z');
		expect(t.sim.state.logs.get(SEED.secondOperationId)).toHaveLength(second);
		expect(
			t.sim.applyLogRetention({ maxAgeMs: 1000, now: '2030-01-01T00:00:00Z' }),
		).toBeGreaterThan(0);
		expect(t.sim.state.logs.get(SEED.operationId)).toEqual([]);
		expect(() => t.sim.applyLogRetention({})).toThrow(/keepLast or maxAgeMs/);
	});
});

describe('response transformations of the logs route (fault rule `logs`)', () => {
	const get = async () => (await t.api.get(logsUrl())).data;
	const sortKey = (e) => JSON.stringify(e);

	test('shuffle: same entries, another order; reproducible with a seed', async () => {
		const plain = await get();
		t.sim.faults.add({ route: 'listOperationLogs', logs: { shuffle: true, seed: 1 } });
		const a = await get();
		t.sim.faults.clear();
		t.sim.faults.add({ route: 'listOperationLogs', logs: { shuffle: true, seed: 1 } });
		const b = await get();
		expect(a).toEqual(b);
		expect(a).not.toEqual(plain);
		expect([...a].map(sortKey).sort()).toEqual([...plain].map(sortKey).sort());
	});

	test('duplicate: N extra copies of entries inside one answer', async () => {
		const plain = await get();
		t.sim.faults.add({ route: 'listOperationLogs', logs: { duplicate: 3, seed: 2 }, times: 1 });
		const dup = await get();
		expect(dup).toHaveLength(plain.length + 3);
		expect(new Set(dup.map(sortKey)).size).toBe(plain.length);
		expect(await get()).toEqual(plain); // times: 1
	});

	test('dropOldest: the oldest entries (by timestamp) are left out of this answer only', async () => {
		const plain = await get();
		t.sim.appendLog(SEED.operationId, {
			timestamp: '2020-01-01T00:00:00.000001Z',
			message: { msg: 'ancient, stored last' },
		});
		t.sim.faults.add({ route: 'listOperationLogs', logs: { dropOldest: 2 }, times: 1 });
		const dropped = await get();
		expect(dropped.map((e) => e.message.msg)).not.toContain('ancient, stored last');
		expect(dropped).toHaveLength(plain.length - 1);
		expect(dropped.map((e) => e.timestamp)).not.toContain('2025-06-02T08:15:30.100001Z');
		expect((await get()).length).toBe(plain.length + 1);
	});

	test('coarsen: timestamps cut to seconds (shared by many entries), the same on every request', async () => {
		t.sim.faults.add({ route: 'listOperationLogs', logs: { coarsen: 'second' } });
		const a = await get();
		const b = await get();
		expect(a).toEqual(b);
		expect(a.every((e) => /:\d{2}Z$/.test(e.timestamp))).toBe(true);
		expect(new Set(a.map((e) => e.timestamp)).size).toBeLessThan(a.length);
		expect(t.sim.state.logs.get(SEED.operationId)[0].timestamp).toMatch(MICROS); // state untouched
	});

	test('only 200 array answers are transformed; other routes and errors pass through', async () => {
		t.sim.faults.add({ route: '*', logs: { shuffle: true, duplicate: 1, seed: 3 } });
		const missing = await t.api.get(logsUrl('no-such-operation'));
		expect(missing.status).toBe(404);
		const project = await t.api.get(P);
		expect(project.data.name).toBe(SEED.projectName);
	});

	test('invalid rules are refused, through the API too', async () => {
		expect(() => t.sim.faults.add({ route: 'listOperationLogs', logs: { shuffel: true } })).toThrow(
			/unknown logs field 'shuffel'/,
		);
		expect(() =>
			t.sim.faults.add({ route: 'listOperationLogs', logs: { coarsen: 'minute' } }),
		).toThrow(/coarsen/);
		expect(() => t.sim.faults.add({ route: 'listOperationLogs', logs: { duplicate: -1 } })).toThrow(
			/duplicate/,
		);
		expect(() => t.sim.faults.add({ route: 'listOperationLogs', logs: [] })).toThrow(
			/logs must be an object/,
		);
		const res = await t.control.post('/faults', {
			route: 'listOperationLogs',
			logs: { seed: 'x' },
		});
		expect(res.status).toBe(400);
		expect(
			checkTransform({
				shuffle: true,
				duplicate: 0,
				dropOldest: 1,
				coarsen: 'millisecond',
				seed: 9,
			}),
		).toEqual([]);
	});

	test('transformLogs copies entries and never changes its input', () => {
		const input = [
			{ timestamp: '2025-01-01T00:00:00.123456Z', message: { msg: 'a' } },
			{ timestamp: '2025-01-01T00:00:01.000001Z', message: { msg: 'b' } },
		];
		const copy = structuredClone(input);
		const out = transformLogs(
			input,
			{ shuffle: true, duplicate: 2, coarsen: 'millisecond' },
			seededRandom(5),
		);
		expect(input).toEqual(copy);
		expect(out).toHaveLength(4);
		expect(out.every((e) => /\.\d{3}Z$/.test(e.timestamp))).toBe(true);
		expect(coarsenTimestamp('2025-01-01T00:00:00.1Z', 'millisecond')).toBe(
			'2025-01-01T00:00:00.100Z',
		);
		expect(coarsenTimestamp('2025-01-01T02:00:00.123456+02:00', 'second')).toBe(
			'2025-01-01T02:00:00+02:00',
		);
		expect(coarsenTimestamp('not a timestamp', 'second')).toBe('not a timestamp');
	});

	test('combines with the existing faults: 429 with Retry-After, hang, malformed JSON', async () => {
		t.sim.faults.add({ route: 'listOperationLogs', status: 429, retryAfterSeconds: 7, times: 1 });
		const limited = await t.api.get(logsUrl());
		expect(limited.status).toBe(429);
		expect(limited.headers['retry-after']).toBe('7');
		t.sim.faults.add({ route: 'listOperationLogs', malformed: true, times: 1 });
		const malformed = await t.api.get(logsUrl(), { transformResponse: (x) => x });
		expect(() => JSON.parse(malformed.data)).toThrow();
		t.sim.faults.add({ route: 'listOperationLogs', hang: true, times: 1 });
		await expect(t.api.get(logsUrl(), { timeout: 200 })).rejects.toThrow(/timeout/);
	});
});

test("cli.js --log-rate N grows the seeded operation's log", async () => {
	const CLI = path.join(__dirname, '../../simulator/cli.js');
	const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet', '--log-rate', '20'], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let out = '';
	child.stdout.on('data', (chunk) => {
		out += chunk;
	});
	const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
	try {
		await new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`cli did not start:\n${out}`)), 30_000);
			child.stdout.on('data', () => {
				if (/Press Ctrl-C/.test(out)) {
					clearTimeout(timer);
					resolve();
				}
			});
		});
		expect(out).toMatch(/logs:\s+20 new entries\/s/);
		const apiUrl = /api:\s+(http:\/\/\S+)/.exec(out)[1];
		// 20 entries a second: at least 20 new ones, however long the machine takes for them
		let logs;
		await until('20 new entries', async () => {
			logs = await axios.get(`${apiUrl}/v1${logsUrl()}`, {
				headers: { 'X-Api-Key': SEED.apiKey },
			});
			return logs.data.length >= 12 + 20;
		});
		expect(logs.data.length).toBeGreaterThanOrEqual(12 + 20);
	} finally {
		child.kill('SIGTERM');
	}
	expect(await exited).toBe(0);
	const bad = spawn(process.execPath, [CLI, '--log-rate', 'fast'], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let err = '';
	bad.stderr.on('data', (chunk) => {
		err += chunk;
	});
	expect(await new Promise((resolve) => bad.on('exit', resolve))).toBe(1);
	expect(err).toMatch(/--log-rate needs entries per second/);
});
