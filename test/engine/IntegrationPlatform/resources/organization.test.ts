import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { fieldLabel } from '../../../harness/fieldLabel';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const bearer = { authentication: 'bearerToken' };
const shown = (result: {
	error?: { message?: string; description?: string | null; context?: unknown };
}) =>
	`${result.error?.message} ${result.error?.description} ${JSON.stringify(result.error?.context ?? {})}`;

describe('Organization → Create, Get, Get Members, Add Member, Get Billing Account', () => {
	test('create an org, get it, see its owner among its members, add a builder', async () => {
		const created = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'create',
			label: 'Flow Org',
		});
		expect(created.error).toBeUndefined();
		expect(created.requests[0]).toMatchObject({
			method: 'POST',
			pathname: '/v1/orgs',
			status: 201,
			body: { label: 'Flow Org' },
		});
		const orgId = created.json[0].id as string;
		expect(created.json[0]).toMatchObject({ label: 'Flow Org', defaultTeamId: expect.any(String) });

		const got = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'get',
			orgId: rl(orgId),
		});
		expect(got.requests[0]).toMatchObject({ method: 'GET', pathname: `/v1/orgs/${orgId}` });
		expect(got.json).toEqual([expect.objectContaining({ id: orgId, label: 'Flow Org' })]);

		const added = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'addMember',
			orgId: rl(orgId),
			builderId: SEED.freelancerUserId,
		});
		expect(added.requests[0]).toMatchObject({
			method: 'POST',
			pathname: `/v1/orgs/${orgId}/memberships`,
			status: 201,
			body: { builderId: SEED.freelancerUserId },
		});
		expect(added.json).toEqual([{ added: true, orgId, builderId: SEED.freelancerUserId }]);

		const members = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'getMembers',
			orgId: rl(orgId),
			returnAll: true,
		});
		expect(members.requests[0].pathname).toBe(`/v1/orgs/${orgId}/builders`);
		expect(members.json.map((b) => b.id).sort()).toEqual(
			[SEED.userId, SEED.freelancerUserId].sort(),
		);
		expect(members.json.find((b) => b.id === SEED.freelancerUserId)).toMatchObject({
			primaryEmail: SEED.freelancerUserEmail,
			fullName: 'Fran Lancer',
		});

		const again = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'addMember',
			orgId: rl(orgId),
			builderId: SEED.freelancerUserId,
		});
		expect(again.requests[0].status).toBe(400);
		expect(shown(again)).toContain(`"${fieldLabel('organization', 'addMember', 'builderId')}"`);
		expect(shown(again)).toMatch(/Membership already exists/);
	});

	test('Get Members honours Limit', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'getMembers',
			orgId: rl(SEED.orgId),
			limit: 1,
		});
		expect(result.json).toHaveLength(1);
	});

	test('Create with an API key: the API declares no credential rule for it', async () => {
		const result = await run(sim, {
			resource: 'organization',
			operation: 'create',
			label: 'Key Org',
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0].headers['x-api-key']).toBe(SEED.apiKey);
		expect(result.json[0]).toMatchObject({ label: 'Key Org' });
	});

	test('Get Billing Account; an org without one is a 404', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'getBillingAccount',
			orgId: rl(SEED.orgId),
		});
		expect(result.requests[0].pathname).toBe(`/v1/orgs/${SEED.orgId}/billingAccount`);
		expect(result.json).toEqual([expect.objectContaining({ id: SEED.billingAccountId })]);

		const created = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'create',
			label: 'No Billing Org',
		});
		const none = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'getBillingAccount',
			orgId: rl(created.json[0].id as string),
		});
		expect(none.requests[0].status).toBe(404);
		expect(none.error?.message).toMatch(/404/);
	});

	test('an unknown builder is a 404; an org the token is not in is a 403', async () => {
		const unknown = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'addMember',
			orgId: rl(SEED.orgId),
			builderId: 'no-such-builder',
		});
		expect(unknown.requests[0].status).toBe(404);
		const foreign = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'get',
			orgId: rl(SEED.otherOrgId),
		});
		expect(foreign.requests[0].status).toBe(403);
		expect(foreign.error?.message).toMatch(/403/);
	});

	test.each(['get', 'getMembers', 'addMember', 'getBillingAccount'])(
		'%s with an API key is refused before sending',
		async (operation) => {
			const result = await run(sim, {
				resource: 'organization',
				operation,
				orgId: rl(SEED.orgId),
				builderId: SEED.freelancerUserId,
			});
			expect(result.requests).toHaveLength(0);
			expect(result.error?.message).toMatch(/needs an Integration Platform Token API credential/);
		},
	);
});

describe('Organization as a resource locator', () => {
	test('Get Members: from the list and by ID send the same request', async () => {
		for (const mode of ['list', 'id']) {
			const result = await run(sim, {
				...bearer,
				resource: 'organization',
				operation: 'getMembers',
				orgId: rl(SEED.orgId, mode),
				returnAll: true,
			});
			expect(result.error).toBeUndefined();
			expect(result.requests).toHaveLength(1);
			expect(result.requests[0]).toMatchObject({
				method: 'GET',
				pathname: `/v1/orgs/${SEED.orgId}/builders`,
				query: {},
				status: 200,
			});
		}
	});

	test('Update: a workflow saved when Organization ID was a text field (a plain string) runs unchanged', async () => {
		const result = await run(sim, {
			...bearer,
			resource: 'organization',
			operation: 'update',
			orgId: SEED.orgId,
			label: 'Renamed From Text',
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			method: 'PATCH',
			pathname: `/v1/orgs/${SEED.orgId}`,
			status: 200,
			body: { updateMask: ['label'], org: { label: 'Renamed From Text' } },
		});
		expect(result.json).toEqual([
			expect.objectContaining({ id: SEED.orgId, label: 'Renamed From Text' }),
		]);
	});

	test('an empty locator is refused by n8n before the node runs, naming the field', async () => {
		sim.journal.clear();
		await expect(
			run(sim, { ...bearer, resource: 'organization', operation: 'get', orgId: rl('') }),
		).rejects.toThrow(/Parameter "Organization" is required/);
		expect(sim.journal.entries).toHaveLength(0);
	});
});

describe('User → Get Current', () => {
	test('GET /my-info: the builder, their project roles and org role', async () => {
		const result = await run(sim, { ...bearer, resource: 'user', operation: 'getCurrent' });
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: '/v1/my-info',
			status: 200,
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				builder: expect.objectContaining({ id: SEED.userId, primaryEmail: SEED.userEmail }),
				projectRoles: expect.objectContaining({
					[SEED.projectId]: expect.objectContaining({
						role: 'owner',
						project: expect.objectContaining({ name: SEED.projectName }),
					}),
				}),
				orgRole: expect.objectContaining({
					role: 'owner',
					org: expect.objectContaining({ id: SEED.orgId }),
				}),
			}),
		]);
	});

	test('an expired token: the 401 is shown', async () => {
		const result = await run(
			sim,
			{ ...bearer, resource: 'user', operation: 'getCurrent' },
			{
				credentials: {
					integrationPlatformTokenApi: {
						accessToken: SEED.expiredBearerToken,
						baseUrl: sim.apiUrl,
					},
				},
			},
		);
		expect(result.requests[0].status).toBe(401);
		expect(result.error?.message).toMatch(/401/);
		expect(shown(result)).not.toContain(SEED.expiredBearerToken);
	});
});

describe('OAuth → Get Authorization URL', () => {
	const base = {
		resource: 'oauth',
		operation: 'getAuthorizationUrl',
		project: rl(SEED.projectName, 'name'),
		provider: 'hubspot',
		groupRef: SEED.groupRef,
		consumerRef: 'user-77',
	};

	test('POST /oauth-connect with the project in the body; the text answer becomes { url }', async () => {
		const result = await run(sim, {
			...base,
			additionalFields: { groupName: 'Acme Inc', consumerName: 'Hank' },
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			method: 'POST',
			pathname: '/v1/oauth-connect',
			status: 200,
			body: {
				projectIdOrName: SEED.projectName,
				provider: 'hubspot',
				groupRef: SEED.groupRef,
				consumerRef: 'user-77',
				groupName: 'Acme Inc',
				consumerName: 'Hank',
			},
		});
		expect(result.json).toEqual([{ url: expect.stringMatching(/^https:\/\/\S+provider=hubspot/) }]);
	});

	test('a provider that needs a workspace: the validation problem names providerWorkspaceRef', async () => {
		const result = await run(sim, { ...base, provider: 'salesforce' });
		expect(result.requests[0].status).toBe(400);
		expect(shown(result)).toContain('providerWorkspaceRef');
	});

	test('an API key of another project is a 403', async () => {
		const result = await run(sim, { ...base, project: rl(SEED.secondProjectName, 'name') });
		expect(result.requests[0].status).toBe(403);
		expect(result.error?.message).toMatch(/403/);
	});

	test('a malformed Provider Metadata is refused before sending', async () => {
		const result = await run(sim, { ...base, additionalFields: { providerMetadata: '{nope' } });
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toMatch(/Provider Metadata/);
	});
});

describe('Upload URL → Generate', () => {
	test('GET /generate-upload-url: a new signed URL each time', async () => {
		const first = await run(sim, { resource: 'uploadUrl', operation: 'generate' });
		const second = await run(sim, { resource: 'uploadUrl', operation: 'generate' });
		expect(first.requests[0]).toMatchObject({ method: 'GET', pathname: '/v1/generate-upload-url' });
		expect(first.json).toEqual([
			{
				url: expect.stringMatching(/^https:\/\//),
				bucket: expect.any(String),
				path: expect.any(String),
			},
		]);
		expect(second.json[0].path).not.toBe(first.json[0].path);
	});
});
