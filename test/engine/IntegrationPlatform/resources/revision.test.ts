import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { fieldLabel } from '../../../harness/fieldLabel';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());

const base = {
	resource: 'revision',
	operation: 'getHydrated',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	connectionId: rl(SEED.connectionId),
};

describe('Revision → Get Hydrated', () => {
	test('an explicit revision: GET …:hydrate?connectionId=', async () => {
		const result = await run(sim, { ...base, revision: SEED.revisionId });
		expect(result.error).toBeUndefined();
		expect(result.requests).toHaveLength(1);
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/revisions/${SEED.revisionId}:hydrate`,
			query: { connectionId: SEED.connectionId },
		});
		const [revision] = result.json as Array<{ id: string; content: Record<string, unknown> }>;
		expect(revision.id).toBe(SEED.revisionId);
		expect(revision.content.read).toBeDefined();
		// Hydrated content has no subscribe and no watchSchema (docs/api-notes.md, "getHydratedRevision").
		expect(revision.content.subscribe).toBeUndefined();
		expect(revision.content.watchSchema).toBeUndefined();
	});

	test('without a revision: the latest revision of the integration is looked up first', async () => {
		const result = await run(sim, { ...base, revision: '' });
		expect(result.error).toBeUndefined();
		expect(result.requests.map((r) => `${r.method} ${r.pathname}`)).toEqual([
			`GET /v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}`,
			`GET /v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/revisions/${SEED.revisionId}:hydrate`,
		]);
		expect(result.json[0].id).toBe(SEED.revisionId);
	});
});

describe('Revision → Create, Integration → Create or Update Many', () => {
	beforeEach(() => sim.reset());
	const project = rl(SEED.projectId);
	const revisionYaml =
		'specVersion: 1.0.0\nintegrations:\n  - name: hubspot-sync\n    provider: hubspot\n    displayName: HubSpot sync\n    read:\n      objects:\n        - objectName: contacts\n          destination: n8n-webhook\n          schedule: "*/30 * * * *"\n          requiredFields:\n            - fieldName: email\n';
	const batchYaml =
		'specVersion: 1.0.0\nintegrations:\n  - name: salesforce-leads\n    provider: salesforce\n    displayName: Salesforce leads\n    read:\n      objects:\n        - objectName: lead\n          destination: n8n-webhook\n          schedule: "0 * * * *"\n          requiredFields:\n            - fieldName: email\n';

	test("Create posts the YAML, then returns the integration's new latest revision", async () => {
		const result = await run(sim, {
			resource: 'revision',
			operation: 'create',
			project,
			integration: rl(SEED.integrationId),
			sourceYaml: revisionYaml,
			sourceOptions: { destructive: true },
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			method: 'POST',
			pathname: `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/revisions`,
			query: { destructive: 'true' },
			body: { sourceYaml: revisionYaml },
			status: 201,
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				created: true,
				integrationId: SEED.integrationId,
				specVersion: '1.0.0',
			}),
		]);
		const latest = result.json[0].id as string;
		expect(latest).not.toBe(SEED.revisionId);
		const integration = await run(sim, {
			resource: 'integration',
			operation: 'get',
			project,
			integration: rl(SEED.integrationId),
		});
		expect((integration.json[0] as Record<string, any>).latestRevision.id).toBe(latest);
	});

	test('YAML that is not valid is a 400 naming the Source YAML field; a zip URL the service cannot fetch is a 422', async () => {
		const bad = await run(sim, {
			resource: 'revision',
			operation: 'create',
			project,
			integration: rl(SEED.integrationId),
			sourceYaml: 'a: [',
		});
		expect(bad.requests[0].status).toBe(400);
		expect(bad.error?.message).toContain(`"${fieldLabel('revision', 'create', 'sourceYaml')}"`);
		const zip = await run(sim, {
			resource: 'revision',
			operation: 'create',
			project,
			integration: rl(SEED.integrationId),
			source: 'zipUrl',
			sourceZipUrl: 'https://storage.example.com/amp.zip',
		});
		expect(zip.requests[0]).toMatchObject({
			body: { sourceZipUrl: 'https://storage.example.com/amp.zip' },
			status: 422,
		});
		expect(zip.error?.message).toContain(`"${fieldLabel('revision', 'create', 'sourceZipUrl')}"`);
	});

	test('Create or Update Many creates new integrations and revises existing ones, one item each', async () => {
		const result = await run(sim, {
			resource: 'integration',
			operation: 'upsertMany',
			project,
			sourceYaml: `${batchYaml}${revisionYaml.split('integrations:\n')[1]}`,
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			method: 'PUT',
			pathname: `/v1/projects/${SEED.projectId}/integrations:batch`,
			status: 200,
		});
		expect(result.json).toEqual([
			expect.objectContaining({ name: 'salesforce-leads', provider: 'salesforce' }),
			expect.objectContaining({ id: SEED.integrationId, name: SEED.integrationName }),
		]);
		const listed = await run(sim, {
			resource: 'integration',
			operation: 'getAll',
			project,
			returnAll: true,
		});
		expect(listed.json.map((i) => i.name)).toContain('salesforce-leads');
	});

	test('an unknown provider in the YAML is a 422 naming the field', async () => {
		const result = await run(sim, {
			resource: 'integration',
			operation: 'upsertMany',
			project,
			sourceYaml: batchYaml.replace('provider: salesforce', 'provider: nosuch'),
		});
		expect(result.requests[0].status).toBe(422);
		expect(`${result.error?.message} ${result.error?.description}`).toContain(
			'sourceYaml.integrations[0].provider',
		);
	});
});
