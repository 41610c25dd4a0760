/**
 * Record → Write's resource mapper in a real n8n, built as a user builds it: the fields are
 * loaded through the REST endpoint the editor calls when the mapper opens
 * (`POST /rest/dynamic-node-parameters/resource-mapper-fields`, with the owner's session), the
 * returned schema goes into a version 2 node's `columns` in "Map Each Column Manually" with
 * expressions, and the workflow runs; the records are then read from the simulator's store.
 * Search's field list comes from the editor's options endpoint the same way, and the mapper's
 * values take `$fromAI()` when the node is an MCP tool. Values are sent as given or refused
 * (`{{ 1/0 }}`), an input field named `__proto__` reaches the provider, and metadata with a value
 * type such as `__proto__` (served through a simulator fault) still gives a workflow that runs.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';

import { SEED } from '../harness/actionEngine';
import { setUpE2e, type E2eContext } from '../harness/e2eContext';
import { connectMcp } from '../harness/mcpClient';

jest.setTimeout(180_000);

let ctx: E2eContext;
beforeAll(async () => (ctx = await setUpE2e('records mapping')));
afterAll(async () => await ctx.sim.close());

const NODE_TYPE = 'n8n-nodes-integration-platform.integrationPlatform';
type Json = Record<string, any>;

/** A request to n8n's internal REST API with the owner's session, as the editor sends it. */
async function editorRequest(path: string, body: unknown): Promise<any> {
	const { baseUrl, cookie } = JSON.parse(fs.readFileSync(process.env.N8N_E2E_INFO!, 'utf8')) as {
		baseUrl: string;
		cookie: string;
	};
	const response = await fetch(`${baseUrl}/rest${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`POST /rest${path}: ${response.status} ${text.slice(0, 500)}`);
	return (JSON.parse(text) as { data: unknown }).data;
}

const locators = (object: string) => ({
	project: { __rl: true, mode: 'id', value: SEED.projectId },
	integration: { __rl: true, mode: 'id', value: SEED.integrationId },
	groupRef: { __rl: true, mode: 'id', value: SEED.groupRef },
	object: { __rl: true, mode: 'id', value: object },
});

/** What the editor asks for when the mapper of a Record → Write v2 node opens. */
async function mapperFields(writeType: string, object = 'contacts'): Promise<Json[]> {
	return (await mapperAnswer(writeType, object)).fields as Json[];
}

/** The editor's whole answer: the fields and, when given, the notice it shows instead of them. */
async function mapperAnswer(writeType: string, object = 'contacts'): Promise<Json> {
	return (await editorRequest('/dynamic-node-parameters/resource-mapper-fields', {
		nodeTypeAndVersion: { name: NODE_TYPE, version: 2 },
		path: 'parameters.columns',
		methodName: 'getRecordFields',
		currentNodeParameters: {
			authentication: 'apiKey',
			resource: 'records',
			operation: 'write',
			writeType,
			recordSource: 'mapper',
			...locators(object),
		},
		credentials: { integrationPlatformApi: ctx.credentials.integrationPlatformApi },
	})) as Json;
}

function writeWorkflow(name: string, items: Json[], parameters: Json, typeVersion = 2) {
	return {
		name,
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` },
				name: 'People',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
			},
			{
				parameters,
				name: 'Write',
				type: NODE_TYPE,
				typeVersion,
				position: [400, 0],
				credentials: { integrationPlatformApi: { id: '1', name: 'x' } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'People', type: 'main', index: 0 }]] },
			People: { main: [[{ node: 'Write', type: 'main', index: 0 }]] },
		},
	};
}

const contacts = () =>
	(ctx.sim.state.records as Map<string, Map<string, { fields: Json }>>).get(
		`${SEED.installationId}/contacts`,
	) ?? new Map<string, { fields: Json }>();
const writes = () => ctx.sim.journal.entries.filter((entry) => entry.routeId === 'writeRecords');

describe('Record → Write v2 with the resource mapper, in real n8n', () => {
	test("the editor's mapper fields: writable, typed, required as the metadata says", async () => {
		const fields = await mapperFields('create');
		const byId = Object.fromEntries(fields.map((f) => [f.id, f]));
		expect(Object.keys(byId)).not.toContain('hs_object_id');
		expect(Object.keys(byId)).not.toContain('createdate');
		expect(byId.email).toMatchObject({ type: 'string', required: true, display: true });
		expect(byId.lifecyclestage.type).toBe('options');
		expect(byId.lifecyclestage.options.map((o: Json) => o.value)).toEqual([
			'subscriber',
			'lead',
			'customer',
		]);
		expect(byId.hs_email_optout.type).toBe('boolean');
		console.log(`[records mapping] mapper fields: ${fields.map((f) => f.id).join(', ')}`);
	});

	test('Map Each Column Manually with expressions creates the records, then Update matches on the record ID', async () => {
		const tag = `map-${Date.now()}`;
		const people = [
			{ mail: `${tag}-ada@example.com`, fullName: 'Ada Lovelace', stage: 'lead' },
			{ mail: `${tag}-alan@example.com`, fullName: 'Alan Turing', stage: 'customer' },
		];
		const schema = await mapperFields('create');
		ctx.sim.journal.clear();
		const created = await ctx.n8n.runWorkflow(
			writeWorkflow('records mapping: create', people, {
				resource: 'records',
				operation: 'write',
				writeType: 'create',
				...locators('contacts'),
				columns: {
					mappingMode: 'defineBelow',
					value: {
						email: '={{ $json.mail }}',
						firstname: "={{ $json.fullName.split(' ')[0] }}",
						lastname: "={{ $json.fullName.split(' ')[1] }}",
						lifecyclestage: '={{ $json.stage }}',
						hs_email_optout: false,
					},
					matchingColumns: [],
					schema,
					attemptToConvertTypes: false,
					convertFieldsToString: false,
				},
			}),
			ctx.credentials,
		);
		expect(created.status).toBe('success');
		const out = created.output('Write');
		expect(out.map((item) => item.success)).toEqual([true, true]);
		expect(writes()).toHaveLength(1);
		const stored = out.map((item) => contacts().get(String(item.recordId))?.fields);
		expect(stored).toEqual([
			expect.objectContaining({
				email: people[0].mail,
				firstname: 'Ada',
				lastname: 'Lovelace',
				lifecyclestage: 'lead',
				hs_email_optout: false,
			}),
			expect.objectContaining({
				email: people[1].mail,
				firstname: 'Alan',
				lastname: 'Turing',
				lifecyclestage: 'customer',
			}),
		]);

		const updateSchema = await mapperFields('update');
		expect(updateSchema[0]).toMatchObject({ id: 'id', canBeUsedToMatch: true, defaultMatch: true });
		const updated = await ctx.n8n.runWorkflow(
			writeWorkflow('records mapping: update', [{ recordId: out[0].recordId, stage: 'customer' }], {
				resource: 'records',
				operation: 'write',
				writeType: 'update',
				...locators('contacts'),
				columns: {
					mappingMode: 'defineBelow',
					value: { id: '={{ $json.recordId }}', lifecyclestage: '={{ $json.stage }}' },
					matchingColumns: ['id'],
					schema: updateSchema,
					attemptToConvertTypes: false,
					convertFieldsToString: false,
				},
			}),
			ctx.credentials,
		);
		expect(updated.status).toBe('success');
		expect(updated.output('Write')[0]).toMatchObject({ success: true, recordId: out[0].recordId });
		expect(contacts().get(String(out[0].recordId))?.fields).toMatchObject({
			email: people[0].mail,
			lifecyclestage: 'customer',
		});
	});

	test('a mapped value of the wrong type fails its item before anything is sent, naming item, field and reason', async () => {
		ctx.sim.journal.clear();
		const run = await ctx.n8n.runWorkflow(
			writeWorkflow('records mapping: wrong type', [{ optOut: 'sometimes' }], {
				resource: 'records',
				operation: 'write',
				writeType: 'create',
				...locators('contacts'),
				columns: {
					mappingMode: 'defineBelow',
					value: { email: 'x@example.com', hs_email_optout: '={{ $json.optOut }}' },
					matchingColumns: [],
					schema: await mapperFields('create'),
					attemptToConvertTypes: false,
					convertFieldsToString: false,
				},
			}),
			ctx.credentials,
		);
		expect(run.status).toBe('error');
		expect(run.errors.Write?.message).toBe(
			`Item 0: "Unsubscribed from all email (hs_email_optout)" expects a boolean but we got 'sometimes'`,
		);
		expect(writes()).toHaveLength(0);
	});

	test("Map Automatically on contacts: the editor gets no 'no field to write' notice", async () => {
		// n8n's editor shows the notice whenever it does not list the fields, as in Map Automatically.
		const answer = await mapperAnswer('create');
		expect(answer.fields.length).toBeGreaterThan(1);
		expect(answer.emptyFieldsNotice).toBeUndefined();
	});

	test('metadata with the value type "__proto__": the editor offers a text field and the workflow runs', async () => {
		ctx.sim.faults.add({
			route: 'getObjectMetadataForInstallation',
			status: 200,
			body: {
				name: 'contacts',
				displayName: 'Contacts',
				fields: {
					email: { fieldName: 'email', displayName: 'Email', valueType: 'string' },
					odd: { fieldName: 'odd', displayName: 'Odd', valueType: '__proto__' },
				},
			},
		});
		let schema: Json[];
		try {
			schema = await mapperFields('create');
		} finally {
			ctx.sim.faults.clear();
		}
		ctx.sim.journal.clear();
		const email = `odd-${Date.now()}@example.com`;
		const run = await ctx.n8n.runWorkflow(
			writeWorkflow('records mapping: odd value type', [{ mail: email, odd: 'as text' }], {
				resource: 'records',
				operation: 'write',
				writeType: 'create',
				...locators('contacts'),
				columns: {
					mappingMode: 'defineBelow',
					value: { email: '={{ $json.mail }}', odd: '={{ $json.odd }}' },
					matchingColumns: [],
					schema,
					attemptToConvertTypes: false,
					convertFieldsToString: true,
				},
			}),
			ctx.credentials,
		);
		expect(run.errors.Write?.message).toBeUndefined();
		expect(run.status).toBe('success');
		expect(writes().map((entry) => (entry.body as Json).record)).toEqual([
			{ email, odd: 'as text' },
		]);
		expect(schema.map((field) => [field.id, field.type])).toEqual([
			['email', 'string'],
			['odd', 'string'],
		]);
	});

	test('Map Automatically: an input field named "__proto__" reaches the provider', async () => {
		ctx.sim.faults.add({
			route: 'getObjectMetadataForInstallation',
			status: 200,
			body: JSON.parse(
				'{"name":"contacts","fields":{"email":{"fieldName":"email","displayName":"Email","valueType":"string"},"__proto__":{"fieldName":"__proto__","displayName":"Proto","valueType":"string"}}}',
			),
		});
		let schema: Json[];
		try {
			schema = await mapperFields('create');
		} finally {
			ctx.sim.faults.clear();
		}
		expect(schema.map((field) => field.id)).toEqual(['email', '__proto__']);
		const email = `proto-${Date.now()}@example.com`;
		const workflow = writeWorkflow('records mapping: __proto__', [], {
			resource: 'records',
			operation: 'write',
			writeType: 'create',
			...locators('contacts'),
			columns: {
				mappingMode: 'autoMapInputData',
				value: null,
				matchingColumns: [],
				schema,
				attemptToConvertTypes: false,
				convertFieldsToString: true,
			},
		});
		// An object literal would set the prototype: the item is parsed from JSON, as data arrives.
		workflow.nodes[1].parameters = {
			jsCode: `return [{ json: JSON.parse(${JSON.stringify(JSON.stringify({ email }).replace('}', ',"__proto__":"proto value"}'))}) }];`,
		};
		ctx.sim.journal.clear();
		const run = await ctx.n8n.runWorkflow(workflow, ctx.credentials);
		expect(run.errors.Write?.message).toBeUndefined();
		const record = (writes()[0]?.body as Json | undefined)?.record as Json;
		expect(Object.keys(record)).toEqual(['email', '__proto__']);
		expect(Object.getOwnPropertyDescriptor(record, '__proto__')?.value).toBe('proto value');
	});

	test('{{ 1/0 }} for a number field fails its item; nothing is sent (it went out as null)', async () => {
		ctx.sim.journal.clear();
		const run = await ctx.n8n.runWorkflow(
			writeWorkflow('records mapping: infinity', [{ name: 'Acme' }], {
				resource: 'records',
				operation: 'write',
				writeType: 'create',
				...locators('companies'),
				columns: {
					mappingMode: 'defineBelow',
					value: { name: '={{ $json.name }}', numberofemployees: '={{ 1/0 }}' },
					matchingColumns: [],
					schema: await mapperFields('create', 'companies'),
					attemptToConvertTypes: false,
					convertFieldsToString: true,
				},
			}),
			ctx.credentials,
		);
		expect(run.status).toBe('error');
		expect(run.errors.Write?.message).toBe(
			`Item 0: "Number of Employees (numberofemployees)" expects a finite number but we got 'Infinity'`,
		);
		expect(writes()).toHaveLength(0);
	});

	test('an empty item (version 1, Each Input Item) is refused; nothing reaches the write API', async () => {
		ctx.sim.journal.clear();
		const before = contacts().size;
		const run = await ctx.n8n.runWorkflow(
			writeWorkflow(
				'records mapping: empty item',
				[{}],
				{ resource: 'records', operation: 'write', writeType: 'create', ...locators('contacts') },
				1,
			),
			ctx.credentials,
		);
		expect(run.status).toBe('error');
		expect(run.errors.Write?.message).toBe(
			'Item 0 has nothing to write: the input item has no fields',
		);
		expect(writes()).toHaveLength(0);
		expect(contacts().size).toBe(before);
	});
});

describe("Record → Search v2's field list, in real n8n", () => {
	test("the editor's options: every field with its type, the value its name", async () => {
		const options = (await editorRequest('/dynamic-node-parameters/options', {
			nodeTypeAndVersion: { name: NODE_TYPE, version: 2 },
			path: 'parameters.fieldFilters.filter[0].fieldName',
			methodName: 'getSearchFields',
			currentNodeParameters: {
				authentication: 'apiKey',
				resource: 'records',
				operation: 'search',
				...locators('contacts'),
			},
			credentials: { integrationPlatformApi: ctx.credentials.integrationPlatformApi },
		})) as Json[];
		const byValue = Object.fromEntries(options.map((o) => [o.value, o.name]));
		expect(byValue.email).toBe('Email (email) — text');
		expect(byValue.hs_object_id).toBe('Record ID (hs_object_id) — text');
		expect(byValue.date_of_birth).toBe('Date of birth (date_of_birth) — date');
	});
});

describe('Record → Write v2 as an MCP tool, the mapped values from $fromAI', () => {
	test('the tool asks for each mapped field and writes exactly those', async () => {
		const path = `mapping-mcp-${crypto.randomUUID()}`;
		const schema = await mapperFields('create');
		const created = await ctx.n8n.createWorkflow(
			{
				name: `records mapping as a tool (${path})`,
				nodes: [
					{
						parameters: { path },
						name: 'MCP Server Trigger',
						type: '@n8n/n8n-nodes-langchain.mcpTrigger',
						typeVersion: 2,
						position: [0, 0],
						webhookId: crypto.randomUUID(),
					},
					{
						parameters: {
							resource: 'records',
							operation: 'write',
							writeType: 'create',
							...locators('contacts'),
							columns: {
								mappingMode: 'defineBelow',
								value: {
									email: "={{ $fromAI('email', 'The email address of the contact', 'string') }}",
									firstname:
										"={{ $fromAI('first_name', 'The first name of the contact', 'string') }}",
									lifecyclestage: 'subscriber',
								},
								matchingColumns: [],
								schema,
								attemptToConvertTypes: false,
								convertFieldsToString: false,
							},
							descriptionType: 'manual',
							toolDescription:
								"Create a contact in a consumer's CRM from an email and a first name",
						},
						name: 'create_contact',
						type: 'n8n-nodes-integration-platform.integrationPlatformTool',
						typeVersion: 2,
						position: [0, 200],
						credentials: { integrationPlatformApi: { id: '1', name: 'x' } },
					},
				],
				connections: {
					create_contact: {
						ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]],
					},
				},
			},
			ctx.credentials,
		);
		await ctx.n8n.api('POST', `/workflows/${created.id}/activate`);
		const mcp = await connectMcp(ctx.n8n.baseUrl, path);
		try {
			const { tools } = await mcp.client.listTools();
			const tool = tools.find((t) => t.name === 'create_contact');
			expect(Object.keys((tool?.inputSchema as Json).properties).sort()).toEqual([
				'email',
				'first_name',
			]);
			ctx.sim.journal.clear();
			const answer = await mcp.call('create_contact', {
				email: 'grace@tool.example',
				first_name: 'Grace',
			});
			console.log(`[records mapping] create_contact → ${answer.text}`);
			expect(answer.isError).toBe(false);
			expect(writes().map((entry) => (entry.body as Json).record)).toEqual([
				{ email: 'grace@tool.example', firstname: 'Grace', lifecyclestage: 'subscriber' },
			]);
		} finally {
			await mcp.close().catch(() => undefined);
			await ctx.n8n.api('POST', `/workflows/${created.id}/deactivate`).catch(() => undefined);
		}
	});
});
