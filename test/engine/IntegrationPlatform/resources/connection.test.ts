import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

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
