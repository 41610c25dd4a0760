'use strict';

// The wider API the package also uses (docs/api-notes.md, "The wider API").

const { setup, expectProblem, MICROS, P, SEED } = require('./helpers');

let t;
beforeAll(async () => {
	t = await setup();
});
afterEach(() => t.sim.reset());
afterAll(() => t.sim.close());

describe('projects', () => {
	test('getProject by name or id; entitlements only on request', async () => {
		const plain = await t.api.get(P);
		expect(plain.status).toBe(200);
		expect(plain.data).not.toHaveProperty('entitlements');
		const full = await t.api.get(`/projects/${SEED.projectId}`, {
			params: { includeEntitlements: true },
		});
		expect(full.data.entitlements).toEqual({
			brandingRemoval: { value: false },
			logRetentionDays: { value: 7 },
		});
		expect((await t.api.get(P, { params: { includeEntitlements: 'maybe' } })).status).toBe(400);
	});
});

describe('integrations, connections, installations', () => {
	test('getIntegration by id or name', async () => {
		expect((await t.api.get(`${P}/integrations/${SEED.integrationId}`)).data.name).toBe(
			SEED.integrationName,
		);
		expect((await t.api.get(`${P}/integrations/${SEED.integrationName}`)).data.id).toBe(
			SEED.integrationId,
		);
	});

	test('listConnections with filters, getConnection', async () => {
		await t.api.post(`${P}/connections:generate`, {
			groupRef: 'other',
			consumerRef: 'u',
			provider: 'salesforce',
		});
		// The four seeded connections (SEED: connectionId, apiKeyConnectionId, deletableConnectionId,
		// deletableInstallationConnectionId) and the new one.
		expect((await t.api.get(`${P}/connections`)).data).toHaveLength(5);
		const hub = await t.api.get(`${P}/connections`, {
			params: { provider: 'hubspot', groupRef: SEED.groupRef, consumerRef: SEED.consumerRef },
		});
		expect(hub.data.map((c) => c.id)).toEqual([SEED.connectionId]);
		expect((await t.api.get(`${P}/connections`, { params: { groupRef: 'nobody' } })).data).toEqual(
			[],
		);
		const one = await t.api.get(`${P}/connections/${SEED.connectionId}`);
		expect(one.data).toMatchObject({
			id: SEED.connectionId,
			status: 'working',
			authScheme: 'oauth2/authorizationCode',
			group: { groupName: SEED.groupName },
		});
	});

	test('installations: project-wide, per integration, one', async () => {
		const all = await t.api.get(`${P}/installations`);
		// The seeded installation and the one only deletions use (SEED.deletableInstallationId).
		expect(all.data.map((i) => i.id)).toEqual([SEED.installationId, SEED.deletableInstallationId]);
		const inst = all.data[0];
		expect(inst).toMatchObject({
			id: SEED.installationId,
			projectId: SEED.projectId,
			integrationId: SEED.integrationId,
			healthStatus: 'healthy',
			createdBy: expect.any(String),
			connection: { id: SEED.connectionId },
			group: { groupRef: SEED.groupRef },
			config: {
				id: SEED.configId,
				revisionId: SEED.revisionId,
				content: { read: { objects: { contacts: { disabled: true } } } },
			},
		});
		expect(inst).not.toHaveProperty('_connectionId');
		expect(
			(
				await t.api.get(`${P}/integrations/${SEED.integrationId}/installations`, {
					params: { groupRef: SEED.groupRef },
				})
			).data,
		).toHaveLength(1);
		expect(
			(await t.api.get(`${P}/installations`, { params: { groupRef: 'nobody' } })).data,
		).toEqual([]);
		expect(
			(
				await t.api.get(
					`${P}/integrations/${SEED.integrationId}/installations/${SEED.installationId}`,
				)
			).data.id,
		).toBe(SEED.installationId);
	});
});

describe('operations', () => {
	const opsUrl = `${P}/integrations/${SEED.integrationId}/installations/${SEED.installationId}/operations`;

	test('getOperation', async () => {
		const res = await t.api.get(`${P}/operations/${SEED.operationId}`);
		expect(res.data).toMatchObject({
			id: SEED.operationId,
			projectId: SEED.projectId,
			integrationId: SEED.integrationId,
			installationId: SEED.installationId,
			configId: SEED.configId,
			actionType: 'read',
			status: 'success',
		});
		expect((await t.api.get(`${P}/operations/${SEED.secondOperationId}`)).data.status).toBe(
			'in_progress',
		);
	});

	test('listOperations pages with URL-encoded base64 tokens', async () => {
		t.sim.addOperation({ status: 'failure' });
		const first = await t.api.get(opsUrl, { params: { pageSize: 2 } });
		expect(first.status).toBe(200);
		expect(first.data.results.map((o) => o.id)).toEqual([SEED.operationId, SEED.secondOperationId]);
		expect(first.data.pagination.done).toBe(false);
		const token = first.data.pagination.nextPageToken;
		expect(token).toMatch(/^[A-Za-z0-9+/]+=*$/);
		expect(token).toMatch(/[+/=]/);
		const second = await t.api.get(opsUrl, { params: { pageSize: 2, pageToken: token } });
		expect(second.data.results).toHaveLength(1);
		expect(second.data.results[0].status).toBe('failure');
		expect(second.data.pagination).toEqual({ done: true });
		const all = await t.api.get(opsUrl);
		expect(all.data.results).toHaveLength(3);
		expect(all.data.pagination).toEqual({ done: true });
	});

	test('a token sent without URL-encoding, or a bad pageSize: 400', async () => {
		const first = await t.api.get(opsUrl, { params: { pageSize: 1 } });
		const raw = `${opsUrl}?pageSize=1&pageToken=${first.data.pagination.nextPageToken}`;
		const res = await t.api.get(raw);
		expect(expectProblem(res, 400).issues[0]).toMatchObject({ in: 'query', name: 'pageToken' });
		for (const pageSize of ['0', '1001', 'ten']) {
			expect((await t.api.get(opsUrl, { params: { pageSize } })).data.issues[0].name).toBe(
				'pageSize',
			);
		}
	});
});

describe('destinations', () => {
	test('create webhook → 201 with a generated signing key (not returned), list without secrets', async () => {
		const res = await t.api.post(`${P}/destinations`, {
			name: 'my-hook',
			type: 'webhook',
			metadata: { url: 'https://n8n.example/webhook/abc', headers: { Authorization: 'Bearer x' } },
		});
		expect(res.status).toBe(201);
		expect(res.data).toEqual({
			id: expect.any(String),
			name: 'my-hook',
			type: 'webhook',
			metadata: { url: 'https://n8n.example/webhook/abc', headers: { Authorization: 'Bearer x' } },
			createTime: expect.stringMatching(MICROS),
		});
		const withSecrets = await t.api.get(`${P}/destinations/my-hook`, {
			params: { includeSecrets: true },
		});
		expect(withSecrets.data.secrets.webhookSigningKey).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
		const list = await t.api.get(`${P}/destinations`);
		expect(list.data.map((d) => d.name).sort()).toEqual([
			'crm-webhook',
			'events-stream',
			'legacy-webhook',
			'my-hook',
			'n8n-webhook',
		]);
		expect(list.data.every((d) => !('secrets' in d) && !('_secrets' in d))).toBe(true);
	});

	test('type-specific required fields', async () => {
		const res = await t.api.post(`${P}/destinations`, {
			name: 'q',
			type: 'sqs',
			metadata: {},
			secrets: { awsKeyId: 'k' },
		});
		expect(expectProblem(res, 400).issues.map((i) => i.name)).toEqual([
			'metadata.queueUrl',
			'secrets.awsSecretKey',
		]);
	});

	test('http webhooks are accepted when httpsWebhooksOnly is false', async () => {
		const loose = await setup({ httpsWebhooksOnly: false });
		try {
			const res = await loose.api.post(`${P}/destinations`, {
				name: 'local',
				type: 'webhook',
				metadata: { url: 'http://localhost:5678/webhook/x' },
			});
			expect(res.status).toBe(201);
		} finally {
			await loose.sim.close();
		}
	});

	test('update with a mask; missing value 422; bad mask 400; https enforced', async () => {
		const res = await t.api.patch(`${P}/destinations/${SEED.destinationId}`, {
			updateMask: ['name', 'metadata.url'],
			destination: { name: 'renamed-hook', metadata: { url: 'https://new.example/h' } },
		});
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({
			id: SEED.destinationId,
			name: 'renamed-hook',
			metadata: { url: 'https://new.example/h', headers: {} },
			updateTime: expect.stringMatching(MICROS),
		});
		expect(
			(
				await t.api.patch(`${P}/destinations/renamed-hook`, {
					updateMask: ['metadata.headers'],
					destination: {},
				})
			).status,
		).toBe(422);
		expect(
			(
				await t.api.patch(`${P}/destinations/renamed-hook`, {
					updateMask: ['type'],
					destination: { type: 's3' },
				})
			).status,
		).toBe(400);
		expect(
			(
				await t.api.patch(`${P}/destinations/renamed-hook`, {
					updateMask: ['metadata.url'],
					destination: { metadata: { url: 'http://plain.example' } },
				})
			).status,
		).toBe(400);
		expect(
			(
				await t.api.patch(`${P}/destinations/renamed-hook`, {
					updateMask: ['name'],
					destination: { name: SEED.kinesisDestinationName },
				})
			).status,
		).toBe(409);
	});

	test('delete → 204, its topic routes go too', async () => {
		expect((await t.api.delete(`${P}/destinations/${SEED.destinationName}`)).status).toBe(204);
		// Only the route to the kinesis destination is left.
		expect([...t.sim.state.topicDestinationRoutes.values()].map((r) => r.destinationId)).toEqual([
			SEED.kinesisDestinationId,
		]);
		expect((await t.api.get(`${P}/destinations/${SEED.destinationName}`)).status).toBe(404);
	});
});

describe('topics and routes', () => {
	test('create and list topics', async () => {
		const res = await t.api.post(`${P}/topics`, { name: 'n8n-events' });
		expect(res.status).toBe(201);
		expect(res.data).toEqual({
			id: expect.any(String),
			name: 'n8n-events',
			projectId: SEED.projectId,
			createTime: expect.stringMatching(MICROS),
		});
		expect((await t.api.get(`${P}/topics`)).data.map((x) => x.name).sort()).toEqual([
			'alerts',
			'billing-alerts',
			'n8n-events',
			'old-alerts',
		]);
		expect((await t.api.post(`${P}/topics`, { name: 'x'.repeat(65) })).status).toBe(400);
	});

	test('notification-event-topic routes: create, filter, duplicate', async () => {
		const res = await t.api.post(`${P}/notification-event-topic-routes`, {
			eventType: 'read.schedule.paused',
			topicId: SEED.topicId,
		});
		expect(res.status).toBe(201);
		expect(res.data).toEqual({
			id: expect.any(String),
			eventType: 'read.schedule.paused',
			topicId: SEED.topicId,
			projectId: SEED.projectId,
			createTime: expect.stringMatching(MICROS),
		});
		expect(
			(
				await t.api.get(`${P}/notification-event-topic-routes`, {
					params: { topicId: SEED.topicId },
				})
			).data,
		).toHaveLength(2);
		expect(
			(
				await t.api.get(`${P}/notification-event-topic-routes`, {
					params: { eventType: 'connection.error' },
				})
			).data.map((r) => r.id),
		).toEqual([SEED.eventTopicRouteId]);
		expect(
			(
				await t.api.post(`${P}/notification-event-topic-routes`, {
					eventType: 'read.schedule.paused',
					topicId: SEED.topicId,
				})
			).status,
		).toBe(409);
		expect(
			(
				await t.api.post(`${P}/notification-event-topic-routes`, {
					eventType: 'read.done',
					topicId: SEED.topicId,
				})
			).data.issues[0].name,
		).toBe('eventType');
		expect(
			(
				await t.api.post(`${P}/notification-event-topic-routes`, {
					eventType: 'read.schedule.paused',
					topicId: 'nope',
				})
			).status,
		).toBe(404);
	});

	test('topic-destination routes: list with filters, delete', async () => {
		expect(
			(
				await t.api.get(`${P}/topic-destination-routes`, {
					params: { destinationId: SEED.destinationId },
				})
			).data.map((r) => r.id),
		).toEqual([SEED.topicDestinationRouteId]);
		expect(
			(
				await t.api.get(`${P}/topic-destination-routes`, {
					params: { topicId: SEED.deletableTopicId },
				})
			).data,
		).toEqual([]);
		expect(
			(
				await t.api.post(`${P}/topic-destination-routes`, {
					topicId: SEED.topicId,
					destinationId: SEED.destinationId,
				})
			).status,
		).toBe(409);
		expect(
			(await t.api.delete(`${P}/topic-destination-routes/${SEED.topicDestinationRouteId}`)).status,
		).toBe(204);
		expect(
			(await t.api.delete(`${P}/topic-destination-routes/${SEED.topicDestinationRouteId}`)).status,
		).toBe(404);
	});
});

describe('JWT keys and orgs', () => {
	test('listJWTKeys, ?active=true filters', async () => {
		// The seeded active key and the inactive one the delete example removes.
		expect((await t.api.get(`${P}/jwt-keys`)).data.map((k) => k.id).sort()).toEqual(
			[SEED.jwtKeyId, SEED.deletableJwtKeyId].sort(),
		);
		await t.api.patch(`${P}/jwt-keys/${SEED.jwtKeyId}`, {
			updateMask: ['active'],
			jwtKey: { active: false },
		});
		expect((await t.api.get(`${P}/jwt-keys`, { params: { active: true } })).data).toEqual([]);
		expect((await t.api.get(`${P}/jwt-keys/${SEED.jwtKeyId}`)).data.active).toBe(false);
	});

	test('getOrg, listOrgInvites, listOrgClaimedDomains (bearer only)', async () => {
		expect((await t.bearer.get(`/orgs/${SEED.orgId}`)).data).toMatchObject({
			id: SEED.orgId,
			label: SEED.orgLabel,
		});
		expect(
			(await t.bearer.get(`/orgs/${SEED.orgId}/invites`)).data.map((i) => i.status).sort(),
		).toEqual(['accepted', 'pending']);
		const other = t.client(`${t.sim.apiUrl}/v1`, {
			Authorization: `Bearer ${SEED.otherBearerToken}`,
		});
		expect((await other.get(`/orgs/${SEED.otherOrgId}/claimed-domains`)).data).toEqual([
			{
				id: SEED.claimedDomainId,
				parentType: 'org',
				parentId: SEED.otherOrgId,
				domain: SEED.claimedDomain,
			},
		]);
		expect(
			(await t.bearer.get('/claimed-domains', { params: { domain: 'free.example' } })).status,
		).toBe(404);
	});
});
