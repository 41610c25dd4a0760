import { run, SEED, startSimulator, rl, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());

const base = {
	resource: 'operation',
	operation: 'getLogs',
	project: rl(SEED.projectId),
	operationId: SEED.operationId,
};

describe('Operation → Get Logs', () => {
	test('GET …/operations/{operationId}/logs; one item per entry, oldest first', async () => {
		const result = await run(sim, { ...base, returnAll: true });
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectId}/operations/${SEED.operationId}/logs`,
			query: {},
		});
		expect(result.json).toHaveLength(12);
		for (const entry of result.json) {
			expect(entry).toEqual({
				timestamp: expect.stringMatching(/\.\d{6}Z$/),
				severity: expect.any(String),
				message: expect.objectContaining({ msg: expect.any(String) }),
			});
		}
		const stamps = result.json.map((e) => e.timestamp as string);
		expect(stamps).toEqual([...stamps].sort());
	});

	test('ordering keeps microseconds even when the server answers shuffled', async () => {
		sim.appendLog(SEED.operationId, {
			timestamp: '2031-01-01T00:00:00.000002Z',
			severity: 'INFO',
			message: { msg: 'second' },
		});
		sim.appendLog(SEED.operationId, {
			timestamp: '2031-01-01T00:00:00.000001Z',
			severity: 'INFO',
			message: { msg: 'first' },
		});
		const result = await run(sim, {
			...base,
			returnAll: true,
			logOptions: { order: 'newestFirst' },
		});
		expect(result.json.slice(0, 2).map((e) => (e.message as { msg: string }).msg)).toEqual([
			'second',
			'first',
		]);
	});

	test('severity filter is case-insensitive; limit applies after filtering', async () => {
		const result = await run(sim, {
			...base,
			returnAll: false,
			limit: 2,
			logOptions: { severity: 'error, warning' },
		});
		expect(result.json.length).toBeLessThanOrEqual(2);
		expect(result.json.length).toBeGreaterThan(0);
		for (const entry of result.json)
			expect(['ERROR', 'WARNING']).toContain(String(entry.severity).toUpperCase());
	});
});
