import { run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const bearer = { authentication: 'bearerToken' };

describe('Claimed Domain → Check, Get Many', () => {
	test('claim a domain, then Check finds it and Get Many lists it', async () => {
		const before = await run(sim, {
			...bearer,
			resource: 'claimedDomain',
			operation: 'check',
			domain: 'flow.example',
		});
		expect(before.requests[0]).toMatchObject({
			method: 'GET',
			pathname: '/v1/claimed-domains',
			query: { domain: 'flow.example' },
			status: 404,
		});
		expect(before.error?.message).toMatch(/404/);

		await run(sim, {
			...bearer,
			resource: 'claimedDomain',
			operation: 'claim',
			domain: 'flow.example',
			parentId: SEED.orgId,
			parentType: 'org',
		});
		const after = await run(sim, {
			...bearer,
			resource: 'claimedDomain',
			operation: 'check',
			domain: 'someone@flow.example',
		});
		expect(after.json).toEqual([
			expect.objectContaining({ domain: 'flow.example', parentType: 'org', parentId: SEED.orgId }),
		]);

		const listed = await run(sim, {
			...bearer,
			resource: 'claimedDomain',
			operation: 'getAll',
			orgId: SEED.orgId,
			returnAll: true,
		});
		expect(listed.requests[0].pathname).toBe(`/v1/orgs/${SEED.orgId}/claimed-domains`);
		expect(listed.json.map((d) => d.domain).sort()).toEqual(
			['flow.example', SEED.demoClaimedDomain].sort(),
		);
	});

	test('Get Many of an organization the token is not in is a 403', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'claimedDomain',
			operation: 'getAll',
			orgId: SEED.otherOrgId,
		});
		expect(result.requests[0].status).toBe(403);
		expect(result.error?.message).toMatch(/403/);
	});

	test('Check with an API key is refused before sending', async () => {
		const result = await run(sim, {
			resource: 'claimedDomain',
			operation: 'check',
			domain: SEED.claimedDomain,
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toMatch(/needs an Integration Platform Token API credential/);
	});
});
