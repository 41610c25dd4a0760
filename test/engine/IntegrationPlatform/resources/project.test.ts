import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { searchOrganizations } from '../../../../nodes/IntegrationPlatform/listSearch/searches';
import { searchContext } from '../../../harness/listSearch';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

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
			[SEED.projectName, SEED.secondProjectName, SEED.sandboxProjectName].sort(),
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

describe('Project → Create, Get, Update', () => {
	const create = {
		authentication: 'bearerToken',
		resource: 'project',
		operation: 'create',
		projectName: 'Engine-Project',
		appName: 'Engine App',
		projectOrgId: rl(SEED.orgId),
	};

	test('create (bearer) → get by name → update → visible in the list', async () => {
		const created = await run(sim, create);
		expect(created.error).toBeUndefined();
		expect(created.requests[0]).toMatchObject({
			method: 'POST',
			pathname: '/v1/projects',
			status: 201,
			body: { name: 'Engine-Project', appName: 'Engine App', orgId: SEED.orgId },
		});
		expect(created.requests[0].headers.authorization).toBe(`Bearer ${SEED.bearerToken}`);
		// The service stores names in lowercase.
		expect(created.json).toEqual([
			expect.objectContaining({
				id: expect.any(String),
				name: 'engine-project',
				orgId: SEED.orgId,
			}),
		]);
		const id = created.json[0].id as string;

		const got = await run(sim, {
			authentication: 'bearerToken',
			resource: 'project',
			operation: 'get',
			project: rl('engine-project', 'name'),
			options: { includeEntitlements: true },
		});
		expect(got.requests[0]).toMatchObject({
			pathname: '/v1/projects/engine-project',
			query: { includeEntitlements: 'true' },
		});
		expect(got.json).toEqual([
			expect.objectContaining({
				id,
				entitlements: expect.objectContaining({ logRetentionDays: { value: 7 } }),
			}),
		]);

		const updated = await run(sim, {
			authentication: 'bearerToken',
			resource: 'project',
			operation: 'update',
			project: rl(id),
			updateFields: { appName: 'Engine App 2', name: 'engine-project-2' },
		});
		expect(updated.requests[0]).toMatchObject({
			method: 'PATCH',
			pathname: `/v1/projects/${id}`,
			status: 200,
			body: {
				updateMask: ['appName', 'name'],
				project: { appName: 'Engine App 2', name: 'engine-project-2' },
			},
		});
		expect(updated.json).toEqual([
			expect.objectContaining({ id, name: 'engine-project-2', appName: 'Engine App 2' }),
		]);

		const listed = await run(sim, {
			authentication: 'bearerToken',
			resource: 'project',
			operation: 'getAll',
			returnAll: true,
		});
		expect(listed.json).toEqual(
			expect.arrayContaining([expect.objectContaining({ id, appName: 'Engine App 2' })]),
		);
	});

	test('Get without the option sends no query and returns no entitlements', async () => {
		const got = await run(sim, {
			resource: 'project',
			operation: 'get',
			project: rl(SEED.projectId),
		});
		expect(got.requests[0].query).toEqual({});
		expect(got.json[0].entitlements).toBeUndefined();
		expect(got.json[0]).toMatchObject({ id: SEED.projectId, name: SEED.projectName });
	});

	test('create with the API key is refused before sending', async () => {
		const result = await run(sim, { ...create, authentication: 'apiKey' });
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toContain('needs an Integration Platform Token API credential');
	});

	test('an invalid name: the 422 problem names the field', async () => {
		const result = await run(sim, { ...create, projectName: 'bad name!' });
		expect(result.requests[0].status).toBe(422);
		expect(`${result.error?.message} ${result.error?.description}`).toContain('name');
	});

	test('a taken name on update: 409, the project unchanged', async () => {
		const result = await run(sim, {
			resource: 'project',
			operation: 'update',
			project: rl(SEED.projectId),
			updateFields: { name: SEED.secondProjectName },
		});
		expect(result.requests[0].status).toBe(409);
		expect(result.error?.message).toMatch(/already exists/);
	});

	test('nothing to update fails before any request', async () => {
		const result = await run(sim, {
			resource: 'project',
			operation: 'update',
			project: rl(SEED.projectId),
			updateFields: {},
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toBe('Add at least one field to update: App Name, Name');
	});

	test('an unknown project: 404', async () => {
		const result = await run(sim, {
			authentication: 'bearerToken',
			resource: 'project',
			operation: 'get',
			project: rl('no-such-project', 'name'),
		});
		expect(result.requests[0].status).toBe(404);
		expect(result.error?.message).toMatch(/Project not found/);
	});
});

describe('searchOrganizations (Project → Create)', () => {
	test('the organizations of the projects the token reaches, with their labels', async () => {
		const result = await searchOrganizations.call(
			searchContext(sim, { authentication: 'bearerToken' }),
		);
		expect(result.results).toEqual([
			{ name: `${SEED.orgLabel} (${SEED.orgId})`, value: SEED.orgId },
		]);
	});

	test('with an API key (no access to organizations), the ID stands in for the label', async () => {
		const result = await searchOrganizations.call(searchContext(sim));
		expect(result.results).toEqual([{ name: SEED.orgId, value: SEED.orgId }]);
	});
});
