/**
 * What each action-node example of examples/ must output in a real n8n, shared by the e2e suites
 * (single process: test/e2e/actionNode.test.ts; queue mode: test/e2e-queue/actionNode.test.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { SEED } from './actionEngine';
import { readExample, type E2eContext } from './e2eContext';

export type Item = Record<string, any>;
export const expectations: Record<string, (items: Item[]) => void> = {
	'api-key-create': (items) => {
		// The new key is the output the user asked for (test/e2e/secretScan.test.ts exempts it).
		expect(items).toEqual([
			expect.objectContaining({
				key: expect.stringMatching(/^amp_sim_/),
				label: 'n8n example key',
				scopes: ['full'],
				projectId: SEED.projectId,
				active: true,
			}),
		]);
	},
	'api-key-delete': (items) =>
		expect(items).toEqual([{ deleted: true, project: SEED.projectName }]),
	'api-key-get': (items) =>
		expect(items).toEqual([
			{
				label: 'rotating key',
				scopes: ['full'],
				projectId: SEED.projectId,
				active: true,
				keyEnding: SEED.updatableApiKey.slice(-4),
			},
		]),
	'api-key-get-many': (items) => {
		expect(items).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ label: 'demo key', keyEnding: SEED.apiKey.slice(-4) }),
				expect.objectContaining({ label: 'rotating key' }),
			]),
		);
		for (const item of items) expect(item.key).toBeUndefined();
	},
	'api-key-update': (items) => {
		expect(items).toEqual([
			expect.objectContaining({
				label: 'rotating key (retired)',
				active: false,
				keyEnding: SEED.updatableApiKey.slice(-4),
			}),
		]);
		expect(items[0].key).toBeUndefined();
	},
	'claimed-domain-check': (items) =>
		expect(items).toEqual([
			{
				id: SEED.claimedDomainId,
				domain: SEED.claimedDomain,
				parentType: 'org',
				parentId: SEED.otherOrgId,
			},
		]),
	'claimed-domain-claim': (items) =>
		expect(items).toEqual([
			{ claimed: true, domain: 'jane@acme.example', parentType: 'org', parentId: SEED.orgId },
		]),
	'claimed-domain-get-many': (items) =>
		expect(items).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ id: SEED.demoClaimedDomainId, domain: SEED.demoClaimedDomain }),
			]),
		),
	'connection-generate': (items) => {
		expect(items).toEqual([
			expect.objectContaining({
				provider: 'hubspot',
				authScheme: 'oauth2/authorizationCode',
				status: 'created',
			}),
		]);
		expect(JSON.stringify(items)).not.toContain('imported-refresh-token');
	},
	'connection-delete': (items) =>
		expect(items).toEqual([{ deleted: true, connectionId: SEED.deletableConnectionId }]),
	'connection-get': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.connectionId, status: 'working', provider: 'hubspot' }),
		]),
	'connection-get-reauthorization-url': (items) => {
		expect(items).toEqual([{ url: expect.any(String), connectionId: SEED.connectionId }]);
		expect(new URL(items[0].url).searchParams.get('connectionId')).toBe(SEED.connectionId);
	},
	'connection-get-many': (items) => {
		expect(items.map((item) => item.id)).toContain(SEED.connectionId);
		for (const item of items) expect(item.group.groupRef).toBe(SEED.groupRef);
	},
	'connection-update': (items) => {
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.apiKeyConnectionId,
				providerWorkspaceRef: 'globex.example',
			}),
		]);
		expect(JSON.stringify(items)).not.toContain('rotated-provider-key');
	},
	// The workflow creates the field, then lists the object's custom fields.
	'custom-field-get-many': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				objectName: 'contacts',
				fieldName: 'loyalty_tier',
				displayName: 'Loyalty Tier',
				valueType: 'singleSelect',
				isCustom: true,
			}),
		]),
	'custom-field-upsert': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				success: true,
				objectName: 'contacts',
				fieldName: 'loyalty_tier',
				action: 'create',
			}),
		]),
	'destination-create': (items) => {
		expect(items).toEqual([
			expect.objectContaining({
				id: expect.any(String),
				name: 'lead-converted-webhook',
				type: 'webhook',
				metadata: expect.objectContaining({
					url: 'https://hooks.example.com/lead-converted',
					headers: { 'X-Team': 'sales' },
				}),
			}),
		]);
		expect(items[0].secrets).toBeUndefined();
	},
	'destination-delete': (items) =>
		expect(items).toEqual([{ deleted: true, destinationId: SEED.deletableDestinationId }]),
	'custom-field-upsert-for-installation': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				success: true,
				objectName: 'companies',
				fieldName: 'account_tier',
				action: 'create',
			}),
		]),
	'destination-get': (items) => {
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.destinationId,
				name: SEED.destinationName,
				type: 'webhook',
			}),
		]);
		expect(items[0].secrets).toBeUndefined();
	},
	'destination-get-many': (items) => {
		expect(items).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ id: SEED.destinationId, name: SEED.destinationName }),
				expect.objectContaining({ id: SEED.kinesisDestinationId, type: 'kinesis' }),
			]),
		);
		for (const item of items) expect(item.secrets).toBeUndefined();
	},
	'destination-rotate-secret': (items) => {
		expect(items).toEqual([expect.objectContaining({ id: SEED.destinationId })]);
		expect(items[0].secrets).toBeUndefined();
	},
	'destination-update': (items) => {
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.updatableDestinationId,
				metadata: expect.objectContaining({ url: 'https://hooks.example.com/crm-v2' }),
			}),
		]);
		expect(items[0].secrets).toBeUndefined();
	},
	'installation-create': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				integrationId: SEED.integrationId,
				group: expect.objectContaining({ groupRef: SEED.apiKeyGroupRef }),
				createdBy: 'api:n8n',
				connection: expect.objectContaining({ id: SEED.apiKeyConnectionId }),
			}),
		]),
	'installation-delete': (items) =>
		expect(items).toEqual([{ deleted: true, installationId: SEED.deletableInstallationId }]),
	'installation-get': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.installationId, integrationId: SEED.integrationId }),
		]),
	'installation-get-backfill-progress': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				installationId: SEED.installationId,
				objectName: 'companies',
				operationId: SEED.secondOperationId,
				recordsProcessed: 37,
			}),
		]),
	'installation-get-many': (items) =>
		expect(items.map((item) => item.id)).toContain(SEED.installationId),
	'installation-get-many-in-project': (items) =>
		expect(items).toEqual([expect.objectContaining({ id: SEED.installationId })]),
	'installation-pause-reads': (items) =>
		expect(items).toEqual([
			{ paused: true, installationId: SEED.installationId, objects: ['companies'] },
		]),
	'installation-update': (items) => {
		expect(items).toEqual([expect.objectContaining({ id: SEED.installationId })]);
		expect(items[0].config.createdBy).toBe('api:n8n');
		expect(items[0].config.content.read.objects.companies.schedule).toBe('0 */12 * * *');
	},
	'installation-update-object-config': (items) => {
		expect(items).toEqual([expect.objectContaining({ id: SEED.installationId })]);
		const companies = items[0].config.content.read.objects.companies;
		expect(companies.schedule).toBe('*/15 * * * *');
		expect(companies.selectedFields.annualrevenue).toBe(true);
	},
	'installation-unpause-reads': (items) =>
		expect(items).toEqual([
			{ unpaused: true, installationId: SEED.installationId, objects: ['contacts'] },
		]),
	'integration-create': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				created: true,
				name: 'salesforce-accounts',
				id: expect.any(String),
			}),
		]),
	'integration-delete': (items) =>
		expect(items).toEqual([{ deleted: true, integration: SEED.deletableIntegrationName }]),
	'integration-get': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.integrationId,
				name: SEED.integrationName,
				latestRevision: expect.objectContaining({ id: SEED.revisionId }),
			}),
		]),
	'integration-get-many': (items) =>
		expect(items).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ id: SEED.integrationId, name: SEED.integrationName }),
			]),
		),
	'invite-create': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				id: expect.any(String),
				invitedEmail: 'teammate@example.com',
				parentId: SEED.orgId,
				status: 'pending',
			}),
		]),
	'integration-upsert-many': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				name: 'salesforce-leads',
				provider: 'salesforce',
				id: expect.any(String),
				latestRevision: expect.objectContaining({ specVersion: '1.0.0' }),
			}),
		]),
	'invite-get': (items) =>
		expect(items).toEqual([expect.objectContaining({ id: SEED.inviteId, status: 'pending' })]),
	'invite-get-many': (items) =>
		expect(items).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ id: SEED.inviteId, invitedEmail: SEED.invitedEmail }),
			]),
		),
	'invite-revoke': (items) =>
		expect(items).toEqual([{ revoked: true, orgId: SEED.orgId, inviteId: SEED.inviteId }]),
	'jwt-key-create': (items) => expect(items).toEqual([{ kid: expect.any(String) }]),
	'jwt-key-delete': (items) =>
		expect(items).toEqual([{ deleted: true, jwtKeyId: SEED.deletableJwtKeyId }]),
	'jwt-key-get': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.jwtKeyId,
				algorithm: 'RSA',
				publicKeyPem: expect.stringContaining('BEGIN PUBLIC KEY'),
			}),
		]),
	'jwt-key-get-many': (items) =>
		expect(items).toEqual(expect.arrayContaining([expect.objectContaining({ id: SEED.jwtKeyId })])),
	'jwt-key-update': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.jwtKeyId, label: 'frontend-signing-2026', active: true }),
		]),
	'notification-event-topic-route-create': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				id: expect.any(String),
				eventType: 'installation.created',
				topicId: SEED.topicId,
			}),
		]),
	'notification-event-topic-route-delete': (items) =>
		expect(items).toEqual([{ deleted: true, routeId: SEED.eventTopicRouteId }]),
	// Filtered by the seeded topic, which has routes whether or not the create and delete
	// examples ran before.
	'notification-event-topic-route-get-many': (items) => {
		expect(items.length).toBeGreaterThan(0);
		for (const item of items) expect(item.topicId).toBe(SEED.topicId);
	},
	'object-metadata-get-for-connection': (items) => {
		expect(items).toEqual([expect.objectContaining({ name: 'contacts', displayName: 'Contacts' })]);
		expect(items[0].fields.email).toEqual(expect.objectContaining({ fieldName: 'email' }));
		expect(items[0].fields.hs_object_id).toBeUndefined();
	},
	'object-metadata-get-for-installation': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				name: 'companies',
				fields: expect.objectContaining({
					domain: expect.objectContaining({ fieldName: 'domain' }),
				}),
			}),
		]),
	'operation-get': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.secondOperationId,
				status: 'in_progress',
				installationId: SEED.installationId,
			}),
		]),
	'operation-get-many': (items) =>
		expect(items.map((item) => item.id)).toEqual([SEED.operationId, SEED.secondOperationId]),
	'operation-get-logs': (items) => {
		expect(items.length).toBeGreaterThan(0);
		for (const item of items) expect(['WARNING', 'ERROR']).toContain(item.severity);
	},
	'oauth-get-authorization-url': (items) => {
		expect(items).toEqual([{ url: expect.stringMatching(/^https:\/\//) }]);
		expect(items[0].url).toContain('provider=hubspot');
	},
	'organization-add-member': (items) =>
		expect(items).toEqual([{ added: true, orgId: SEED.orgId, builderId: SEED.freelancerUserId }]),
	'organization-create': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: expect.any(String), label: 'Acme Integrations' }),
		]),
	'organization-get': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.orgId, defaultTeamId: expect.any(String) }),
		]),
	'organization-get-billing-account': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.billingAccountId, billingProvider: expect.any(String) }),
		]),
	'organization-get-members': (items) =>
		expect(items).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ id: SEED.userId, primaryEmail: SEED.userEmail }),
			]),
		),
	'organization-update': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.orgId, label: 'Demo Org (renamed)' }),
		]),
	'project-create': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				id: expect.any(String),
				name: expect.stringMatching(/^n8n-example-\d+$/),
				appName: 'n8n Example App',
				orgId: SEED.orgId,
			}),
		]),
	'project-get': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.projectId,
				name: SEED.projectName,
				entitlements: { brandingRemoval: { value: false }, logRetentionDays: { value: 7 } },
			}),
		]),
	'project-get-many': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.projectId, name: SEED.projectName }),
		]),
	'project-update': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.sandboxProjectId,
				name: SEED.sandboxProjectName,
				appName: 'Sandbox App (renamed)',
			}),
		]),
	'provider-get': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ name: 'salesforce', displayName: 'Salesforce' }),
		]),
	'provider-get-many': (items) => {
		expect(items).toHaveLength(5);
		const names = items.map((item) => item.name);
		expect(names).toEqual([...names].sort());
		for (const item of items) expect(item).toMatchObject({ displayName: expect.any(String) });
	},
	'provider-app-create': (items) => {
		expect(items).toEqual([
			expect.objectContaining({
				id: expect.any(String),
				projectId: SEED.projectId,
				provider: 'pipedrive',
				clientId: 'pd-client-n8n',
				scopes: ['deals:read', 'contacts:read'],
			}),
		]);
		expect(JSON.stringify(items)).not.toContain('pd-client-secret');
	},
	'provider-app-delete': (items) =>
		expect(items).toEqual([{ deleted: true, providerAppId: SEED.deletableProviderAppId }]),
	'provider-app-get-many': (items) => {
		expect(items).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ id: SEED.providerAppId, provider: 'salesforce' }),
			]),
		);
		expect(JSON.stringify(items)).not.toMatch(/client-secret|clientSecret/);
	},
	'provider-app-update': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.providerAppId,
				clientId: 'sf-client-0002',
				scopes: ['api', 'refresh_token', 'offline_access'],
			}),
		]),
	'provider-api-send-request': (items) => {
		// HubSpot's list answer through the proxy: one item, the provider's own body.
		expect(items).toHaveLength(1);
		expect(items[0].results).toHaveLength(2);
		expect(items[0].results[0]).toEqual(
			expect.objectContaining({
				id: '1001',
				properties: expect.objectContaining({ email: 'ada@acme.example' }),
			}),
		);
	},
	'records-deliver-results': (items) =>
		expect(items).toEqual([
			{ requested: true, object: 'contacts', groupRef: SEED.groupRef, pages: 2 },
		]),
	'records-search': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				fields: expect.objectContaining({ email: 'ada@acme.example' }),
				raw: expect.objectContaining({ id: '1001' }),
			}),
		]),
	'records-trigger-read': (items) =>
		expect(items).toEqual([{ operationId: expect.stringMatching(/^[0-9a-f-]{36}$/) }]),
	'records-write': (items) => {
		// One result per row, in order, each with the provider's new record ID.
		expect(items).toEqual(
			['grace', 'alan', 'edsger'].map(() => ({
				success: true,
				recordId: expect.stringMatching(/^\d+$/),
				operationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
			})),
		);
		expect(new Set(items.map((item) => item.recordId)).size).toBe(3);
	},
	'records-write-mapped': (items) => {
		// One result per row, in order, each with the provider's new record ID.
		expect(items).toEqual(
			['grace', 'alan', 'edsger'].map(() => ({
				success: true,
				recordId: expect.stringMatching(/^\d+$/),
				operationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
			})),
		);
		expect(new Set(items.map((item) => item.recordId)).size).toBe(3);
	},
	'revision-create': (items) => {
		expect(items).toEqual([
			expect.objectContaining({
				created: true,
				integrationId: SEED.revisableIntegrationId,
				id: expect.any(String),
			}),
		]);
		expect(items[0].content.read.objects[0].schedule).toBe('*/30 * * * *');
	},
	'revision-get-hydrated': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				id: SEED.revisionId,
				content: expect.objectContaining({ read: expect.any(Object) }),
			}),
		]),
	'topic-create': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: expect.any(String), name: 'billing-events' }),
		]),
	'topic-delete': (items) =>
		expect(items).toEqual([{ deleted: true, topicId: SEED.deletableTopicId }]),
	'topic-get-many': (items) =>
		expect(items).toEqual(
			expect.arrayContaining([expect.objectContaining({ id: SEED.topicId, name: SEED.topicName })]),
		),
	'topic-update': (items) =>
		expect(items).toEqual([
			expect.objectContaining({ id: SEED.updatableTopicId, name: 'invoice-alerts' }),
		]),
	// The updatable topic: topic-delete removes the deletable one earlier in file order.
	'topic-destination-route-create': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				topicId: SEED.updatableTopicId,
				destinationId: SEED.destinationId,
			}),
		]),
	'topic-destination-route-delete': (items) =>
		expect(items).toEqual([{ deleted: true, routeId: SEED.deletableTopicDestinationRouteId }]),
	'topic-destination-route-get-many': (items) => {
		expect(items).toEqual(
			expect.arrayContaining([expect.objectContaining({ id: SEED.topicDestinationRouteId })]),
		);
		for (const item of items) expect(item.destinationId).toBe(SEED.destinationId);
	},
	'upload-url-generate': (items) =>
		expect(items).toEqual([
			{
				url: expect.stringMatching(/^https:\/\//),
				bucket: expect.any(String),
				path: expect.any(String),
			},
		]),
	'user-get-current': (items) =>
		expect(items).toEqual([
			expect.objectContaining({
				builder: expect.objectContaining({ id: SEED.userId }),
				projectRoles: expect.objectContaining({ [SEED.projectId]: expect.any(Object) }),
			}),
		]),
};

/**
 * The examples (file names without .json) that use the action node. examples/mcp-server.json is
 * not one of them: its nodes are the node's tool variant (`….integrationPlatformTool`), which only
 * an MCP client can run; test/e2e/mcp.test.ts runs it.
 */
export const actionExamples = fs
	.readdirSync(path.join(__dirname, '../../examples'))
	.filter((file) =>
		readExample(file).nodes.some((n: { type: string }) => n.type.endsWith('.integrationPlatform')),
	)
	.map((file) => file.replace(/\.json$/, ''));

/** Runs an example in the e2e n8n against a fresh simulator: it succeeds, and its items are as expected. */
export async function runExample(ctx: E2eContext, name: string): Promise<void> {
	ctx.sim.reset();
	const run = await ctx.n8n.runWorkflow(readExample(`${name}.json`), ctx.credentials);
	expect({ status: run.status, error: run.error?.message }).toEqual({
		status: 'success',
		error: undefined,
	});
	expectations[name](run.output('Integration Platform'));
}
