import { run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const bearer = { authentication: 'bearerToken' };

describe('Organization → Update', () => {
	test('PATCH /orgs/{orgId} {updateMask: [label], org: {label}} with the bearer token', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'update',
			orgId: SEED.orgId,
			label: 'Renamed Org',
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			method: 'PATCH',
			pathname: `/v1/orgs/${SEED.orgId}`,
			status: 200,
		});
		expect(result.requests[0].body).toEqual({
			updateMask: ['label'],
			org: { label: 'Renamed Org' },
		});
		expect(result.requests[0].headers.authorization).toBe(`Bearer ${SEED.bearerToken}`);
		expect(result.json).toEqual([
			expect.objectContaining({
				id: SEED.orgId,
				label: 'Renamed Org',
				defaultTeamId: expect.any(String),
			}),
		]);
	});
});

describe('Invite → Get and Revoke', () => {
	test('GET /orgs/{orgId}/invites/{inviteId}', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'get',
			orgId: SEED.orgId,
			inviteId: SEED.inviteId,
		});
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/orgs/${SEED.orgId}/invites/${SEED.inviteId}`,
			status: 200,
		});
		expect(result.json).toEqual([
			expect.objectContaining({ id: SEED.inviteId, status: 'pending', parentType: 'org' }),
		]);
	});

	test('DELETE revokes; the invite is then revoked', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'revoke',
			orgId: SEED.orgId,
			inviteId: SEED.inviteId,
		});
		expect(result.requests[0]).toMatchObject({ method: 'DELETE', status: 204 });
		expect(result.json).toEqual([{ revoked: true, orgId: SEED.orgId, inviteId: SEED.inviteId }]);
		const after = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'get',
			orgId: SEED.orgId,
			inviteId: SEED.inviteId,
		});
		expect(after.json[0].status).toBe('revoked');
	});
});

describe('Claimed Domain → Claim', () => {
	test('POST /claimed-domains; 201 without body becomes { claimed, … }', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'claimedDomain',
			operation: 'claim',
			domain: 'jane@acme.example',
			parentId: SEED.orgId,
			parentType: 'org',
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			method: 'POST',
			pathname: '/v1/claimed-domains',
			status: 201,
			body: { domain: 'jane@acme.example', parentId: SEED.orgId, parentType: 'org' },
		});
		expect(result.json).toEqual([
			{ claimed: true, domain: 'jane@acme.example', parentType: 'org', parentId: SEED.orgId },
		]);
	});
});

describe('bearer-only operations refuse the API key before sending', () => {
	test.each([
		['invite', 'get', 'Invite → Get'],
		['invite', 'revoke', 'Invite → Revoke'],
		['organization', 'update', 'Organization → Update'],
		['claimedDomain', 'claim', 'Claimed Domain → Claim'],
	])('%s %s', async (resource, operation, label) => {
		const result = await run(sim, {
			resource,
			operation,
			orgId: SEED.orgId,
			inviteId: SEED.inviteId,
			label: 'x',
			domain: 'x.example',
			parentId: SEED.orgId,
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toBe(
			`${label} needs an Integration Platform Token API credential (bearer token)`,
		);
	});
});
