/**
 * Runs one node of this package in-process, through n8n-core's WorkflowExecute, exactly as n8n
 * runs it (declarative routing, credentials, preSend/postReceive, continueOnFail), against the
 * simulator (docs/testing.md, "Test layers"). Used by test/engine/*.
 */
import { DirectoryLoader, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ICredentialsHelper, Workflow } from 'n8n-workflow';

import { IntegrationPlatformApi } from '../../credentials/IntegrationPlatformApi.credentials';
import { IntegrationPlatformTokenApi } from '../../credentials/IntegrationPlatformTokenApi.credentials';
import { IntegrationPlatform } from '../../nodes/IntegrationPlatform/IntegrationPlatform.node';

export const CREDENTIAL_TYPES: Record<string, ICredentialType> = {
	integrationPlatformApi: new IntegrationPlatformApi(),
	integrationPlatformTokenApi: new IntegrationPlatformTokenApi(),
};

export const NODE_TYPE = 'n8n-nodes-integration-platform.integrationPlatform';

/** Credentials for in-process runs: fixture data by type, applied with the types' own authenticate. */
export class TestCredentialsHelper extends ICredentialsHelper {
	/** How often a credential was read (n8n decrypts it on each read). */
	reads = 0;

	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	) {
		const type = CREDENTIAL_TYPES[typeName];
		if (typeof type.authenticate !== 'function')
			throw new Error(`${typeName}: expected a function authenticate`);
		return await type.authenticate(credentials, requestOptions);
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used by these tests');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: unknown,
		type: string,
	) {
		this.reads++;
		const data = this.data[type];
		if (!data) throw new Error(`no test credentials of type ${type}`);
		// n8n hands out a fresh object per call; nodes may not rely on identity.
		return { ...data };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string) {
		return CREDENTIAL_TYPES[type].properties;
	}
}

export interface RunNodeOptions {
	parameters: INodeParameters;
	/** Credential data by type, e.g. `{ integrationPlatformApi: { apiKey, baseUrl, readUrl } }`. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** Input items (default: one empty item). */
	items?: IDataObject[];
	continueOnFail?: boolean;
	/** Node settings such as retryOnFail, maxTries, waitBetweenTries. */
	nodeSettings?: Partial<INode>;
	nodeType?: INodeType;
	nodeTypeName?: string;
}

export interface NodeRun {
	/** Output items of the node (json, with error/pairedItem when present). */
	items: INodeExecutionData[];
	json: IDataObject[];
	/** The execution error when the node failed (without Continue On Fail). */
	error?: Error & { description?: string; httpCode?: string; context?: IDataObject };
	run: IRun;
	/** How often the node read its credential during the run. */
	credentialReads: number;
}

/** Each run is its own execution, with its own ID, as in n8n (Record → Write remembers per execution). */
let executions = 0;

export async function runNode(options: RunNodeOptions): Promise<NodeRun> {
	const executionId = `execution-${++executions}`;
	const nodeType = options.nodeType ?? new IntegrationPlatform();
	// What n8n's loader does to every declarative node: add the "Request Options" node setting
	// (batching, proxy, timeout, SSL) that RoutingNode reads.
	DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
	const typeName = options.nodeTypeName ?? NODE_TYPE;
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const authentication = (options.parameters.authentication as string) ?? 'apiKey';
	const credentialType =
		authentication === 'bearerToken' ? 'integrationPlatformTokenApi' : 'integrationPlatformApi';
	const node: INode = {
		id: 'node-under-test',
		name: 'Integration Platform',
		type: typeName,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters,
		credentials: { [credentialType]: { id: 'credential-1', name: 'Test credential' } },
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.nodeSettings ?? {}),
	};
	const workflow = new Workflow({
		id: 'engine-test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const workflowData = {
		id: 'engine-test',
		name: 'engine test',
		nodes: [node],
		connections: {},
		active: false,
		settings: {},
		createdAt: new Date(),
		updatedAt: new Date(),
		isArchived: false,
		activeVersionId: null,
	} as never;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	const done = new Promise<IRun>((resolve) =>
		hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolve(fullRunData)),
	);
	const credentialsHelper = new TestCredentialsHelper(options.credentials);
	const base: Partial<IWorkflowExecuteAdditionalData> = {
		hooks,
		credentialsHelper,
		executionId,
		variables: {},
		restApiUrl: 'http://localhost:5678/rest',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		instanceBaseUrl: 'http://localhost:5678',
		userId: 'user-1',
	};
	// Keys the nodes do not use answer undefined.
	const additionalData = new Proxy(base, {
		get: (target, key) => (target as Record<string | symbol, unknown>)[key],
	}) as IWorkflowExecuteAdditionalData;
	const items = (options.items ?? [{}]).map((json) => ({ json }));
	const runExecutionData = {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			nodeExecutionStack: [{ node, data: { main: [items] }, source: null }],
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: null,
		},
	};
	const execute = new WorkflowExecute(additionalData, 'manual', runExecutionData as never);
	await execute.processRunExecutionData(workflow);
	const run = await done;
	const nodeRun = run.data.resultData.runData[node.name]?.[0];
	const output = (nodeRun?.data?.main?.[0] ?? []) as INodeExecutionData[];
	return {
		items: output,
		json: output.map((item) => item.json),
		error: (run.data.resultData.error ?? nodeRun?.error) as NodeRun['error'],
		run,
		credentialReads: credentialsHelper.reads,
	};
}
