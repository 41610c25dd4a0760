// @ts-check
'use strict';

/**
 * The seeded world: fixed IDs, names, keys and records, so that examples, tests and
 * documentation can refer to them. `SEED` holds the constants; `seedWorld()` returns
 * fresh copies of every record (state.js turns them into Maps).
 *
 * Timestamps are fixed and lie in the past (2025), so anything created while the
 * simulator runs sorts after them.
 */

const SEED = Object.freeze({
	// Organizations and the builder (dashboard user) who owns the demo org.
	orgId: 'a48ab123-7a90-46dc-9b3a-a168ad3be197',
	orgLabel: 'Demo Org',
	defaultTeamId: '85bd9cc9-17cc-46ff-a637-6dc4751d01e0',
	otherOrgId: 'a02a4afc-4992-4e9f-b230-8bef06356a2b',
	otherOrgLabel: 'Other Org',
	otherOrgDefaultTeamId: 'd54897cc-27db-4c28-ac3c-d99759bb65e9',
	userId: '1a50b2b9-9e67-4ed4-acb9-bbfcb4637aef',
	userEmail: 'owner@demo.example',
	otherUserId: '7a8650f3-51c2-47b4-a6f4-e845db9a6fdb',
	otherUserEmail: 'owner@taken.example',
	/** a builder in no organization: the add-member example and tests add them to the demo org */
	freelancerUserId: '5e0b7c2a-94d1-4f36-b8a7-1c3e6d9f2a48',
	freelancerUserEmail: 'freelancer@builders.example',
	/** the demo org's billing account */
	billingAccountId: '0d6f3b8e-2a47-4c91-9e5b-7a1c4f8d2e63',

	// Credentials (docs/api-notes.md, "Credentials per operation"). API keys belong to one project; bearer tokens to a builder.
	apiKey: 'amp_sim_demo_key_0001',
	deletableApiKey: 'amp_sim_demo_key_0002',
	/** a key of the demo project only the API key get/update examples and tests read or change */
	updatableApiKey: 'amp_sim_demo_key_0003',
	secondProjectApiKey: 'amp_sim_second_key_0001',
	bearerToken: 'amp_sim_builder_session_owner_0001',
	/** bearer token of the owner of `otherOrgId`, who has no access to the demo org */
	otherBearerToken: 'amp_sim_builder_session_other_0001',
	/** a bearer token the simulator knows but treats as expired */
	expiredBearerToken: 'amp_sim_builder_session_expired_0001',

	// Projects.
	projectId: '8247df9c-e563-4e96-9173-550b9f0e8a95',
	projectName: 'demo-project',
	appName: 'Demo App',
	secondProjectId: 'd588b0d5-568e-4bc5-b61a-5829fb086a47',
	secondProjectName: 'second-project',
	secondAppName: 'Second App',
	otherOrgProjectId: '5bdf3c6d-5942-49ed-81a7-aede62c5d3db',
	/** a project of the demo org only the project update example and tests change */
	sandboxProjectId: 'c4e2a8f1-6b3d-4f90-8a7e-1d5c9b2e4f63',
	sandboxProjectName: 'sandbox-project',
	otherOrgProjectName: 'other-org-project',

	// Integration, revision, installation, connection.
	integrationId: '1a8ac63d-79d7-4d0c-aecc-dd8821b00439',
	integrationName: 'hubspot-sync',
	/** an integration only the delete example and tests remove */
	deletableIntegrationId: '7c2e9a41-3b8d-4f6e-a5c1-0d9b2e4f8a63',
	deletableIntegrationName: 'legacy-sync',
	/** an integration only the revision example and tests give new revisions */
	revisableIntegrationId: '4e9d1b6a-7c2f-4a83-b5e0-6f1c3d8a2b94',
	revisableIntegrationName: 'hubspot-deals',
	provider: 'hubspot',
	revisionId: 'f05164fb-ef84-41a8-86b5-8aeefeb52210',
	specVersion: '1.0.0',
	installationId: '37cd3c32-4e18-4603-ae18-4005f38fc252',
	configId: 'ffb34b48-fcaa-4361-8330-08a74f98d98e',
	groupRef: 'acme-group',
	groupName: 'Acme Inc',
	consumerRef: 'user-42',
	consumerName: 'Jane Builder',
	connectionId: '03674608-3c5c-4ca7-8259-5c6767ed5ed6',
	/** an API-key connection of its own group (no installation): updated and installed by examples */
	apiKeyConnectionId: '5d1f0c2a-8b7e-4c3d-9a6f-2e4b8c1d7f90',
	apiKeyGroupRef: 'globex-group',
	/** a connection only the delete example and tests remove */
	deletableConnectionId: '9e2c4b7a-1d3f-4a8e-b6c5-7f0a2d9e4b13',
	/** an installation (with its own connection) only the delete example and tests remove */
	deletableInstallationId: 'b3a7e1c9-5f2d-4e8b-a1c6-9d4f7e2b0a58',
	deletableInstallationConnectionId: '6f8d2a4c-3e1b-4b7d-8c9a-0e5f1a3b7d26',
	deletableInstallationGroupRef: 'umbrella-group',
	/** object whose reads are paused in the seeded installation */
	pausedObject: 'contacts',

	// Destinations (docs/api-notes.md, "Enumerations"). The signing key is in Svix form: whsec_ + base64 of 24 bytes.
	destinationId: '02b21872-5392-4e80-9687-90b6226a0d39',
	destinationName: 'n8n-webhook',
	webhookUrl: 'https://hooks.example.com/ampersand',
	webhookSigningKey: 'whsec_kW9v+NPE+lUtPVmVLTFcsq0R+eY1A2Qg',
	kinesisDestinationId: 'fabc1d28-a5ad-408c-aadb-65f2fb01e343',
	kinesisDestinationName: 'events-stream',
	/** destinations only the update and delete examples and tests change or remove */
	updatableDestinationId: '6c1e9a47-2b8d-4f3a-9e05-d7b4a2c81f36',
	updatableDestinationName: 'crm-webhook',
	deletableDestinationId: 'a9d3f2b6-07c4-4e81-b5a2-3f6e9c1d8b70',
	deletableDestinationName: 'legacy-webhook',

	// Topics and routes (docs/api-notes.md, "Topics and routes").
	topicId: '1f0958c9-25e1-404e-bf34-9836d2f887a2',
	topicName: 'alerts',
	deletableTopicId: 'e596f5d7-28f0-4934-abe3-02a8af08660b',
	deletableTopicName: 'old-alerts',
	topicDestinationRouteId: '42598b01-991b-4253-9e83-239a0cf80e22',
	eventTopicRouteId: 'c70d7614-620f-4078-9b18-ba5f49ec989f',
	eventType: 'connection.error',
	/** a topic only the update example and tests rename */
	updatableTopicId: '3b7f0e2d-91c6-4a58-8d4e-c2a5f1b9e607',
	updatableTopicName: 'billing-alerts',
	/** a topic-destination route (updatable topic → kinesis destination) only the delete example and tests remove */
	deletableTopicDestinationRouteId: 'f4c8a1e3-5d29-4b7e-a60f-8e2d3b9c1a75',

	// JWT key.
	jwtKeyId: '3663b44c-661f-4b50-a20b-208772974428',
	jwtKeyLabel: 'frontend-signing',
	/** a JWT key only the delete example and tests remove */
	deletableJwtKeyId: '7d9b3e51-2c8a-4f6d-b0e4-5a1c8f3d2e97',

	// Provider apps (docs/api-notes.md, "Provider apps"): one the update example changes, one the delete example removes.
	providerAppId: 'e1a5c7d3-9f2b-4e6a-8c0d-3b7f5a9e1c24',
	providerAppClientId: 'sf-client-0001',
	deletableProviderAppId: '2f8c4e6a-1b3d-4a7f-9e5c-7d0b2a4f6e81',

	// Invites and claimed domains.
	inviteId: 'd008685e-0f96-4aa3-9908-3fa7188e33d6',
	invitedEmail: 'new.builder@example.com',
	acceptedInviteId: '8517b63d-1438-48e6-b9b6-17365508de54',
	acceptedInviteEmail: 'joined.builder@example.com',
	otherOrgInviteId: '2222079c-6c7c-4ac1-ab7c-23e606c67afe',
	claimedDomain: 'taken.example',
	claimedDomainId: 'df40ff71-3990-4b32-bf7a-5772f72440bb',
	/** a domain the demo org has claimed */
	demoClaimedDomain: 'demo.example',
	demoClaimedDomainId: '7b2e9d41-c3a8-4f56-8e17-0a9d5c3b6f24',

	// Operations and their logs (docs/api-notes.md, "Operation logs").
	operationId: 'c2a119dc-a2d7-4ae8-ae63-253ae241f5e9',
	secondOperationId: 'e9e11e31-8a3d-4636-99f7-3259e3be055b',
	/** the timestamp two seeded log entries of `operationId` share */
	sharedLogTimestamp: '2025-06-02T08:15:41.500250Z',

	// The data plane (dataStore.js): records of the seeded installation's fake HubSpot.
	/** a contact of the seeded installation (email SEED.contactEmail) */
	contactId: '1001',
	contactEmail: 'ada@acme.example',
	/** a second contact, updated later than the first */
	secondContactId: '1002',

	createTime: '2025-05-01T09:00:00.000000Z',
});

const PUBLIC_KEY_PEM = [
	'-----BEGIN PUBLIC KEY-----',
	'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA7br/292e71yE1hDoE9Od',
	'AcoQw5JlnFzEIpEA3BNrfUE5JNdOA1X0xd5aaHk2mJ7bsn1DGEkUFaPKTA9byTg0',
	'crJ9vOw+gSQ936B8lUJmY6bTcf74SR/iPHJiI6N0RNYAM9OQXanuWQyaIOv7v9xZ',
	'UBzXevjUIB4s3mXtea1cmzPuvy7+fierl2m4O+v3JXzkke0c2upC51YvsolCzYp6',
	'AcYCBecvfOU1wItQo0dygFDUfAIG0JfgtgGPVUS2f1GCPnEd8iWMcZAY1j8GjOjm',
	'+IHD1NjlXNzWgSasUPsIaGKe4XaD/Zf3hlAzPB5jRpko4k1J+5ucy3SoO5mWQkP2',
	'TwIDAQAB',
	'-----END PUBLIC KEY-----',
	'',
].join('\n');

/**
 * The manifest content of the seeded integration's latest revision (requiredness as in
 * docs/api-notes.md, "Enumerations"; every `enabled` is 'always').
 */
function seedManifest() {
	return {
		name: SEED.integrationName,
		provider: SEED.provider,
		displayName: 'HubSpot sync',
		read: {
			objects: [
				{
					objectName: 'contacts',
					destination: SEED.destinationName,
					schedule: '*/10 * * * *',
					requiredFields: [
						{ fieldName: 'email' },
						{ fieldName: 'firstname', mapToName: 'firstName', mapToDisplayName: 'First name' },
						{ fieldName: 'lastname', mapToName: 'lastName', mapToDisplayName: 'Last name' },
					],
					optionalFieldsAuto: 'all',
					backfill: { defaultPeriod: { days: 30 } },
					delivery: { mode: 'auto', pageSize: 100 },
					enabled: 'always',
				},
				{
					objectName: 'companies',
					destination: SEED.destinationName,
					schedule: '0 */6 * * *',
					requiredFields: [{ fieldName: 'name' }, { fieldName: 'domain' }],
					optionalFields: [
						{ fieldName: 'industry' },
						{
							mapToName: 'employeeCount',
							mapToDisplayName: 'Employees',
							prompt: 'Which field holds the number of employees?',
						},
					],
					backfill: { defaultPeriod: { fullHistory: true } },
					delivery: { mode: 'auto', pageSize: 100 },
					enabled: 'always',
				},
			],
		},
		write: {
			objects: [
				{ objectName: 'contacts', inheritMapping: true, valueDefaults: { allowAnyFields: true } },
				{ objectName: 'companies' },
			],
		},
		proxy: { enabled: true },
		subscribe: {
			objects: [
				{
					objectName: 'contacts',
					destination: SEED.destinationName,
					inheritFieldsAndMapping: true,
					createEvent: { enabled: 'always' },
					updateEvent: { enabled: 'always', watchFieldsAuto: 'all' },
					deleteEvent: { enabled: 'always' },
				},
			],
		},
		watchSchema: {
			destination: SEED.destinationName,
			schedule: '0 */24 * * *',
			allObjects: {
				fieldCreated: { enabled: 'always' },
				fieldDeleted: { enabled: 'always' },
				fieldChanged: { enabled: 'always' },
			},
		},
	};
}

/**
 * Log entries (docs/api-notes.md, "Operation logs"): microsecond timestamps, free-string severities, a structured
 * message with `msg` and snake_case `operation_id`; `details` is a map of strings.
 * Two entries share `SEED.sharedLogTimestamp` on purpose.
 */
function seedLogs() {
	const op = SEED.operationId;
	/** @type {[string, string, string, Record<string, string>?, string?][]} */
	const rows = [
		[
			'2025-06-02T08:15:30.100001Z',
			'DEBUG',
			'Read operation scheduled',
			{ objectName: 'contacts', readType: 'scheduled' },
		],
		[
			'2025-06-02T08:15:30.412987Z',
			'INFO',
			'Starting read',
			{ objectName: 'contacts', since: '2025-06-02T08:05:30Z' },
		],
		[
			'2025-06-02T08:15:31.020304Z',
			'DEBUG',
			'Fetching page',
			{ request: 'GET /crm/v3/objects/contacts?limit=100' },
		],
		['2025-06-02T08:15:32.750019Z', 'DEBUG', 'Fetched page', { records: '100' }],
		[
			'2025-06-02T08:15:33.000500Z',
			'WARNING',
			'Provider rate limit reached, backing off',
			{ retryAfter: '2s' },
		],
		['2025-06-02T08:15:36.118822Z', 'INFO', 'Fetched page', { records: '100' }],
		[
			SEED.sharedLogTimestamp,
			'INFO',
			'Delivered batch to destination',
			{ destination: SEED.destinationName, records: '200' },
		],
		[SEED.sharedLogTimestamp, 'DEBUG', 'Cursor advanced', { cursor: 'page-3' }],
		[
			'2025-06-02T08:15:42.000017Z',
			'ERROR',
			'Failed to fetch associations',
			{ association: 'companies' },
			'hubspot: 502 Bad Gateway',
		],
		['2025-06-02T08:15:44.630100Z', 'INFO', 'Retry succeeded', { attempt: '2' }],
		['2025-06-02T08:15:45.900900Z', 'INFO', 'Read finished', { recordsRead: '250' }],
		['2025-06-02T08:15:46.000001Z', 'DEBUG', 'Operation complete'],
	];
	const second = SEED.secondOperationId;
	return {
		[op]: rows.map(([timestamp, severity, msg, details, error]) => ({
			timestamp,
			severity,
			message: {
				msg,
				operation_id: op,
				...(details ? { details } : {}),
				...(error ? { error } : {}),
			},
		})),
		[second]: [
			{
				timestamp: '2025-06-02T09:15:30.200002Z',
				severity: 'DEBUG',
				message: { msg: 'Read operation scheduled', operation_id: second },
			},
			{
				timestamp: '2025-06-02T09:15:30.700007Z',
				severity: 'INFO',
				message: {
					msg: 'Starting read',
					operation_id: second,
					details: { objectName: 'companies' },
				},
			},
			{
				timestamp: '2025-06-02T09:15:33.310331Z',
				severity: 'INFO',
				message: { msg: 'Fetched page', operation_id: second, details: { records: '37' } },
			},
		],
	};
}

/** Fresh copies of every seeded record. */
function seedWorld() {
	const t = SEED.createTime;
	const projectId = SEED.projectId;
	const group = { groupRef: SEED.groupRef, groupName: SEED.groupName, projectId, createTime: t };
	const consumer = {
		consumerRef: SEED.consumerRef,
		consumerName: SEED.consumerName,
		projectId,
		createTime: t,
	};
	return {
		orgs: [
			{ id: SEED.orgId, label: SEED.orgLabel, defaultTeamId: SEED.defaultTeamId, createTime: t },
			{
				id: SEED.otherOrgId,
				label: SEED.otherOrgLabel,
				defaultTeamId: SEED.otherOrgDefaultTeamId,
				createTime: t,
			},
		],
		users: [
			{ id: SEED.userId, email: SEED.userEmail, orgRoles: { [SEED.orgId]: 'owner' } },
			{
				id: SEED.otherUserId,
				email: SEED.otherUserEmail,
				orgRoles: { [SEED.otherOrgId]: 'owner' },
			},
			{
				id: SEED.freelancerUserId,
				email: SEED.freelancerUserEmail,
				firstName: 'Fran',
				lastName: 'Lancer',
				orgRoles: {},
			},
		],
		sessions: [
			{ token: SEED.bearerToken, userId: SEED.userId, expired: false },
			{ token: SEED.otherBearerToken, userId: SEED.otherUserId, expired: false },
			{ token: SEED.expiredBearerToken, userId: SEED.userId, expired: true },
		],
		projects: [
			{
				id: projectId,
				name: SEED.projectName,
				appName: SEED.appName,
				orgId: SEED.orgId,
				createTime: t,
				// Entitlements are only returned by getProject?includeEntitlements=true (docs/api-notes.md, "listProjects").
				entitlements: { brandingRemoval: { value: false }, logRetentionDays: { value: 7 } },
			},
			{
				id: SEED.secondProjectId,
				name: SEED.secondProjectName,
				appName: SEED.secondAppName,
				orgId: SEED.orgId,
				createTime: '2025-05-02T09:00:00.000000Z',
				entitlements: { brandingRemoval: { value: true }, logRetentionDays: { value: 30 } },
			},
			{
				id: SEED.sandboxProjectId,
				name: SEED.sandboxProjectName,
				appName: 'Sandbox App',
				orgId: SEED.orgId,
				createTime: '2025-05-04T09:00:00.000000Z',
				entitlements: { brandingRemoval: { value: false }, logRetentionDays: { value: 7 } },
			},
			{
				id: SEED.otherOrgProjectId,
				name: SEED.otherOrgProjectName,
				appName: 'Other App',
				orgId: SEED.otherOrgId,
				createTime: '2025-05-03T09:00:00.000000Z',
				entitlements: { brandingRemoval: { value: false }, logRetentionDays: { value: 7 } },
			},
		],
		apiKeys: [
			{ key: SEED.apiKey, label: 'demo key', scopes: ['full'], projectId, active: true },
			{ key: SEED.deletableApiKey, label: 'spare key', scopes: ['full'], projectId, active: true },
			{
				key: SEED.updatableApiKey,
				label: 'rotating key',
				scopes: ['full'],
				projectId,
				active: true,
			},
			{
				key: SEED.secondProjectApiKey,
				label: 'second project key',
				scopes: ['full'],
				projectId: SEED.secondProjectId,
				active: true,
			},
		],
		groups: [group],
		consumers: [consumer],
		connections: [
			{
				id: SEED.connectionId,
				projectId,
				provider: SEED.provider,
				group: { ...group },
				consumer: { ...consumer },
				providerWorkspaceRef: '20881234',
				providerConsumerRef: 'jane@acme.example',
				authScheme: 'oauth2/authorizationCode',
				status: 'working',
				createTime: t,
				updateTime: '2025-05-20T12:00:00.000000Z',
			},
			// Connections and an installation that examples and tests change or remove (SEED above).
			{
				id: SEED.apiKeyConnectionId,
				projectId,
				provider: SEED.provider,
				group: { groupRef: SEED.apiKeyGroupRef, groupName: 'Globex', projectId, createTime: t },
				consumer: { consumerRef: 'user-77', consumerName: 'Hank Globex', projectId, createTime: t },
				authScheme: 'apiKey',
				status: 'working',
				createTime: t,
				_credentials: { apiKey: 'seeded-provider-key' },
			},
			{
				id: SEED.deletableConnectionId,
				projectId,
				provider: SEED.provider,
				group: { groupRef: 'initech-group', groupName: 'Initech', projectId, createTime: t },
				consumer: {
					consumerRef: 'user-88',
					consumerName: 'Bill Initech',
					projectId,
					createTime: t,
				},
				authScheme: 'apiKey',
				status: 'working',
				createTime: t,
			},
			{
				id: SEED.deletableInstallationConnectionId,
				projectId,
				provider: SEED.provider,
				group: {
					groupRef: SEED.deletableInstallationGroupRef,
					groupName: 'Umbrella',
					projectId,
					createTime: t,
				},
				consumer: {
					consumerRef: 'user-99',
					consumerName: 'Alice Umbrella',
					projectId,
					createTime: t,
				},
				authScheme: 'oauth2/authorizationCode',
				status: 'working',
				createTime: t,
			},
		],
		integrations: [
			{
				id: SEED.integrationId,
				projectId,
				name: SEED.integrationName,
				provider: SEED.provider,
				createTime: t,
				latestRevision: {
					id: SEED.revisionId,
					specVersion: SEED.specVersion,
					createTime: t,
					content: seedManifest(),
				},
			},
			{
				id: SEED.deletableIntegrationId,
				projectId,
				name: SEED.deletableIntegrationName,
				provider: SEED.provider,
				createTime: t,
				latestRevision: {
					id: '2f6b8d1e-9c4a-4e7b-b3d5-8a1c6e0f2b47',
					specVersion: SEED.specVersion,
					createTime: t,
					content: {
						name: SEED.deletableIntegrationName,
						provider: SEED.provider,
						read: {
							objects: [
								{ objectName: 'deals', destination: SEED.destinationName, schedule: '0 0 * * *' },
							],
						},
					},
				},
			},
			{
				id: SEED.revisableIntegrationId,
				projectId,
				name: SEED.revisableIntegrationName,
				provider: SEED.provider,
				createTime: t,
				latestRevision: {
					id: '8a3f5c7e-2d1b-4e9a-b6c4-1f0e7d2a5b38',
					specVersion: SEED.specVersion,
					createTime: t,
					content: {
						name: SEED.revisableIntegrationName,
						provider: SEED.provider,
						read: {
							objects: [
								{ objectName: 'deals', destination: SEED.destinationName, schedule: '0 0 * * *' },
							],
						},
					},
				},
			},
		],
		installations: [
			{
				id: SEED.installationId,
				projectId,
				integrationId: SEED.integrationId,
				group: { ...group },
				_connectionId: SEED.connectionId,
				createTime: '2025-05-01T09:30:00.000000Z',
				updateTime: '2025-06-01T07:00:00.000000Z',
				createdBy: `consumer:${SEED.consumerRef}`,
				healthStatus: 'healthy',
				lastOperationStatus: 'success',
				config: {
					id: SEED.configId,
					revisionId: SEED.revisionId,
					createTime: '2025-05-01T09:30:00.000000Z',
					createdBy: `consumer:${SEED.consumerRef}`,
					content: {
						provider: SEED.provider,
						read: {
							objects: {
								// Paused reads are the per-object `disabled: true` flag (docs/api-notes.md, "Enumerations").
								contacts: {
									objectName: 'contacts',
									destination: SEED.destinationName,
									schedule: '*/10 * * * *',
									selectedFieldsAuto: 'all',
									selectedFields: {},
									selectedFieldMappings: { firstName: 'firstname', lastName: 'lastname' },
									disabled: true,
								},
								companies: {
									objectName: 'companies',
									destination: SEED.destinationName,
									schedule: '0 */6 * * *',
									selectedFields: { name: true, domain: true, industry: true },
									selectedFieldMappings: {},
									disabled: false,
								},
							},
						},
						write: { objects: { contacts: { objectName: 'contacts' } } },
						subscribe: {
							objects: {
								contacts: {
									objectName: 'contacts',
									destination: SEED.destinationName,
									inheritFieldsAndMappings: true,
									createEvent: { enabled: 'always' },
									updateEvent: { enabled: 'always', watchFieldsAuto: 'all' },
									deleteEvent: { enabled: 'never' },
								},
							},
						},
					},
				},
			},
			{
				id: SEED.deletableInstallationId,
				projectId,
				integrationId: SEED.integrationId,
				group: {
					groupRef: SEED.deletableInstallationGroupRef,
					groupName: 'Umbrella',
					projectId,
					createTime: t,
				},
				_connectionId: SEED.deletableInstallationConnectionId,
				createTime: '2025-05-03T09:30:00.000000Z',
				createdBy: 'api:create-installation',
				healthStatus: 'healthy',
				config: {
					id: 'c41e8f2a-6b3d-4d9e-a7f1-2c5b8e0d4a93',
					revisionId: SEED.revisionId,
					createTime: '2025-05-03T09:30:00.000000Z',
					createdBy: 'api:create-installation',
					content: { provider: SEED.provider, read: { objects: {} } },
				},
			},
		],
		destinations: [
			{
				id: SEED.destinationId,
				name: SEED.destinationName,
				type: 'webhook',
				metadata: { url: SEED.webhookUrl, headers: {} },
				createTime: t,
				_projectId: projectId,
				_secrets: { webhookSigningKey: SEED.webhookSigningKey },
			},
			{
				id: SEED.kinesisDestinationId,
				name: SEED.kinesisDestinationName,
				type: 'kinesis',
				metadata: {
					streamName: 'amp-events',
					region: 'us-east-1',
					partitionKeyTemplate: 'installationId',
				},
				createTime: t,
				_projectId: projectId,
				_secrets: { awsKeyId: 'AKIASIMULATOR000001', awsSecretKey: 'sim-secret-access-key' },
			},
			// Changed or removed only by the destination update and delete examples and tests (SEED above).
			{
				id: SEED.updatableDestinationId,
				name: SEED.updatableDestinationName,
				type: 'webhook',
				metadata: { url: 'https://hooks.example.com/crm', headers: {} },
				createTime: t,
				_projectId: projectId,
				_secrets: { webhookSigningKey: 'whsec_c2ltdWxhdG9yLWNybS13ZWJob29rLWtleQ==' },
			},
			{
				id: SEED.deletableDestinationId,
				name: SEED.deletableDestinationName,
				type: 'webhook',
				metadata: { url: 'https://hooks.example.com/legacy', headers: {} },
				createTime: t,
				_projectId: projectId,
				_secrets: { webhookSigningKey: 'whsec_c2ltdWxhdG9yLWxlZ2FjeS13ZWJob29rLWs=' },
			},
		],
		topics: [
			{ id: SEED.topicId, name: SEED.topicName, projectId, createTime: t },
			{ id: SEED.deletableTopicId, name: SEED.deletableTopicName, projectId, createTime: t },
			{ id: SEED.updatableTopicId, name: SEED.updatableTopicName, projectId, createTime: t },
		],
		topicDestinationRoutes: [
			{
				id: SEED.topicDestinationRouteId,
				topicId: SEED.topicId,
				destinationId: SEED.destinationId,
				projectId,
				createTime: t,
			},
			{
				id: SEED.deletableTopicDestinationRouteId,
				topicId: SEED.updatableTopicId,
				destinationId: SEED.kinesisDestinationId,
				projectId,
				createTime: t,
			},
		],
		eventTopicRoutes: [
			{
				id: SEED.eventTopicRouteId,
				eventType: SEED.eventType,
				topicId: SEED.topicId,
				projectId,
				createTime: t,
			},
		],
		jwtKeys: [
			{
				id: SEED.jwtKeyId,
				projectId,
				label: SEED.jwtKeyLabel,
				algorithm: 'RSA',
				publicKeyPem: PUBLIC_KEY_PEM,
				active: true,
				createTime: '2025-05-05T10:30:00Z',
				updateTime: '2025-05-05T10:30:00Z',
			},
			{
				id: SEED.deletableJwtKeyId,
				projectId,
				label: 'retired-signing',
				algorithm: 'RSA',
				publicKeyPem: PUBLIC_KEY_PEM,
				active: false,
				createTime: '2025-05-04T10:30:00Z',
				updateTime: '2025-05-06T10:30:00Z',
			},
		],
		providerApps: [
			{
				id: SEED.providerAppId,
				projectId,
				provider: 'salesforce',
				clientId: SEED.providerAppClientId,
				scopes: ['api', 'refresh_token'],
				metadata: {
					providerParams: {
						packageInstallURL:
							'https://login.salesforce.com/packaging/installPackage.apexp?p0=04t000000000001',
					},
				},
				createTime: t,
				_clientSecret: 'sf-client-secret-0001',
			},
			{
				id: SEED.deletableProviderAppId,
				projectId,
				provider: 'hubspot',
				clientId: 'hs-client-0001',
				externalRef: 'hs-app-1',
				scopes: ['oauth', 'crm.objects.contacts.read'],
				createTime: t,
				_clientSecret: 'hs-client-secret-0001',
			},
		],
		invites: [
			{
				id: SEED.inviteId,
				invitedEmail: SEED.invitedEmail,
				parentType: 'org',
				parentId: SEED.orgId,
				status: 'pending',
				createTime: '2025-05-10T09:00:00.000000Z',
			},
			{
				id: SEED.acceptedInviteId,
				invitedEmail: SEED.acceptedInviteEmail,
				parentType: 'org',
				parentId: SEED.orgId,
				status: 'accepted',
				createTime: '2025-05-08T09:00:00.000000Z',
				updateTime: '2025-05-09T11:12:13.141516Z',
			},
			{
				id: SEED.otherOrgInviteId,
				invitedEmail: 'someone@taken.example',
				parentType: 'org',
				parentId: SEED.otherOrgId,
				status: 'pending',
				createTime: t,
			},
		],
		claimedDomains: [
			{
				id: SEED.claimedDomainId,
				domain: SEED.claimedDomain,
				parentType: 'org',
				parentId: SEED.otherOrgId,
				createTime: t,
			},
			{
				id: SEED.demoClaimedDomainId,
				domain: SEED.demoClaimedDomain,
				parentType: 'org',
				parentId: SEED.orgId,
				createTime: t,
			},
		],
		operations: [
			{
				id: SEED.operationId,
				projectId,
				integrationId: SEED.integrationId,
				installationId: SEED.installationId,
				configId: SEED.configId,
				actionType: 'read',
				status: 'success',
				result: 'Read 250 contacts records',
				metadata: { objects: ['contacts'] },
				createTime: '2025-06-02T08:15:30.000001Z',
			},
			{
				id: SEED.secondOperationId,
				projectId,
				integrationId: SEED.integrationId,
				installationId: SEED.installationId,
				configId: SEED.configId,
				actionType: 'read',
				status: 'in_progress',
				metadata: {
					objects: ['companies'],
					progress: {
						installationId: SEED.installationId,
						objectName: 'companies',
						operationId: SEED.secondOperationId,
						recordsProcessed: 37,
					},
				},
				createTime: '2025-06-02T09:15:30.000002Z',
			},
		],
		logs: seedLogs(),
		// Provider records per `installationId/objectName` (dataStore.js): what the fake HubSpot behind
		// the write, search, read and proxy hosts holds for the seeded installation.
		records: {
			[`${SEED.installationId}/contacts`]: [
				{
					id: SEED.contactId,
					fields: { email: SEED.contactEmail, firstname: 'Ada', lastname: 'Lovelace' },
					createTime: '2025-05-10T10:00:00.000000Z',
					updateTime: '2025-05-10T10:00:00.000000Z',
				},
				{
					id: SEED.secondContactId,
					fields: { email: 'grace@acme.example', firstname: 'Grace', lastname: 'Hopper' },
					createTime: '2025-05-11T10:00:00.000000Z',
					updateTime: '2025-05-20T10:00:00.000000Z',
				},
			],
			[`${SEED.installationId}/companies`]: [
				{
					id: '2001',
					fields: { name: 'Acme Inc', domain: 'acme.example', industry: 'Manufacturing' },
					createTime: '2025-05-10T10:00:00.000000Z',
					updateTime: '2025-05-10T10:00:00.000000Z',
				},
			],
		},
	};
}

module.exports = { SEED, PUBLIC_KEY_PEM, seedWorld, seedManifest };
