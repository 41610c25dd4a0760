import { searchInvites } from '../../../../nodes/IntegrationPlatform/listSearch/searches';
import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { searchContext } from '../../../harness/listSearch';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const bearer = { authentication: 'bearerToken' };

describe('Invite → Create, Get, Get Many, Revoke', () => {
	test('invite someone, find the invite in the list, get it, revoke it', async () => {
		const created = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'create',
			orgId: rl(SEED.orgId),
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
			orgId: rl(SEED.orgId),
			returnAll: true,
		});
		expect(listed.requests[0].pathname).toBe(`/v1/orgs/${SEED.orgId}/invites`);
		expect(listed.json.map((i) => i.id)).toEqual(expect.arrayContaining([inviteId, SEED.inviteId]));

		await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'revoke',
			orgId: rl(SEED.orgId),
			inviteId: rl(inviteId),
		});
		const got = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'get',
			orgId: rl(SEED.orgId),
			inviteId: rl(inviteId),
		});
		expect(got.json[0]).toMatchObject({ id: inviteId, status: 'revoked' });
	});

	test('Get Many honours Limit', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'getAll',
			orgId: rl(SEED.orgId),
			limit: 1,
		});
		expect(result.json).toHaveLength(1);
	});

	test('an invalid email: the validation problem names the field', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'create',
			orgId: rl(SEED.orgId),
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
			orgId: rl('00000000-0000-4000-8000-0000000000aa'),
		});
		expect(result.requests[0].status).toBe(404);
		expect(result.error?.message).toMatch(/404/);
	});

	test('with an API key, refused before sending', async () => {
		const result = await run(sim, {
			resource: 'invite',
			operation: 'create',
			orgId: rl(SEED.orgId),
			email: 'flow@example.com',
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toMatch(/needs an Integration Platform Token API credential/);
	});
});

describe('Organization and Invite as resource locators', () => {
	test('Get: the organization and the invite from the list send the same request as by ID', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'get',
			orgId: rl(SEED.orgId, 'list'),
			inviteId: rl(SEED.inviteId, 'list'),
		});
		expect(result.error).toBeUndefined();
		expect(result.requests).toHaveLength(1);
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/orgs/${SEED.orgId}/invites/${SEED.inviteId}`,
			query: {},
			status: 200,
		});
		expect(result.json).toEqual([
			expect.objectContaining({ id: SEED.inviteId, status: 'pending', parentId: SEED.orgId }),
		]);
	});

	test('a workflow saved when both were text fields (plain strings) still runs unchanged', async () => {
		const created = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'create',
			orgId: SEED.orgId,
			email: 'plain@example.com',
		});
		expect(created.error).toBeUndefined();
		expect(created.requests[0]).toMatchObject({
			method: 'POST',
			pathname: `/v1/orgs/${SEED.orgId}/invites`,
			body: { email: 'plain@example.com' },
		});
		const inviteId = created.json[0].id as string;
		const revoked = await run(sim, {
			...bearer,
			resource: 'invite',
			operation: 'revoke',
			orgId: SEED.orgId,
			inviteId,
		});
		expect(revoked.error).toBeUndefined();
		expect(revoked.requests[0]).toMatchObject({
			method: 'DELETE',
			pathname: `/v1/orgs/${SEED.orgId}/invites/${inviteId}`,
			status: 204,
		});
		expect(revoked.json).toEqual([{ revoked: true, orgId: SEED.orgId, inviteId }]);
	});

	test('an empty invite locator is refused by n8n before the node runs, naming the field', async () => {
		sim.journal.clear();
		await expect(
			run(sim, {
				...bearer,
				resource: 'invite',
				operation: 'get',
				orgId: rl(SEED.orgId),
				inviteId: rl(''),
			}),
		).rejects.toThrow(/Parameter "Invite" is required/);
		expect(sim.journal.entries).toHaveLength(0);
	});
});

describe('searchInvites (Invite → Get, Revoke)', () => {
	const current = { orgId: SEED.orgId };

	test("the organization's invites by email and status, pending first", async () => {
		const result = await searchInvites.call(
			searchContext(sim, { authentication: 'bearerToken', current }),
		);
		expect(result.results[0]).toEqual({
			name: `${SEED.invitedEmail} (pending)`,
			value: SEED.inviteId,
		});
		expect(result.results).toContainEqual({
			name: `${SEED.acceptedInviteEmail} (accepted)`,
			value: SEED.acceptedInviteId,
		});
		expect(result.results.map((r) => r.value)).not.toContain(SEED.otherOrgInviteId);
		expect(sim.journal.last()).toMatchObject({
			method: 'GET',
			pathname: `/v1/orgs/${SEED.orgId}/invites`,
		});
	});

	test('the filter matches email, status or ID', async () => {
		const result = await searchInvites.call(
			searchContext(sim, { authentication: 'bearerToken', current }),
			'joined',
		);
		expect(result.results.map((r) => r.value)).toEqual([SEED.acceptedInviteId]);
	});

	test('without an organization: asks for one first, sends nothing', async () => {
		sim.journal.clear();
		await expect(
			searchInvites.call(searchContext(sim, { authentication: 'bearerToken' })),
		).rejects.toThrow(/Select an organization first/);
		expect(sim.journal.entries).toHaveLength(0);
	});
});
