import { run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());

describe('Project → Get Many', () => {
	test('GET /v1/projects with the API key; one item per project, paired with the input', async () => {
		const result = await run(sim, { resource: 'project', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.requests).toHaveLength(1);
		const [request] = result.requests;
		expect(request).toMatchObject({
			method: 'GET',
			pathname: '/v1/projects',
			query: {},
			body: undefined,
		});
		expect(request.headers['x-api-key']).toBe(SEED.apiKey);
		expect(request.headers.authorization).toBeUndefined();
		expect(result.json).toEqual([
			expect.objectContaining({
				id: SEED.projectId,
				name: SEED.projectName,
				appName: SEED.appName,
				orgId: SEED.orgId,
			}),
		]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('with the bearer token, all projects of the builder, limited to Limit', async () => {
		const all = await run(sim, {
			authentication: 'bearerToken',
			resource: 'project',
			operation: 'getAll',
			returnAll: true,
		});
		expect(all.requests[0].headers.authorization).toBe(`Bearer ${SEED.bearerToken}`);
		expect(all.requests[0].headers['x-api-key']).toBeUndefined();
		expect(all.json.map((p) => p.name).sort()).toEqual(
			[SEED.projectName, SEED.secondProjectName].sort(),
		);

		const limited = await run(sim, {
			authentication: 'bearerToken',
			resource: 'project',
			operation: 'getAll',
			returnAll: false,
			limit: 1,
		});
		expect(limited.json).toHaveLength(1);
	});

	test('one request per input item, each output paired with its item', async () => {
		const result = await run(
			sim,
			{ resource: 'project', operation: 'getAll', returnAll: true },
			{ items: [{}, {}, {}] },
		);
		expect(result.requests).toHaveLength(3);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});
