/**
 * The credential's Allowed HTTP Request Domains hold for every request the package sends with a
 * credential, not only for operations (those are test/engine/IntegrationPlatform/inCode/
 * customOperation.test.ts): every editor method of every node (list searches, loadOptions, the
 * resource mapper), the log trigger's poll in each Watch mode, the event trigger's webhook
 * methods (activation, deactivation) and its deliveries (the signing-secret fetch). The surfaces
 * are read from the node types, so a new one is covered without touching this file. Each runs in
 * n8n-core's own contexts against the simulator, with either credential: restricted to another
 * domain it sends nothing and says why; unrestricted it reaches the simulator (so the refusal is
 * the restriction, not a request that never would have gone).
 */
import fs from 'node:fs';
import path from 'node:path';

import { LoadOptionsContext, PollContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeParameters,
	INodeType,
	INodeTypes,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { IntegrationPlatformLogTrigger } from '../../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node';
import {
	IntegrationPlatformTrigger,
	resetTriggerMemory,
} from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import { TestCredentialsHelper } from '../../harness/engine';
import { TriggerHarness } from '../../harness/eventTriggerEngine';
import { startSim, svix, type Sim } from '../../harness/eventTriggerSim';

jest.setTimeout(120_000);

/** n8n-core's own copies of the DI container and logger (its contexts log through them). */
const fromCore = (name: string) =>
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	require(require.resolve(name, { paths: [require.resolve('n8n-core')] })) as unknown;
const { Container } = fromCore('@n8n/di') as {
	Container: { get<T>(type: new (...args: never[]) => T): T };
};
const { Logger } = fromCore('@n8n/backend-common') as {
	Logger: new (...args: never[]) => { error(message: string): void };
};

type Authentication = 'apiKey' | 'bearerToken';
const AUTHENTICATIONS: Authentication[] = ['apiKey', 'bearerToken'];
const CREDENTIAL_TYPE = {
	apiKey: 'integrationPlatformApi',
	bearerToken: 'integrationPlatformTokenApi',
} as const;

/** "Allowed HTTP Request Domains": Specific Domains, none of them the simulator's. */
const RESTRICTED = { allowedHttpRequestDomains: 'domains', allowedDomains: 'other.example' };
const UNRESTRICTED = { allowedHttpRequestDomains: 'all' };

let sim: Sim;
beforeAll(async () => (sim = await startSim({ httpsWebhooksOnly: false })));
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.reset();
	resetTriggerMemory();
});

const SEED = () => sim.SEED;
const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });

function credentials(setting: IDataObject): Record<string, ICredentialDataDecryptedObject> {
	return {
		integrationPlatformApi: {
			apiKey: SEED().apiKey,
			baseUrl: sim.apiUrl,
			readUrl: sim.readUrl,
			writeUrl: sim.writeUrl,
			searchUrl: sim.searchUrl,
			proxyUrl: sim.proxyUrl,
			...setting,
		},
		integrationPlatformTokenApi: {
			accessToken: SEED().bearerToken,
			baseUrl: sim.apiUrl,
			searchUrl: sim.searchUrl,
			...setting,
		},
	};
}

/**
 * Every value an editor method of this package may wait for, chosen from the simulator's seed, so
 * that each method gets as far as its request.
 */
function editorParameters(
	authentication: Authentication,
	where: { resource?: string; operation?: string },
): INodeParameters {
	const seed = SEED();
	return {
		authentication,
		resource: where.resource ?? 'records',
		operation: where.operation ?? 'write',
		writeType: 'create',
		project: rl(seed.projectId),
		integration: rl(seed.integrationId),
		installation: rl(seed.installationId),
		// An options field where the editor asks for it by name; a locator's value may be plain text too.
		provider: seed.provider,
		groupRef: rl(seed.groupRef),
		consumerRef: rl(seed.consumerRef),
		connection: rl(seed.connectionId),
		destination: rl(seed.destinationId),
		orgId: rl(seed.orgId),
		object: rl('contacts'),
		objectName: rl('contacts'),
		topicId: rl(seed.topicId ?? ''),
	};
}

const NODE_TYPES: Array<{ name: string; type: string; nodeType: INodeType }> = [
	{
		name: 'Integration Platform',
		type: 'n8n-nodes-integration-platform.integrationPlatform',
		nodeType: new IntegrationPlatform(),
	},
	{
		name: 'Integration Platform Log Trigger',
		type: 'n8n-nodes-integration-platform.integrationPlatformLogTrigger',
		nodeType: new IntegrationPlatformLogTrigger(),
	},
	{
		name: 'Integration Platform Trigger',
		type: 'n8n-nodes-integration-platform.integrationPlatformTrigger',
		nodeType: new IntegrationPlatformTrigger(),
	},
];

/** One request surface: runs it, and tells what a refusal looks like there. */
interface Surface {
	label: string;
	/** Runs the surface once; resolves to the error or refusal reason it ended with, if any. */
	run(authentication: Authentication, setting: IDataObject): Promise<string | undefined>;
}

function additionalData(
	helper: TestCredentialsHelper,
	currentNodeParameters?: INodeParameters,
): IWorkflowExecuteAdditionalData {
	const base: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper: helper,
		executionId: 'execution-domains',
		variables: {},
		restApiUrl: 'http://localhost:5678/rest',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		instanceBaseUrl: 'http://localhost:5678',
		userId: 'user-1',
		currentNodeParameters,
	};
	return new Proxy(base, {
		get: (target, key) => (target as Record<string | symbol, unknown>)[key],
	}) as IWorkflowExecuteAdditionalData;
}

function nodeAndWorkflow(
	entry: (typeof NODE_TYPES)[number],
	parameters: INodeParameters,
	authentication: Authentication,
	typeVersion: number,
): { node: INode; workflow: Workflow } {
	const node: INode = {
		id: 'node-domains',
		name: entry.name,
		type: entry.type,
		typeVersion,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE[authentication]]: { id: 'credential-1', name: 'Simulator' } },
	};
	const nodeTypes: INodeTypes = {
		getByName: () => entry.nodeType,
		getByNameAndVersion: () => entry.nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({
		id: 'wf-domains',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	return { node, workflow };
}

/** What the editor or the execution shows: the message and its description. */
const messageOf = (error: unknown) =>
	[(error as Error).message, (error as { description?: string }).description]
		.filter(Boolean)
		.join('\n');

/**
 * The field that calls an editor method, and the resource and operation that show it: the
 * editor calls the method for that field, with those values set.
 */
function whereUsed(
	nodeType: INodeType,
	method: string,
): { field: string; resource?: string; operation?: string } {
	const calls = (property: unknown) =>
		[
			...JSON.stringify(property).matchAll(
				/"(?:searchListMethod|loadOptionsMethod|resourceMapperMethod)":"([^"]+)"/g,
			),
		].map((match) => match[1]);
	const property = nodeType.description.properties.find((candidate) =>
		calls(candidate).includes(method),
	);
	const show = (property?.displayOptions?.show ?? {}) as Record<string, unknown[] | undefined>;
	return {
		field: property?.name ?? 'project',
		resource: show.resource?.[0] as string | undefined,
		operation: show.operation?.[0] as string | undefined,
	};
}

/** Every listSearch, loadOptions and resourceMapping method of every node, in a LoadOptionsContext. */
function editorSurfaces(): Surface[] {
	return NODE_TYPES.flatMap((entry) => {
		const methods = (entry.nodeType.methods ?? {}) as Record<
			string,
			Record<string, (this: unknown, ...args: unknown[]) => Promise<unknown>> | undefined
		>;
		const typeVersion = Math.max(...[entry.nodeType.description.version].flat());
		return ['listSearch', 'loadOptions', 'resourceMapping'].flatMap((kind) =>
			Object.entries(methods[kind] ?? {}).map(
				([method, fn]): Surface => ({
					label: `${entry.name}: ${kind}.${method}`,
					async run(authentication, setting) {
						const where = whereUsed(entry.nodeType, method);
						const parameters = editorParameters(authentication, where);
						const { node, workflow } = nodeAndWorkflow(
							entry,
							parameters,
							authentication,
							typeVersion,
						);
						const helper = new TestCredentialsHelper(credentials(setting));
						const context = new LoadOptionsContext(
							workflow,
							node,
							additionalData(helper, parameters),
							`parameters.${where.field}`,
						);
						return await fn.call(context).then(
							() => undefined,
							(error: unknown) => messageOf(error),
						);
					},
				}),
			),
		);
	});
}

/** The log trigger's poll, once for each of its Watch modes (read from its description). */
function pollSurfaces(): Surface[] {
	return NODE_TYPES.filter((entry) => entry.nodeType.poll).flatMap((entry) => {
		const watch = entry.nodeType.description.properties.find((p) => p.name === 'watch');
		const modes = (watch?.options ?? []) as Array<{ value: string }>;
		const typeVersion = Math.max(...[entry.nodeType.description.version].flat());
		return modes.map(
			({ value }): Surface => ({
				label: `${entry.name}: poll, Watch ${value}`,
				async run(authentication, setting) {
					const seed = SEED();
					const { node, workflow } = nodeAndWorkflow(
						entry,
						{
							authentication,
							watch: value,
							project: rl(seed.projectName),
							integration: rl(seed.integrationId),
							installation: rl(seed.installationId),
							operationIds: seed.operationId,
							// Version 3 lists them as rows.
							operations: { operation: [{ operationId: rl(seed.operationId) }] },
						},
						authentication,
						typeVersion,
					);
					const helper = new TestCredentialsHelper(credentials(setting));
					const context = new PollContext(
						workflow,
						node,
						additionalData(helper),
						'trigger',
						'activate',
					);
					return await entry.nodeType.poll!.call(context).then(
						() => undefined,
						(error: unknown) => messageOf(error),
					);
				},
			}),
		);
	});
}

/** The event trigger's parameters: a destination it registers, verified with its fetched secret. */
function triggerParameters(): INodeParameters {
	return {
		project: rl(SEED().projectName),
		destinationName: 'n8n-domains',
		events: ['notification'],
	};
}

function trigger(authentication: Authentication, setting: IDataObject): TriggerHarness {
	return new TriggerHarness(sim as never, {
		parameters: triggerParameters(),
		authentication,
		credential: setting as ICredentialDataDecryptedObject,
	});
}

/** The event trigger's webhook methods (checkExists, create, delete) and its deliveries. */
function webhookSurfaces(): Surface[] {
	return NODE_TYPES.flatMap((entry) => {
		const surfaces: Surface[] = [];
		for (const [group, methods] of Object.entries(entry.nodeType.webhookMethods ?? {})) {
			for (const method of Object.keys(methods)) {
				const hook = method as 'checkExists' | 'create' | 'delete';
				surfaces.push({
					label: `${entry.name}: webhookMethods.${group}.${method}`,
					async run(authentication, setting) {
						const base = 'http://127.0.0.1:9';
						const h = trigger(authentication, setting);
						h.changeBaseUrl(base);
						if (hook !== 'create') {
							// What an unrestricted activation stored, checked or removed under the setting.
							const registered = trigger(authentication, UNRESTRICTED);
							registered.changeBaseUrl(base);
							await registered.activate();
							h.staticData = registered.staticData;
							sim.journal.clear();
						}
						return await h.hook(hook).then(
							() => undefined,
							(error: unknown) => messageOf(error),
						);
					},
				});
			}
		}
		if (entry.nodeType.webhook) {
			surfaces.push({
				label: `${entry.name}: webhook (the signing-secret fetch)`,
				async run(authentication, setting) {
					const h = trigger(authentication, setting);
					h.changeBaseUrl('http://127.0.0.1:9');
					const raw = Buffer.from(JSON.stringify({ type: 'notification' }));
					const headers = svix.signedHeaders({
						secrets: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
						msgId: svix.newMessageId(),
						body: raw,
					});
					// A delivery whose secret cannot be fetched is answered 503 and the reason logged.
					const logged = jest.spyOn(Container.get(Logger), 'error');
					try {
						const answer = await h.call({
							headers: { 'content-type': 'application/json', ...headers },
							raw,
						});
						if (answer.status !== 503) return undefined;
						return logged.mock.calls.map((call) => String(call[0])).join('\n');
					} finally {
						logged.mockRestore();
					}
				},
			});
		}
		return surfaces;
	});
}

const SURFACES = [...editorSurfaces(), ...pollSurfaces(), ...webhookSurfaces()];

test('the surfaces are found in the node types (a new one is covered here by itself)', () => {
	const labels = SURFACES.map((s) => s.label);
	expect(labels).toEqual(
		expect.arrayContaining([
			'Integration Platform: listSearch.searchProjects',
			'Integration Platform: loadOptions.getProviders',
			'Integration Platform: resourceMapping.getRecordFields',
			'Integration Platform Log Trigger: poll, Watch operationIds',
			'Integration Platform Trigger: webhookMethods.default.delete',
			'Integration Platform Trigger: webhook (the signing-secret fetch)',
		]),
	);
	expect(labels.length).toBeGreaterThanOrEqual(26);
});

test('the README promises what this file checks: the rule holds for every request, not only operations', () => {
	const readme = fs
		.readFileSync(path.join(__dirname, '../../../README.md'), 'utf8')
		.replace(/\s+/g, ' ');
	const sentence = /[^.]*_Allowed HTTP Request Domains_[^.]*\./
		.exec(readme)?.[0]
		.replace(/^ *- /, '')
		.trim();
	expect(sentence).toBe(
		"A credential's _Allowed HTTP Request Domains_ hold for every request the nodes send with it (operations, editor lists, both triggers): a host outside them is refused before anything is sent.",
	);
});

const cases = SURFACES.flatMap((surface) =>
	AUTHENTICATIONS.map((authentication) => [surface.label, authentication, surface] as const),
);

describe.each(cases)('%s with the %s credential', (_label, authentication, surface) => {
	test('restricted to another domain: nothing reaches the service, and the reason names the host and the allowed domains', async () => {
		sim.journal.clear();
		const reason = await surface.run(authentication, RESTRICTED);
		expect(sim.journal.entries.map((e) => `${e.method} ${String(e.pathname)}`)).toEqual([]);
		expect(reason).toContain('Domain not allowed');
		expect(reason).toContain(new URL(sim.apiUrl).host);
		expect(reason).toContain('other.example');
	});

	test('unrestricted: the same surface reaches the service', async () => {
		sim.journal.clear();
		await surface.run(authentication, UNRESTRICTED);
		expect(sim.journal.entries.length).toBeGreaterThan(0);
	});
});
