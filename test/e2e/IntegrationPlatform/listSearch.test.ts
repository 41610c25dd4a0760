/**
 * Every list of the nodes as n8n's editor loads it, through the real n8n's endpoints
 * (`/rest/dynamic-node-parameters/resource-locator-results` for list searches, `/options` for
 * load options). The lists are enumerated from the nodes' descriptions, so a new one is covered:
 * - a list inside a collection or fixedCollection reads the parameters beside it from the path
 *   n8n gives it (`&groupRef` in `connectionFilters`), with and without those set;
 * - no list makes n8n answer 500 (a server fault it logs), with either credential and after the
 *   credential of a saved workflow changed to another one or to the other type: a list answers
 *   200, or 4xx with its reason.
 */
import * as fs from 'node:fs';

import type { INodeProperties, INodeType } from 'n8n-workflow';
import { findDisplayedProperty } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { IntegrationPlatformLogTrigger } from '../../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node';
import { IntegrationPlatformTrigger } from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import { SEED } from '../../harness/actionEngine';
import { setUpE2e, type E2eContext } from '../../harness/e2eContext';

jest.setTimeout(120_000);

let ctx: E2eContext;
beforeAll(async () => (ctx = await setUpE2e('list search')));
afterAll(async () => await ctx.sim.close());

const PACKAGE = 'n8n-nodes-integration-platform';
const NODES: Array<[string, INodeType]> = [
	['integrationPlatform', new IntegrationPlatform()],
	['integrationPlatformLogTrigger', new IntegrationPlatformLogTrigger()],
	['integrationPlatformTrigger', new IntegrationPlatformTrigger()],
];

/** A list of a node: its method, the path n8n gives it and the parameters that show it. */
interface List {
	node: string;
	version: number;
	kind: 'listSearch' | 'loadOptions';
	method: string;
	path: string;
	/** The collection holding it (undefined at the top level) and its siblings' names. */
	collection?: string;
	siblings: string[];
	show: Record<string, unknown>;
}

const listMethodOf = (p: INodeProperties) =>
	p.modes?.find((m) => m.typeOptions?.searchListMethod)?.typeOptions?.searchListMethod;

/** Each shown value of a display rule (the first of each), without the version rule. */
function shownBy(property: INodeProperties): Record<string, unknown> {
	const show = property.displayOptions?.show ?? {};
	return Object.fromEntries(
		Object.entries(show)
			.filter(([name, values]) => !name.startsWith('@') && Array.isArray(values) && values.length)
			.map(([name, values]) => [name, (values as unknown[])[0]]),
	);
}

function listsOf(nodeName: string, node: INodeType): List[] {
	const { properties, version, defaultVersion } = node.description;
	const latest = defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);
	const lists: List[] = [];
	const add = (
		p: INodeProperties,
		path: string,
		show: Record<string, unknown>,
		rest: Partial<List>,
	) => {
		const search = listMethodOf(p);
		const load = p.typeOptions?.loadOptionsMethod;
		const base = { node: nodeName, version: latest, path, show, siblings: [], ...rest };
		if (search) lists.push({ ...base, kind: 'listSearch', method: search });
		if (load) lists.push({ ...base, kind: 'loadOptions', method: load });
	};
	for (const property of properties) {
		const show = shownBy(property);
		if (property.type === 'collection') {
			const options = property.options as INodeProperties[];
			for (const option of options) {
				add(option, `parameters.${property.name}.${option.name}`, show, {
					collection: property.name,
					siblings: options.filter((o) => o !== option && listMethodOf(o)).map((o) => o.name),
				});
			}
		} else if (property.type === 'fixedCollection') {
			for (const group of property.options as Array<{ name: string; values: INodeProperties[] }>) {
				const at = property.typeOptions?.multipleValues ? `${group.name}[0]` : group.name;
				for (const value of group.values) {
					add(value, `parameters.${property.name}.${at}.${value.name}`, show, {
						collection: property.name,
					});
				}
			}
		} else {
			add(property, `parameters.${property.name}`, show, {});
		}
	}
	return lists;
}

const ALL = NODES.flatMap(([name, node]) => listsOf(name, node));
const NESTED = ALL.filter((l) => l.collection !== undefined);
const descriptionOf = (node: string) => NODES.find(([name]) => name === node)![1].description;

const rl = (value: string) => ({ __rl: true, mode: 'id', value });

/** Seeded values for the parameters lists depend on. */
const SEEDED: Record<string, unknown> = {
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	groupRef: rl(SEED.groupRef),
	object: rl('contacts'),
	provider: 'hubspot',
	orgId: rl('org'),
};

/**
 * The node's parameters as the editor holds them for the list: what shows it, the seeded values
 * of the parameters shown there (the editor sends no hidden ones), the collection's value.
 */
function parametersFor(list: List, authentication: string, collectionValue: object = {}) {
	const description = descriptionOf(list.node);
	const params: Record<string, unknown> = { authentication, ...list.show };
	for (const [name, value] of Object.entries(SEEDED)) {
		const candidate = { ...params, [name]: value };
		const shown = findDisplayedProperty(
			name,
			description.properties,
			candidate as never,
			{ typeVersion: list.version } as never,
			description as never,
		);
		if (shown && !(name in params)) params[name] = value;
	}
	if (list.collection) params[list.collection] = collectionValue;
	return params;
}

const CREDENTIAL_TYPES: Record<string, string> = {
	apiKey: 'integrationPlatformApi',
	bearerToken: 'integrationPlatformTokenApi',
};

/** What the editor sends for a list, and n8n's answer (status and JSON body). */
async function load(
	list: List,
	currentNodeParameters: Record<string, unknown>,
	credentials: Record<string, { id: string; name: string }>,
	extra: Record<string, unknown> = {},
) {
	const { baseUrl, cookie } = JSON.parse(fs.readFileSync(process.env.N8N_E2E_INFO!, 'utf8'));
	const endpoint = list.kind === 'listSearch' ? 'resource-locator-results' : 'options';
	const res = await fetch(`${baseUrl}/rest/dynamic-node-parameters/${endpoint}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({
			nodeTypeAndVersion: { name: `${PACKAGE}.${list.node}`, version: list.version },
			path: list.path,
			methodName: list.method,
			currentNodeParameters,
			credentials,
			...extra,
		}),
	});
	const body = (await res.json()) as {
		message?: string;
		data?: { results?: Array<{ name: string; value: string }> } | unknown[];
	};
	return { status: res.status, body };
}

const credentialOf = (authentication: string) => ({
	[CREDENTIAL_TYPES[authentication]]: ctx.credentials[CREDENTIAL_TYPES[authentication]],
});

const label = (l: List) => `${l.node} ${l.method} at ${l.path}`;

/** 200 with a list, or a 4xx reason that is not n8n failing to find a parameter. */
function expectListOrReason(answer: Awaited<ReturnType<typeof load>>, what: string) {
	const text = `${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
	expect({ what: text, status: answer.status < 500 }).toEqual({ what: text, status: true });
	expect(answer.body.message ?? '').not.toMatch(/Could not find property/);
}

test('the descriptions hold lists inside collections to check', () => {
	expect(NESTED.map((l) => l.path)).toEqual(
		expect.arrayContaining([
			'parameters.connectionFilters.consumerRef',
			'parameters.connectionFilters.groupRef',
		]),
	);
});

describe('a list inside a collection reads the parameters beside it from its own path', () => {
	test.each(NESTED.map((l) => [label(l), l] as const))('%s', async (_label, list) => {
		for (const authentication of ['apiKey', 'bearerToken']) {
			const credentials = credentialOf(authentication);
			// Without the parameters beside it, and with each of them set.
			const without = await load(list, parametersFor(list, authentication), credentials);
			expectListOrReason(without, `${label(list)} alone`);
			const siblings = Object.fromEntries(
				list.siblings.map((name) => [name, SEEDED[name] ?? rl('x')]),
			);
			const beside = await load(list, parametersFor(list, authentication, siblings), credentials);
			expectListOrReason(beside, `${label(list)} beside ${JSON.stringify(siblings)}`);
		}
	});

	test("Connection → Get Many's Consumer filter lists the consumers of the Group filter's group", async () => {
		const consumer = NESTED.find((l) => l.path === 'parameters.connectionFilters.consumerRef')!;
		const credentials = credentialOf('apiKey');
		const all = await load(consumer, parametersFor(consumer, 'apiKey'), credentials);
		expect(all.status).toBe(200);
		const everyone = (all.body.data as { results: Array<{ value: string }> }).results;
		expect(everyone.map((r) => r.value)).toEqual(
			expect.arrayContaining([SEED.consumerRef, 'user-77']),
		);
		const ofGroup = await load(
			consumer,
			parametersFor(consumer, 'apiKey', { groupRef: rl(SEED.groupRef) }),
			credentials,
		);
		expect(ofGroup.status).toBe(200);
		const values = (ofGroup.body.data as { results: Array<{ value: string }> }).results.map(
			(r) => r.value,
		);
		expect(values).toContain(SEED.consumerRef);
		expect(values).not.toContain('user-77');
	});
});

describe('no list makes n8n answer 500', () => {
	test.each(ALL.map((l) => [label(l), l] as const))(
		'%s: with either credential, and with the credential changed under it',
		async (_label, list) => {
			for (const authentication of ['apiKey', 'bearerToken']) {
				const other = authentication === 'apiKey' ? 'bearerToken' : 'apiKey';
				const params = parametersFor(list, authentication);
				expectListOrReason(
					await load(list, params, credentialOf(authentication)),
					`${label(list)} with ${authentication}`,
				);
				// The credential switched to the other type before Authentication followed it, and
				// both switched.
				expectListOrReason(
					await load(list, params, credentialOf(other)),
					`${label(list)} with ${authentication} and the ${other} credential`,
				);
				expectListOrReason(
					await load(list, { ...params, authentication: other }, credentialOf(other)),
					`${label(list)} switched to ${other}`,
				);
			}
		},
	);

	test('a saved workflow whose credential changed to another one and to the other type', async () => {
		const list = NESTED.find((l) => l.path === 'parameters.connectionFilters.consumerRef')!;
		const parameters = parametersFor(list, 'apiKey');
		const { id: workflowId } = await ctx.n8n.createWorkflow(
			{
				name: 'Lists after a credential change',
				nodes: [
					{
						parameters,
						id: '00000000-0000-4000-8000-0000000000d1',
						name: 'Connections',
						type: `${PACKAGE}.integrationPlatform`,
						typeVersion: 2,
						position: [0, 0],
					},
				],
				connections: {},
				settings: {},
			},
			credentialOf('apiKey'),
		);
		const another = await ctx.n8n.createCredential({
			type: 'integrationPlatformApi',
			name: 'Another API key (list search)',
			data: { apiKey: 'not-a-known-key', baseUrl: ctx.sim.apiUrl },
		});
		for (const [params, credentials] of [
			[parameters, { integrationPlatformApi: another }],
			[parameters, credentialOf('bearerToken')],
			[{ ...parameters, authentication: 'bearerToken' }, credentialOf('bearerToken')],
		] as const) {
			for (const l of ALL.filter((x) => x.node === 'integrationPlatform')) {
				const answer = await load(
					l,
					l === list ? params : parametersFor(l, params.authentication as string),
					credentials,
					{ workflowId },
				);
				expectListOrReason(answer, `${label(l)} after the change`);
			}
		}
	});
});
