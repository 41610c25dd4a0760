'use strict';

// These tests wait for the simulator's processes, timers and sockets: a deadline only a hang
// reaches (Jest's default of 5 s can be reached by a loaded machine).
jest.setTimeout(60_000);

// The request journal, fault injection, reset() and the /__sim/ control API.

const { setup, expectProblem, P, SEED } = require('./helpers');

let t;
beforeAll(async () => {
	t = await setup();
});
afterEach(() => t.sim.reset());
afterAll(() => t.sim.close());

const logsUrl = `${P}/operations/${SEED.operationId}/logs`;

describe('journal', () => {
	test('records method, raw path, query, lower-cased headers, parsed body, status and route id', async () => {
		await t.api.post(
			`${P}/topics?dryRun=1&tag=a&tag=b`,
			{ name: 'journaled' },
			{ headers: { 'X-Custom': 'yes' } },
		);
		const entry = t.sim.journal.last();
		expect(entry).toMatchObject({
			host: 'api',
			method: 'POST',
			path: `/v1${P}/topics?dryRun=1&tag=a&tag=b`,
			pathname: `/v1${P}/topics`,
			query: { dryRun: '1', tag: ['a', 'b'] },
			body: { name: 'journaled' },
			status: 201,
			routeId: 'createTopic',
		});
		expect(entry.headers['x-api-key']).toBe(SEED.apiKey);
		expect(entry.headers['x-custom']).toBe('yes');
		expect(entry.time).toMatch(/\.\d{6}Z$/);
		expect(entry.seq).toBeGreaterThan(0);
	});

	test('records auth failures, 404s, the read host; the pathname stays raw', async () => {
		await t.anon.get('/projects');
		await t.api.get('/nowhere');
		await t.read.post(
			`${P}/integrations/${SEED.integrationId}/installations/${SEED.installationId}:unpause`,
		);
		await t.api.get(`/projects/demo%2Dproject/topics`);
		const [auth, missing, read, encoded] = t.sim.journal.last(4);
		expect([auth.status, auth.routeId]).toEqual([401, 'listProjects']);
		expect([missing.status, missing.routeId]).toEqual([404, null]);
		expect([read.host, read.status, read.routeId, read.body]).toEqual([
			'read',
			204,
			'unpauseReads',
			undefined,
		]);
		expect(encoded.pathname).toBe('/v1/projects/demo%2Dproject/topics');
	});

	test('find(), clear(); /__sim/ requests are not journaled', async () => {
		await t.api.get('/projects');
		await t.api.get(`${P}/topics`);
		await t.control.get('/journal');
		expect(t.sim.journal.find({ routeId: 'listTopics' })).toHaveLength(1);
		expect(t.sim.journal.find({ pathname: /topics$/ })).toHaveLength(1);
		expect(t.sim.journal.find((e) => e.status === 200)).toHaveLength(2);
		expect(t.sim.journal.entries.some((e) => e.pathname.startsWith('/__sim'))).toBe(false);
		t.sim.journal.clear();
		expect(t.sim.journal.entries).toEqual([]);
		expect(t.sim.journal.last()).toBeUndefined();
	});

	test('a non-JSON body is kept as a string', async () => {
		await t.api.post(`${P}/topics`, 'name=x', {
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		});
		expect(t.sim.journal.last().body).toBe('name=x');
	});
});

describe('faults', () => {
	test('status only: a proper problem document; Retry-After and retryAfter', async () => {
		const id = t.sim.faults.add({ route: 'listOperationLogs', status: 503, retryAfterSeconds: 7 });
		const res = await t.api.get(logsUrl);
		const body = expectProblem(res, 503);
		expect(body.title).toBe('Service Unavailable');
		expect(body.retryable).toBe(true);
		expect(Date.parse(body.retryAfter)).toBeGreaterThan(Date.now());
		expect(res.headers['retry-after']).toBe('7');
		expect(t.sim.journal.last()).toMatchObject({
			status: 503,
			routeId: 'listOperationLogs',
			fault: id,
		});
		expect(t.sim.faults.list()[0]).toMatchObject({ id, matched: 1, fired: 1 });
	});

	test('faults apply before auth', async () => {
		t.sim.faults.add({ route: 'listProjects', status: 500 });
		const body = expectProblem(await t.anon.get('/projects'), 500);
		expect(body.retryable).toBe(true);
	});

	test('custom body and headers; a string body is sent raw', async () => {
		t.sim.faults.add({
			route: 'getDestination',
			status: 429,
			body: { title: 'Too Many Requests', status: 429, detail: 'slow down' },
			headers: { 'X-Amp-Retryable': 'true' },
			times: 1,
		});
		t.sim.faults.add({
			route: 'getDestination',
			status: 502,
			body: '<html>bad gateway</html>',
			times: 1,
		});
		const a = await t.api.get(`${P}/destinations/${SEED.destinationName}`);
		expect(a.status).toBe(429);
		expect(a.data.detail).toBe('slow down');
		expect(a.headers['x-amp-retryable']).toBe('true');
		const b = await t.api.get(`${P}/destinations/${SEED.destinationName}`);
		expect(b.status).toBe(502);
		expect(b.headers['content-type']).toMatch(/^text\/plain/);
		expect(b.data).toBe('<html>bad gateway</html>');
		expect((await t.api.get(`${P}/destinations/${SEED.destinationName}`)).status).toBe(200);
	});

	test('times and skip', async () => {
		t.sim.faults.add({ route: 'listTopics', status: 500, skip: 1, times: 2 });
		const statuses = [];
		for (let i = 0; i < 5; i++) statuses.push((await t.api.get(`${P}/topics`)).status);
		expect(statuses).toEqual([200, 500, 500, 200, 200]);
	});

	test('host and route "*" filters', async () => {
		t.sim.faults.add({ route: '*', host: 'read', status: 503 });
		expect((await t.api.get('/projects')).status).toBe(200);
		expect(
			(
				await t.read.post(
					`${P}/integrations/${SEED.integrationId}/installations/${SEED.installationId}:unpause`,
				)
			).status,
		).toBe(503);
	});

	test('latency delays the normal answer', async () => {
		t.sim.faults.add({ route: 'listProjects', latencyMs: 150 });
		const started = Date.now();
		const res = await t.api.get('/projects');
		expect(res.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});

	test('malformed: the real work is done, the JSON body is truncated', async () => {
		t.sim.faults.add({ route: 'listOperationLogs', malformed: true });
		const res = await t.api.get(logsUrl, { responseType: 'text', transformResponse: [(d) => d] });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(() => JSON.parse(res.data)).toThrow();
		expect(res.data.startsWith('[{"timestamp"')).toBe(true);
	});

	test('reset: the socket is destroyed without an answer', async () => {
		t.sim.faults.add({ route: 'listProjects', reset: true, times: 1 });
		await expect(t.api.get('/projects')).rejects.toMatchObject({
			code: expect.stringMatching(/ECONNRESET|ERR_BAD_RESPONSE|ECONNABORTED/),
		});
		expect(t.sim.journal.last()).toMatchObject({ routeId: 'listProjects', status: null });
		expect((await t.api.get('/projects')).status).toBe(200);
	});

	test('hang: no answer; the client times out', async () => {
		t.sim.faults.add({ route: 'listIntegrations', hang: true, times: 1 });
		await expect(t.api.get(`${P}/integrations`, { timeout: 150 })).rejects.toMatchObject({
			code: 'ECONNABORTED',
		});
	});

	test('processFirst: the request does its work, then the answer goes wrong', async () => {
		t.sim.faults.add({ route: 'createTopic', processFirst: true, status: 500, times: 1 });
		t.sim.faults.add({ route: 'createTopic', processFirst: true, reset: true, times: 1 });
		t.sim.faults.add({ route: 'createTopic', processFirst: true, latencyMs: 300, times: 1 });
		const before = t.sim.state.topics.size;
		expectProblem(await t.api.post(`${P}/topics`, { name: 'first-then-500' }), 500);
		await expect(t.api.post(`${P}/topics`, { name: 'first-then-reset' })).rejects.toMatchObject({
			code: expect.stringMatching(/ECONNRESET|ERR_BAD_RESPONSE|ECONNABORTED/),
		});
		await expect(
			t.api.post(`${P}/topics`, { name: 'first-then-late' }, { timeout: 100 }),
		).rejects.toMatchObject({ code: 'ECONNABORTED' });
		// Each request was carried out, although no client saw it succeed (the last one may still
		// be under way when the client gives up after 100 ms on a slow machine: wait for it).
		for (const deadline = Date.now() + 30_000; t.sim.state.topics.size < before + 3; ) {
			if (Date.now() > deadline) break;
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		expect(t.sim.state.topics.size).toBe(before + 3);
		expect(t.sim.journal.last(3).map((e) => e.status)).toEqual([500, null, null]);
	});

	test('remove(), clear() and invalid rules', () => {
		const id = t.sim.faults.add({ route: 'listTopics', status: 500 });
		expect(t.sim.faults.remove(id)).toBe(true);
		expect(t.sim.faults.remove(id)).toBe(false);
		expect(() => t.sim.faults.add({ route: 'noSuchRoute', status: 500 })).toThrow(
			/unknown route id/,
		);
		expect(() => t.sim.faults.add({ route: '*', status: 99 })).toThrow(/status/);
		t.sim.faults.add({ route: '*', status: 500 });
		t.sim.faults.clear();
		expect(t.sim.faults.list()).toEqual([]);
	});
});

describe('reset and the control API', () => {
	test('reset() restores the seeded world and keeps the same Maps', async () => {
		const topics = t.sim.state.topics;
		await t.api.delete(`${P}/topics/${SEED.deletableTopicId}`);
		t.sim.faults.add({ route: 'listTopics', status: 500 });
		t.sim.reset();
		expect(t.sim.state.topics).toBe(topics);
		expect(topics.has(SEED.deletableTopicId)).toBe(true);
		expect(t.sim.journal.entries).toEqual([]);
		expect(t.sim.faults.list()).toEqual([]);
		expect((await t.api.get(`${P}/topics`)).status).toBe(200);
	});

	test('/__sim/ routes', async () => {
		await t.api.get('/projects');
		const journal = await t.control.get('/journal', { params: { routeId: 'listProjects' } });
		expect(journal.data.entries).toHaveLength(1);
		const fault = await t.control.post('/faults', { route: 'listProjects', status: 503, times: 1 });
		expect(fault.status).toBe(201);
		expect(fault.data.id).toMatch(/^fault-/);
		expect((await t.control.post('/faults', { route: 'bogus' })).status).toBe(400);
		expect((await t.control.get('/faults')).data).toHaveLength(1);
		expect((await t.api.get('/projects')).status).toBe(503);
		expect((await t.control.delete('/faults')).status).toBe(204);
		expect((await t.control.delete('/journal')).status).toBe(204);
		expect(t.sim.journal.entries).toEqual([]);

		const log = await t.control.post(`/logs/${SEED.operationId}`, {
			severity: 'WARNING',
			message: { msg: 'from control' },
		});
		expect(log.status).toBe(201);
		expect(log.data).toMatchObject({
			severity: 'WARNING',
			message: { msg: 'from control', operation_id: SEED.operationId },
		});
		expect((await t.control.post('/logs/nope', {})).status).toBe(404);
		const op = await t.control.post('/operations', { status: 'in_progress' });
		expect(op.status).toBe(201);
		expect(t.sim.state.operations.has(op.data.id)).toBe(true);

		const state = await t.control.get('/state');
		expect(state.data.projects[SEED.projectId].name).toBe(SEED.projectName);
		expect(state.data.logs[SEED.operationId]).toHaveLength(13);
		expect((await t.control.get('/seed')).data.apiKey).toBe(SEED.apiKey);
		expect((await t.control.get('/routes')).data.length).toBeGreaterThan(18);
		expect((await t.control.post('/reset')).status).toBe(204);
		expect(t.sim.state.logs.get(SEED.operationId)).toHaveLength(12);
		expect(t.sim.journal.entries).toEqual([]);
	});
});
