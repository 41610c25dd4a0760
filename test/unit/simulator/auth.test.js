'use strict';

// The auth matrix (docs/api-notes.md, "Credentials per operation").

const { setup, expectProblem, P, SEED } = require('./helpers');

let t;
beforeAll(async () => {
	t = await setup();
});
afterEach(() => t.sim.reset());
afterAll(() => t.sim.close());

const unpausePath = `${P}/integrations/${SEED.integrationId}/installations/${SEED.installationId}:unpause`;

describe('management host', () => {
	test('no credentials: 401 naming the headers', async () => {
		const body = expectProblem(await t.anon.get(`${P}/integrations`), 401);
		expect(body.title).toBe('Unauthorized');
		expect(body.detail).toMatch(/X-Api-Key/);
		expect(body.detail).toMatch(/Bearer/);
	});

	test('unknown API key: 401 "Invalid API key", the key is not echoed', async () => {
		const res = await t
			.client(`${t.sim.apiUrl}/v1`, { 'X-Api-Key': 'amp_wrong_key_123' })
			.get(`${P}/integrations`);
		const body = expectProblem(res, 401);
		expect(body.detail).toBe('Invalid API key');
		expect(JSON.stringify(body)).not.toContain('amp_wrong_key_123');
	});

	test('unknown or expired bearer token: 401', async () => {
		for (const token of ['not-a-token', SEED.expiredBearerToken]) {
			const res = await t
				.client(`${t.sim.apiUrl}/v1`, { Authorization: `Bearer ${token}` })
				.get('/projects');
			expect(expectProblem(res, 401).detail).toBe('Invalid or expired bearer token');
			expect(JSON.stringify(res.data)).not.toContain(token);
		}
	});

	test('a non-Bearer Authorization scheme: 401', async () => {
		const res = await t
			.client(`${t.sim.apiUrl}/v1`, { Authorization: 'Basic dTpw' })
			.get('/projects');
		expect(expectProblem(res, 401).detail).toMatch(/Bearer scheme/);
	});

	test('either header works on ordinary routes', async () => {
		expect((await t.api.get(`${P}/topics`)).status).toBe(200);
		expect((await t.bearer.get(`${P}/topics`)).status).toBe(200);
	});

	test('GET /providers needs no auth', async () => {
		const res = await t.anon.get('/providers');
		expect(res.status).toBe(200);
		expect(res.data.hubspot).toMatchObject({
			name: 'hubspot',
			displayName: 'HubSpot',
			authType: 'oauth2',
			support: { read: true, write: true, subscribe: true, proxy: true },
		});
		expect((await t.anon.get('/providers/salesforce')).data.name).toBe('salesforce');
	});

	test.each([
		['DELETE', `/orgs/${SEED.orgId}/invites/${SEED.inviteId}`, undefined],
		['GET', `/orgs/${SEED.orgId}/invites/${SEED.inviteId}`, undefined],
		['PATCH', `/orgs/${SEED.orgId}`, { updateMask: ['label'], org: { label: 'x' } }],
		[
			'POST',
			'/claimed-domains',
			{ domain: 'acme.example', parentId: SEED.orgId, parentType: 'org' },
		],
	])('bearer-only %s %s refuses an API key with 401', async (method, url, data) => {
		const res = await t.api.request({ method, url, data });
		expect(expectProblem(res, 401).detail).toMatch(/^Only bearer auth works for this endpoint/);
	});

	test('bearer-only route without any header: 401 asking for a bearer token', async () => {
		expect(
			expectProblem(await t.anon.get(`/orgs/${SEED.orgId}/invites/${SEED.inviteId}`), 401).detail,
		).toMatch(/Authorization/);
	});

	test('an API key reaches only its own project (by id or name): 403 otherwise', async () => {
		expect((await t.api.get(`/projects/${SEED.projectId}/integrations`)).status).toBe(200);
		expectProblem(await t.api.get(`/projects/${SEED.secondProjectName}/integrations`), 403);
		expectProblem(await t.api.get(`/projects/${SEED.secondProjectId}/integrations`), 403);
		const second = t.client(`${t.sim.apiUrl}/v1`, { 'X-Api-Key': SEED.secondProjectApiKey });
		expect((await second.get(`/projects/${SEED.secondProjectName}/integrations`)).status).toBe(200);
		expect((await second.get(`${P}/integrations`)).status).toBe(403);
	});

	test('unknown project: 404', async () => {
		const body = expectProblem(await t.api.get('/projects/no-such-project/integrations'), 404);
		expect(body.issues[0]).toMatchObject({
			in: 'path',
			name: 'projectIdOrName',
			value: 'no-such-project',
		});
	});

	test("a bearer token reaches its orgs' projects and orgs only", async () => {
		expect((await t.bearer.get(`/projects/${SEED.secondProjectName}/topics`)).status).toBe(200);
		expectProblem(await t.bearer.get(`/projects/${SEED.otherOrgProjectName}/topics`), 403);
		expectProblem(
			await t.bearer.get(`/orgs/${SEED.otherOrgId}/invites/${SEED.otherOrgInviteId}`),
			403,
		);
		expectProblem(
			await t.bearer.patch(`/orgs/${SEED.otherOrgId}`, {
				updateMask: ['label'],
				org: { label: 'x' },
			}),
			403,
		);
		const other = t.client(`${t.sim.apiUrl}/v1`, {
			Authorization: `Bearer ${SEED.otherBearerToken}`,
		});
		expect(
			(await other.get(`/orgs/${SEED.otherOrgId}/invites/${SEED.otherOrgInviteId}`)).status,
		).toBe(200);
		expect((await other.get('/projects')).data.map((p) => p.id)).toEqual([SEED.otherOrgProjectId]);
	});

	test('claimDomain for an org the builder does not belong to: 403', async () => {
		expectProblem(
			await t.bearer.post('/claimed-domains', {
				domain: 'acme.example',
				parentId: SEED.otherOrgId,
				parentType: 'org',
			}),
			403,
		);
	});

	test('the unpause request on the management host: 404 route not found, pointing at the read host', async () => {
		const body = expectProblem(await t.api.post(unpausePath), 404);
		expect(body.detail).toMatch(/No route/);
		expect(body.remedy).toMatch(/read host/);
		expect(
			t.sim.state.installations.get(SEED.installationId).config.content.read.objects.contacts
				.disabled,
		).toBe(true);
	});
});

describe('read host', () => {
	test('X-Api-Key works', async () => {
		expect((await t.read.post(unpausePath)).status).toBe(204);
	});

	test('Authorization: Bearer alone: 401 "accepts only X-Api-Key"', async () => {
		const res = await t
			.client(`${t.sim.readUrl}/v1`, { Authorization: `Bearer ${SEED.bearerToken}` })
			.post(unpausePath);
		expect(expectProblem(res, 401).detail).toMatch(/The read API accepts only X-Api-Key/);
	});

	test('no credentials or a wrong key: 401', async () => {
		expect(
			expectProblem(await t.client(`${t.sim.readUrl}/v1`).post(unpausePath), 401).detail,
		).toMatch(/X-Api-Key/);
		expect(
			expectProblem(
				await t.client(`${t.sim.readUrl}/v1`, { 'X-Api-Key': 'nope' }).post(unpausePath),
				401,
			).detail,
		).toBe('Invalid API key');
	});

	test("another project's key: 403", async () => {
		expectProblem(
			await t
				.client(`${t.sim.readUrl}/v1`, { 'X-Api-Key': SEED.secondProjectApiKey })
				.post(unpausePath),
			403,
		);
	});

	test('management routes do not exist on the read host', async () => {
		expectProblem(await t.read.get('/projects'), 404);
	});
});
