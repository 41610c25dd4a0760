/**
 * The action node as AI-agent tools in a real n8n 2.41.1: n8n's AI Agent, its OpenAI Chat Model
 * pointed at a scripted model server (test/harness/scriptedModel.ts), and two tool variants of the
 * action node (Connection → Get Many and Connection → Delete, their parameters from $fromAI) carry
 * out a two-step task against the simulator. No model service is needed: the server answers with
 * predetermined tool calls, and takes the connection ID for the second from the first's result.
 * A second run gives the agent two Record → Write tools: one whose record is a $fromAI argument
 * (Records From → JSON), with Retry On Fail, and one left on Records From → Each Input Item,
 * which a tool cannot use (it has no input item).
 */
import { SEED, type JournalEntry } from '../harness/actionEngine';
import { setUpE2e, type E2eContext, type ExecutionSummary } from '../harness/e2eContext';
import {
	finalText,
	startScriptedModel,
	toolCall,
	toolResult,
	messageText,
	type ChatRequest,
	type ScriptedModel,
} from '../harness/scriptedModel';

const GROUP = 'initech-group';
const CONSUMER = 'user-88';
const TARGET = SEED.deletableConnectionId;
const LIST_TOOL = 'Get_connections';
const DELETE_TOOL = 'Delete_connection';
const PROMPT = `Find the connection of consumer ${CONSUMER} in group ${GROUP} and delete it.`;
const FINAL = `The connection of ${CONSUMER} is deleted.`;

let ctx: E2eContext;
let model: ScriptedModel;
let run: ExecutionSummary;
let journal: JournalEntry[];
let before: string[];
/** the connection ID the script read from the list tool's result */
let idFromResult: string | undefined;

function offers(request: ChatRequest, name: string) {
	if (!request.tools?.some((t) => t.function.name === name))
		throw new Error(
			`tool ${name} not offered; got ${JSON.stringify(request.tools?.map((t) => t.function.name))}`,
		);
}

/** Every object in a parsed JSON value that looks like a connection of CONSUMER. */
function connectionsOfConsumer(value: unknown, found: Array<{ id: string }> = []) {
	if (Array.isArray(value)) value.forEach((v) => connectionsOfConsumer(v, found));
	else if (value && typeof value === 'object') {
		const record = value as { id?: unknown; consumer?: { consumerRef?: unknown } };
		if (typeof record.id === 'string' && record.consumer?.consumerRef === CONSUMER)
			found.push({ id: record.id });
		else Object.values(record).forEach((v) => connectionsOfConsumer(v, found));
	}
	return found;
}

const script = [
	// 1: list the consumer's connections.
	(request: ChatRequest) => {
		offers(request, LIST_TOOL);
		offers(request, DELETE_TOOL);
		return toolCall(LIST_TOOL, { groupRef: GROUP, consumerRef: CONSUMER });
	},
	// 2: delete the one connection the list returned; its ID is read from the tool result.
	(request: ChatRequest) => {
		const result = toolResult(request, LIST_TOOL);
		if (!result) throw new Error(`no tool result for ${LIST_TOOL} in the messages`);
		const found = connectionsOfConsumer(JSON.parse(messageText(result)));
		if (found.length !== 1)
			throw new Error(`expected one connection of ${CONSUMER}, got ${JSON.stringify(found)}`);
		idFromResult = found[0].id;
		return toolCall(DELETE_TOOL, { connectionId: idFromResult });
	},
	// 3: answer once the delete tool reported back.
	(request: ChatRequest) => {
		if (!toolResult(request, DELETE_TOOL))
			throw new Error(`no tool result for ${DELETE_TOOL} in the messages`);
		return finalText(FINAL);
	},
];

function agentWorkflow() {
	const credential = { integrationPlatformApi: { id: 'mapped', name: 'mapped' } };
	const project = { __rl: true, mode: 'name', value: SEED.projectName };
	return {
		name: 'AI Agent with Integration Platform tools',
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: { promptType: 'define', text: PROMPT, options: {} },
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3.1,
				position: [220, 0],
			},
			{
				parameters: {
					model: { __rl: true, mode: 'id', value: model.modelId },
					responsesApiEnabled: false,
					options: {},
				},
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.3,
				position: [120, 220],
				credentials: { openAiApi: { id: 'mapped', name: 'mapped' } },
			},
			{
				parameters: {
					descriptionType: 'manual',
					toolDescription:
						'List the connections of the project, filtered by group and consumer; each has an id',
					resource: 'connection',
					operation: 'getAll',
					project,
					returnAll: true,
					connectionFilters: {
						groupRef: "={{ $fromAI('groupRef', 'The group of the consumer', 'string') }}",
						consumerRef: "={{ $fromAI('consumerRef', 'The consumer', 'string') }}",
					},
				},
				name: 'Get connections',
				type: 'n8n-nodes-integration-platform.integrationPlatformTool',
				typeVersion: 1,
				position: [300, 220],
				credentials: credential,
			},
			{
				parameters: {
					descriptionType: 'manual',
					toolDescription: 'Delete one connection by its ID',
					resource: 'connection',
					operation: 'delete',
					project,
					connectionId: {
						__rl: true,
						mode: 'id',
						value: "={{ $fromAI('connectionId', 'The ID of the connection to delete', 'string') }}",
					},
				},
				name: 'Delete connection',
				type: 'n8n-nodes-integration-platform.integrationPlatformTool',
				typeVersion: 1,
				position: [460, 220],
				credentials: credential,
			},
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			'Get connections': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			'Delete connection': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}

const connectionIds = () => [...(ctx.sim.state.connections as Map<string, unknown>).keys()].sort();

beforeAll(async () => {
	ctx = await setUpE2e('ai agent');
	model = await startScriptedModel(script);
	const openAi = await ctx.n8n.createCredential({
		type: 'openAiApi',
		name: 'Scripted model (ai agent)',
		data: { apiKey: 'scripted-model-key', url: model.url, header: false },
	});
	ctx.sim.reset();
	before = connectionIds();
	run = await ctx.n8n.runWorkflow(agentWorkflow(), {
		...ctx.credentials,
		openAiApi: { id: openAi.id, name: openAi.name },
	});
	journal = [...ctx.sim.journal.entries];
	const lines = [
		`agent run ${run.id}: ${run.status}`,
		...model.chatRequests().map((r, i) => {
			const reply = r.reply
				? 'toolCalls' in r.reply
					? r.reply.toolCalls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join(', ')
					: `text ${JSON.stringify(r.reply.text)}`
				: 'no reply';
			const last = r.body?.messages.at(-1);
			return `model call ${i + 1}: ${r.body?.messages.length} messages, last ${last?.role} ${JSON.stringify(last ? messageText(last) : '').slice(0, 200)} → ${reply}`;
		}),
		...journal.map((e, i) => `simulator ${i + 1}: ${e.method} ${e.path} → ${e.status}`),
		`agent output: ${JSON.stringify(run.output('AI Agent'))}`,
	];
	console.log(`[e2e] AI Agent journal\n${lines.join('\n')}`);
});
afterAll(async () => {
	await model?.close();
	await ctx?.sim.close();
});

describe('an AI Agent with the action node as tools, driven by a scripted model', () => {
	test('the run succeeds and the agent gives the final answer', () => {
		expect({ status: run.status, error: run.error?.message, errors: run.errors }).toEqual({
			status: 'success',
			error: undefined,
			errors: {},
		});
		expect(run.output('AI Agent')).toEqual([expect.objectContaining({ output: FINAL })]);
	});

	test("the consumer's connection is gone and every other connection remains", async () => {
		expect(before).toContain(TARGET);
		expect(connectionIds()).toEqual(before.filter((id) => id !== TARGET));
		const res = await fetch(
			`${ctx.sim.apiUrl}/v1/projects/${SEED.projectName}/connections/${TARGET}`,
			{
				headers: { 'X-Api-Key': SEED.apiKey },
			},
		);
		await res.arrayBuffer();
		expect(res.status).toBe(404);
	});

	test('the simulator received exactly the filtered list, then the delete of that connection', () => {
		expect(
			journal.map((e) => ({
				method: e.method,
				pathname: e.pathname,
				query: e.query,
				status: e.status,
			})),
		).toEqual([
			{
				method: 'GET',
				pathname: `/v1/projects/${SEED.projectName}/connections`,
				query: { groupRef: GROUP, consumerRef: CONSUMER },
				status: 200,
			},
			{
				method: 'DELETE',
				pathname: `/v1/projects/${SEED.projectName}/connections/${TARGET}`,
				query: {},
				status: 204,
			},
		]);
	});

	test('the model was called three times and saw both tool results; the ID came from the list result', () => {
		const calls = model.chatRequests();
		expect(calls).toHaveLength(3);
		expect(calls.map((c) => c.body?.model)).toEqual([model.modelId, model.modelId, model.modelId]);
		expect(calls[0].body?.messages.map(messageText).join('\n')).toContain(PROMPT);
		// the ID the second call deleted was parsed from the list result the agent sent back
		expect(idFromResult).toBe(TARGET);
		const listResult = toolResult(calls[1].body!, LIST_TOOL)!;
		expect(listResult.tool_call_id).toBe(calls[0].toolCallIds?.[0]);
		expect(messageText(listResult)).toContain(TARGET);
		const deleteResult = toolResult(calls[2].body!, DELETE_TOOL)!;
		expect(deleteResult.tool_call_id).toBe(calls[1].toolCallIds?.[0]);
		expect(JSON.parse(messageText(deleteResult))).toEqual([
			expect.objectContaining({ deleted: true, connectionId: TARGET }),
		]);
		// the key of the OpenAI credential reached the model server, as with a real service
		expect(calls[0].headers.authorization).toBe('Bearer scripted-model-key');
	});

	test('each tool node ran once, with the arguments the model chose, and gave the result the model saw', () => {
		const toolRun = (name: string) => {
			const runs = run.runData[name] as unknown as Array<{
				inputOverride?: { ai_tool?: Array<Array<{ json: Record<string, unknown> }>> };
				data?: { ai_tool?: Array<Array<{ json: Record<string, unknown> }>> };
			}>;
			expect(runs).toHaveLength(1);
			return {
				input: runs[0].inputOverride?.ai_tool?.[0]?.map((i) => i.json),
				output: runs[0].data?.ai_tool?.[0]?.map((i) => i.json),
			};
		};
		const list = toolRun('Get connections');
		expect(list.input).toEqual([
			expect.objectContaining({ groupRef: GROUP, consumerRef: CONSUMER }),
		]);
		expect(list.output).toEqual([
			expect.objectContaining({
				id: TARGET,
				group: expect.objectContaining({ groupRef: GROUP }),
				consumer: expect.objectContaining({ consumerRef: CONSUMER }),
			}),
		]);
		const del = toolRun('Delete connection');
		expect(del.input).toEqual([expect.objectContaining({ connectionId: TARGET })]);
		expect(del.output).toEqual([{ deleted: true, connectionId: TARGET }]);
		// n8n ran the agent without streaming, the only mode the scripted model answers
		expect(model.chatRequests().map((c) => c.body?.stream === true)).toEqual([false, false, false]);
	});
});

const WRITE_TOOL = 'Write_contact';
const ITEM_TOOL = 'Write_contact_from_item';
const AGENT_EMAIL = 'agent-write@acme.example';

describe('Record → Write as an agent tool: the record comes from the arguments, written once under Retry On Fail', () => {
	let writer: ScriptedModel;
	let writeRun: ExecutionSummary;
	let writeJournal: JournalEntry[];
	const results: Record<string, string> = {};

	const writeScript = [
		(request: ChatRequest) => {
			offers(request, WRITE_TOOL);
			offers(request, ITEM_TOOL);
			return toolCall(ITEM_TOOL, {});
		},
		(request: ChatRequest) => {
			results[ITEM_TOOL] = messageText(toolResult(request, ITEM_TOOL)!);
			return toolCall(WRITE_TOOL, { record: { email: AGENT_EMAIL, firstname: 'Grace' } });
		},
		(request: ChatRequest) => {
			results[WRITE_TOOL] = messageText(toolResult(request, WRITE_TOOL)!);
			return finalText('Done.');
		},
	];

	function writeWorkflow() {
		const credential = { integrationPlatformApi: { id: 'mapped', name: 'mapped' } };
		const target = {
			resource: 'records',
			operation: 'write',
			writeType: 'create',
			project: { __rl: true, mode: 'name', value: SEED.projectName },
			integration: { __rl: true, mode: 'id', value: SEED.integrationId },
			groupRef: { __rl: true, mode: 'id', value: SEED.groupRef },
			object: { __rl: true, mode: 'id', value: 'contacts' },
		};
		const agent = agentWorkflow();
		return {
			name: 'AI Agent writing records',
			nodes: [
				...agent.nodes.filter((node) => !node.name.includes('onnection')),
				{
					parameters: {
						...target,
						descriptionType: 'manual',
						toolDescription: 'Create a contact; the record is a JSON object of its fields',
						recordSource: 'json',
						recordJson:
							"={{ $fromAI('record', 'The contact as a JSON object of field names and values', 'json') }}",
					},
					name: 'Write contact',
					type: 'n8n-nodes-integration-platform.integrationPlatformTool',
					typeVersion: 2,
					position: [300, 220],
					credentials: credential,
					retryOnFail: true,
					maxTries: 3,
					waitBetweenTries: 0,
				},
				{
					// Version 1 on its default Records From, Each Input Item (saved without it).
					parameters: {
						...target,
						descriptionType: 'manual',
						toolDescription: 'Create a contact from the input item',
					},
					name: 'Write contact from item',
					type: 'n8n-nodes-integration-platform.integrationPlatformTool',
					typeVersion: 1,
					position: [460, 220],
					credentials: credential,
				},
			],
			connections: {
				Start: agent.connections.Start,
				'OpenAI Chat Model': agent.connections['OpenAI Chat Model'],
				'Write contact': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
				'Write contact from item': {
					ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]],
				},
			},
		};
	}

	beforeAll(async () => {
		writer = await startScriptedModel(writeScript, { modelId: 'scripted-writer' });
		const openAi = await ctx.n8n.createCredential({
			type: 'openAiApi',
			name: 'Scripted model (ai agent writes)',
			data: { apiKey: 'scripted-model-key', url: writer.url, header: false },
		});
		ctx.sim.reset();
		ctx.sim.faults.clear();
		// The first write is stored, then answered 500: only a retry could write it twice.
		ctx.sim.faults.add({ route: 'writeRecords', processFirst: true, status: 500, times: 1 });
		const workflow = writeWorkflow();
		const chat = workflow.nodes.find((node) => node.name === 'OpenAI Chat Model')!;
		(chat.parameters as { model: { value: string } }).model.value = writer.modelId;
		writeRun = await ctx.n8n.runWorkflow(workflow, {
			...ctx.credentials,
			openAiApi: { id: openAi.id, name: openAi.name },
		});
		writeJournal = [...ctx.sim.journal.entries];
		console.log(
			`[e2e] AI Agent writes: run ${writeRun.id} ${writeRun.status}\n` +
				Object.entries(results)
					.map(([tool, text]) => `${tool} → ${text}`)
					.join('\n') +
				'\n' +
				writeJournal
					.map((e, i) => `simulator ${i + 1}: ${e.method} ${e.path} → ${e.status}`)
					.join('\n'),
		);
	});
	afterAll(async () => {
		ctx.sim.faults.clear();
		await writer?.close();
	});

	test('the run succeeds, and the model saw both tool results', () => {
		expect(writeRun.status).toBe('success');
		expect(writeRun.output('AI Agent')).toEqual([expect.objectContaining({ output: 'Done.' })]);
		expect(writer.chatRequests()).toHaveLength(3);
	});

	test('Each Input Item as a tool: refused before sending, naming Records From and the form that works', () => {
		// n8n hands the model a failed tool's error message as [{ error }].
		const [{ error }] = JSON.parse(results[ITEM_TOOL]);
		expect(error).toMatch(/^"Records From" → "Each Input Item" does not work/);
		expect(error).toContain("Set Records From to JSON with Record (JSON) = {{ $fromAI('record'");
	});

	test('the $fromAI record is written once: one request (the retries sent nothing), one contact', () => {
		const writes = writeJournal.filter((entry) => entry.routeId === 'writeRecords');
		expect(writes.map((entry) => (entry.body as { record: unknown }).record)).toEqual([
			{ email: AGENT_EMAIL, firstname: 'Grace' },
		]);
		const store = (ctx.sim.state.records as Map<string, Map<string, { fields: any }>>).get(
			`${SEED.installationId}/contacts`,
		);
		const stored = [...(store?.values() ?? [])].filter((r) => r.fields.email === AGENT_EMAIL);
		expect(stored).toHaveLength(1);
	});

	test("the write tool's answer says the record may have been written, not that it failed or succeeded", () => {
		const [answer] = JSON.parse(results[WRITE_TOOL]);
		expect(answer).toEqual({
			error: expect.stringMatching(
				/^The record may have been written: the service answered Internal Server Error/,
			),
		});
	});
});
