/**
 * Calls the action node as an AI tool in-process, the way n8n 2.41 runs a tool for the MCP Server
 * Trigger (and for agents that call tools themselves): the parent node asks n8n-core for its
 * connected tools (`getInputConnectionData`), and each call is the tool's `invoke`. n8n-core then
 * gives every try of a call (Retry On Fail) a new run index and a new context, the tool's
 * arguments as the one input item, and runs the node's `execute` as n8n's node types give it to a
 * declarative node (RoutingNode). Used by test/engine/* for what differs between a tool's tries
 * and a workflow's (docs/n8n-notes.md, "The node as an AI tool").
 */
import { DirectoryLoader, ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { IntegrationPlatform } from '../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { NODE_TYPE, TestCredentialsHelper } from './engine';

export interface ToolOptions {
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** Node settings such as retryOnFail, maxTries, waitBetweenTries. */
	nodeSettings?: Partial<INode>;
	/**
	 * The execution ID n8n's context gives the tool. An MCP Server Trigger in a single n8n process
	 * runs the tool inside the webhook request, before any execution exists: none.
	 */
	executionId?: string;
	typeVersion?: number;
}

export interface ToolSession {
	/** One tool call: what n8n hands the model (the answer's text), or the error it throws. */
	call(args: IDataObject): Promise<{ text?: string; error?: Error & { description?: string } }>;
	/** How many tries n8n ran, over every call so far (each try is a run of the node). */
	tries(): number;
}

interface InvocableTool {
	invoke(args: IDataObject): Promise<unknown>;
}

/** A tool node as an MCP Server Trigger or an agent holds it: every call goes through n8n-core. */
export function toolSession(options: ToolOptions): ToolSession {
	const nodeType = new IntegrationPlatform();
	DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
	// The tool variant n8n's node types make of it: an ai_tool output, and RoutingNode as execute.
	const toolType = Object.create(nodeType, {
		description: {
			value: {
				...nodeType.description,
				name: `${nodeType.description.name}Tool`,
				inputs: [],
				outputs: [NodeConnectionTypes.AiTool],
			},
		},
	}) as INodeType;
	toolType.execute = async function (this: IExecuteFunctions) {
		const routingNode = new RoutingNode(this as never, toolType);
		return (await routingNode.runNode()) ?? [];
	};
	const parentType = {
		description: {
			displayName: 'Tool caller',
			name: 'toolCaller',
			group: ['trigger'],
			version: 1,
			description: 'Stands for the MCP Server Trigger',
			defaults: { name: 'MCP Server Trigger' },
			inputs: [{ type: NodeConnectionTypes.AiTool, displayName: 'Tools' }],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
	} as unknown as INodeType;
	const node: INode = {
		id: 'tool-under-test',
		name: 'write_records',
		type: `${NODE_TYPE}Tool`,
		typeVersion: options.typeVersion ?? 2,
		position: [0, 0],
		parameters: options.parameters,
		credentials: { integrationPlatformApi: { id: 'credential-1', name: 'Test credential' } },
		...(options.nodeSettings ?? {}),
	};
	const parent: INode = {
		id: 'mcp-trigger',
		name: 'MCP Server Trigger',
		type: 'test.toolCaller',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodeTypes: INodeTypes = {
		getByName: (type) => (type === parent.type ? parentType : toolType),
		getByNameAndVersion: (type) => (type === parent.type ? parentType : toolType),
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({
		id: 'tool-test',
		nodes: [node, parent],
		connections: {
			[node.name]: {
				[NodeConnectionTypes.AiTool]: [
					[{ node: parent.name, type: NodeConnectionTypes.AiTool, index: 0 }],
				],
			},
		},
		active: true,
		nodeTypes,
	});
	const additionalData = new Proxy(
		{
			credentialsHelper: new TestCredentialsHelper(options.credentials),
			executionId: options.executionId,
			variables: {},
			currentNodeExecutionIndex: 0,
			restApiUrl: 'http://localhost:5678/rest',
			webhookBaseUrl: 'http://localhost:5678/webhook',
			instanceBaseUrl: 'http://localhost:5678',
			userId: 'user-1',
		} as Partial<IWorkflowExecuteAdditionalData>,
		{ get: (target, key) => (target as Record<string | symbol, unknown>)[key] },
	) as IWorkflowExecuteAdditionalData;
	const runExecutionData = {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			nodeExecutionStack: [],
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: null,
		},
	} as unknown as IRunExecutionData;
	const inputData = { main: [[{ json: {} }]] };
	const context = new ExecuteContext(
		workflow,
		parent,
		additionalData,
		'webhook',
		runExecutionData,
		0,
		inputData.main[0],
		inputData,
		{ node: parent, data: inputData, source: null },
		[],
	);
	let tool: InvocableTool | undefined;
	return {
		async call(args) {
			tool ??= (
				(await context.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as
					| InvocableTool[]
					| undefined
			)?.[0];
			if (!tool) throw new Error('n8n-core gave the caller no tool');
			try {
				return { text: (await tool.invoke(args)) as string };
			} catch (error) {
				return { error: error as Error & { description?: string } };
			}
		},
		tries: () => (runExecutionData.resultData.runData[node.name] ?? []).length,
	};
}
