/**
 * Every operation of the action node, read from its description (so that a new operation is
 * covered by the table-driven tests without touching them), with what those tests need to drive
 * and check it: the path template and its placeholders, the query and body template slots, the
 * parameters shown for it (with their display names and whether they are required), the simulator
 * route it must reach, the credential it needs, and baseline parameters for a valid request.
 *
 * Used by hostileInput.test.ts and faults.test.ts.
 */
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { IntegrationPlatform } from '../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { RESOURCES } from '../../nodes/IntegrationPlatform/resources';
import { HOST_STEP } from '../../nodes/IntegrationPlatform/routing/defineOperation';
import { locatorProblem } from '../../nodes/common/locator';
import { ROUTES, rl, SEED } from './actionEngine';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PUBLIC_KEY_PEM } = require('../simulator/seed') as { PUBLIC_KEY_PEM: string };

export interface Slot {
	where: 'qs' | 'body';
	/** Where the value goes: `['latestRevision', 'specVersion']`. */
	path: string[];
	/** The node parameter that fills it. */
	name: string;
}

export interface Variant {
	/** e.g. `providerCredentials=basicAuth`, or `default`. */
	name: string;
	/** Baseline parameters (resource, operation, authentication and every field), valid. */
	parameters: INodeParameters;
	/** The parameters the editor shows for this variant (no notices, no node settings). */
	visible: INodeProperties[];
	/** The values of the options parameters that make this variant (empty for `default`). */
	controls: IDataObject;
	/** The node version to run the variant at: see runVersionOf. */
	nodeSettings?: { typeVersion: number };
}

export interface OperationSpec {
	/** `resource.operation`, e.g. `topic.delete`. */
	key: string;
	resource: string;
	operation: string;
	/** `Topic → Delete`. */
	label: string;
	method: string;
	/** The path below /v1 with `{placeholders}`, as the operation declares it (the proxy: no /v1). */
	path: string;
	host: Host;
	/** The simulator route (the real operationId) the request must reach. */
	routeId: string;
	placeholders: string[];
	slots: Slot[];
	/** Query parameters the operation itself sends (fixed ones and template slots). */
	ownQuery: string[];
	/** Query parameters its options may add (e.g. includeSecrets). */
	optionalQuery: string[];
	authentication: 'apiKey' | 'bearerToken';
	variants: Variant[];
}

type Host = 'api' | 'read' | 'write' | 'search' | 'proxy';

const description = new IntegrationPlatform().description;
const properties = description.properties;

/** Valid values from the simulator's seeded world, by parameter name. */
export const SEED_VALUES: Record<string, unknown> = {
	project: SEED.projectId,
	integration: SEED.integrationId,
	installation: SEED.installationId,
	connectionId: SEED.connectionId,
	destination: SEED.destinationName,
	topic: SEED.deletableTopicId,
	// The seeded topic already routes to the seeded destination; the deletable one does not.
	topicId: SEED.deletableTopicId,
	destinationId: SEED.destinationId,
	route: SEED.eventTopicRouteId,
	routeId: SEED.deletableTopicDestinationRouteId,
	// Webhook destinations take only https URLs (docs/api-notes.md, "Webhook signatures (Svix)").
	url: 'https://hooks.example.com/table',
	jwtKey: SEED.jwtKeyId,
	orgId: SEED.orgId,
	projectOrgId: SEED.orgId,
	// A real RSA public key: the service parses the PEM.
	publicKeyPem: PUBLIC_KEY_PEM,
	providerName: 'hubspot',
	providerApp: SEED.providerAppId,
	appProvider: 'pipedrive',
	inviteId: SEED.inviteId,
	builderId: SEED.freelancerUserId,
	email: 'invitee.table@example.com',
	operationId: SEED.operationId,
	apiKey: SEED.deletableApiKey,
	revision: SEED.revisionId,
	domain: 'newco.example',
	parentId: SEED.orgId,
	groupRef: SEED.groupRef,
	consumerRef: 'consumer-table',
	name: 'table-integration',
	label: 'Renamed by the table',
	// The seeded read with backfill progress is for companies (Installation → Get Backfill Progress).
	objectName: 'companies',
	// Records: the seeded installation reads and writes contacts; the proxy lists them.
	object: 'contacts',
	proxyPath: 'crm/v3/objects/contacts',
	recordJson: '{"email": "table@example.com"}',
	provider: 'hubspot',
	providerApiKey: 'pk_table_1',
	username: 'table-user',
	password: 'table-password',
	clientId: 'table-client',
	clientSecret: 'table-client-secret',
	refreshToken: 'rt-table-1',
	// An amp.yaml revising the seeded integration (Revision → Create, Integration → Create or Update Many).
	sourceYaml:
		'specVersion: 1.0.0\nintegrations:\n  - name: hubspot-sync\n    provider: hubspot\n    read:\n      objects:\n        - objectName: contacts\n          destination: n8n-webhook\n          schedule: "*/30 * * * *"\n',
	sourceZipUrl: 'https://storage.example.com/table/amp.zip',
};

/** What the seed cannot supply: parameters that make the baseline request valid. */
const EXTRA: Record<string, IDataObject> = {
	'integration.create': {
		content: JSON.stringify({
			name: 'table-integration',
			provider: 'hubspot',
			read: { objects: [] },
		}),
	},
	'jwtKey.update': { updateFields: { label: 'Renamed key' } },
	'connection.getAll': { returnAll: true },
	'connection.update': { connectionUpdate: { providerWorkspaceRef: 'table-workspace' } },
	// A group with a connection and no installation yet.
	'installation.create': {
		groupRef: SEED.apiKeyGroupRef,
		configContent: JSON.stringify({ provider: 'hubspot' }),
	},
	'installation.update': { installationUpdate: { createdBy: 'api:table' } },
	'installation.updateObjectConfig': {
		changes: { change: [{ op: 'replace', path: '/schedule', value: '0 * * * *' }] },
	},
	'installation.getAll': { returnAll: true },
	'installation.getAllInProject': { returnAll: true },
	'operation.getAll': { returnAll: true },
	'project.update': { updateFields: { appName: 'Renamed by the table' } },
	'apiKey.update': { updateFields: { label: 'Renamed by the table' } },
	'providerApp.update': { updateFields: { clientId: 'table-client-2' } },
	'apiKey.getAll': { returnAll: true },
	'jwtKey.getAll': { returnAll: true },
	'provider.getAll': { returnAll: true },
	'providerApp.getAll': { returnAll: true },
	'destination.update': { updateFields: { url: 'https://hooks.example.com/table-updated' } },
	// The first Type (alphabetically, Azure Service Bus) is the baseline variant: what it requires.
	'destination.create': {
		metadata: JSON.stringify({ name: 'table-queue' }),
		secrets: JSON.stringify({
			connectionString: 'Endpoint=sb://table.example/;SharedAccessKey=table',
		}),
	},
	// Check answers 404 for a domain nobody claimed; the seeded claim makes the baseline succeed.
	'claimedDomain.check': { domain: SEED.claimedDomain },
	'customField.upsert': {
		fieldDefinitions: {
			field: [{ fieldName: 'tier', displayName: 'Tier', valueType: 'string' }],
		},
	},
	'customField.upsertForInstallation': {
		fieldDefinitions: {
			field: [{ fieldName: 'tier', displayName: 'Tier', valueType: 'string' }],
		},
	},
	'operation.getLogs': { returnAll: true },
	// One request per item, as the fault table expects; batches have their own tests (records.test.ts).
	// Records From → JSON: its default record makes a valid request whatever the input item
	// (an empty item writes nothing); the first variant (the baseline) is this one.
	'records.write': { writeOptions: { batchSize: 1 }, recordSource: 'json' },
	// DELETE comes first alphabetically; the baseline lists contacts.
	'providerApi.sendRequest': { proxyMethod: 'GET' },
	'records.search': {
		fieldFilters: { filter: [{ fieldName: 'email', value: 'ada@acme.example' }] },
	},
	'project.getAll': { returnAll: true },
	'integration.getAll': { returnAll: true },
};

const PLACEHOLDER = /\{(\w+)\}/g;
const SLOT = /^\{(\w+)\}$/;

function slotsOf(template: unknown, where: Slot['where'], path: string[] = []): Slot[] {
	if (typeof template === 'string') {
		const match = SLOT.exec(template);
		return match ? [{ where, path, name: match[1] }] : [];
	}
	if (typeof template !== 'object' || template === null || Array.isArray(template)) return [];
	return Object.entries(template).flatMap(([key, value]) => slotsOf(value, where, [...path, key]));
}

function valueOf(name: string, parameters: IDataObject): unknown {
	if (name in parameters) return parameters[name];
	return properties.find((p) => p.name === name)?.default;
}

/** n8n's displayOptions, as far as this node uses them (show/hide on sibling values). */
export function isVisible(property: INodeProperties, parameters: IDataObject): boolean {
	const { show = {}, hide = {} } = property.displayOptions ?? {};
	for (const [key, allowed] of Object.entries(show)) {
		if (key.startsWith('@')) continue;
		if (!(allowed as unknown[]).includes(valueOf(key, parameters))) return false;
	}
	for (const [key, denied] of Object.entries(hide)) {
		if (key.startsWith('@')) continue;
		if ((denied as unknown[]).includes(valueOf(key, parameters))) return false;
	}
	return true;
}

function visibleFields(parameters: IDataObject): INodeProperties[] {
	return properties.filter(
		(p) =>
			!['resource', 'operation', 'authentication'].includes(p.name) &&
			p.type !== 'notice' &&
			!p.isNodeSetting &&
			isVisible(p, parameters),
	);
}

/**
 * A locator holding `value`: "By ID", or "By Name" where the value is a name the ID mode's check
 * refuses (a destination's name) and the field has that mode.
 */
function locatorOf(property: INodeProperties, value: string) {
	const named =
		locatorProblem(property, 'id', value) !== undefined &&
		(property.modes ?? []).some((mode) => mode.name === 'name');
	return rl(value, named ? 'name' : 'id');
}

function baselineValue(property: INodeProperties): unknown {
	const seeded = SEED_VALUES[property.name];
	if (property.type === 'resourceLocator') return locatorOf(property, String(seeded ?? 'table-id'));
	if (seeded !== undefined) return seeded;
	if (property.type === 'options') {
		const first = (property.options as INodePropertyOptions[] | undefined)?.[0]?.value;
		return property.default !== '' ? property.default : first;
	}
	if (property.type === 'string') return 'table-value';
	return property.default;
}

function baseline(parameters: IDataObject, key: string): IDataObject {
	const out: IDataObject = { ...parameters };
	for (const property of visibleFields(out)) {
		if (property.name in out) continue;
		if (property.required || SEED_VALUES[property.name] !== undefined) {
			out[property.name] = baselineValue(property) as IDataObject[string];
		}
	}
	return { ...out, ...(EXTRA[key] ?? {}) };
}

/**
 * Options parameters that decide which other parameters are shown (Provider Credentials, Define
 * Fields With): each of their values is a variant of the operation.
 */
function variantsOf(base: IDataObject, key: string): Variant[] {
	const shown = visibleFields(base);
	const controlling = shown.filter(
		(p) =>
			p.type === 'options' &&
			properties.some((other) => other.displayOptions?.show && p.name in other.displayOptions.show),
	);
	// A control defined once per node version (`@version`, e.g. Records From) is one control:
	// the values of all its definitions. A value EXTRA gives the baseline comes first.
	const valuesByName = new Map<string, Array<string | number | boolean>>();
	for (const control of controlling) {
		const values = valuesByName.get(control.name) ?? [];
		for (const option of control.options as INodePropertyOptions[]) {
			if (!values.includes(option.value)) values.push(option.value);
		}
		const preferred = EXTRA[key]?.[control.name];
		if (values.includes(preferred as string))
			values.sort((a, b) => Number(b === preferred) - Number(a === preferred));
		valuesByName.set(control.name, values);
	}
	let combos: IDataObject[] = [{}];
	for (const [name, values] of valuesByName) {
		combos = combos.flatMap((combo) => values.map((value) => ({ ...combo, [name]: value })));
	}
	return combos.map((combo) => {
		// The variant's own controls win over EXTRA's.
		const parameters = { ...baseline({ ...base, ...combo }, key), ...combo };
		const name = Object.entries(combo)
			.map(([k, v]) => `${k}=${String(v)}`)
			.join(', ');
		const visible = visibleFields(parameters);
		const nodeSettings = runVersionOf(visible);
		return {
			name: name || 'default',
			parameters: parameters as INodeParameters,
			visible,
			controls: combo,
			...(nodeSettings ? { nodeSettings } : {}),
		};
	});
}

/** The first node version that shows some definition of a parameter name (1 when none says). */
function firstVersionOf(name: string): number {
	const versions = properties
		.filter((p) => p.name === name)
		.map((p) => {
			const conditions = p.displayOptions?.show?.['@version'] as unknown[] | undefined;
			if (!conditions?.length) return 1;
			return Math.min(
				...conditions.map((c) =>
					typeof c === 'number' ? c : Number((c as { _cnd?: { gte?: number } })._cnd?.gte ?? 1),
				),
			);
		});
	return versions.length ? Math.min(...versions) : 1;
}

/**
 * The table runs every variant as a version 1 node, whose code reads version 2's parameters
 * alike. A parameter that only version 3 or later has (Record → Write's Record ID) is read only
 * by a node of that version: such a variant runs at the first version that has all of its
 * parameters.
 */
function runVersionOf(visible: INodeProperties[]): { typeVersion: number } | undefined {
	const version = Math.max(1, ...visible.map((p) => firstVersionOf(p.name)));
	return version >= 3 ? { typeVersion: version } : undefined;
}

/** Query parameters that options add in code (preSend), by operation. */
const OPTIONAL_QUERY: Record<string, string[]> = {
	'destination.get': ['includeSecrets'],
	'destination.rotateSecret': ['includeSecrets'],
	'notificationEventTopicRoute.getAll': ['topicId', 'eventType'],
	'topicDestinationRoute.getAll': ['topicId', 'destinationId'],
	'project.get': ['includeEntitlements'],
	'apiKey.getAll': ['active'],
	'jwtKey.getAll': ['active'],
	'connection.getAll': ['provider', 'groupRef', 'consumerRef'],
	'installation.getAll': ['groupRef'],
	'installation.getAllInProject': ['groupRef'],
	'installation.create': ['skipSampling'],
	'installation.update': ['skipSampling'],
	// Paged (routing/pagedList.ts, the operation's own pagination): the page size comes from
	// Limit, later pages carry the token.
	'operation.getAll': ['pageSize', 'pageToken'],
	'revision.create': ['destructive'],
	'integration.upsertMany': ['destructive'],
	'objectMetadata.getForConnection': ['excludeReadOnly'],
	'objectMetadata.getForInstallation': ['excludeReadOnly'],
};

/** Parameters (or collection options) that n8n's routing sends as query parameters. */
function queryOptionsOf(resource: string, operation: string): string[] {
	const shown = visibleFields({ resource, operation });
	const names: string[] = [];
	const visit = (property: INodeProperties) => {
		if (property.routing?.send?.type === 'query')
			names.push(String(property.routing.send.property));
		for (const option of (property.options ?? []) as INodeProperties[]) {
			if (typeof option === 'object' && option !== null && 'type' in option) visit(option);
		}
	};
	shown.forEach(visit);
	return [...names, ...(OPTIONAL_QUERY[`${resource}.${operation}`] ?? [])];
}

const normalise = (path: string) => path.replace(/\{[A-Za-z]+\}/g, '{}');

function routeOf(method: string, host: Host, path: string): string {
	// The proxy is not an operation of the API's documents: one route for every provider path.
	if (host === 'proxy') return 'proxy';
	const found = ROUTES.filter(
		(r) => r.method === method && r.host === host && normalise(r.path) === normalise(`/v1${path}`),
	);
	if (found.length !== 1) {
		throw new Error(
			`${method} ${host} ${path}: expected one simulator route, found ${found.length}`,
		);
	}
	return found[0].id;
}

/** Every operation of the node, from its description. */
/** A routed operation's host: the read or search host's preSend step sets it, else the API's. */
function hostOfSteps(steps: unknown[]): Host {
	if (steps.includes(HOST_STEP.read)) return 'read';
	if (steps.includes(HOST_STEP.search)) return 'search';
	return 'api';
}

export function allOperations(): OperationSpec[] {
	const resources = properties.find((p) => p.name === 'resource')!
		.options as INodePropertyOptions[];
	const out: OperationSpec[] = [];
	for (const resource of resources) {
		const operationProperty = properties.find(
			(p) =>
				p.name === 'operation' &&
				(p.displayOptions?.show?.resource as string[] | undefined)?.includes(
					resource.value as string,
				),
		)!;
		for (const option of operationProperty.options as INodePropertyOptions[]) {
			// Operations run in code have no routing; their definition names their request.
			const custom = RESOURCES.find((r) => r.value === resource.value)?.customRequests.find(
				(c) => c.value === option.value,
			);
			const request = custom ? {} : option.routing!.request!;
			const path = custom ? custom.path : (request.url as string);
			const host: Host = custom
				? custom.host === undefined
					? 'api'
					: custom.host
				: hostOfSteps(option.routing?.send?.preSend ?? []);
			const method = custom ? custom.method : (request.method as string);
			// The proxy's path is free text below the provider's API, not a template of segments:
			// the table drives it with its baseline path (without /v1); test/engine/IntegrationPlatform/
			// resources/providerApi.test.ts drives the path itself.
			const tablePath = host === 'proxy' ? `/${String(SEED_VALUES.proxyPath)}` : path;
			const requirement = RESOURCES.find(
				(r) => r.value === resource.value,
			)?.credentialRequirements.find((r) => r.operation === option.value);
			const authentication = requirement?.requires ?? 'apiKey';
			const key = `${String(resource.value)}.${String(option.value)}`;
			const slots = [...slotsOf(request.qs, 'qs'), ...slotsOf(request.body, 'body')];
			out.push({
				key,
				resource: resource.value as string,
				operation: option.value as string,
				label: `${resource.name} → ${option.name}`,
				method,
				path: tablePath,
				host,
				routeId: routeOf(method, host, path),
				placeholders: [...tablePath.matchAll(PLACEHOLDER)].map((m) => m[1]),
				slots,
				ownQuery: Object.keys(request.qs ?? {}),
				optionalQuery: queryOptionsOf(resource.value as string, option.value as string),
				authentication,
				variants: variantsOf(
					{ authentication, resource: resource.value, operation: option.value },
					key,
				),
			});
		}
	}
	return out;
}

/** A default that leaves the field empty: '', {} (a collection), a locator without a value. */
const isEmpty = (value: unknown): boolean =>
	value === undefined ||
	value === '' ||
	(typeof value === 'object' &&
		value !== null &&
		('mode' in value
			? (value as { value?: unknown }).value === ''
			: Object.keys(value).length === 0));

/**
 * The parameters of a user who opens the operation and fills in only what has no default: the
 * fields the editor marks required and the records to act on (resource locators), from the seed
 * (`seed` overrides single values where the seeded record does not fit, e.g. a group that has no
 * installation yet). Every other parameter keeps the node's default: nothing is filled from a
 * fixture, so what the node sends by default is what is checked.
 */
export function defaultParameters(
	spec: OperationSpec,
	variant: Variant,
	seed: IDataObject = {},
): INodeParameters {
	const out: IDataObject = {
		authentication: spec.authentication,
		resource: spec.resource,
		operation: spec.operation,
		...variant.controls,
	};
	for (const property of visibleFields(out)) {
		if (property.name in out || !isEmpty(property.default)) continue;
		if (!property.required && property.type !== 'resourceLocator') continue;
		const value = property.name in seed ? seed[property.name] : baselineValue(property);
		out[property.name] = (
			property.type === 'resourceLocator' && typeof value === 'string'
				? locatorOf(property, value)
				: value
		) as IDataObject[string];
	}
	return out as INodeParameters;
}

/** The parameter as the editor shows it for this variant. */
export function fieldOf(variant: Variant, name: string): INodeProperties | undefined {
	return variant.visible.find((p) => p.name === name);
}

/**
 * The output items of each input item, in a run with Continue On Fail. n8n's routing engine
 * pushes an error item without pairing it, and n8n then pairs the unpaired by position, which is
 * wrong once an earlier input gave no item or several (a Get Many with an empty or long list):
 * docs/n8n-notes.md, "Continue On Fail in routed operations". So an error item is placed by its
 * error's item index first, then by its pairing, or else after the last input seen (outputs
 * come in input order, one error item per failed input).
 */
export function outputsByInput(
	items: INodeExecutionData[],
	inputs: number,
): INodeExecutionData[][] {
	const out: INodeExecutionData[][] = Array.from({ length: inputs }, () => []);
	let last = -1;
	for (const item of items) {
		const paired = (item.pairedItem as { item?: number } | null | undefined)?.item;
		const fromError = (item.error as { context?: { itemIndex?: unknown } } | undefined)?.context
			?.itemIndex;
		const index =
			typeof fromError === 'number' ? fromError : typeof paired === 'number' ? paired : last + 1;
		out[Math.min(index, inputs - 1)].push(item);
		last = Math.max(last, index);
	}
	return out;
}
