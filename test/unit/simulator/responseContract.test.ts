/**
 * The simulator answers as the real API documents: every route it serves is called with the
 * seeded world and again with records created through the routes themselves, and every 2xx
 * answer is checked against the API's documented success answers (test/openapi/
 * responseContract.ts, docs/api-responses.json). Each request of the walk is also checked
 * against the request contract, so the answers are to requests the real API would take.
 */
import { RequestContract, type RecordedRequest } from '../../openapi/requestContract';
import { ResponseContract, type RecordedAnswer } from '../../openapi/responseContract';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const simulator = require('../../simulator') as {
	startSimulator(options: object): Promise<Sim>;
	SEED: Record<string, string>;
	ROUTES: Array<{ id: string; method: string; host: string; path: string }>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PUBLIC_KEY_PEM } = require('../../simulator/seed') as { PUBLIC_KEY_PEM: string };

interface Entry extends RecordedRequest {
	routeId: string | null;
	fault?: string;
}
interface Sim {
	apiUrl: string;
	readUrl: string;
	writeUrl: string;
	searchUrl: string;
	journal: {
		onAnswer(listener: (entry: Entry, answer: Omit<RecordedAnswer, 'host'>) => void): () => void;
	};
	whenIdle(): Promise<void>;
	close(): Promise<void>;
}

const { SEED, ROUTES } = simulator;
const responses = ResponseContract.load();
const requests = RequestContract.load();

type Phase = 'seed' | 'created';
interface Seen {
	phase: Phase;
	routeId: string | null;
	request: Entry;
	answer: RecordedAnswer;
}

let sim: Sim;
let phase: Phase = 'seed';
const seen: Seen[] = [];

beforeAll(async () => {
	sim = await simulator.startSimulator({ port: 0, readPort: 0, quiet: true });
	sim.journal.onAnswer((entry, answer) => {
		// A fault's answer is the test's own invention, not the simulator's model of the API.
		if (entry.fault) return;
		seen.push({
			phase,
			routeId: entry.routeId,
			request: structuredClone(entry),
			answer: { ...answer, host: entry.host, method: entry.method, pathname: entry.pathname },
		});
	});
});
afterAll(async () => await sim.close());

type Auth = 'key' | 'bearer' | 'none';
interface Call {
	host?: 'api' | 'read' | 'write' | 'search';
	query?: Record<string, string>;
	body?: unknown;
	auth?: Auth;
}

/** Calls the simulator; anything but a 2xx fails the walk (the walk is about success answers). */
async function call(method: string, path: string, options: Call = {}): Promise<any> {
	const base = {
		api: sim.apiUrl,
		read: sim.readUrl,
		write: sim.writeUrl,
		search: sim.searchUrl,
	}[options.host ?? 'api'];
	const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
	const headers: Record<string, string> = {};
	const auth = options.auth ?? 'key';
	if (auth === 'key') headers['X-Api-Key'] = SEED.apiKey;
	if (auth === 'bearer') headers.Authorization = `Bearer ${SEED.bearerToken}`;
	if (options.body !== undefined) headers['Content-Type'] = 'application/json';
	const res = await fetch(`${base}/v1${path}${query}`, {
		method,
		headers,
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
	});
	const text = await res.text();
	if (res.status < 200 || res.status > 299) {
		throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 400)}`);
	}
	const type = res.headers.get('content-type') ?? '';
	return type.includes('json') && text ? JSON.parse(text) : text;
}

const P = `/projects/${SEED.projectName}`;
const I = `${P}/integrations/${SEED.integrationId}`;
const INSTALLATION = `${I}/installations/${SEED.installationId}`;
const mask = <T extends object>(key: string, value: T) => ({
	updateMask: Object.keys(value),
	[key]: value,
});
const AMP_YAML = (name: string) =>
	`specVersion: 1.0.0\nintegrations:\n  - name: ${name}\n    provider: hubspot\n    read:\n      objects:\n        - objectName: contacts\n          destination: ${SEED.destinationName}\n          schedule: "*/30 * * * *"\n`;
const readConfig = {
	objectName: 'companies',
	destination: SEED.destinationName,
	schedule: '0 * * * *',
	selectedFieldsAuto: 'all',
	selectedFields: {},
	selectedFieldMappings: {},
};
const customFields = (groupRef: string) => ({
	groupRef,
	fields: {
		contacts: [{ fieldName: 'walk_tier', displayName: 'Walk tier', valueType: 'string' }],
	},
});

/** Every route once, on the seeded records; reads first, removals last. */
async function walkSeed(): Promise<void> {
	// Projects, organizations, the signed-in builder.
	await call('GET', '/projects');
	await call('GET', P);
	await call('PATCH', P, { body: mask('project', { appName: 'Walked App' }) });
	await call('GET', '/my-info', { auth: 'bearer' });
	await call('GET', `/orgs/${SEED.orgId}`, { auth: 'bearer' });
	await call('PATCH', `/orgs/${SEED.orgId}`, {
		auth: 'bearer',
		body: mask('org', { label: 'Walked Org' }),
	});
	await call('GET', `/orgs/${SEED.orgId}/billingAccount`, { auth: 'bearer' });
	await call('GET', `/orgs/${SEED.orgId}/builders`, { auth: 'bearer' });
	await call('GET', `/orgs/${SEED.orgId}/claimed-domains`, { auth: 'bearer' });
	await call('GET', `/orgs/${SEED.orgId}/invites`, { auth: 'bearer' });
	await call('GET', `/orgs/${SEED.orgId}/invites/${SEED.inviteId}`, { auth: 'bearer' });
	await call('DELETE', `/orgs/${SEED.orgId}/invites/${SEED.inviteId}`, { auth: 'bearer' });
	await call('POST', `/orgs/${SEED.orgId}/memberships`, {
		auth: 'bearer',
		body: { builderId: SEED.freelancerUserId },
	});
	await call('GET', '/claimed-domains', { auth: 'bearer', query: { domain: SEED.claimedDomain } });
	await call('GET', '/generate-upload-url');
	await call('POST', '/oauth-connect', {
		body: {
			projectIdOrName: SEED.projectName,
			provider: 'hubspot',
			groupRef: SEED.groupRef,
			consumerRef: SEED.consumerRef,
		},
	});
	await call('GET', '/providers', { auth: 'none' });
	await call('GET', '/providers/hubspot', { auth: 'none' });

	// API keys, JWT keys, provider apps.
	await call('GET', `${P}/api-keys`);
	await call('GET', `${P}/api-keys/${SEED.updatableApiKey}`);
	await call('PATCH', `${P}/api-keys/${SEED.updatableApiKey}`, {
		body: mask('apiKey', { label: 'walked key' }),
	});
	await call('DELETE', `${P}/api-keys/${SEED.deletableApiKey}`);
	await call('GET', `${P}/jwt-keys`);
	await call('GET', `${P}/jwt-keys/${SEED.jwtKeyId}`);
	await call('PATCH', `${P}/jwt-keys/${SEED.jwtKeyId}`, {
		body: mask('jwtKey', { label: 'walked-signing' }),
	});
	await call('DELETE', `${P}/jwt-keys/${SEED.deletableJwtKeyId}`);
	await call('GET', `${P}/provider-apps`);
	await call('PATCH', `${P}/provider-apps/${SEED.providerAppId}`, {
		body: mask('providerApp', { externalRef: 'walked-app' }),
	});
	await call('DELETE', `${P}/provider-apps/${SEED.deletableProviderAppId}`);

	// Connections and their object metadata.
	await call('GET', `${P}/connections`);
	await call('GET', `${P}/connections/${SEED.connectionId}`);
	await call('PATCH', `${P}/connections/${SEED.connectionId}`, {
		body: mask('connection', { providerWorkspaceRef: 'walked-workspace' }),
	});
	await call('PATCH', `${P}/connections/${SEED.connectionId}:oauth-update`);
	await call('GET', `${P}/providers/hubspot/objects/contacts/metadata`, {
		query: { groupRef: SEED.groupRef },
	});
	await call('PUT', `${P}/providers/hubspot/object-metadata`, {
		body: customFields(SEED.groupRef),
	});
	await call('DELETE', `${P}/connections/${SEED.deletableConnectionId}`);

	// Integrations, revisions, installations, operations.
	await call('GET', `${P}/integrations`);
	await call('GET', I);
	await call('GET', `${I}/revisions/${SEED.revisionId}:hydrate`, {
		query: { connectionId: SEED.connectionId },
	});
	await call('POST', `${P}/integrations/${SEED.revisableIntegrationId}/revisions`, {
		body: { sourceYaml: AMP_YAML(SEED.revisableIntegrationName) },
	});
	await call('PUT', `${P}/integrations:batch`, {
		body: { sourceYaml: AMP_YAML(SEED.integrationName) },
	});
	await call('GET', `${P}/installations`);
	await call('GET', `${I}/installations`);
	await call('GET', INSTALLATION);
	await call('PATCH', INSTALLATION, {
		body: {
			updateMask: ['config.content.read.objects.companies'],
			installation: { config: { content: { read: { objects: { companies: readConfig } } } } },
		},
	});
	await call('GET', `${INSTALLATION}/objects/companies/backfill-progress`);
	await call('GET', `${INSTALLATION}/operations`);
	await call('POST', `${INSTALLATION}:pause`, { host: 'read', body: { objects: ['companies'] } });
	await call('POST', `${INSTALLATION}:unpause`, { host: 'read', body: {} });
	await call('PATCH', `${I}/objects/companies/config-content`, {
		body: {
			installationId: SEED.installationId,
			action: 'read',
			changes: [{ op: 'replace', path: '/schedule', value: '*/10 * * * *' }],
		},
	});
	await call('GET', `${I}/objects/contacts/metadata`, { query: { groupRef: SEED.groupRef } });
	await call('PUT', `${I}/object-metadata`, { body: customFields(SEED.groupRef) });
	await call('GET', `${P}/operations/${SEED.operationId}`);
	await call('GET', `${P}/operations/${SEED.operationId}/logs`);
	await call('POST', `${I}/installations`, {
		body: { groupRef: SEED.apiKeyGroupRef, config: { content: { provider: 'hubspot' } } },
	});
	await call('DELETE', `${I}/installations/${SEED.deletableInstallationId}`);

	// The data plane.
	await call('POST', `${I}/objects/contacts`, {
		host: 'write',
		body: { groupRef: SEED.groupRef, type: 'create', record: { email: 'walk@acme.example' } },
	});
	await call('POST', `${I}/objects/contacts`, {
		host: 'read',
		body: { groupRef: SEED.groupRef, mode: 'async' },
	});
	await call('POST', `${I}/objects/contacts:deliverResults`, {
		host: 'read',
		body: { groupRef: SEED.groupRef, pages: 1 },
	});
	await call('POST', I, {
		host: 'search',
		query: { groupRef: SEED.groupRef },
		body: {
			objectName: 'contacts',
			fieldFilters: [{ fieldName: 'email', operator: 'eq', value: SEED.contactEmail }],
		},
	});

	// Destinations, topics and routes.
	await call('GET', `${P}/destinations`);
	await call('GET', `${P}/destinations/${SEED.destinationName}`);
	await call('PATCH', `${P}/destinations/${SEED.updatableDestinationId}`, {
		body: {
			updateMask: ['metadata.url'],
			destination: { metadata: { url: 'https://hooks.example.com/walked' } },
		},
	});
	await call('DELETE', `${P}/destinations/${SEED.deletableDestinationId}`);
	await call('GET', `${P}/topics`);
	await call('PATCH', `${P}/topics/${SEED.updatableTopicId}`, { body: { name: 'walked-alerts' } });
	await call('GET', `${P}/topic-destination-routes`);
	await call('DELETE', `${P}/topic-destination-routes/${SEED.deletableTopicDestinationRouteId}`);
	await call('GET', `${P}/notification-event-topic-routes`);
	await call('DELETE', `${P}/notification-event-topic-routes/${SEED.eventTopicRouteId}`);
	await call('DELETE', `${P}/topics/${SEED.deletableTopicId}`);
	await call('DELETE', `${P}/integrations/${SEED.deletableIntegrationId}`);
}

/** Every route again where it can act on records the walk creates through the routes. */
async function walkCreated(): Promise<void> {
	const org = await call('POST', '/orgs', { auth: 'bearer', body: { label: 'Walk Org' } });
	await call('GET', `/orgs/${org.id}`, { auth: 'bearer' });
	await call('PATCH', `/orgs/${org.id}`, {
		auth: 'bearer',
		body: mask('org', { label: 'Walk Org renamed' }),
	});
	await call('GET', `/orgs/${org.id}/builders`, { auth: 'bearer' });
	const invite = await call('POST', `/orgs/${org.id}/invites`, {
		auth: 'bearer',
		body: { email: 'walk.invitee@example.com' },
	});
	await call('GET', `/orgs/${org.id}/invites`, { auth: 'bearer' });
	await call('GET', `/orgs/${org.id}/invites/${invite.id}`, { auth: 'bearer' });
	await call('DELETE', `/orgs/${org.id}/invites/${invite.id}`, { auth: 'bearer' });
	await call('POST', `/orgs/${org.id}/memberships`, {
		auth: 'bearer',
		body: { builderId: SEED.freelancerUserId },
	});
	await call('POST', '/claimed-domains', {
		auth: 'bearer',
		body: { domain: 'walk.example', parentId: org.id, parentType: 'org' },
	});
	await call('GET', '/claimed-domains', { auth: 'bearer', query: { domain: 'walk.example' } });
	await call('GET', `/orgs/${org.id}/claimed-domains`, { auth: 'bearer' });

	const project = await call('POST', '/projects', {
		auth: 'bearer',
		body: { name: 'walk-project', appName: 'Walk App', orgId: SEED.orgId },
	});
	await call('GET', `/projects/${project.id}`, { auth: 'bearer' });
	await call('PATCH', `/projects/${project.id}`, {
		auth: 'bearer',
		body: mask('project', { appName: 'Walk App renamed' }),
	});
	await call('GET', '/projects', { auth: 'bearer' });

	// The rest in the demo project, whose API key the data plane needs.
	const key = await call('POST', `${P}/api-keys`, {
		body: { label: 'walk key', scopes: ['full'] },
	});
	await call('GET', `${P}/api-keys/${key.key}`);
	await call('PATCH', `${P}/api-keys/${key.key}`, {
		body: mask('apiKey', { label: 'walk key 2' }),
	});
	await call('GET', `${P}/api-keys`);
	await call('DELETE', `${P}/api-keys/${key.key}`);

	const jwt = await call('POST', `${P}/jwt-keys`, {
		body: { label: 'walk-jwt', algorithm: 'RS256', publicKeyPem: PUBLIC_KEY_PEM },
	});
	await call('GET', `${P}/jwt-keys/${jwt.kid}`);
	await call('PATCH', `${P}/jwt-keys/${jwt.kid}`, { body: mask('jwtKey', { active: false }) });
	await call('GET', `${P}/jwt-keys`);
	await call('DELETE', `${P}/jwt-keys/${jwt.kid}`);

	const app = await call('POST', `${P}/provider-apps`, {
		body: { provider: 'pipedrive', clientId: 'walk-client', clientSecret: 'walk-secret' },
	});
	await call('PATCH', `${P}/provider-apps/${app.id}`, {
		body: mask('providerApp', { scopes: ['read'] }),
	});
	await call('GET', `${P}/provider-apps`);
	await call('DELETE', `${P}/provider-apps/${app.id}`);

	const connection = await call('POST', `${P}/connections:generate`, {
		body: {
			groupRef: 'walk-group',
			groupName: 'Walk Inc',
			consumerRef: 'walk-user',
			provider: 'hubspot',
			oauth2AuthorizationCode: {
				accessToken: { token: 'walk-access' },
				refreshToken: { token: 'walk-refresh' },
			},
		},
	});
	await call('GET', `${P}/connections/${connection.id}`);
	await call('PATCH', `${P}/connections/${connection.id}`, {
		body: mask('connection', { providerWorkspaceRef: 'walk-workspace' }),
	});
	await call('PATCH', `${P}/connections/${connection.id}:oauth-update`);
	await call('GET', `${P}/connections`, { query: { groupRef: 'walk-group' } });
	await call('GET', `${P}/providers/hubspot/objects/contacts/metadata`, {
		query: { groupRef: 'walk-group' },
	});
	await call('PUT', `${P}/providers/hubspot/object-metadata`, { body: customFields('walk-group') });

	const destination = await call('POST', `${P}/destinations`, {
		body: {
			name: 'walk-webhook',
			type: 'webhook',
			metadata: { url: 'https://hooks.example.com/walk' },
		},
	});
	await call('GET', `${P}/destinations/${destination.name}`);
	await call('PATCH', `${P}/destinations/${destination.id}`, {
		body: mask('destination', { name: 'walk-webhook-2' }),
	});
	await call('GET', `${P}/destinations`);
	const topic = await call('POST', `${P}/topics`, { body: { name: 'walk-topic' } });
	await call('PATCH', `${P}/topics/${topic.id}`, { body: { name: 'walk-topic-2' } });
	await call('GET', `${P}/topics`);
	const route = await call('POST', `${P}/topic-destination-routes`, {
		body: { topicId: topic.id, destinationId: destination.id },
	});
	await call('GET', `${P}/topic-destination-routes`, { query: { topicId: topic.id } });
	const eventRoute = await call('POST', `${P}/notification-event-topic-routes`, {
		body: { eventType: 'installation.created', topicId: topic.id },
	});
	await call('GET', `${P}/notification-event-topic-routes`, { query: { topicId: topic.id } });

	await call('POST', `${P}/integrations`, {
		body: {
			name: 'walk-sync',
			provider: 'hubspot',
			latestRevision: {
				specVersion: '1.0.0',
				content: {
					name: 'walk-sync',
					provider: 'hubspot',
					read: {
						objects: [
							{ objectName: 'contacts', destination: 'walk-webhook-2', schedule: '*/30 * * * *' },
						],
					},
					write: { objects: [{ objectName: 'contacts' }] },
				},
			},
		},
	});
	const integration = await call('GET', `${P}/integrations/walk-sync`);
	const W = `${P}/integrations/${integration.id}`;
	await call('POST', `${W}/revisions`, { body: { sourceYaml: AMP_YAML('walk-sync') } });
	const latest = await call('GET', W);
	await call('GET', `${W}/revisions/${latest.latestRevision.id}:hydrate`, {
		query: { connectionId: connection.id },
	});
	await call('PUT', `${P}/integrations:batch`, { body: { sourceYaml: AMP_YAML('walk-batch') } });
	await call('GET', `${P}/integrations`);
	const installation = await call('POST', `${W}/installations`, {
		query: { skipSampling: 'true' },
		body: {
			groupRef: 'walk-group',
			config: {
				createdBy: 'api:walk',
				content: {
					provider: 'hubspot',
					read: {
						objects: {
							contacts: { ...readConfig, objectName: 'contacts', destination: 'walk-webhook-2' },
						},
					},
					write: { objects: { contacts: { objectName: 'contacts' } } },
				},
			},
		},
	});
	const N = `${W}/installations/${installation.id}`;
	await call('GET', N);
	await call('GET', `${W}/installations`, { query: { groupRef: 'walk-group' } });
	await call('GET', `${P}/installations`, { query: { groupRef: 'walk-group' } });
	await call('PATCH', N, {
		body: {
			updateMask: ['config.createdBy', 'config.content.proxy.enabled'],
			installation: { config: { createdBy: 'api:walk2', content: { proxy: { enabled: true } } } },
		},
	});
	await call('PATCH', `${W}/objects/contacts/config-content`, {
		body: {
			groupRef: 'walk-group',
			action: 'read',
			changes: [{ op: 'add', path: '/selectedFields/phone', value: true }],
		},
	});
	await call('POST', `${N}:pause`, { host: 'read', body: { objects: ['contacts'], note: 'walk' } });
	await call('POST', `${N}:unpause`, { host: 'read', body: { objects: ['contacts'] } });
	await call('GET', `${W}/objects/contacts/metadata`, { query: { groupRef: 'walk-group' } });
	await call('PUT', `${W}/object-metadata`, { body: customFields('walk-group') });

	const written = await call('POST', `${W}/objects/contacts`, {
		host: 'write',
		body: {
			groupRef: 'walk-group',
			type: 'create',
			batch: [{ record: { email: 'one@walk.example' } }, { record: { email: 'two@walk.example' } }],
		},
	});
	const read = await call('POST', `${W}/objects/contacts`, {
		host: 'read',
		body: { groupRef: 'walk-group', mode: 'async', sinceTimestamp: '2020-01-01T00:00:00Z' },
	});
	await sim.whenIdle();
	await call('POST', `${W}/objects/contacts:deliverResults`, {
		host: 'read',
		body: { groupRef: 'walk-group', pages: 2 },
	});
	await call('POST', W, {
		host: 'search',
		query: { groupRef: 'walk-group' },
		body: {
			objectName: 'contacts',
			fieldFilters: [{ fieldName: 'email', operator: 'eq', value: 'one@walk.example' }],
		},
	});
	await call('GET', `${N}/operations`);
	for (const operationId of [written.operationId, read.operationId]) {
		await call('GET', `${P}/operations/${operationId}`);
		await call('GET', `${P}/operations/${operationId}/logs`);
	}
	await call('GET', `${N}/objects/contacts/backfill-progress`);

	await call('DELETE', `${P}/notification-event-topic-routes/${eventRoute.id}`);
	await call('DELETE', `${P}/topic-destination-routes/${route.id}`);
	await call('DELETE', `${P}/topics/${topic.id}`);
	// The installation takes its connection with it (docs/api-notes.md, "Installations"): the
	// connection removed by hand is one of its own.
	await call('DELETE', N);
	const spare = await call('POST', `${P}/connections:generate`, {
		body: {
			groupRef: 'walk-spare',
			consumerRef: 'walk-user',
			provider: 'hubspot',
			apiKey: 'walk-key',
		},
	});
	await call('DELETE', `${P}/connections/${spare.id}`);
	await call('DELETE', `${P}/integrations/${integration.id}`);
	await call('DELETE', `${P}/destinations/${destination.id}`);
}

/** Routes that make a new record: they have nothing seeded to act on, the second walk calls them. */
const CREATES = [
	'claimDomain',
	'createApiKey',
	'createDestination',
	'createEventTopicRoute',
	'createIntegration',
	'createJWTKey',
	'createOrg',
	'createOrgInvite',
	'createProject',
	'createProviderApp',
	'createTopic',
	'createTopicDestinationRoute',
	'generateConnection',
];

/** Routes whose answers hold nothing the walk can create: served from fixed data. */
const FIXED = new Map([
	['listProviders', "the provider catalogue is the service's, not the project's"],
	['getProvider', "the provider catalogue is the service's, not the project's"],
	['getMyInfo', 'the signed-in builder is fixed by the bearer token'],
	['getOrgBillingAccount', 'no route creates a billing account'],
	['generateUploadUrl', 'a fresh signed URL each time; it refers to nothing stored'],
	['oauthConnect', 'answers a URL to open; the connection appears only after the consent'],
]);

function verdicts(of: Phase) {
	return seen
		.filter((s) => s.phase === of)
		.map((s) => ({
			...s,
			answerVerdict: responses.check(s.answer),
			requestVerdict: requests.check(s.request),
		}));
}

const line = (s: ReturnType<typeof verdicts>[number], violations: string[]) =>
	`${s.answer.method} ${s.answer.pathname} → ${s.answer.status} (${s.routeId}):\n    ${violations.join('\n    ')}`;

describe.each([
	['the seeded world', 'seed' as Phase, walkSeed],
	['records created through the routes', 'created' as Phase, walkCreated],
])('every route of the simulator, on %s', (_name, which, walk) => {
	let checked: ReturnType<typeof verdicts>;
	beforeAll(async () => {
		phase = which;
		await walk();
		await sim.whenIdle();
		checked = verdicts(which);
	});

	test('answers as the API documents its success answers (docs/api-responses.json)', () => {
		const invalid = checked.filter((s) => s.answerVerdict.violations.length > 0);
		const counted = checked.filter((s) => !s.answerVerdict.unchecked).length;
		process.stdout.write(
			`[response contract, ${which}] ${counted} answers checked, ${invalid.length} invalid\n`,
		);
		expect(invalid.map((s) => line(s, s.answerVerdict.violations))).toEqual([]);
	});

	test('was asked only what the real API would accept (docs/api-requests.json)', () => {
		const invalid = checked.filter((s) => s.requestVerdict.violations.length > 0);
		expect(invalid.map((s) => line(s, s.requestVerdict.violations))).toEqual([]);
	});

	test('reached every route with a 2xx answer', () => {
		const answered = new Set(
			checked.filter((s) => !s.answerVerdict.unchecked).map((s) => s.routeId),
		);
		const expected = ROUTES.map((r) => r.id).filter((id) =>
			which === 'seed' ? !CREATES.includes(id) : !FIXED.has(id),
		);
		expect(expected.filter((id) => !answered.has(id))).toEqual([]);
	});
});
