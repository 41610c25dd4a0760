import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { fieldLabel } from '../../../harness/fieldLabel';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());

const base = {
	resource: 'connection',
	operation: 'generate',
	project: rl(SEED.projectId),
	provider: 'hubspot',
	groupRef: 'group-7',
	consumerRef: 'consumer-7',
};
const path = `/v1/projects/${SEED.projectId}/connections:generate`;

describe('Connection → Generate', () => {
	test.each([
		['apiKey', { providerApiKey: 'pk_live_123' }, { apiKey: 'pk_live_123' }, 'apiKey'],
		[
			'basicAuth',
			{ username: 'u', password: 'p' },
			{ basicAuth: { username: 'u', password: 'p' } },
			'basic',
		],
		[
			'oauth2ClientCredentials',
			{ clientId: 'cid', clientSecret: 'cs', scopes: 'a.read, a.write' },
			{
				oauth2ClientCredentials: {
					clientId: 'cid',
					clientSecret: 'cs',
					scopes: ['a.read', 'a.write'],
				},
			},
			'oauth2/clientCredentials',
		],
		[
			'oauth2PasswordCredentials',
			{ username: 'u', password: 'p', clientId: 'cid', clientSecret: 'cs' },
			{
				oauth2PasswordCredentials: {
					username: 'u',
					password: 'p',
					clientId: 'cid',
					clientSecret: 'cs',
				},
			},
			'oauth2/password',
		],
		[
			'oauth2AuthorizationCode',
			{
				accessToken: 'at-1',
				accessTokenExpiresAt: '2030-01-01T00:00:00Z',
				refreshToken: 'rt-1',
				scopes: 'crm.read crm.write',
			},
			{
				oauth2AuthorizationCode: {
					accessToken: { token: 'at-1', expiresAt: '2030-01-01T00:00:00.000Z' },
					refreshToken: { token: 'rt-1' },
					scopes: ['crm.read', 'crm.write'],
				},
			},
			'oauth2/authorizationCode',
		],
		[
			'customAuth',
			{ customAuth: '{"serviceAccountKey": "c2E=", "scopes": ["x"]}' },
			{ customAuth: { serviceAccountKey: 'c2E=', scopes: ['x'] } },
			'none',
		],
		['none', {}, {}, 'none'],
	])(
		'%s form: exact body, 201 Connection, secrets hidden',
		async (form, fields, expectedBody, authScheme) => {
			const result = await run(sim, { ...base, providerCredentials: form, ...fields });
			expect(result.error).toBeUndefined();
			expect(result.requests[0]).toMatchObject({ method: 'POST', pathname: path, status: 201 });
			expect(result.requests[0].body).toEqual({
				provider: 'hubspot',
				groupRef: 'group-7',
				consumerRef: 'consumer-7',
				...expectedBody,
			});
			const [connection] = result.json as Array<Record<string, unknown>>;
			expect(connection).toMatchObject({
				id: expect.any(String),
				provider: 'hubspot',
				authScheme,
				status: 'created',
			});
			expect(connection.group).toMatchObject({ groupRef: 'group-7' });
			const output = JSON.stringify(result.json);
			for (const secret of ['pk_live_123', 'at-1', 'rt-1']) expect(output).not.toContain(secret);
		},
	);

	test('additional fields and provider metadata are sent only when set', async () => {
		const result = await run(sim, {
			...base,
			providerCredentials: 'apiKey',
			providerApiKey: 'pk',
			connectionFields: {
				groupName: 'Group Seven',
				consumerName: 'Consumer Seven',
				providerWorkspaceRef: 'acme',
				providerMetadata: {
					entry: [{ key: 'instance', value: 'eu1', source: 'input', displayName: 'Instance' }],
				},
			},
		});
		expect(result.requests[0].body).toEqual({
			provider: 'hubspot',
			groupRef: 'group-7',
			consumerRef: 'consumer-7',
			apiKey: 'pk',
			groupName: 'Group Seven',
			consumerName: 'Consumer Seven',
			providerWorkspaceRef: 'acme',
			providerMetadata: { instance: { value: 'eu1', source: 'input', displayName: 'Instance' } },
		});
	});

	test('metadata keys named like object properties reach the service (axios drops them from objects)', async () => {
		const names = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
		const result = await run(sim, {
			...base,
			providerCredentials: 'apiKey',
			providerApiKey: 'pk',
			connectionFields: {
				providerMetadata: {
					entry: names.map((key) => ({ key, value: `v-${key}`, source: 'input' })),
				},
			},
		});
		expect(result.error).toBeUndefined();
		const metadata = (result.requests[0].body as { providerMetadata: object }).providerMetadata;
		expect(Object.keys(metadata)).toEqual(names);
		for (const key of names) {
			expect(Object.getOwnPropertyDescriptor(metadata, key)?.value).toEqual({
				value: `v-${key}`,
				source: 'input',
			});
		}
	});

	test('Include Credentials in Output keeps what the service echoes', async () => {
		const result = await run(sim, {
			...base,
			providerCredentials: 'apiKey',
			providerApiKey: 'pk_visible',
			connectionOptions: { includeSecrets: true },
		});
		expect(result.json[0].apiKey).toBe('pk_visible');
	});

	test('invalid custom auth JSON fails before any request', async () => {
		const result = await run(sim, {
			...base,
			providerCredentials: 'customAuth',
			customAuth: '{nope',
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toContain('"Custom Auth Values (JSON)" is not valid JSON');
	});
});

/** Everything an error shows the user: message, description and context. */
const shown = (result: {
	error?: { message?: string; description?: string | null; context?: unknown };
}) =>
	`${result.error?.message} ${result.error?.description} ${JSON.stringify(result.error?.context ?? {})}`;

describe('Connection → Get, Get Many, Update, Delete', () => {
	beforeEach(() => sim.reset());
	const project = rl(SEED.projectId);
	const one = (id: string) => `/v1/projects/${SEED.projectId}/connections/${id}`;

	test('generate → get → list → update → delete → get is a 404', async () => {
		const generated = await run(sim, {
			...base,
			providerCredentials: 'apiKey',
			providerApiKey: 'pk_flow_1',
		});
		const id = generated.json[0].id as string;

		const got = await run(sim, {
			resource: 'connection',
			operation: 'get',
			project,
			connectionId: rl(id),
		});
		expect(got.requests[0]).toMatchObject({ method: 'GET', pathname: one(id), status: 200 });
		expect(got.json).toEqual([
			expect.objectContaining({ id, authScheme: 'apiKey', status: 'created' }),
		]);

		const listed = await run(sim, {
			resource: 'connection',
			operation: 'getAll',
			project,
			returnAll: true,
			connectionFilters: { groupRef: 'group-7', provider: 'hubspot' },
		});
		expect(listed.requests[0].query).toEqual({ groupRef: 'group-7', provider: 'hubspot' });
		expect(listed.json.map((c) => c.id)).toEqual([id]);

		const updated = await run(sim, {
			resource: 'connection',
			operation: 'update',
			project,
			connectionId: rl(id),
			connectionUpdate: { providerApiKey: 'pk_flow_2', providerWorkspaceRef: 'ws-2' },
		});
		expect(updated.requests[0]).toMatchObject({
			method: 'PATCH',
			pathname: one(id),
			status: 200,
			body: {
				updateMask: ['providerWorkspaceRef', 'apiKey'],
				connection: { providerWorkspaceRef: 'ws-2', apiKey: 'pk_flow_2' },
			},
		});
		expect(updated.json).toEqual([expect.objectContaining({ id, providerWorkspaceRef: 'ws-2' })]);
		expect(JSON.stringify(updated.json)).not.toContain('pk_flow_2');

		const relisted = await run(sim, {
			resource: 'connection',
			operation: 'getAll',
			project,
			limit: 50,
			connectionFilters: { groupRef: 'group-7' },
		});
		expect(relisted.json).toEqual([expect.objectContaining({ id, providerWorkspaceRef: 'ws-2' })]);

		const deleted = await run(sim, {
			resource: 'connection',
			operation: 'delete',
			project,
			connectionId: rl(id),
		});
		expect(deleted.requests[0]).toMatchObject({ method: 'DELETE', pathname: one(id), status: 204 });
		expect(deleted.json).toEqual([{ deleted: true, connectionId: id }]);

		const gone = await run(sim, {
			resource: 'connection',
			operation: 'get',
			project,
			connectionId: rl(id),
		});
		expect(gone.requests[0].status).toBe(404);
		expect(shown(gone)).toContain('Connection not found');
	});

	test('Get Many without filters sends no query and honours Limit', async () => {
		const result = await run(sim, {
			resource: 'connection',
			operation: 'getAll',
			project,
			limit: 2,
		});
		expect(result.requests[0].query).toEqual({});
		expect(result.json).toHaveLength(2);
	});

	test('a credential of another auth scheme is a 400 naming the field', async () => {
		const result = await run(sim, {
			resource: 'connection',
			operation: 'update',
			project,
			connectionId: rl(SEED.apiKeyConnectionId),
			connectionUpdate: { username: 'u', password: 'p' },
		});
		expect(result.requests[0]).toMatchObject({ status: 400 });
		expect(shown(result)).toContain('connection.basicAuth');
		expect(shown(result)).not.toContain('"p"');
	});

	test('Update without fields, or with half a credential pair, fails before sending', async () => {
		const empty = await run(sim, {
			resource: 'connection',
			operation: 'update',
			project,
			connectionId: rl(SEED.connectionId),
		});
		expect(empty.requests).toHaveLength(0);
		expect(empty.error?.message).toBe(
			'Nothing to update: add at least one field under Update Fields',
		);
		const half = await run(sim, {
			resource: 'connection',
			operation: 'update',
			project,
			connectionId: rl(SEED.connectionId),
			connectionUpdate: { clientId: 'only-id' },
		});
		expect(half.requests).toHaveLength(0);
		expect(half.error?.message).toContain('go together');
	});
});

describe('Connection → Get Reauthorization URL', () => {
	const project = rl(SEED.projectId);

	test('PATCH …/connections/{id}:oauth-update; the text/plain URL becomes { url, connectionId }', async () => {
		const result = await run(sim, {
			resource: 'connection',
			operation: 'getReauthorizationUrl',
			project,
			connectionId: rl(SEED.connectionId),
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			method: 'PATCH',
			pathname: `/v1/projects/${SEED.projectId}/connections/${SEED.connectionId}:oauth-update`,
			status: 200,
		});
		expect(result.json).toEqual([
			{ url: expect.stringMatching(/^https:\/\//), connectionId: SEED.connectionId },
		]);
	});

	test('a connection that does not use OAuth is a 400 naming the Connection field', async () => {
		const result = await run(sim, {
			resource: 'connection',
			operation: 'getReauthorizationUrl',
			project,
			connectionId: rl(SEED.apiKeyConnectionId),
		});
		expect(result.requests[0].status).toBe(400);
		expect(shown(result)).toContain(
			`"${fieldLabel('connection', 'getReauthorizationUrl', 'connectionId')}"`,
		);
	});
});
