/**
 * The version smoke: the packed package in an n8n 2.x other than the pinned 2.41.1, the one
 * N8N_RUNTIME_VERSION names (`npm test` runs this file once per folder of
 * test/harness/runtime-versions/; docs/testing.md, "Other n8n versions"). In that n8n: the nodes
 * and credentials load; one example workflow per action-node resource runs against the simulator
 * with the output the full e2e suite expects; the log trigger and the event trigger each start one
 * execution; the MCP Server Trigger lists the action node's tools and calls two of them.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';

import { expectations, runExample } from '../harness/actionExpectations';
import { readExample, setUpE2e, type E2eContext } from '../harness/e2eContext';
import { registrationState, startSim, type Sim } from '../harness/eventTriggerSim';
import {
	startSimulator as startLogSimulator,
	type LogSimulator,
} from '../harness/logTriggerEngine';
import { connectMcp, type McpSession } from '../harness/mcpClient';
import { SEED } from '../harness/actionEngine';
import { sleep, until } from '../harness/wait';

jest.setTimeout(180_000);

const PACKAGE = 'n8n-nodes-integration-platform';
const info = JSON.parse(fs.readFileSync(process.env.N8N_E2E_INFO as string, 'utf8')) as {
	version: string;
	cookie: string;
};

/**
 * The example run for each resource of the action node: a mix of reads and writes, both
 * credentials, and the two operations that run in code (Record → Write, Provider API → Send
 * Request). Checked against the resources n8n loaded, so a new resource needs an entry here.
 */
const EXAMPLE_PER_RESOURCE: Record<string, string> = {
	apiKey: 'api-key-get-many',
	claimedDomain: 'claimed-domain-claim',
	connection: 'connection-generate',
	customField: 'custom-field-upsert',
	destination: 'destination-create',
	installation: 'installation-get-many',
	integration: 'integration-upsert-many',
	invite: 'invite-create',
	jwtKey: 'jwt-key-get',
	notificationEventTopicRoute: 'notification-event-topic-route-create',
	oauth: 'oauth-get-authorization-url',
	objectMetadata: 'object-metadata-get-for-installation',
	operation: 'operation-get-logs',
	organization: 'organization-get-members',
	project: 'project-get-many',
	provider: 'provider-get',
	providerApi: 'provider-api-send-request',
	providerApp: 'provider-app-update',
	records: 'records-write',
	revision: 'revision-get-hydrated',
	topic: 'topic-update',
	topicDestinationRoute: 'topic-destination-route-get-many',
	uploadUrl: 'upload-url-generate',
	user: 'user-get-current',
};

let ctx: E2eContext;
beforeAll(async () => {
	process.stderr.write(`\n[e2e-versions] n8n ${info.version}\n`);
	ctx = await setUpE2e(`version smoke ${info.version}`);
});
afterAll(async () => await ctx?.sim.close());

/** What the editor loads: n8n's node and credential type files (owner session). */
async function typeFile(name: 'nodes' | 'credentials'): Promise<Array<Record<string, any>>> {
	const res = await fetch(`${ctx.n8n.baseUrl}/types/${name}.json`, {
		headers: { cookie: info.cookie },
	});
	expect(res.status).toBe(200);
	return (await res.json()) as Array<Record<string, any>>;
}

test('n8n runs the version asked for', async () => {
	const expected = process.env.N8N_RUNTIME_VERSION;
	if (!expected) console.log('N8N_RUNTIME_VERSION is not set: this is the pinned n8n');
	const res = await fetch(`${ctx.n8n.baseUrl}/rest/settings`, {
		headers: { cookie: info.cookie },
	});
	const settings = ((await res.json()) as { data: { versionCli: string } }).data;
	expect(settings.versionCli).toBe(info.version);
	if (expected) expect(info.version).toBe(expected);
});

/** The package's nodes as n8n loaded them. */
async function packageNodes(): Promise<Array<Record<string, any>>> {
	return (await typeFile('nodes')).filter((n) => n.name.startsWith(`${PACKAGE}.`));
}

/** The resources n8n shows in the action node's Resource selector. */
async function loadedResources(): Promise<string[]> {
	const action = (await packageNodes()).find((n) => n.name === `${PACKAGE}.integrationPlatform`);
	expect(action).toBeDefined();
	const resource = (action!.properties as Array<Record<string, any>>).find(
		(p) => p.name === 'resource',
	)!;
	// n8n adds its own "Custom API Call" (__CUSTOM_API_CALL__) to a node with credentials.
	return (resource.options as Array<{ value: string }>)
		.map((o) => o.value)
		.filter((value) => value !== '__CUSTOM_API_CALL__');
}

describe('the package loads', () => {
	test('its three nodes and the action node as a tool', async () => {
		const nodes = await packageNodes();
		expect(nodes.map((n) => n.name).sort()).toEqual(
			[
				'integrationPlatform',
				'integrationPlatformLogTrigger',
				'integrationPlatformTool',
				'integrationPlatformTrigger',
			].map((name) => `${PACKAGE}.${name}`),
		);
		expect((await loadedResources()).length).toBeGreaterThan(0);
	});

	test('its three credentials', async () => {
		const names = (await typeFile('credentials')).map((c) => c.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'integrationPlatformApi',
				'integrationPlatformTokenApi',
				'integrationPlatformSigningSecretApi',
			]),
		);
	});

	test('one example is chosen for each resource n8n shows, and each has its expectation', async () => {
		// Read here, not left over from the test above: this test runs alone too (jest -t).
		const resources = await loadedResources();
		expect(resources.length).toBeGreaterThan(0);
		expect(Object.keys(EXAMPLE_PER_RESOURCE).sort()).toEqual([...resources].sort());
		for (const [resource, example] of Object.entries(EXAMPLE_PER_RESOURCE)) {
			const node = readExample(`${example}.json`).nodes.find((n: { type: string }) =>
				n.type.endsWith('.integrationPlatform'),
			);
			expect({ example, resource: node.parameters.resource }).toEqual({ example, resource });
			expect(expectations[example]).toBeDefined();
		}
	});
});

describe('one example workflow per action-node resource runs against the simulator', () => {
	test.each(Object.entries(EXAMPLE_PER_RESOURCE))(
		'%s: %s',
		async (_resource, name) => await runExample(ctx, name),
	);
});

describe('the triggers', () => {
	test('the log trigger starts one execution with a new log entry', async () => {
		const TRIGGER = 'Integration Platform Log Trigger';
		const sim: LogSimulator = await startLogSimulator();
		let workflowId: string | undefined;
		try {
			const credential = await ctx.n8n.createCredential({
				type: 'integrationPlatformApi',
				name: `Simulator API key (log trigger, ${info.version})`,
				data: { apiKey: SEED.apiKey, baseUrl: sim.apiUrl, readUrl: sim.readUrl },
			});
			const example = readExample('log-trigger.json');
			example.name = `log trigger smoke ${crypto.randomUUID().slice(0, 8)}`;
			workflowId = (await ctx.n8n.createWorkflow(example, { integrationPlatformApi: credential }))
				.id;
			const polls = () =>
				sim.journal.find({ routeId: 'listOperationLogs' }).filter((e) => e.status !== null).length;
			// Every activation polls at once; the first records "start from now" and emits nothing.
			await ctx.n8n.api('POST', `/workflows/${workflowId}/activate`);
			await until('the activation poll', () => polls() > 0 || undefined);
			await until('the persisted cursor', async () => {
				const stored = await ctx.n8n.api('GET', `/workflows/${workflowId}`);
				return stored.staticData?.[`node:${TRIGGER}`]?.logCursor ?? undefined;
			});
			await ctx.n8n.api('POST', `/workflows/${workflowId}/deactivate`);
			const entry = sim.appendLog(SEED.operationId, {
				severity: 'ERROR',
				message: { msg: `version smoke ${info.version}` },
			});
			const before = polls();
			await ctx.n8n.api('POST', `/workflows/${workflowId}/activate`);
			await until('the next poll', () => polls() > before || undefined);
			const id = workflowId;
			const runs = await until('the trigger execution', async () => {
				const all = (await ctx.n8n.executions(id, true)).filter((e) => e.stoppedAt);
				return all.length ? all : undefined;
			});
			await sleep(1000);
			expect(await ctx.n8n.executions(id)).toHaveLength(1);
			expect(runs[0].status).toBe('success');
			const items = runs[0].data.resultData.runData[TRIGGER][0].data.main[0].map(
				(i: { json: Record<string, any> }) => i.json,
			);
			expect(items).toEqual([
				expect.objectContaining({
					timestamp: entry.timestamp,
					severity: 'ERROR',
					operationId: SEED.operationId,
					message: expect.objectContaining({ msg: `version smoke ${info.version}` }),
				}),
			]);
		} finally {
			if (workflowId)
				await ctx.n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
			await sim.close();
		}
	});

	test('the event trigger registers itself and starts one execution for a signed delivery', async () => {
		const TRIGGER = 'Integration Platform Trigger';
		// n8n runs on http here; the simulator's default wants https webhook URLs.
		const sim: Sim = await startSim({ httpsWebhooksOnly: false });
		let workflowId: string | undefined;
		try {
			const credential = await ctx.n8n.createCredential({
				type: 'integrationPlatformApi',
				name: `Simulator API key (event trigger, ${info.version})`,
				data: { apiKey: SEED.apiKey, baseUrl: sim.apiUrl, readUrl: sim.readUrl },
			});
			const example = readExample('event-trigger.json');
			const webhookId = crypto.randomUUID();
			example.name = `event trigger smoke ${webhookId.slice(0, 8)}`;
			const trigger = example.nodes.find((n: { name: string }) => n.name === TRIGGER);
			trigger.webhookId = webhookId;
			workflowId = (await ctx.n8n.createWorkflow(example, { integrationPlatformApi: credential }))
				.id;
			const url = `${ctx.n8n.baseUrl}/webhook/${webhookId}/webhook`;
			const seeded = JSON.stringify(registrationState(sim));
			await ctx.n8n.api('POST', `/workflows/${workflowId}/activate`);
			const destination = trigger.parameters.destinationName as string;
			// Complete once the last step, the topic-destination route, exists.
			await until('the registration', () => {
				const state = registrationState(sim);
				const topic = state.topics.find((t) => t.name === destination);
				return topic && state.topicDestinationRoutes.some((r) => r.topicId === topic.id)
					? true
					: undefined;
			});
			expect(registrationState(sim).destinations.find((d) => d.name === destination)?.url).toBe(
				url,
			);
			// n8n serves the production URL shortly after activation.
			await until('the production webhook', async () => {
				const res = await fetch(url, { method: 'POST', body: '{}' });
				await res.arrayBuffer();
				return res.status === 404 ? undefined : true;
			});
			const [delivery] = await sim.emitNotification('connection.created');
			expect({ state: delivery.state, status: delivery.attempts[0].status }).toEqual({
				state: 'delivered',
				status: 200,
			});
			const id = workflowId;
			const runs = await until('the trigger execution', async () => {
				const all = (await ctx.n8n.executions(id, true)).filter((e) => e.stoppedAt);
				return all.length ? all : undefined;
			});
			await sleep(1000);
			expect(await ctx.n8n.executions(id)).toHaveLength(1);
			expect(runs[0].status).toBe('success');
			const items = runs[0].data.resultData.runData[TRIGGER][0].data.main[0].map(
				(i: { json: Record<string, any> }) => i.json,
			);
			expect(items).toEqual([
				expect.objectContaining({
					notificationType: 'connection.created',
					delivery: expect.objectContaining({ id: delivery.id, verified: true }),
				}),
			]);
			// Deactivation takes the registration back.
			await ctx.n8n.api('POST', `/workflows/${workflowId}/deactivate`);
			workflowId = undefined;
			await until('the registration to be removed', () =>
				JSON.stringify(registrationState(sim)) === seeded ? true : undefined,
			);
		} finally {
			if (workflowId)
				await ctx.n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
			await sim.close();
		}
	});
});

describe('the action node as MCP tools', () => {
	const TOOL_TYPE = `${PACKAGE}.integrationPlatformTool`;
	const example = readExample('mcp-server.json');
	let mcp: McpSession | undefined;
	let workflowId: string | undefined;

	beforeAll(async () => {
		const path = `mcp-smoke-${crypto.randomUUID()}`;
		const nodes = example.nodes.map((node: any) =>
			node.type === '@n8n/n8n-nodes-langchain.mcpTrigger'
				? { ...node, webhookId: crypto.randomUUID(), parameters: { ...node.parameters, path } }
				: node,
		);
		workflowId = (
			await ctx.n8n.createWorkflow(
				{ ...example, name: `${example.name} (${path})`, nodes },
				{ integrationPlatformApi: ctx.credentials.integrationPlatformApi },
			)
		).id;
		await ctx.n8n.api('POST', `/workflows/${workflowId}/activate`);
		mcp = await connectMcp(ctx.n8n.baseUrl, path);
	});
	afterAll(async () => {
		await mcp?.close().catch(() => undefined);
		if (workflowId)
			await ctx.n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
	});

	test('n8n lists one tool per tool node of the example', async () => {
		const tools = (await mcp!.client.listTools()).tools;
		expect(tools.map((tool) => tool.name).sort()).toEqual(
			example.nodes
				.filter((node: any) => node.type === TOOL_TYPE)
				.map((node: any) => node.name)
				.sort(),
		);
	});

	test('a routed operation (list_projects) answers with the simulator’s data', async () => {
		ctx.sim.journal.clear();
		const answer = await mcp!.call('list_projects', { limit: 20 });
		expect(answer.isError).toBe(false);
		expect(JSON.parse(answer.text)).toEqual([
			expect.objectContaining({ id: SEED.projectId, name: SEED.projectName }),
		]);
		expect(ctx.sim.journal.entries.map((e) => `${e.method} ${e.pathname ?? e.path}`)).toEqual([
			'GET /v1/projects',
		]);
	});

	test('an operation that runs in code (write_records) writes the record', async () => {
		ctx.sim.journal.clear();
		const answer = await mcp!.call('write_records', {
			project: SEED.projectName,
			integration: SEED.integrationId,
			group_ref: SEED.groupRef,
			object: 'contacts',
			record: { email: 'ada@acme.example', firstname: 'Ada' },
		});
		expect(answer.isError).toBe(false);
		expect(JSON.parse(answer.text)).toEqual([
			expect.objectContaining({ success: true, recordId: expect.stringMatching(/^\d+$/) }),
		]);
		expect(ctx.sim.journal.entries.map((e) => `${e.method} ${e.pathname ?? e.path}`)).toEqual([
			`POST /v1/projects/${SEED.projectName}/integrations/${SEED.integrationId}/objects/contacts`,
		]);
	});
});
