import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

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
