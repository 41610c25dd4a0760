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
		]);
	});
});
