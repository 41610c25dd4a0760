/**
 * The retry policy (README.md, "Errors and retries"): the node waits and retries by itself only when the service
 * answers 429 or 503 and says when to retry (Retry-After or the problem's retryAfter), at most
 * twice and only within Max Retry Wait; everything else fails the item at once and is left to
 * n8n's Retry On Fail.
 */
import { run, startSimulator, type Simulator } from '../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.faults.clear());

const listProjects = { resource: 'project', operation: 'getAll', returnAll: true };

describe('the node retries rate limits when the service says when', () => {
	test('429 with Retry-After: waits, retries, succeeds', async () => {
		sim.faults.add({ route: 'listProjects', status: 429, retryAfterSeconds: 1, times: 1 });
		const started = Date.now();
		const result = await run(sim, listProjects);
		expect(result.error).toBeUndefined();
		expect(result.requests.map((r) => r.status)).toEqual([429, 200]);
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(result.json.length).toBeGreaterThan(0);
	});

	test('503 with Retry-After twice: two retries, then success', async () => {
		sim.faults.add({ route: 'listProjects', status: 503, retryAfterSeconds: 0, times: 2 });
		const result = await run(sim, listProjects);
		expect(result.error).toBeUndefined();
		expect(result.requests.map((r) => r.status)).toEqual([503, 503, 200]);
	});

	test('the problem document retryAfter (no header) is honoured too', async () => {
		sim.faults.add({
			route: 'listProjects',
			status: 429,
			body: {
				title: 'Too Many Requests',
				status: 429,
				retryable: true,
				retryAfter: new Date(Date.now() + 500).toISOString(),
			},
			times: 1,
		});
		const result = await run(sim, listProjects);
		expect(result.error).toBeUndefined();
		expect(result.requests.map((r) => r.status)).toEqual([429, 200]);
	});

	test('still rate limited after two retries: the item fails with the 429', async () => {
		sim.faults.add({ route: 'listProjects', status: 429, retryAfterSeconds: 0, times: 3 });
		const result = await run(sim, listProjects);
		expect(result.requests.map((r) => r.status)).toEqual([429, 429, 429]);
		expect(result.error?.httpCode).toBe('429');
		expect(result.error?.message).toMatch(/^Too Many Requests/);
	});

	test('a wait longer than Max Retry Wait fails at once, saying how long the service asked', async () => {
		sim.faults.add({ route: 'listProjects', status: 429, retryAfterSeconds: 120, times: 1 });
		const result = await run(sim, listProjects);
		expect(result.requests).toHaveLength(1);
		expect(result.error?.description).toContain('retry after 120 s');
	});

	test('Max Retry Wait and Retry When Rate Limited are settings of the node', async () => {
		sim.faults.add({ route: 'listProjects', status: 429, retryAfterSeconds: 1, times: 1 });
		const tooShort = await run(sim, {
			...listProjects,
			requestOptions: { maxRetryWaitSeconds: 0 },
		});
		expect(tooShort.requests).toHaveLength(1);
		sim.faults.clear();
		sim.faults.add({ route: 'listProjects', status: 429, retryAfterSeconds: 0, times: 1 });
		const off = await run(sim, { ...listProjects, requestOptions: { retryOnRateLimit: false } });
		expect(off.requests).toHaveLength(1);
		expect(off.error?.httpCode).toBe('429');
	});

	test('429 without any retry time is not retried by the node', async () => {
		sim.faults.add({
			route: 'listProjects',
			status: 429,
			headers: {},
			body: { title: 'Too Many Requests', status: 429 },
			times: 1,
		});
		const result = await run(sim, listProjects);
		expect(result.requests).toHaveLength(1);
		expect(result.error?.description).toContain('Options → Batching');
	});
});

describe("everything else is left to n8n's Retry On Fail", () => {
	test('a 500 is not retried by the node itself', async () => {
		sim.faults.add({ route: 'listProjects', status: 500, times: 1 });
		const result = await run(sim, listProjects);
		expect(result.requests).toHaveLength(1);
		expect(result.error?.message).toMatch(/^Internal Server Error/);
	});

	test('with Retry On Fail, n8n retries the node: 500, 502, then success', async () => {
		sim.faults.add({ route: 'listProjects', status: 500, times: 1 });
		// Rules apply in order; the second only sees requests once the first is used up.
		sim.faults.add({ route: 'listProjects', status: 502, times: 1 });
		const result = await run(sim, listProjects, {
			nodeSettings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
		});
		expect(result.error).toBeUndefined();
		expect(result.requests.map((r) => r.status)).toEqual([500, 502, 200]);
	});

	test('with Retry On Fail, a connection reset is retried too', async () => {
		sim.faults.add({ route: 'listProjects', reset: true, times: 1 });
		const result = await run(sim, listProjects, {
			nodeSettings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
		});
		expect(result.error).toBeUndefined();
		expect(result.json.length).toBeGreaterThan(0);
	});
});
