import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const manifest = {
	name: 'salesforce-sync',
	provider: 'salesforce',
	displayName: 'Salesforce sync',
	read: {
		objects: [{ objectName: 'account', destination: 'n8n-webhook', schedule: '*/30 * * * *' }],
	},
};

describe('Integration → Create', () => {
	test('POST latestRevision {specVersion, content}; 201 without body, returns the created integration', async () => {
		const result = await run(sim, {
			resource: 'integration',
			operation: 'create',
			project: rl(SEED.projectName, 'name'),
			name: 'salesforce-sync',
			provider: 'salesforce',
			specVersion: '1.0.0',
			content: JSON.stringify(manifest),
		});
		expect(result.error).toBeUndefined();
		const [create, lookup] = result.requests;
		expect(create).toMatchObject({
			method: 'POST',
			pathname: `/v1/projects/${SEED.projectName}/integrations`,
			status: 201,
		});
		expect(create.body).toEqual({
			name: 'salesforce-sync',
			provider: 'salesforce',
			latestRevision: { specVersion: '1.0.0', content: manifest },
		});
		expect(lookup).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectName}/integrations/salesforce-sync`,
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				created: true,
				name: 'salesforce-sync',
				provider: 'salesforce',
				id: expect.any(String),
				latestRevision: expect.objectContaining({ specVersion: '1.0.0', content: manifest }),
			}),
		]);
	});

	test('content may come from an expression as an object', async () => {
		const result = await run(
			sim,
			{
				resource: 'integration',
				operation: 'create',
				project: rl(SEED.projectId),
				name: 'from-object',
				provider: 'salesforce',
				specVersion: '1.0.0',
				content: '={{ $json.manifest }}',
			},
			{ items: [{ manifest: { ...manifest, name: 'from-object' } }] },
		);
		expect(result.error).toBeUndefined();
		expect(
			(result.requests[0].body as { latestRevision: { content: unknown } }).latestRevision.content,
		).toEqual({ ...manifest, name: 'from-object' });
	});

	test.each([
		['{ "name": ', 'is not valid JSON'],
		['[1, 2]', 'must be a JSON object'],
		['"text"', 'must be a JSON object'],
	])(
		'invalid content %s fails before any request, naming the parameter',
		async (content, reason) => {
			const result = await run(sim, {
				resource: 'integration',
				operation: 'create',
				project: rl(SEED.projectId),
				name: 'broken',
				provider: 'salesforce',
				content,
			});
			expect(result.requests).toHaveLength(0);
			expect(result.error?.message).toContain('"Manifest Content (JSON)"');
			expect(result.error?.message).toContain(reason);
		},
	);
});

describe('Integration → Get Many', () => {
	test('GET /projects/{p}/integrations; one item per integration', async () => {
		const result = await run(sim, {
			resource: 'integration',
			operation: 'getAll',
			project: rl(SEED.projectId),
			returnAll: true,
		});
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectId}/integrations`,
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				id: SEED.integrationId,
				name: SEED.integrationName,
				latestRevision: expect.objectContaining({ id: SEED.revisionId }),
			}),
			expect.objectContaining({
				id: SEED.deletableIntegrationId,
				name: SEED.deletableIntegrationName,
			}),
			expect.objectContaining({
				id: SEED.revisableIntegrationId,
				name: SEED.revisableIntegrationName,
			}),
		]);
	});
});

describe('Integration → Get, Delete', () => {
	beforeEach(() => sim.reset());
	const project = rl(SEED.projectId);
	const one = (ref: string) => `/v1/projects/${SEED.projectId}/integrations/${ref}`;

	test('Get by name and by ID', async () => {
		for (const [value, mode] of [
			[SEED.integrationName, 'name'],
			[SEED.integrationId, 'id'],
		]) {
			const result = await run(sim, {
				resource: 'integration',
				operation: 'get',
				project,
				integration: rl(value, mode),
			});
			expect(result.requests[0]).toMatchObject({
				method: 'GET',
				pathname: one(value),
				status: 200,
			});
			expect(result.json).toEqual([
				expect.objectContaining({ id: SEED.integrationId, name: SEED.integrationName }),
			]);
		}
	});

	test('delete → its installations and the integration are gone → get is a 404', async () => {
		const created = await run(sim, {
			resource: 'installation',
			operation: 'create',
			project,
			integration: rl(SEED.deletableIntegrationId),
			groupRef: SEED.apiKeyGroupRef,
			configContent: '{"provider": "hubspot"}',
		});
		const installationId = created.json[0].id as string;
		const deleted = await run(sim, {
			resource: 'integration',
			operation: 'delete',
			project,
			integration: rl(SEED.deletableIntegrationName, 'name'),
		});
		expect(deleted.requests[0]).toMatchObject({
			method: 'DELETE',
			pathname: one(SEED.deletableIntegrationName),
			status: 204,
		});
		expect(deleted.json).toEqual([{ deleted: true, integration: SEED.deletableIntegrationName }]);
		expect((sim.state as Record<string, any>).installations.has(installationId)).toBe(false);

		const listed = await run(sim, {
			resource: 'integration',
			operation: 'getAll',
			project,
			returnAll: true,
		});
		expect(listed.json.map((i) => i.id)).toEqual([SEED.integrationId, SEED.revisableIntegrationId]);

		const gone = await run(sim, {
			resource: 'integration',
			operation: 'get',
			project,
			integration: rl(SEED.deletableIntegrationId),
		});
		expect(gone.requests[0].status).toBe(404);
		expect(`${gone.error?.message} ${gone.error?.description}`).toContain('Integration not found');
	});
});
