'use strict';

// Problem documents (docs/api-notes.md, "Problem documents"): InputValidationProblem issues, the JWT-key variant,
// not-found and conflict answers, malformed JSON, unknown routes and methods.

const { setup, expectProblem, P, SEED } = require('./helpers');

let t;
beforeAll(async () => {
	t = await setup();
});
afterEach(() => t.sim.reset());
afterAll(() => t.sim.close());

test('a 400 lists every invalid input with in, name, value and detail', async () => {
	const res = await t.api.post(`${P}/destinations`, {
		name: 'bad name!',
		type: 'carrier-pigeon',
		metadata: {},
	});
	const body = expectProblem(res, 400);
	expect(body.issues).toEqual([
		expect.objectContaining({
			in: 'body',
			name: 'name',
			value: 'bad name!',
			detail: expect.stringMatching(/letters, digits and dashes/),
		}),
		expect.objectContaining({
			in: 'body',
			name: 'type',
			value: 'carrier-pigeon',
			detail: expect.stringMatching(/must be one of/),
		}),
	]);
	for (const i of body.issues)
		expect(i).toEqual(
			expect.objectContaining({ type: expect.any(String), title: expect.any(String) }),
		);
});

test('missing fields are issues without a value; nested names use dots and indexes', async () => {
	const res = await t.api.post(`${P}/integrations`, {
		name: 'x',
		latestRevision: { content: { read: 1 } },
	});
	const body = expectProblem(res, 400);
	expect(body.issues.map((i) => i.name).sort()).toEqual(['latestRevision.specVersion', 'provider']);
	expect(body.issues.every((i) => !('value' in i))).toBe(true);
	const deep = await t.api.post(`${P}/integrations`, {
		name: 'y',
		provider: 'hubspot',
		latestRevision: {
			specVersion: '1',
			content: {
				name: 'y',
				provider: 'hubspot',
				read: {
					objects: [
						{
							objectName: 'contacts',
							destination: 'd',
							schedule: 's',
							delivery: { pageSize: 10 },
							enabled: 'sometimes',
						},
					],
				},
			},
		},
	});
	expect(deep.status).toBe(422);
	expect(deep.data.issues.map((i) => [i.name, i.value])).toEqual([
		['latestRevision.content.read.objects[0].delivery.pageSize', 10],
		['latestRevision.content.read.objects[0].enabled', 'sometimes'],
	]);
});

test('malformed JSON: 400 with an issue in body', async () => {
	const res = await t.api.post(`${P}/topics`, '{"name": ', {
		headers: { 'Content-Type': 'application/json' },
		transformRequest: [(d) => d],
	});
	const body = expectProblem(res, 400);
	expect(body.issues).toEqual([
		expect.objectContaining({ in: 'body', detail: expect.stringMatching(/^Malformed JSON/) }),
	]);
	expect(t.sim.journal.last().body).toBe('{"name": ');
});

test('auth comes before body validation', async () => {
	const res = await t.anon.post(`${P}/topics`, '{', {
		headers: { 'Content-Type': 'application/json' },
		transformRequest: [(d) => d],
	});
	expect(res.status).toBe(401);
});

test('webhook destinations need https', async () => {
	const res = await t.api.post(`${P}/destinations`, {
		name: 'plain',
		type: 'webhook',
		metadata: { url: 'http://example.com/hook' },
	});
	expect(expectProblem(res, 400).issues).toEqual([
		expect.objectContaining({
			in: 'body',
			name: 'metadata.url',
			detail: 'Webhook URLs must use https',
			value: 'http://example.com/hook',
		}),
	]);
});

describe('JWT-key variant (updateJWTKey)', () => {
	const url = `${P}/jwt-keys/${SEED.jwtKeyId}`;

	test.each([
		[{ updateMask: [], jwtKey: { label: 'x' } }, 'updateMask'],
		[{ jwtKey: { label: 'x' } }, 'updateMask'],
		[{ updateMask: ['algorithm'], jwtKey: { algorithm: 'RS256' } }, 'updateMask[0]'],
	])('400 "Invalid update mask" for %j', async (body, field) => {
		const res = await t.api.patch(url, body);
		expect(res.status).toBe(400);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.data.detail).toBe('Invalid update mask');
		expect(res.data.issues).toBeUndefined();
		expect(res.data.validationIssues).toEqual([
			expect.objectContaining({
				field,
				detail: expect.any(String),
				remedy: expect.stringMatching(/active.*label/),
			}),
		]);
	});

	test('422 "value not found for mask"', async () => {
		const res = await t.api.patch(url, {
			updateMask: ['label', 'active'],
			jwtKey: { active: true },
		});
		expect(res.status).toBe(422);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.data.detail).toBe('value not found for mask');
		expect(res.data.validationIssues).toEqual([
			expect.objectContaining({
				field: 'jwtKey.label',
				detail: "value not found for mask 'label'",
			}),
		]);
	});

	test('404 unknown key, still application/json', async () => {
		const res = await t.api.patch(`${P}/jwt-keys/00000000-0000-4000-8000-000000000000`, {
			updateMask: ['active'],
			jwtKey: { active: false },
		});
		expect(res.status).toBe(404);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
	});

	test('malformed JSON on a JWT route also uses validationIssues', async () => {
		const res = await t.api.patch(url, '{', {
			headers: { 'Content-Type': 'application/json' },
			transformRequest: [(d) => d],
		});
		expect(res.status).toBe(400);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.data.validationIssues[0]).toMatchObject({ field: 'body' });
	});

	test('auth errors keep application/problem+json', async () => {
		expectProblem(await t.anon.patch(url, {}), 401);
	});
});

describe('not found and conflicts', () => {
	test.each([
		['get', `${P}/integrations/nope`],
		['get', `${P}/connections/nope`],
		['get', `${P}/operations/nope`],
		['delete', `${P}/topic-destination-routes/nope`],
		['get', `${P}/jwt-keys/nope`],
		['delete', `${P}/destinations/nope`],
	])('%s %s: 404', async (method, url) => {
		expect((await t.api[method](url)).status).toBe(404);
	});

	test('claiming a domain another org owns: 409', async () => {
		for (const domain of ['taken.example', 'boss@Taken.Example', 'https://www.taken.example/x']) {
			const res = await t.bearer.post('/claimed-domains', {
				domain,
				parentId: SEED.orgId,
				parentType: 'org',
			});
			expect(expectProblem(res, 409).detail).toBe('Domain already claimed by another organization');
		}
	});

	test('claimDomain validation', async () => {
		const res = await t.bearer.post('/claimed-domains', {
			domain: 'not a domain',
			parentType: 'org',
		});
		expect(expectProblem(res, 400).issues.map((i) => i.name)).toEqual(['parentId']);
		expect(
			(
				await t.bearer.post('/claimed-domains', {
					domain: 'not a domain',
					parentId: SEED.orgId,
					parentType: 'org',
				})
			).data.issues[0].name,
		).toBe('domain');
	});

	test('duplicate topic and destination names: 409', async () => {
		expectProblem(await t.api.post(`${P}/topics`, { name: SEED.topicName }), 409);
		expectProblem(
			await t.api.post(`${P}/destinations`, {
				name: SEED.destinationName,
				type: 'webhook',
				metadata: { url: 'https://x.example' },
			}),
			409,
		);
	});

	test('updateOrg with a mask other than label: 400', async () => {
		const res = await t.bearer.patch(`/orgs/${SEED.orgId}`, {
			updateMask: ['defaultTeamId'],
			org: {},
		});
		expect(expectProblem(res, 400).issues).toEqual([
			expect.objectContaining({ name: 'updateMask[0]', value: 'defaultTeamId' }),
		]);
		const empty = await t.bearer.patch(`/orgs/${SEED.orgId}`, {
			updateMask: [],
			org: { label: 'x' },
		});
		expect(empty.data.issues[0].name).toBe('updateMask');
	});

	test('revoking an accepted invite: 400; revoking twice: 204', async () => {
		expect(
			(await t.bearer.delete(`/orgs/${SEED.orgId}/invites/${SEED.acceptedInviteId}`)).status,
		).toBe(400);
		expect((await t.bearer.delete(`/orgs/${SEED.orgId}/invites/${SEED.inviteId}`)).status).toBe(
			204,
		);
		expect((await t.bearer.delete(`/orgs/${SEED.orgId}/invites/${SEED.inviteId}`)).status).toBe(
			204,
		);
	});
});

describe('routing', () => {
	test('unknown route: 404 problem', async () => {
		expect(expectProblem(await t.api.get('/nothing/here'), 404).detail).toMatch(
			/No route for GET \/v1\/nothing\/here/,
		);
	});

	test('wrong method: 405 problem with Allow', async () => {
		const res = await t.api.put(`${P}/topics`, {});
		expect(expectProblem(res, 405).detail).toMatch(/PUT/);
		expect(res.headers.allow.split(', ').sort()).toEqual(['GET', 'POST']);
	});

	test('path parameters are percent-decoded', async () => {
		const res = await t.api.get(
			`/projects/${encodeURIComponent(SEED.projectName)}/destinations/${encodeURIComponent(SEED.destinationName)}`,
		);
		expect(res.status).toBe(200);
		const encodedDash = await t.api.get(`/projects/demo%2Dproject/topics`);
		expect(encodedDash.status).toBe(200);
	});

	test('every response has X-Request-Id', async () => {
		const a = await t.api.get('/projects');
		const b = await t.api.get('/projects');
		expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
		expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
	});
});
