/**
 * Coverage contract, driven by docs/api-catalog.json: the catalogue of every operation of the
 * Integration Platform API, generated from the API's OpenAPI documents by
 * scripts/generate-api-catalog.mjs (whose `--check` keeps the committed file in step with the
 * documents; this test reads only the committed file and the repository's own code).
 *
 * - every entry is well-formed and has a valid status; excluded entries say why;
 * - the catalogue holds exactly the API's operations (EXPECTED_OPERATIONS);
 * - the action node routes exactly the covered entries, under the resource/operation they name,
 *   with the same method, host and path shape;
 * - the simulator implements every covered operation (and nothing outside the catalogue), with the
 *   same method, host, path shape and credentials;
 * - every covered node operation has an example workflow and a row in the operations table of
 *   docs/operations.md, with the credentials the catalogue gives it;
 * - an operation that accepts only one credential is refused with the other before anything is
 *   sent.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type {
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyOptions,
	PreSendAction,
} from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { RESOURCES } from '../../../nodes/IntegrationPlatform/resources';
import { HOST_STEP } from '../../../nodes/IntegrationPlatform/routing/defineOperation';
import { CREDENTIAL_LABEL, CREDENTIAL_TYPE } from '../../../nodes/common/api';
import type { Authentication } from '../../../nodes/common/api';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ROUTES } = require('../../simulator') as {
	ROUTES: Array<{ id: string; method: string; host: 'api' | 'read'; path: string; auth: string }>;
};

const ROOT = path.join(__dirname, '..', '..', '..');

/**
 * How many operations the API's four OpenAPI documents declare (82 management, 4 read, 1 write,
 * 1 search). The generator's --check guards that the catalogue is the documents'; this guards
 * against entries being dropped or added by hand.
 */
const EXPECTED_OPERATIONS = 88;
const EXPECTED_BY_DOCUMENT: Record<Document, number> = { api: 82, read: 4, write: 1, search: 1 };

// ---------------------------------------------------------------------------------------------
// The catalogue

type Document = 'api' | 'read' | 'write' | 'search';
type Host = 'management' | 'read' | 'write' | 'search';
type Status = 'covered' | 'planned' | 'excluded' | 'not yet covered';

const STATUSES: Status[] = ['covered', 'planned', 'excluded', 'not yet covered'];
const HOST_OF_DOCUMENT: Record<Document, Host> = {
	api: 'management',
	read: 'read',
	write: 'write',
	search: 'search',
};
const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'];
const CREDENTIAL_ORDER: Authentication[] = ['apiKey', 'bearerToken'];

interface NodeOperationRef {
	resource: string;
	operation: string;
}

interface CatalogueEntry {
	operationId: string;
	document: Document;
	host: Host;
	method: string;
	path: string;
	summary: string;
	credentials: Authentication[];
	status: Status;
	reason?: string;
	nodeOperations?: NodeOperationRef[];
}

const catalogue: CatalogueEntry[] = JSON.parse(
	fs.readFileSync(path.join(ROOT, 'docs', 'api-catalog.json'), 'utf8'),
).operations;
const covered = catalogue.filter((e) => e.status === 'covered');

/** Placeholders compared by position only: `/a/{x}:hydrate` → `/a/{}:hydrate`. */
const shape = (p: string) => p.replace(/^\/v1(?=\/)/, '').replace(/\{[^}]+\}/g, '{}');
const key = (o: NodeOperationRef) => `${o.resource}.${o.operation}`;
const describeEntry = (e: CatalogueEntry) => `${e.operationId} (${e.method} ${e.host} ${e.path})`;

// ---------------------------------------------------------------------------------------------
// The action node, from its built description

interface NodeOperation extends NodeOperationRef {
	resourceName: string;
	name: string;
	method: string;
	host: string;
	path: string;
	option: INodePropertyOptions;
}

/** The host a routed request goes to, from its preSend steps (none sets it: the credential's API host). */
function hostOfRouting(option: INodePropertyOptions): string {
	const steps = option.routing?.send?.preSend ?? [];
	const hosts = (Object.keys(HOST_STEP) as Array<keyof typeof HOST_STEP>).filter((host) =>
		steps.includes(HOST_STEP[host]),
	);
	if (option.routing?.request?.baseURL !== undefined) return 'unknown: a baseURL in the routing';
	return hosts.length === 0 ? 'management' : hosts.length === 1 ? hosts[0] : hosts.join('+');
}

function nodeOperations(): NodeOperation[] {
	const { properties } = new IntegrationPlatform().description;
	const resources = properties.find((p: INodeProperties) => p.name === 'resource')!
		.options as INodePropertyOptions[];
	return resources.flatMap((resource) =>
		properties
			.filter(
				(p: INodeProperties) =>
					p.name === 'operation' &&
					(p.displayOptions?.show?.resource as string[] | undefined)?.includes(
						resource.value as string,
					),
			)
			.flatMap((p: INodeProperties) =>
				(p.options as INodePropertyOptions[]).map((option) => {
					// Operations run in code (n8n's customOperations) carry no routing; their
					// definition says which request they send.
					const custom = RESOURCES.find((r) => r.value === resource.value)?.customRequests.find(
						(c) => c.value === option.value,
					);
					return {
						resource: resource.value as string,
						resourceName: resource.name,
						operation: option.value as string,
						name: option.name,
						method: String(custom ? custom.method : option.routing?.request?.method),
						host: custom ? (custom.host ?? 'management') : hostOfRouting(option),
						path: String(custom ? custom.path : option.routing?.request?.url),
						option,
					};
				}),
			),
	);
}

/**
 * Node operations outside the OpenAPI documents, with why: they are not in the catalogue, so the
 * contract below does not apply to them.
 */
const OUTSIDE_OPENAPI: Record<string, string> = {
	'providerApi.sendRequest':
		'the platform\'s proxy to the provider\'s own API (docs/api-notes.md, "Proxy"): no operation of the OpenAPI documents',
};

const operations = nodeOperations().filter((o) => !(key(o) in OUTSIDE_OPENAPI));
const routedAs = (o: NodeOperation, e: CatalogueEntry) =>
	o.method === e.method && o.host === e.host && shape(o.path) === shape(e.path);

// ---------------------------------------------------------------------------------------------
// Credential requirements. Adapter: the node's own record of the one credential an operation
// needs (today each resource's `credentialRequirements`, built by defineResource in
// routing/defineOperation.ts); change only this function when that record moves.

function requiredCredential(o: NodeOperationRef): Authentication | undefined {
	return RESOURCES.find((r) => r.value === o.resource)?.credentialRequirements.find(
		(r) => r.operation === o.operation,
	)?.requires;
}

/**
 * Runs the operation's preSend steps as n8n would, with the given credential choice and no other
 * parameter: the error they throw, or undefined when they get through (a step that reads another
 * parameter first fails with "unexpected parameter", which is not a refusal).
 */
async function preSendError(o: NodeOperation, authentication: Authentication) {
	const context = {
		getNode: () => ({
			id: 'coverage',
			name: 'Integration Platform',
			type: 'n8n-nodes-integration-platform.integrationPlatform',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getItemIndex: () => 0,
		getNodeParameter: (name: string) => {
			if (name === 'authentication') return authentication;
			throw new Error(`unexpected parameter ${name} read before the credential check`);
		},
	} as unknown as IExecuteSingleFunctions;
	const custom = new IntegrationPlatform().customOperations[o.resource]?.[o.operation];
	if (custom) {
		// Run in code: the same context, as n8n's execute context, with one input item.
		const executeContext = {
			...context,
			getInputData: () => [{ json: {} }],
			continueOnFail: () => false,
			getCredentials: () => {
				throw new Error('unexpected credential read before the credential check');
			},
		};
		try {
			await custom.call(executeContext as never);
		} catch (error) {
			return error as Error;
		}
		return undefined;
	}
	let request: IHttpRequestOptions = { url: o.path, method: o.method as 'GET' };
	try {
		for (const step of (o.option.routing?.send?.preSend ?? []) as PreSendAction[]) {
			request = await step.call(context, request);
		}
	} catch (error) {
		return error as Error;
	}
	return undefined;
}

// ---------------------------------------------------------------------------------------------
// Example workflows and the operations table (docs/operations.md)

interface ExampleNode extends NodeOperationRef {
	file: string;
	authentication: Authentication;
	credentialTypes: string[];
}

function exampleOperations(): ExampleNode[] {
	const dir = path.join(ROOT, 'examples');
	return fs
		.readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => {
			const workflow = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
			return workflow.nodes
				.filter(
					(n: { type: string }) => n.type === 'n8n-nodes-integration-platform.integrationPlatform',
				)
				.map(
					(n: {
						parameters: { resource: string; operation: string; authentication?: Authentication };
						credentials?: Record<string, unknown>;
					}) => ({
						file,
						resource: n.parameters.resource,
						operation: n.parameters.operation,
						authentication: n.parameters.authentication ?? 'apiKey',
						credentialTypes: Object.keys(n.credentials ?? {}),
					}),
				);
		});
}

const examples = exampleOperations();
const operationsDoc = fs.readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');

/** The operations table's Credential column for an operation, from the credentials it accepts. */
function credentialCell(credentials: Authentication[]): string {
	if (credentials.length === 2) return 'API key or token';
	if (credentials[0] === 'bearerToken') return '**Bearer token only**';
	if (credentials[0] === 'apiKey') return '**API key only**';
	return 'none';
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// ---------------------------------------------------------------------------------------------

describe('docs/api-catalog.json', () => {
	test('every entry is well-formed, with a valid status; excluded entries have a reason', () => {
		const problems = catalogue.flatMap((e) => {
			const out: string[] = [];
			const id = e.operationId || JSON.stringify(e).slice(0, 60);
			if (typeof e.operationId !== 'string' || e.operationId === '')
				out.push(`${id}: no operationId`);
			if (!(e.document in HOST_OF_DOCUMENT)) out.push(`${id}: document ${e.document}`);
			else if (e.host !== HOST_OF_DOCUMENT[e.document]) out.push(`${id}: host ${e.host}`);
			if (!METHODS.includes(e.method)) out.push(`${id}: method ${e.method}`);
			if (typeof e.path !== 'string' || !e.path.startsWith('/')) out.push(`${id}: path ${e.path}`);
			if (typeof e.summary !== 'string') out.push(`${id}: summary`);
			if (
				!Array.isArray(e.credentials) ||
				e.credentials.join() !== CREDENTIAL_ORDER.filter((c) => e.credentials.includes(c)).join()
			) {
				out.push(`${id}: credentials ${JSON.stringify(e.credentials)}`);
			}
			if (!STATUSES.includes(e.status)) out.push(`${id}: status ${JSON.stringify(e.status)}`);
			if (e.status === 'excluded' && !(typeof e.reason === 'string' && e.reason.trim() !== '')) {
				out.push(`${id}: excluded without a reason`);
			}
			if (e.status === 'covered' && !e.nodeOperations?.length) {
				out.push(`${id}: covered without nodeOperations`);
			}
			if (e.nodeOperations !== undefined && !['covered', 'planned'].includes(e.status)) {
				out.push(`${id}: nodeOperations on a ${e.status} entry`);
			}
			for (const o of e.nodeOperations ?? []) {
				if (typeof o.resource !== 'string' || typeof o.operation !== 'string') {
					out.push(`${id}: nodeOperations entry ${JSON.stringify(o)}`);
				}
			}
			return out;
		});
		expect(problems).toEqual([]);
	});

	test(`holds exactly the API's ${EXPECTED_OPERATIONS} operations, each once`, () => {
		expect(catalogue).toHaveLength(EXPECTED_OPERATIONS);
		const byDocument: Record<string, number> = {};
		for (const e of catalogue) byDocument[e.document] = (byDocument[e.document] ?? 0) + 1;
		expect(byDocument).toEqual(EXPECTED_BY_DOCUMENT);
		const ids = catalogue.map((e) => e.operationId);
		expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
		const requests = catalogue.map((e) => `${e.method} ${e.host} ${e.path}`);
		expect(requests.filter((r, i) => requests.indexOf(r) !== i)).toEqual([]);
	});

	test('no node operation is named by two entries', () => {
		const names = catalogue.flatMap((e) => (e.nodeOperations ?? []).map(key));
		expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
	});
});

describe('the action node routes exactly the covered operations', () => {
	test('the node has operations (the description walk finds them)', () => {
		expect(operations.length).toBeGreaterThan(0);
	});

	test('every node operation is a covered entry with its method, host and path shape, naming it', () => {
		const problems = operations.flatMap((o) => {
			const matching = catalogue.filter((e) => routedAs(o, e));
			if (matching.length !== 1) {
				return [`${key(o)} (${o.method} ${o.host} ${o.path}) matches ${matching.length} entries`];
			}
			const [entry] = matching;
			const out: string[] = [];
			if (entry.status !== 'covered')
				out.push(`${key(o)}: ${entry.operationId} is ${entry.status}`);
			if (!(entry.nodeOperations ?? []).some((n) => key(n) === key(o))) {
				out.push(`${key(o)}: ${entry.operationId} does not name it in nodeOperations`);
			}
			return out;
		});
		expect(problems).toEqual([]);
	});

	test('every covered entry is routed by the node operations it names', () => {
		const problems = covered.flatMap((e) =>
			(e.nodeOperations ?? []).flatMap((ref) => {
				const o = operations.find((op) => key(op) === key(ref));
				if (!o) return [`${describeEntry(e)}: the node has no ${key(ref)}`];
				return routedAs(o, e)
					? []
					: [`${describeEntry(e)}: ${key(ref)} sends ${o.method} ${o.host} ${o.path}`];
			}),
		);
		expect(problems).toEqual([]);
	});
});

describe('the simulator', () => {
	const routeHost = (host: 'api' | 'read') => (host === 'api' ? 'management' : host);
	const routeAuth: Record<string, string> = {
		any: 'apiKey,bearerToken',
		apiKey: 'apiKey',
		bearer: 'bearerToken',
		none: '',
	};

	test.each(covered.map((e) => [e.operationId, e] as const))(
		'implements %s with the same method, host, path shape and credentials',
		(_id, e) => {
			const found = ROUTES.filter(
				(r) =>
					r.method === e.method && routeHost(r.host) === e.host && shape(r.path) === shape(e.path),
			);
			expect(found.map((r) => r.id)).toEqual([e.operationId]);
			expect(routeAuth[found[0].auth]).toBe(e.credentials.join());
		},
	);

	test('has no route outside the catalogue', () => {
		const problems = ROUTES.filter(
			(r) =>
				!catalogue.some(
					(e) =>
						e.operationId === r.id &&
						e.method === r.method &&
						e.host === routeHost(r.host) &&
						shape(e.path) === shape(r.path),
				),
		).map((r) => `${r.id}: ${r.method} ${r.host} ${r.path}`);
		expect(problems).toEqual([]);
	});
});

describe('operations outside the OpenAPI documents', () => {
	test.each(Object.keys(OUTSIDE_OPENAPI))(
		'%s has an example and a row in docs/operations.md, and refuses a bearer token before sending',
		async (name) => {
			const o = nodeOperations().find((op) => key(op) === name)!;
			expect(o).toBeDefined();
			expect(examples.filter((x) => key(x) === name)).not.toEqual([]);
			expect(operationsDoc).toMatch(
				new RegExp(`^\\| ${escapeRegex(o.resourceName)} +\\| ${escapeRegex(o.name)} +\\|`, 'm'),
			);
			const error = await preSendError(o, 'bearerToken');
			expect(error?.message).toContain(`needs ${CREDENTIAL_LABEL.apiKey}`);
		},
	);
});

describe('examples/ and docs/operations.md', () => {
	const coveredOperations = covered.flatMap((e) =>
		(e.nodeOperations ?? []).map((ref) => [key(ref), ref, e] as const),
	);

	test.each(coveredOperations)('%s has an example workflow', (_key, ref) => {
		expect(examples.filter((x) => key(x) === key(ref)).map((x) => x.file)).not.toEqual([]);
	});

	test('every example uses a covered node operation with a credential it accepts', () => {
		const problems = examples.flatMap((x) => {
			if (key(x) in OUTSIDE_OPENAPI) {
				return x.credentialTypes.join() === CREDENTIAL_TYPE.apiKey
					? []
					: [`${x.file}: ${key(x)} needs the API key credential`];
			}
			const entry = covered.find((e) => (e.nodeOperations ?? []).some((n) => key(n) === key(x)));
			if (!entry) return [`${x.file}: ${key(x)} is not a covered node operation`];
			const out: string[] = [];
			// An operation without security (the provider catalog) accepts whichever credential the
			// node sends through.
			if (entry.credentials.length > 0 && !entry.credentials.includes(x.authentication)) {
				out.push(`${x.file}: ${key(x)} does not accept ${x.authentication}`);
			}
			if (x.credentialTypes.join() !== CREDENTIAL_TYPE[x.authentication]) {
				out.push(`${x.file}: credentials ${x.credentialTypes.join()} for ${x.authentication}`);
			}
			return out;
		});
		expect(problems).toEqual([]);
	});

	test.each(coveredOperations)(
		'%s is in the operations table of docs/operations.md, with its credentials',
		(_key, ref, e) => {
			const o = operations.find((op) => key(op) === key(ref));
			expect(o).toBeDefined();
			const cells = [escapeRegex(o!.resourceName), escapeRegex(o!.name), e.method];
			// Cells may be padded (prettier aligns the table's columns).
			const row = new RegExp(
				`^\\| ${cells.join(' +\\| ')} +\\| \`${escapeRegex(e.path)}\`[^|]*\\| ([^|]+?) *\\|`,
				'm',
			).exec(operationsDoc);
			expect(row).not.toBeNull();
			expect(row![1]).toBe(credentialCell(e.credentials));
		},
	);
});

describe('credential requirements follow the catalogue', () => {
	const routed = covered.flatMap((e) =>
		(e.nodeOperations ?? []).flatMap((ref) => {
			const o = operations.find((op) => key(op) === key(ref));
			return o ? [[key(ref), o, e] as const] : [];
		}),
	);

	test.each(routed)('%s requires a credential only when the API accepts only one', (_key, o, e) => {
		expect(requiredCredential(o)).toBe(e.credentials.length === 1 ? e.credentials[0] : undefined);
	});

	const singleCredential = routed.filter(([, , e]) => e.credentials.length === 1);

	test.each(singleCredential)(
		'%s refuses the other credential before sending',
		async (_key, o, e) => {
			const [accepted] = e.credentials;
			const other = CREDENTIAL_ORDER.find((c) => c !== accepted)!;
			const error = await preSendError(o, other);
			expect(error?.message).toContain(`needs ${CREDENTIAL_LABEL[accepted]}`);
			expect(error?.message).not.toContain('unexpected parameter');
		},
	);
});
