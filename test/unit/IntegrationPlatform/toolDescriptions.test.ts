/**
 * The action node as AI tools (docs/n8n-notes.md, "The node as an AI tool"): every operation's
 * description says what it returns, list operations say how a cut list looks, and the example MCP
 * server (examples/mcp-server.json) hands each tool its operation's description and a described,
 * typed $fromAI argument for everything the model fills in.
 *
 * The convention: an operation's description says what it does, then has a sentence starting with
 * "Returns" that says what the output holds. The editor shows it to people, so it says nothing about
 * AI tools; what only a model needs (a list cut by Limit ends, as a tool answer, with an item
 * listCutAtLimit) is in the tool's own description (examples/mcp-server.json) and in the Limit
 * argument's $fromAI description.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { RESOURCES } from '../../../nodes/IntegrationPlatform/resources';

const TOOL_TYPE = 'n8n-nodes-integration-platform.integrationPlatformTool';
/** What a list tool's description adds for the model (routing/results.ts, entriesUpToLimit). */
const TOOL_LIST_CUT = 'When the limit cuts the list, a last item with listCutAtLimit says so.';
const properties = new IntegrationPlatform().description.properties;

const operations = RESOURCES.flatMap((resource) =>
	(resource.operations.options as INodePropertyOptions[]).map((option) => ({
		key: `${resource.value}.${String(option.value)}`,
		resource: resource.value,
		operation: String(option.value),
		action: String(option.action),
		description: String(option.description ?? ''),
	})),
);

/**
 * n8n's lint rule node-param-description-wrong-for-upsert requires this exact text for an
 * operation whose value is `upsert`, and the verification scan ignores inline disables.
 */
const LINT_FIXED: Record<string, string> = {
	'customField.upsert':
		'Create a new record, or update the current one if it already exists (upsert)',
};

/** The operations that show the Limit field. */
const limited = new Set(
	properties
		.filter((p) => p.name === 'limit')
		.flatMap((p) => {
			const show = p.displayOptions?.show ?? {};
			const resources = (show.resource ?? []) as string[];
			const ops = (show.operation ?? []) as string[];
			return resources.flatMap((r) => ops.map((o) => `${r}.${o}`));
		}),
);

describe('operation descriptions, as tools show them', () => {
	test('the node has operations and some of them have a Limit', () => {
		expect(operations.length).toBeGreaterThan(80);
		expect(limited.size).toBeGreaterThan(10);
		expect([...limited].every((key) => operations.some((o) => o.key === key))).toBe(true);
	});

	test('the one description n8n lint fixes is the text lint requires', () => {
		for (const [key, text] of Object.entries(LINT_FIXED)) {
			expect(operations.find((o) => o.key === key)?.description).toBe(text);
		}
	});

	test.each(operations.filter((o) => !(o.key in LINT_FIXED)).map((o) => [o.key, o] as const))(
		'%s says what it does and what it returns',
		(_key, o) => {
			const [does, ...rest] = o.description.split(/(?<=[.:;)]) (?=Returns )/);
			expect(rest.length).toBe(1);
			expect(does.length).toBeGreaterThanOrEqual(10);
			expect(rest[0]).toMatch(/^Returns \S.{5,}\.$/);
			// One line, no HTML, not a repetition of the action.
			expect(o.description).not.toMatch(/[\n<>]/);
			expect(o.description.toLowerCase()).not.toBe(o.action.toLowerCase());
			expect(o.description.length).toBeLessThanOrEqual(320);
		},
	);

	test.each(operations.map((o) => [o.key, o] as const))(
		'%s speaks to people: nothing about AI tools or their list marker',
		(_key, o) => {
			expect(o.description).not.toMatch(/\bAI\b|\btools?\b|listCutAtLimit|\bmodel\b/i);
		},
	);

	test.each([...limited].sort())('%s says that Limit applies unless Return All is on', (key) => {
		const o = operations.find((op) => op.key === key)!;
		expect(o.description).toContain('(at most Limit of them unless Return All is on)');
	});
	test('a description without "Returns" fails the check', () => {
		const split = 'List the topics of a project'.split(/(?<=[.:;)]) (?=Returns )/);
		expect(split.length).toBe(1);
	});
});

describe('examples/mcp-server.json', () => {
	const workflow = JSON.parse(
		fs.readFileSync(path.join(__dirname, '../../../examples/mcp-server.json'), 'utf8'),
	);
	const trigger = workflow.nodes.find(
		(n: { type: string }) => n.type === '@n8n/n8n-nodes-langchain.mcpTrigger',
	);
	const tools: Array<{ name: string; parameters: any; credentials: object }> =
		workflow.nodes.filter((n: { type: string }) => n.type === TOOL_TYPE);

	test('an MCP Server Trigger with the everyday operations as tools, each connected to it', () => {
		expect(trigger.parameters.path).toBe('integration-platform');
		expect(
			tools.map((n: any) => `${n.name}: ${n.parameters.resource}.${n.parameters.operation}`),
		).toEqual([
			'list_projects: project.getAll',
			'list_connections: connection.getAll',
			'get_connection: connection.get',
			'list_installations: installation.getAllInProject',
			'get_operation_logs: operation.getLogs',
			'write_records: records.write',
			'search_records: records.search',
			'send_provider_request: providerApi.sendRequest',
		]);
		for (const tool of tools) {
			expect(workflow.connections[tool.name]).toEqual({
				ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]],
			});
			// Tool names are the node names; n8n's tool name allows these characters only.
			expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
			expect(Object.keys(tool.credentials)).toEqual(['integrationPlatformApi']);
		}
	});

	test.each(tools.map((n: any) => [n.name, n] as const))(
		"%s: the tool's description is its operation's description, and for a list how a cut list ends",
		(_name, tool: any) => {
			const o = operations.find(
				(op) =>
					op.resource === tool.parameters.resource && op.operation === tool.parameters.operation,
			)!;
			// n8n's automatic tool description is only "<action> in Integration Platform".
			expect(tool.parameters.descriptionType).toBe('manual');
			const key = `${tool.parameters.resource}.${tool.parameters.operation}`;
			expect(tool.parameters.toolDescription).toBe(
				limited.has(key) ? `${o.description} ${TOOL_LIST_CUT}` : o.description,
			);
		},
	);

	test.each(tools.map((n: any) => [n.name, n] as const))(
		'%s: every argument the model fills in is described and typed, lists stop at a limit',
		(_name, tool: any) => {
			const calls = [
				...JSON.stringify(tool.parameters).matchAll(
					/\$fromAI\('([^']+)', '((?:[^'\\]|\\.)*)', '(string|number|boolean|json)'(?:, ([^)]+))?\)/g,
				),
			];
			const all = JSON.stringify(tool.parameters).match(/\$fromAI\(/g) ?? [];
			expect(calls.length).toBe(all.length);
			expect(calls.length).toBeGreaterThan(0);
			for (const [, key, description] of calls) {
				expect(key).toMatch(/^[a-z_]{1,64}$/);
				expect(description.length).toBeGreaterThanOrEqual(20);
			}
			const key = `${tool.parameters.resource}.${tool.parameters.operation}`;
			if (limited.has(key)) {
				expect(tool.parameters.returnAll).toBe(false);
				expect(tool.parameters.limit).toMatch(/\$fromAI\('limit', '[^']*listCutAtLimit was cut/);
			}
		},
	);

	test('every parameter set in a tool node is one of the node’s fields', () => {
		const names = new Set(properties.map((p: INodeProperties) => p.name));
		for (const tool of tools) {
			for (const name of Object.keys(tool.parameters)) {
				if (name === 'descriptionType' || name === 'toolDescription') continue;
				expect({ tool: tool.name, name, known: names.has(name) }).toEqual({
					tool: tool.name,
					name,
					known: true,
				});
			}
		}
	});
});
