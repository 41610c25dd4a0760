/**
 * The action node as MCP tools in a real n8n 2.41.1: examples/mcp-server.json (an MCP Server
 * Trigger with the everyday operations as tools) is activated, and the official MCP TypeScript
 * SDK's client lists and calls its tools over streamable HTTP. Asserted: the tools listed (names,
 * descriptions, input schemas), each tool's answer (the simulator's data) and the requests the
 * simulator received, a tool error for an invalid argument (naming the field), a tool error for a
 * refused credential, Retry On Fail on write_records after a write the answer did not confirm
 * (one record, an answer that says it may have been written), and no secret in any answer.
 */
import * as crypto from 'node:crypto';

import { SEED } from '../harness/actionEngine';
import { readExample, setUpE2e, type E2eContext } from '../harness/e2eContext';
import { connectMcp, type McpSession, type ToolAnswer } from '../harness/mcpClient';
import { RESOURCES } from '../../nodes/IntegrationPlatform/resources';

const TOOL_TYPE = 'n8n-nodes-integration-platform.integrationPlatformTool';
const example = readExample('mcp-server.json');

let ctx: E2eContext;
let mcp: McpSession;
const workflowIds: string[] = [];
/** Every answer of every tool call, for the secret check at the end. */
const answers: ToolAnswer[] = [];

/**
 * The example under a fresh path (and webhook ID), with the credential given; `settings` are
 * node settings for write_records (e.g. Retry On Fail).
 */
async function activate(
	credentialId: { id: string; name: string },
	settings: Record<string, unknown> = {},
): Promise<string> {
	const path = `mcp-e2e-${crypto.randomUUID()}`;
	const nodes = example.nodes.map((node: any) =>
		node.type === '@n8n/n8n-nodes-langchain.mcpTrigger'
			? { ...node, webhookId: crypto.randomUUID(), parameters: { ...node.parameters, path } }
			: node.name === 'write_records'
				? { ...node, ...settings }
				: node,
	);
	const created = await ctx.n8n.createWorkflow(
		{ ...example, name: `${example.name} (${path})`, nodes },
		{ integrationPlatformApi: credentialId },
	);
	workflowIds.push(created.id);
	await ctx.n8n.api('POST', `/workflows/${created.id}/activate`);
	return path;
}

async function call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
	ctx.sim.journal.clear();
	const answer = await mcp.call(name, args);
	answers.push(answer);
	console.log(
		`[mcp] ${name}(${JSON.stringify(args)}) →${answer.isError ? ' ERROR' : ''}\n${answer.text}`,
	);
	return answer;
}

const json = (answer: ToolAnswer) => {
	expect(answer.isError).toBe(false);
	return JSON.parse(answer.text);
};
const requests = () =>
	ctx.sim.journal.entries.map((entry) => `${entry.method} ${entry.pathname ?? entry.path}`);

beforeAll(async () => {
	ctx = await setUpE2e('mcp');
	mcp = await connectMcp(ctx.n8n.baseUrl, await activate(ctx.credentials.integrationPlatformApi));
});

afterAll(async () => {
	await mcp?.close().catch(() => undefined);
	// Deactivated, not deleted: the suite's secret scan reads every execution at the end.
	for (const id of workflowIds) {
		await ctx.n8n.api('POST', `/workflows/${id}/deactivate`).catch(() => undefined);
	}
	await ctx?.sim.close();
});

const toolNodes = example.nodes.filter((node: any) => node.type === TOOL_TYPE);

describe('the tools n8n lists', () => {
	let tools: Array<{ name: string; description?: string; inputSchema: any }>;
	beforeAll(async () => {
		tools = (await mcp.client.listTools()).tools;
		console.log(
			`[mcp] tools listed: ${tools.map((tool) => tool.name).join(', ')}\n` +
				tools
					.map(
						(tool) =>
							`${tool.name}: ${tool.description}\n  input: ${JSON.stringify(tool.inputSchema)}`,
					)
					.join('\n'),
		);
	});

	test('one tool per tool node of the example, named after the node', () => {
		expect(tools.map((tool) => tool.name).sort()).toEqual(
			[
				'get_connection',
				'get_operation_logs',
				'list_connections',
				'list_installations',
				'list_projects',
				'search_records',
				'send_provider_request',
				'write_records',
			].sort(),
		);
		expect(toolNodes.map((node: any) => node.name).sort()).toEqual(
			tools.map((tool) => tool.name).sort(),
		);
	});

	test("each tool's description is the one the workflow gives it: its operation's description, which says what it returns, and for a list how a cut list ends", () => {
		for (const node of toolNodes) {
			const resource = RESOURCES.find((r) => r.value === node.parameters.resource)!;
			const option = (
				resource.operations.options as Array<{ value: string; description: string }>
			).find((o) => o.value === node.parameters.operation)!;
			const tool = tools.find((t) => t.name === node.name)!;
			expect(tool.description).toBe(node.parameters.toolDescription);
			expect((tool.description ?? '').startsWith(option.description)).toBe(true);
			expect(tool.description).toMatch(/\bReturns\b/);
			if (node.parameters.limit !== undefined) expect(tool.description).toMatch(/listCutAtLimit/);
		}
	});

	test('input schemas: the $fromAI arguments, typed, described and required', () => {
		const schema = (name: string) => tools.find((t) => t.name === name)!.inputSchema;
		const shape = (name: string) =>
			Object.fromEntries(
				Object.entries(schema(name).properties as Record<string, any>).map(([key, p]) => [
					key,
					p.type ?? 'untyped',
				]),
			);
		expect(shape('list_projects')).toEqual({ limit: 'number' });
		expect(shape('list_connections')).toEqual({ project: 'string', limit: 'number' });
		expect(shape('get_connection')).toEqual({ project: 'string', connection_id: 'string' });
		expect(shape('list_installations')).toEqual({ project: 'string', limit: 'number' });
		expect(shape('get_operation_logs')).toEqual({
			project: 'string',
			operation_id: 'string',
			limit: 'number',
		});
		expect(shape('write_records')).toEqual({
			project: 'string',
			integration: 'string',
			group_ref: 'string',
			object: 'string',
			// A $fromAI argument of type json reaches the MCP schema without a type in n8n 2.41.1:
			// its description has to say that it is a JSON object.
			record: 'untyped',
		});
		expect(schema('write_records').properties.record.description).toMatch(/JSON object/);
		expect(shape('search_records')).toEqual({
			project: 'string',
			integration: 'string',
			group_ref: 'string',
			object: 'string',
			field_name: 'string',
			value: 'string',
		});
		expect(shape('send_provider_request')).toEqual({
			project: 'string',
			integration: 'string',
			installation_id: 'string',
			path: 'string',
		});
		for (const tool of tools) {
			const properties = tool.inputSchema.properties as Record<string, any>;
			for (const [key, property] of Object.entries(properties)) {
				expect({ tool: tool.name, key, description: property.description }).toEqual({
					tool: tool.name,
					key,
					description: expect.stringMatching(/\w.{19,}/),
				});
			}
			// Limit has a default (20); everything else must be given.
			const required = Object.keys(properties).filter(
				(key) => properties[key].default === undefined,
			);
			expect((tool.inputSchema.required ?? []).sort()).toEqual(
				expect.arrayContaining(required.sort()),
			);
		}
		expect(schema('list_projects').properties.limit.default).toBe(20);
		expect(schema('list_projects').properties.limit.description).toMatch(/listCutAtLimit/);
	});
});

describe('each tool answers with the simulator’s data and sends the request it should', () => {
	test('list_projects', async () => {
		const projects = json(await call('list_projects', { limit: 20 }));
		expect(projects).toEqual([
			expect.objectContaining({ id: SEED.projectId, name: SEED.projectName }),
		]);
		expect(requests()).toEqual(['GET /v1/projects']);
	});

	test('list_connections, and a list cut by the limit', async () => {
		const all = json(await call('list_connections', { project: SEED.projectName, limit: 20 }));
		expect(all.map((c: { id: string }) => c.id)).toContain(SEED.connectionId);
		expect(requests()).toEqual([`GET /v1/projects/${SEED.projectName}/connections`]);
		expect(all.length).toBeGreaterThan(1);
		// A list cut by the limit ends with an entry that says so (entriesUpToLimit).
		const cut = json(await call('list_connections', { project: SEED.projectName, limit: 1 }));
		expect(cut).toHaveLength(2);
		expect(cut[0]).toEqual(all[0]);
		expect(cut[1]).toEqual(
			expect.objectContaining({ listCutAtLimit: true, returned: 1, available: all.length }),
		);
	});

	test('get_connection', async () => {
		const connection = json(
			await call('get_connection', {
				project: SEED.projectName,
				connection_id: SEED.connectionId,
			}),
		);
		expect(connection).toEqual([
			expect.objectContaining({ id: SEED.connectionId, provider: SEED.provider }),
		]);
		expect(requests()).toEqual([
			`GET /v1/projects/${SEED.projectName}/connections/${SEED.connectionId}`,
		]);
	});

	test('list_installations', async () => {
		const installations = json(
			await call('list_installations', { project: SEED.projectName, limit: 20 }),
		);
		expect(installations).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ id: SEED.installationId, integrationId: SEED.integrationId }),
			]),
		);
		expect(requests()).toEqual([`GET /v1/projects/${SEED.projectName}/installations`]);
	});

	test('get_operation_logs: newest first, cut at the limit', async () => {
		const entries = json(
			await call('get_operation_logs', {
				project: SEED.projectName,
				operation_id: SEED.operationId,
				limit: 3,
			}),
		);
		// Three entries, then the note that the log has more.
		expect(entries).toHaveLength(4);
		expect(entries.pop()).toEqual(expect.objectContaining({ listCutAtLimit: true, returned: 3 }));
		for (const entry of entries) {
			expect(entry.message).toBeDefined();
			expect(entry).toEqual(
				expect.objectContaining({ timestamp: expect.any(String), severity: expect.any(String) }),
			);
		}
		const times = entries.map((entry: { timestamp: string }) => entry.timestamp);
		expect([...times].sort().reverse()).toEqual(times);
		expect(requests()).toEqual([
			`GET /v1/projects/${SEED.projectName}/operations/${SEED.operationId}/logs`,
		]);
	});

	test('write_records', async () => {
		const results = json(
			await call('write_records', {
				project: SEED.projectName,
				integration: SEED.integrationId,
				group_ref: SEED.groupRef,
				object: 'contacts',
				record: { email: 'grace@acme.example', firstname: 'Grace' },
			}),
		);
		// As a tool the node writes each call's record alone (the single-record form), and the
		// provider's answer for it comes back as data.
		expect(results).toEqual([
			{
				success: true,
				recordId: expect.stringMatching(/^\d+$/),
				operationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
				data: expect.objectContaining({ email: 'grace@acme.example' }),
			},
		]);
		const [write] = ctx.sim.journal.entries;
		expect(requests()).toEqual([
			`POST /v1/projects/${SEED.projectName}/integrations/${SEED.integrationId}/objects/contacts`,
		]);
		expect(JSON.stringify(write.body)).toContain('grace@acme.example');
		expect(write.headers['x-api-key']).toBe(SEED.apiKey);
	});

	test('search_records', async () => {
		const records = json(
			await call('search_records', {
				project: SEED.projectName,
				integration: SEED.integrationId,
				group_ref: SEED.groupRef,
				object: 'contacts',
				field_name: 'email',
				value: SEED.contactEmail,
			}),
		);
		expect(records).toEqual([
			expect.objectContaining({
				fields: expect.objectContaining({ email: SEED.contactEmail }),
			}),
		]);
		expect(requests()).toEqual([
			`POST /v1/projects/${SEED.projectName}/integrations/${SEED.integrationId}`,
		]);
		expect(ctx.sim.journal.entries[0].query).toEqual({ groupRef: SEED.groupRef });
	});

	test('send_provider_request', async () => {
		const answer = json(
			await call('send_provider_request', {
				project: SEED.projectId,
				integration: SEED.integrationId,
				installation_id: SEED.installationId,
				path: 'crm/v3/objects/contacts',
			}),
		);
		expect(answer).toHaveLength(1);
		expect(answer[0].results).toEqual(
			expect.arrayContaining([
				expect.objectContaining({
					id: '1001',
					properties: expect.objectContaining({ email: SEED.contactEmail }),
				}),
			]),
		);
		expect(requests()).toEqual(['GET /crm/v3/objects/contacts']);
	});
});

describe('write_records with Retry On Fail (n8n runs each try under a new run index, without an execution ID)', () => {
	let retrying: McpSession;
	beforeAll(async () => {
		retrying = await connectMcp(
			ctx.n8n.baseUrl,
			await activate(ctx.credentials.integrationPlatformApi, {
				retryOnFail: true,
				maxTries: 3,
				waitBetweenTries: 0,
			}),
		);
	});
	afterAll(async () => await retrying?.close().catch(() => undefined));

	const contacts = (email: string) => {
		const store = (ctx.sim.state.records as Map<string, Map<string, { fields: any }>>).get(
			`${SEED.installationId}/contacts`,
		);
		return [...(store?.values() ?? [])].filter((record) => record.fields.email === email);
	};
	const writeArgs = (email: string) => ({
		project: SEED.projectName,
		integration: SEED.integrationId,
		group_ref: SEED.groupRef,
		object: 'contacts',
		record: { email, firstname: 'Retry' },
	});

	test.each([
		['answered 500', { status: 500 }, 'mcp-retry-500@acme.example'],
		['the connection reset', { reset: true }, 'mcp-retry-reset@acme.example'],
	])(
		'stored, then %s: one request, one record, and the answer says it may have been written',
		async (_label, fault, email) => {
			ctx.sim.journal.clear();
			ctx.sim.faults.add({ route: 'writeRecords', processFirst: true, times: 1, ...fault });
			const answer = await retrying.call('write_records', writeArgs(email));
			answers.push(answer);
			console.log(`[mcp] write_records with Retry On Fail, ${_label} →\n${answer.text}`);
			expect(contacts(email)).toHaveLength(1);
			expect(ctx.sim.journal.entries.filter((e) => e.routeId === 'writeRecords')).toHaveLength(1);
			expect(answer.isError).toBe(true);
			expect(answer.text).toContain('The record may have been written');
			expect(answer.text).toContain('This node does not send them again');
		},
	);
});

describe('errors as tool answers', () => {
	test('an invalid argument: a tool error that names the field, nothing sent', async () => {
		const answer = await call('get_connection', { project: SEED.projectName, connection_id: '..' });
		expect(answer.isError).toBe(true);
		expect(answer.text).toContain('"Connection"');
		expect(answer.text).toContain('No request was sent');
		expect(ctx.sim.journal.entries).toEqual([]);
	});

	test('an argument of the wrong type: a tool error that names the argument', async () => {
		const answer = await call('list_projects', { limit: 'twenty' });
		expect(answer.isError).toBe(true);
		expect(answer.text).toContain('limit');
		expect(ctx.sim.journal.entries).toEqual([]);
	});

	test('a credential the service refuses: a tool error that says so', async () => {
		const wrong = await ctx.n8n.createCredential({
			type: 'integrationPlatformApi',
			name: 'Wrong key (mcp)',
			data: { apiKey: 'amp_wrong_mcp_key', baseUrl: ctx.sim.apiUrl, readUrl: ctx.sim.readUrl },
		});
		const refused = await connectMcp(ctx.n8n.baseUrl, await activate(wrong));
		try {
			ctx.sim.journal.clear();
			const answer = await refused.call('list_projects', { limit: 5 });
			answers.push(answer);
			console.log(`[mcp] list_projects with a refused API key → ERROR\n${answer.text}`);
			expect(answer.isError).toBe(true);
			expect(answer.text).toMatch(/401/);
			expect(answer.text).toMatch(/credential|API key/i);
			expect(answer.text).not.toContain('amp_wrong_mcp_key');
			expect(requests()).toEqual(['GET /v1/projects']);
			expect(ctx.sim.journal.entries[0].status).toBe(401);
		} finally {
			await refused.close();
		}
	});

	test('no answer holds a secret', () => {
		expect(answers.length).toBeGreaterThanOrEqual(14);
		for (const answer of answers) {
			expect(answer.text).not.toContain(SEED.apiKey);
			expect(answer.text).not.toContain(SEED.bearerToken);
		}
	});
});
