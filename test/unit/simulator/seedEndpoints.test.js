'use strict';

// The 18 seed endpoints (docs/api-notes.md, "Operations"): success codes and body shapes.

const { setup, MICROS, P, SEED } = require('./helpers');

let t;
beforeAll(async () => {
	t = await setup();
});
afterEach(() => t.sim.reset());
afterAll(() => t.sim.close());

describe('seed op 1: deleteApiKey', () => {
	test('204, then the deleted key no longer authenticates', async () => {
		const res = await t.api.delete(`${P}/api-keys/${SEED.deletableApiKey}`);
		expect(res.status).toBe(204);
		expect(res.data).toBe('');
		expect(t.sim.state.apiKeys.has(SEED.deletableApiKey)).toBe(false);
		const after = await t
			.client(`${t.sim.apiUrl}/v1`, { 'X-Api-Key': SEED.deletableApiKey })
			.get('/projects');
		expect(after.status).toBe(401);
	});

	test('unknown key: 404 InputValidationProblem that does not echo the key', async () => {
		const res = await t.api.delete(`${P}/api-keys/amp_sim_secret_not_here`);
		expect(res.status).toBe(404);
		expect(res.data.issues[0]).toMatchObject({ in: 'path', name: 'apiKey' });
		expect(JSON.stringify(res.data)).not.toContain('amp_sim_secret_not_here');
	});

	test('a key of another project is not found in this one', async () => {
		const res = await t.api.delete(`${P}/api-keys/${SEED.secondProjectApiKey}`);
		expect(res.status).toBe(404);
		expect(t.sim.state.apiKeys.has(SEED.secondProjectApiKey)).toBe(true);
	});
});

describe('seed op 2: generateConnection', () => {
	test('201 Connection with group and consumer built from the refs', async () => {
		const res = await t.api.post(`${P}/connections:generate`, {
			groupRef: 'globex',
			groupName: 'Globex',
			consumerRef: 'user-7',
			provider: 'salesforce',
			providerWorkspaceRef: 'globex-dev',
			providerMetadata: {
				instanceUrl: {
					value: 'https://globex.my.salesforce.com',
					source: 'token',
					displayName: 'Instance URL',
				},
			},
			oauth2ClientCredentials: { clientId: 'cid', clientSecret: 'csecret', scopes: ['api'] },
		});
		expect(res.status).toBe(201);
		const c = res.data;
		expect(c).toMatchObject({
			id: expect.any(String),
			projectId: SEED.projectId,
			provider: 'salesforce',
			authScheme: 'oauth2/clientCredentials',
			status: 'created',
			providerWorkspaceRef: 'globex-dev',
			group: { groupRef: 'globex', groupName: 'Globex', projectId: SEED.projectId },
			consumer: { consumerRef: 'user-7', consumerName: 'user-7', projectId: SEED.projectId },
		});
		expect(c.createTime).toMatch(MICROS);
		expect(c.group.createTime).toMatch(MICROS);
		expect(c.providerMetadata.instanceUrl.source).toBe('token');
		expect(JSON.stringify(c)).not.toContain('csecret');
		expect(t.sim.state.connections.get(c.id)).toBeDefined();
	});

	test.each([
		[{ apiKey: 'k-123' }, 'apiKey'],
		[{ basicAuth: { username: 'u', password: 'p' } }, 'basic'],
		[
			{
				oauth2PasswordCredentials: {
					username: 'u',
					password: 'p',
					clientId: 'c',
					clientSecret: 's',
				},
			},
			'oauth2/password',
		],
		[
			{ oauth2AuthorizationCode: { refreshToken: { token: 'r' }, scopes: ['crm'] } },
			'oauth2/authorizationCode',
		],
		[{ customAuth: { serviceAccountKey: 'c2E=', scopes: ['a'] } }, 'none'],
		[{}, 'none'],
	])('credential form %j gives authScheme %s', async (form, scheme) => {
		const res = await t.api.post(`${P}/connections:generate`, {
			groupRef: 'g',
			consumerRef: 'c',
			provider: 'hubspot',
			...form,
		});
		expect(res.status).toBe(201);
		expect(res.data.authScheme).toBe(scheme);
		expect(res.data).not.toHaveProperty('basicAuth');
		expect(res.data).not.toHaveProperty('oauth2PasswordCredentials');
	});

	test('apiKey and oauth2AuthorizationCode are part of the Connection and come back', async () => {
		const a = await t.api.post(`${P}/connections:generate`, {
			groupRef: 'g',
			consumerRef: 'c',
			provider: 'apollo',
			apiKey: 'k-1',
		});
		expect(a.data.apiKey).toBe('k-1');
		const code = {
			accessToken: { token: 'at', expiresAt: '2030-01-01T00:00:00Z' },
			refreshToken: { token: 'rt' },
			scopes: ['crm.objects.contacts.read'],
		};
		const o = await t.api.post(`${P}/connections:generate`, {
			groupRef: 'g',
			consumerRef: 'c',
			provider: 'hubspot',
			oauth2AuthorizationCode: code,
		});
		expect(o.data.oauth2AuthorizationCode).toEqual(code);
	});

	test('the seeded group keeps its name', async () => {
		const res = await t.api.post(`${P}/connections:generate`, {
			groupRef: SEED.groupRef,
			consumerRef: SEED.consumerRef,
			provider: 'hubspot',
		});
		expect(res.data.group.groupName).toBe(SEED.groupName);
		expect(res.data.consumer.consumerName).toBe(SEED.consumerName);
	});

	test('unknown provider: 422', async () => {
		const res = await t.api.post(`${P}/connections:generate`, {
			groupRef: 'g',
			consumerRef: 'c',
			provider: 'nope',
		});
		expect(res.status).toBe(422);
		expect(res.data.issues).toEqual([
			expect.objectContaining({ in: 'body', name: 'provider', value: 'nope' }),
		]);
	});

	test('every invalid credential field is reported', async () => {
		const res = await t.api.post(`${P}/connections:generate`, {
			groupRef: 'g',
			consumerRef: 'c',
			provider: 'hubspot',
			oauth2PasswordCredentials: { username: 'u', clientId: 'c' },
			providerMetadata: { x: { value: 'v', source: 'elsewhere' } },
		});
		expect(res.status).toBe(400);
		const names = res.data.issues.map((i) => i.name).sort();
		expect(names).toEqual([
			'oauth2PasswordCredentials.clientSecret',
			'oauth2PasswordCredentials.password',
			'providerMetadata.x.source',
		]);
	});
});

describe('seed op 3: upsertMetadataForConnection', () => {
	const body = {
		groupRef: SEED.groupRef,
		fields: {
			contacts: [
				{
					fieldName: 'favorite_color',
					displayName: 'Favorite color',
					valueType: 'singleSelect',
					stringOptions: { values: ['red', 'blue'], valuesRestricted: true },
				},
				{
					fieldName: 'loyalty_score',
					displayName: 'Loyalty score',
					valueType: 'int',
					indexed: true,
				},
			],
		},
	};

	test('200 with action create, then update; fields appear in the hydrated revision', async () => {
		const first = await t.api.put(`${P}/providers/hubspot/object-metadata`, body);
		expect(first.status).toBe(200);
		expect(first.data.success).toBe(true);
		expect(first.data.fields.contacts.favorite_color).toMatchObject({
			fieldName: 'favorite_color',
			action: 'create',
			warnings: [],
		});
		expect(first.data.fields.contacts.favorite_color.metadata).toEqual(expect.any(Object));
		expect(first.data.fields.contacts.loyalty_score.warnings).toEqual([
			expect.stringContaining('indexed'),
		]);
		const second = await t.api.put(`${P}/providers/hubspot/object-metadata`, body);
		expect(second.data.fields.contacts.favorite_color.action).toBe('update');

		const hydrated = await t.api.get(
			`${P}/integrations/${SEED.integrationId}/revisions/${SEED.revisionId}:hydrate`,
			{ params: { connectionId: SEED.connectionId } },
		);
		const contacts = hydrated.data.content.read.objects.find((o) => o.objectName === 'contacts');
		expect(contacts.allFieldsMetadata.favorite_color).toMatchObject({
			isCustom: true,
			valueType: 'singleSelect',
			values: [
				{ value: 'red', displayValue: 'red' },
				{ value: 'blue', displayValue: 'blue' },
			],
		});
	});

	test('a provider without custom-field support: 400 ApiProblem', async () => {
		const res = await t.api.put(`${P}/providers/pipedrive/object-metadata`, body);
		expect(res.status).toBe(400);
		expect(res.data.detail).toMatch(/hubspot and salesforce/);
	});

	test('invalid fields: 400 ApiProblem without issues, naming the fields in detail', async () => {
		const res = await t.api.put(`${P}/providers/hubspot/object-metadata`, {
			groupRef: SEED.groupRef,
			fields: {
				contact: [
					{ displayName: 'No name', valueType: 'string' },
					{ fieldName: 'ok', displayName: 'Ok', valueType: 'text' },
				],
			},
		});
		expect(res.status).toBe(400);
		expect(res.data.issues).toBeUndefined();
		expect(res.data.detail).toContain('fields.contact[0].fieldName');
		expect(res.data.detail).toContain('fields.contact[1].valueType');
		expect(res.data.causes).toHaveLength(2);
	});

	test('salesforce needs a connection for the group first', async () => {
		const res = await t.api.put(`${P}/providers/salesforce/object-metadata`, body);
		expect(res.status).toBe(404);
	});
});

describe('seed op 4: createIntegration', () => {
	const content = {
		name: 'sf-sync',
		provider: 'salesforce',
		read: {
			objects: [
				{
					objectName: 'account',
					destination: SEED.destinationName,
					schedule: '*/30 * * * *',
					delivery: { mode: 'auto', pageSize: 200 },
					enabled: 'always',
				},
			],
		},
	};

	test('201 with an empty body; the integration is then listed with a revision', async () => {
		const res = await t.api.post(`${P}/integrations`, {
			name: 'sf-sync',
			provider: 'salesforce',
			latestRevision: { specVersion: '1.0.0', content },
		});
		expect(res.status).toBe(201);
		expect(res.data).toBe('');
		const list = await t.api.get(`${P}/integrations`);
		const created = list.data.find((i) => i.name === 'sf-sync');
		expect(created.latestRevision).toMatchObject({
			id: expect.any(String),
			specVersion: '1.0.0',
			content,
		});
		expect(created.createTime).toMatch(MICROS);
	});

	test('missing content.name and content.provider: 422', async () => {
		const res = await t.api.post(`${P}/integrations`, {
			name: 'x',
			provider: 'hubspot',
			latestRevision: { specVersion: '1.0.0', content: { read: { objects: [] } } },
		});
		expect(res.status).toBe(422);
		expect(res.data.issues.map((i) => i.name)).toEqual([
			'latestRevision.content.name',
			'latestRevision.content.provider',
		]);
	});

	test('duplicate name: 409', async () => {
		const res = await t.api.post(`${P}/integrations`, {
			name: SEED.integrationName,
			provider: 'hubspot',
			latestRevision: { specVersion: '1.0.0', content: { name: 'a', provider: 'hubspot' } },
		});
		expect(res.status).toBe(409);
	});
});

describe('seed op 5: unpauseReads (read host)', () => {
	const path = `${P}/integrations/${SEED.integrationId}/installations/${SEED.installationId}:unpause`;
	const paused = () =>
		t.sim.state.installations.get(SEED.installationId).config.content.read.objects.contacts
			.disabled;

	test('204 without a body unpauses every object', async () => {
		expect(paused()).toBe(true);
		const res = await t.read.post(path);
		expect(res.status).toBe(204);
		expect(paused()).toBe(false);
	});

	test('204 with objects and a note; mapped names are not needed', async () => {
		const res = await t.read.post(path, { objects: ['contacts'], note: 'fixed the token' });
		expect(res.status).toBe(204);
		expect(paused()).toBe(false);
	});

	test('objects the installation does not read: 400 issues', async () => {
		const res = await t.read.post(path, { objects: ['contacts', 'tickets'] });
		expect(res.status).toBe(400);
		expect(res.data.issues).toEqual([
			expect.objectContaining({ in: 'body', name: 'objects[1]', value: 'tickets' }),
		]);
		expect(paused()).toBe(true);
	});

	test('unknown installation: 404', async () => {
		const res = await t.read.post(
			`${P}/integrations/${SEED.integrationId}/installations/00000000-0000-4000-8000-000000000000:unpause`,
		);
		expect(res.status).toBe(404);
	});

	test('pauseReads is its twin', async () => {
		await t.read.post(path);
		const res = await t.read.post(path.replace(':unpause', ':pause'), { objects: ['companies'] });
		expect(res.status).toBe(204);
		expect(
			t.sim.state.installations.get(SEED.installationId).config.content.read.objects.companies
				.disabled,
		).toBe(true);
	});
});

describe('seed op 6: getHydratedRevision', () => {
	test('200 HydratedRevision without subscribe, watchSchema, delivery or enabled', async () => {
		const res = await t.api.get(
			`${P}/integrations/${SEED.integrationId}/revisions/${SEED.revisionId}:hydrate`,
			{ params: { connectionId: SEED.connectionId } },
		);
		expect(res.status).toBe(200);
		expect(Object.keys(res.data).sort()).toEqual(['content', 'createTime', 'id', 'specVersion']);
		const c = res.data.content;
		expect(Object.keys(c).sort()).toEqual([
			'displayName',
			'name',
			'provider',
			'proxy',
			'read',
			'write',
		]);
		for (const obj of c.read.objects) {
			expect(obj).toMatchObject({
				objectName: expect.any(String),
				displayName: expect.any(String),
				destination: SEED.destinationName,
				schedule: expect.any(String),
			});
			expect(obj).not.toHaveProperty('delivery');
			expect(obj).not.toHaveProperty('enabled');
			for (const meta of Object.values(obj.allFieldsMetadata)) {
				expect(meta).toEqual(
					expect.objectContaining({
						fieldName: expect.any(String),
						displayName: expect.any(String),
						valueType: expect.any(String),
						providerType: expect.any(String),
						readOnly: expect.any(Boolean),
						isCustom: expect.any(Boolean),
						isRequired: expect.any(Boolean),
					}),
				);
			}
		}
		expect(c.read.objects[0].requiredFields[0]).toEqual({
			fieldName: 'email',
			displayName: 'Email',
		});
		expect(c.write.objects.every((o) => o.displayName && !('inheritMapping' in o))).toBe(true);
		expect(c.proxy).toEqual({ enabled: true });
	});

	test('connectionId missing: 400 issue in query', async () => {
		const res = await t.api.get(
			`${P}/integrations/${SEED.integrationId}/revisions/${SEED.revisionId}:hydrate`,
		);
		expect(res.status).toBe(400);
		expect(res.data.issues).toEqual([
			expect.objectContaining({ in: 'query', name: 'connectionId' }),
		]);
	});

	test('unknown revision or connection: 404', async () => {
		const a = await t.api.get(`${P}/integrations/${SEED.integrationId}/revisions/nope:hydrate`, {
			params: { connectionId: SEED.connectionId },
		});
		const b = await t.api.get(
			`${P}/integrations/${SEED.integrationId}/revisions/${SEED.revisionId}:hydrate`,
			{ params: { connectionId: 'nope' } },
		);
		expect([a.status, b.status]).toEqual([404, 404]);
	});
});

describe('seed op 7: getDestination', () => {
	test('200 by name, no secrets and no projectId by default', async () => {
		const res = await t.api.get(`${P}/destinations/${SEED.destinationName}`);
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({
			id: SEED.destinationId,
			name: SEED.destinationName,
			type: 'webhook',
			metadata: { url: SEED.webhookUrl, headers: {} },
			createTime: expect.any(String),
		});
		expect(res.data).not.toHaveProperty('secrets');
		expect(res.data).not.toHaveProperty('projectId');
	});

	test('by id, with secrets', async () => {
		const res = await t.api.get(`${P}/destinations/${SEED.destinationId}`, {
			params: { includeSecrets: true },
		});
		expect(res.data.secrets).toEqual({ webhookSigningKey: SEED.webhookSigningKey });
		expect(SEED.webhookSigningKey).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
		expect(Buffer.from(SEED.webhookSigningKey.slice(6), 'base64')).toHaveLength(24);
	});

	test('rotate issues a new key, shown only with includeSecrets', async () => {
		const rotated = await t.api.get(`${P}/destinations/${SEED.destinationName}`, {
			params: { rotate: true },
		});
		expect(rotated.data).not.toHaveProperty('secrets');
		const after = await t.api.get(`${P}/destinations/${SEED.destinationName}`, {
			params: { includeSecrets: true },
		});
		expect(after.data.secrets.webhookSigningKey).toMatch(/^whsec_/);
		expect(after.data.secrets.webhookSigningKey).not.toBe(SEED.webhookSigningKey);
		const again = await t.api.get(`${P}/destinations/${SEED.destinationName}`, {
			params: { includeSecrets: true, rotate: true },
		});
		expect(again.data.secrets.webhookSigningKey).not.toBe(after.data.secrets.webhookSigningKey);
	});

	test('unknown destination: 404 InputValidationProblem', async () => {
		const res = await t.api.get(`${P}/destinations/nope`);
		expect(res.status).toBe(404);
		expect(res.data.issues[0]).toMatchObject({ in: 'path', name: 'destination', value: 'nope' });
	});
});

describe('seed op 8: listIntegrations', () => {
	test('200 bare array of Integration', async () => {
		const res = await t.api.get(`${P}/integrations`);
		expect(res.status).toBe(200);
		expect(Array.isArray(res.data)).toBe(true);
		expect(res.data[0]).toMatchObject({
			id: SEED.integrationId,
			projectId: SEED.projectId,
			name: SEED.integrationName,
			provider: 'hubspot',
			createTime: expect.any(String),
			latestRevision: {
				id: SEED.revisionId,
				specVersion: '1.0.0',
				createTime: expect.any(String),
				content: expect.objectContaining({
					subscribe: expect.any(Object),
					watchSchema: expect.any(Object),
				}),
			},
		});
	});
});

describe('seed op 9: listOperationLogs', () => {
	test('200 bare array of 12 logs with microsecond timestamps, two sharing one', async () => {
		const res = await t.api.get(`${P}/operations/${SEED.operationId}/logs`);
		expect(res.status).toBe(200);
		expect(res.data).toHaveLength(12);
		for (const log of res.data) {
			expect(Object.keys(log).sort()).toEqual(['message', 'severity', 'timestamp']);
			expect(log.timestamp).toMatch(MICROS);
			expect(log.message).toMatchObject({
				msg: expect.any(String),
				operation_id: SEED.operationId,
			});
		}
		expect(new Set(res.data.map((l) => l.severity))).toEqual(
			new Set(['DEBUG', 'INFO', 'WARNING', 'ERROR']),
		);
		expect(res.data.filter((l) => l.timestamp === SEED.sharedLogTimestamp)).toHaveLength(2);
		expect(res.data.find((l) => l.severity === 'ERROR').message.error).toEqual(expect.any(String));
	});

	test('appendLog adds an entry with a fresh microsecond timestamp', async () => {
		const a = t.sim.appendLog(SEED.secondOperationId, {
			severity: 'ERROR',
			message: { msg: 'boom', error: 'x' },
		});
		const b = t.sim.appendLog(SEED.secondOperationId);
		expect(a.timestamp).toMatch(MICROS);
		expect(b.timestamp > a.timestamp).toBe(true);
		const res = await t.api.get(`${P}/operations/${SEED.secondOperationId}/logs`);
		expect(res.data).toHaveLength(5);
		expect(res.data[3]).toEqual({
			timestamp: a.timestamp,
			severity: 'ERROR',
			message: { msg: 'boom', error: 'x', operation_id: SEED.secondOperationId },
		});
	});

	test('unknown operation: 404', async () => {
		const res = await t.api.get(`${P}/operations/nope/logs`);
		expect(res.status).toBe(404);
		expect(res.data.issues[0]).toMatchObject({ in: 'path', name: 'operationId' });
	});
});

describe('seed op 10: deleteTopic', () => {
	test('204; the topic and its routes are gone', async () => {
		expect((await t.api.delete(`${P}/topics/${SEED.deletableTopicId}`)).status).toBe(204);
		const res = await t.api.delete(`${P}/topics/${SEED.topicId}`);
		expect(res.status).toBe(204);
		expect(t.sim.state.topicDestinationRoutes.has(SEED.topicDestinationRouteId)).toBe(false);
		expect(t.sim.state.eventTopicRoutes.has(SEED.eventTopicRouteId)).toBe(false);
	});

	test('unknown topic: 404 "Topic not found"', async () => {
		const res = await t.api.delete(`${P}/topics/nope`);
		expect(res.status).toBe(404);
		expect(res.data.detail).toBe('Topic not found');
	});
});

describe('seed op 11: deleteOrgInvite (bearer only)', () => {
	test('204 and the invite becomes revoked', async () => {
		const res = await t.bearer.delete(`/orgs/${SEED.orgId}/invites/${SEED.inviteId}`);
		expect(res.status).toBe(204);
		const invite = await t.bearer.get(`/orgs/${SEED.orgId}/invites/${SEED.inviteId}`);
		expect(invite.data.status).toBe('revoked');
		expect(invite.data.updateTime).toMatch(MICROS);
	});
});

describe('seed op 12: updateJWTKey', () => {
	test.each([
		[{ updateMask: ['label'], jwtKey: { label: 'renamed' } }],
		[{ updateMask: ['name'], jwtKey: { name: 'renamed' } }],
	])('label and its alias name both work: %j', async (body) => {
		const res = await t.api.patch(`${P}/jwt-keys/${SEED.jwtKeyId}`, body);
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({
			id: SEED.jwtKeyId,
			projectId: SEED.projectId,
			label: 'renamed',
			algorithm: 'RSA',
			active: true,
			publicKeyPem: expect.stringContaining('BEGIN PUBLIC KEY'),
		});
		expect(res.data.updateTime).toMatch(MICROS);
		expect(res.data.createTime).toEqual(expect.any(String));
	});

	test('active', async () => {
		const res = await t.api.patch(`${P}/jwt-keys/${SEED.jwtKeyId}`, {
			updateMask: ['active'],
			jwtKey: { active: false },
		});
		expect(res.data.active).toBe(false);
	});
});

describe('seed op 13: claimDomain (bearer only)', () => {
	test('201 with no body; the domain is normalised', async () => {
		const res = await t.bearer.post('/claimed-domains', {
			domain: 'https://www.Acme.example/about',
			parentId: SEED.orgId,
			parentType: 'org',
		});
		expect(res.status).toBe(201);
		expect(res.data).toBe('');
		const check = await t.bearer.get('/claimed-domains', {
			params: { domain: 'someone@acme.example' },
		});
		expect(check.data).toMatchObject({
			domain: 'acme.example',
			parentId: SEED.orgId,
			parentType: 'org',
		});
	});

	test('claimed again by the same org: 201 (idempotent)', async () => {
		await t.bearer.post('/claimed-domains', {
			domain: 'acme.example',
			parentId: SEED.orgId,
			parentType: 'org',
		});
		const res = await t.bearer.post('/claimed-domains', {
			domain: 'jane@acme.example',
			parentId: SEED.orgId,
			parentType: 'org',
		});
		expect(res.status).toBe(201);
	});
});

describe('seed op 14: updateOrg (bearer only)', () => {
	test('200 Org', async () => {
		const res = await t.bearer.patch(`/orgs/${SEED.orgId}`, {
			updateMask: ['label'],
			org: { label: 'Renamed Org' },
		});
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({
			id: SEED.orgId,
			label: 'Renamed Org',
			defaultTeamId: SEED.defaultTeamId,
			createTime: expect.any(String),
		});
		expect(res.data.updateTime).toMatch(MICROS);
	});
});

describe('seed op 15: createTopicDestinationRoute', () => {
	test('201 TopicDestinationRoute', async () => {
		const res = await t.api.post(`${P}/topic-destination-routes`, {
			topicId: SEED.deletableTopicId,
			destinationId: SEED.kinesisDestinationId,
		});
		expect(res.status).toBe(201);
		expect(res.data).toEqual({
			id: expect.any(String),
			topicId: SEED.deletableTopicId,
			destinationId: SEED.kinesisDestinationId,
			projectId: SEED.projectId,
			createTime: expect.stringMatching(MICROS),
		});
	});

	test('a destination name instead of its id: 404 ApiProblem with a remedy', async () => {
		const res = await t.api.post(`${P}/topic-destination-routes`, {
			topicId: SEED.deletableTopicId,
			destinationId: SEED.destinationName,
		});
		expect(res.status).toBe(404);
		expect(res.data.issues).toBeUndefined();
		expect(res.data.remedy).toMatch(/id, not its name/);
	});

	test('unknown topic: 404; missing fields: 422', async () => {
		expect(
			(
				await t.api.post(`${P}/topic-destination-routes`, {
					topicId: 'nope',
					destinationId: SEED.destinationId,
				})
			).status,
		).toBe(404);
		const res = await t.api.post(`${P}/topic-destination-routes`, { topicId: SEED.topicId });
		expect(res.status).toBe(422);
		expect(res.data.issues).toEqual([
			expect.objectContaining({ in: 'body', name: 'destinationId' }),
		]);
	});
});

describe('seed op 16: listProjects', () => {
	test('API key: its own project, without entitlements', async () => {
		const res = await t.api.get('/projects');
		expect(res.status).toBe(200);
		expect(res.data).toEqual([
			{
				id: SEED.projectId,
				name: SEED.projectName,
				appName: SEED.appName,
				orgId: SEED.orgId,
				createTime: expect.any(String),
			},
		]);
	});

	test("bearer: every project of the builder's orgs", async () => {
		const res = await t.bearer.get('/projects');
		expect(res.data.map((p) => p.name).sort()).toEqual([
			SEED.projectName,
			SEED.sandboxProjectName,
			SEED.secondProjectName,
		]);
		expect(res.data.every((p) => !('entitlements' in p))).toBe(true);
	});
});

describe('seed op 17: getOrgInvite (bearer only)', () => {
	test('200 Invite', async () => {
		const res = await t.bearer.get(`/orgs/${SEED.orgId}/invites/${SEED.inviteId}`);
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({
			id: SEED.inviteId,
			invitedEmail: SEED.invitedEmail,
			parentType: 'org',
			parentId: SEED.orgId,
			status: 'pending',
			createTime: expect.any(String),
		});
	});

	test('unknown invite: 404', async () => {
		expect((await t.bearer.get(`/orgs/${SEED.orgId}/invites/nope`)).status).toBe(404);
	});
});

describe('seed op 18: deleteEventTopicRoute', () => {
	test('204, then 404 "Route not found"', async () => {
		expect(
			(await t.api.delete(`${P}/notification-event-topic-routes/${SEED.eventTopicRouteId}`)).status,
		).toBe(204);
		const res = await t.api.delete(
			`${P}/notification-event-topic-routes/${SEED.eventTopicRouteId}`,
		);
		expect(res.status).toBe(404);
		expect(res.data.detail).toBe('Route not found');
	});
});
