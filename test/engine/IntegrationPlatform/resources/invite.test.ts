import { run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const bearer = { authentication: 'bearerToken' };

describe('Invite → Create, Get Many', () => {
	test('invite someone, find the invite in the list, get it, revoke it', async () => {
		const created = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'create',
			orgId: SEED.orgId,
			email: 'flow@example.com',
		});
		expect(created.error).toBeUndefined();
		expect(created.requests[0]).toMatchObject({
			method: 'POST',
			pathname: `/v1/orgs/${SEED.orgId}/invites`,
			status: 201,
			body: { email: 'flow@example.com' },
		});
		const inviteId = created.json[0].id as string;
		expect(created.json[0]).toMatchObject({
			invitedEmail: 'flow@example.com',
			parentType: 'org',
			parentId: SEED.orgId,
			status: 'pending',
		});

		const listed = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'getAll',
			orgId: SEED.orgId,
			returnAll: true,
		});
		expect(listed.requests[0].pathname).toBe(`/v1/orgs/${SEED.orgId}/invites`);
		expect(listed.json.map((i) => i.id)).toEqual(expect.arrayContaining([inviteId, SEED.inviteId]));

		await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'revoke',
			orgId: SEED.orgId,
			inviteId,
		});
		const got = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'get',
			orgId: SEED.orgId,
			inviteId,
		});
		expect(got.json[0]).toMatchObject({ id: inviteId, status: 'revoked' });
	});

	test('Get Many honours Limit', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'getAll',
			orgId: SEED.orgId,
			limit: 1,
		});
		expect(result.json).toHaveLength(1);
	});

	test('an invalid email: the validation problem names the field', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'create',
			orgId: SEED.orgId,
			email: 'not-an-email',
		});
		expect(result.requests[0].status).toBe(400);
		expect(`${result.error?.message} ${result.error?.description}`).toContain('email');
	});

	test('an unknown organization is a 404', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'getAll',
			orgId: 'no-such-org',
		});
		expect(result.requests[0].status).toBe(404);
		expect(result.error?.message).toMatch(/404/);
	});

	test('with an API key, refused before sending', async () => {
		const result = await run(sim, {
			resource: 'invite',
			operation: 'create',
			orgId: SEED.orgId,
			email: 'flow@example.com',
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toMatch(/needs the/);
	});
});
