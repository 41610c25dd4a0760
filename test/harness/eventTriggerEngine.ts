/**
 * Runs the event trigger in-process with n8n-core's own contexts: HookContext for
 * checkExists/create/delete and WebhookContext for deliveries, behind a small HTTP server that
 * plays n8n's webhook endpoint (raw body, parsed JSON body, onReceived answers). The simulator
 * delivers to that server like to a real n8n, so signing, retries and registration meet the node
 * without starting n8n.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { HookContext, WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeTypes,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { IntegrationPlatformTrigger } from '../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import { TestCredentialsHelper } from './engine';
import type { Sim } from './eventTriggerSim';
import { SEED } from './eventTriggerSim';

export const NODE_TYPE = 'n8n-nodes-integration-platform.integrationPlatformTrigger';
const nodeType = new IntegrationPlatformTrigger();
const nodeTypes: INodeTypes = {
	getByName: () => nodeType,
	getByNameAndVersion: () => nodeType,
	getKnownTypes: () => ({}),
};

export interface Answer {
	status: number;
	body: string;
	/** The items the workflow would start with; undefined when nothing starts. */
	items?: IDataObject[];
	/** What webhook() threw: n8n then answers 500 and records a failed execution with it. */
	error?: Error & { description?: string };
}

/**
 * Options that let the trigger download `url` results from the simulator (or any local test
 * server): http on 127.0.0.1. The service itself sends https links to its storage hosts.
 */
export const LOCAL_DOWNLOADS = { allowInsecureDownloads: true, downloadHosts: '127.0.0.1' };

/** What the webhook endpoint did with each request (one entry per request). */
export interface Received extends Answer {
	test: boolean;
	headers: http.IncomingHttpHeaders;
}

export interface TriggerOptions {
	parameters: INodeParameters;
	webhookId?: string;
	/** Overrides the API-key credential's data (and the token credential's with bearer-token authentication); null: no credential. */
	credential?: ICredentialDataDecryptedObject | null;
	authentication?: 'apiKey' | 'bearerToken' | 'none';
	/**
	 * A signing-secret credential with this secret, attached to the node (its parameters choose
	 * whether it is used: authentication none, or signingSecretSource credential).
	 */
	signingSecret?: string;
	/** The node's version (2 unless given): 3 saves Destination as a resource locator. */
	typeVersion?: number;
}

export const SIGNING_SECRET_CREDENTIAL = 'integrationPlatformSigningSecretApi';

/** One trigger node in one workflow, with its static data, served at a local webhook endpoint. */
export class TriggerHarness {
	readonly webhookId: string;

	readonly node: INode;

	staticData: IDataObject = {};

	readonly received: Received[] = [];

	/** Set to make the endpoint behave as if it were down (no node involved). */
	outage: number | undefined;

	/**
	 * What n8n answers a delivery whose webhook() started the workflow: 200 once it has stored the
	 * execution (the default), 500 when it could not, 'later' to hold the answer until
	 * `answerHeld` (as if the sender had left before n8n answered).
	 */
	startAnswer: number | 'later' = 200;

	private readonly heldAnswers: Array<(status: number) => void> = [];

	private server?: http.Server;

	private baseUrl = '';

	private readonly credentials: TestCredentialsHelper;

	constructor(sim: Sim, options: TriggerOptions) {
		this.webhookId = options.webhookId ?? '6f1c2c1e-0000-4000-8000-00000000abcd';
		const credentialType =
			options.authentication === 'bearerToken'
				? 'integrationPlatformTokenApi'
				: 'integrationPlatformApi';
		this.node = {
			id: 'trigger-node',
			name: 'Integration Platform Trigger',
			type: NODE_TYPE,
			typeVersion: options.typeVersion ?? 2,
			position: [0, 0],
			webhookId: this.webhookId,
			parameters: { authentication: options.authentication ?? 'apiKey', ...options.parameters },
			credentials: {
				...(options.authentication === 'none'
					? {}
					: { [credentialType]: { id: 'cred-1', name: 'Simulator' } }),
				...(options.signingSecret !== undefined
					? { [SIGNING_SECRET_CREDENTIAL]: { id: 'cred-secret', name: 'Signing secret' } }
					: {}),
			},
		};
		const secret: Record<string, ICredentialDataDecryptedObject> =
			options.signingSecret !== undefined
				? { [SIGNING_SECRET_CREDENTIAL]: { signingSecret: options.signingSecret } }
				: {};
		this.credentials = new TestCredentialsHelper(
			options.credential === null
				? secret
				: {
						integrationPlatformApi: {
							apiKey: SEED.apiKey,
							baseUrl: sim.apiUrl,
							readUrl: sim.readUrl,
							writeUrl: sim.writeUrl,
							searchUrl: sim.searchUrl,
							proxyUrl: sim.proxyUrl,
							...(options.credential ?? {}),
						},
						integrationPlatformTokenApi: {
							accessToken: SEED.bearerToken,
							baseUrl: sim.apiUrl,
							readUrl: sim.readUrl,
							searchUrl: sim.searchUrl,
							...(options.authentication === 'bearerToken' ? (options.credential ?? {}) : {}),
						},
						...secret,
					},
		);
	}

	setParameters(parameters: INodeParameters): void {
		Object.assign(this.node.parameters, parameters);
	}

	async listen(): Promise<void> {
		this.server = http.createServer((req, res) => {
			void this.handle(req, res);
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.baseUrl = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
	}

	async close(): Promise<void> {
		await new Promise((resolve) => this.server?.close(resolve));
	}

	/** As if n8n's WEBHOOK_URL changed: later hooks see webhook URLs under `baseUrl`. */
	changeBaseUrl(baseUrl: string): void {
		this.baseUrl = baseUrl;
	}

	url(test = false): string {
		return `${this.baseUrl}/${test ? 'webhook-test' : 'webhook'}/${this.webhookId}/webhook`;
	}

	/** A fresh Workflow around the stored static data, as n8n builds one per activation. */
	private workflow(): Workflow {
		const workflow = new Workflow({
			id: 'wf-event-trigger',
			name: 'event trigger',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: this.staticData,
		});
		return workflow;
	}

	private additionalData(extra: Partial<IWorkflowExecuteAdditionalData> = {}) {
		const base: Partial<IWorkflowExecuteAdditionalData> = {
			credentialsHelper: this.credentials,
			executionId: 'execution-1',
			variables: {},
			restApiUrl: `${this.baseUrl}/rest`,
			webhookBaseUrl: `${this.baseUrl}/webhook`,
			webhookTestBaseUrl: `${this.baseUrl}/webhook-test`,
			webhookWaitingBaseUrl: `${this.baseUrl}/webhook-waiting`,
			formWaitingBaseUrl: `${this.baseUrl}/form-waiting`,
			instanceBaseUrl: this.baseUrl,
			userId: 'user-1',
			...extra,
		};
		return new Proxy(base, {
			get: (target, key) => (target as Record<string | symbol, unknown>)[key],
		}) as IWorkflowExecuteAdditionalData;
	}

	private webhookData(test: boolean, additionalData: IWorkflowExecuteAdditionalData): IWebhookData {
		return {
			httpMethod: 'POST',
			node: this.node.name,
			path: `${this.webhookId}/webhook`,
			webhookDescription: nodeType.description.webhooks![0],
			workflowId: 'wf-event-trigger',
			workflowExecuteAdditionalData: additionalData,
			webhookId: this.webhookId,
			isTest: test,
		};
	}

	/** Runs one webhook method as n8n does, and keeps the static data it leaves. */
	async hook(method: 'checkExists' | 'create' | 'delete', test = false): Promise<boolean> {
		const workflow = this.workflow();
		const additionalData = this.additionalData();
		// Activation runs in mode trigger (test: manual); deactivation in mode internal.
		const mode: WorkflowExecuteMode =
			method === 'delete' ? 'internal' : test ? 'manual' : 'trigger';
		const activation: WorkflowActivateMode = test
			? 'manual'
			: method === 'delete'
				? 'update'
				: 'activate';
		const context = new HookContext(
			workflow,
			this.node,
			additionalData,
			mode,
			activation,
			this.webhookData(test, additionalData),
		);
		const result = await nodeType.webhookMethods.default[method].call(context);
		// n8n saves the static data after activation and deactivation (JSON in the database).
		this.staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		return result;
	}

	async activate(test = false): Promise<void> {
		if (!(await this.hook('checkExists', test))) await this.hook('create', test);
	}

	async deactivate(test = false): Promise<void> {
		await this.hook('delete', test);
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const raw = Buffer.concat(chunks);
		const test = (req.url ?? '').startsWith('/webhook-test/');
		if (this.outage !== undefined) {
			res.writeHead(this.outage).end();
			this.received.push({ test, headers: req.headers, status: this.outage, body: '' });
			return;
		}
		const answer = await this.call({ headers: req.headers, raw, test });
		this.received.push({ test, headers: req.headers, ...answer });
		// An answer held back: the sender gets none (as when it gave up waiting) and tries again.
		if (answer.status === 0) return void req.socket.destroy();
		res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
	}

	/**
	 * One request through webhook(), the way n8n 2.41 presents it: rawBody (unless multipart),
	 * body parsed for application/json, and the onReceived answer.
	 */
	async call(input: {
		headers: http.IncomingHttpHeaders;
		raw?: Buffer;
		test?: boolean;
		withoutRawBody?: boolean;
	}): Promise<Answer> {
		const headers = { ...input.headers };
		const contentType = String(headers['content-type'] ?? '')
			.split(';')[0]
			.trim();
		let body: unknown = {};
		if (input.raw && contentType === 'application/json' && input.raw.length) {
			try {
				body = JSON.parse(input.raw.toString('utf8'));
			} catch {
				// n8n itself answers 422 here, before the node runs.
				return { status: 422, body: 'Failed to parse request body', items: undefined };
			}
		} else if (input.raw && contentType === 'text/plain') {
			body = input.raw.toString('utf8');
		}
		const req = {
			headers,
			body,
			contentType,
			rawBody: input.withoutRawBody ? undefined : input.raw,
			readRawBody: async () => undefined,
			query: {},
			params: {},
			method: 'POST',
		};
		let sent: string | undefined;
		const res = {
			headersSent: false,
			writableEnded: false,
			statusCode: 200,
			status(code: number) {
				res.statusCode = code;
				return res;
			},
			type() {
				return res;
			},
			send(text: string) {
				sent = text;
				return res.end();
			},
			json(value: unknown) {
				sent = JSON.stringify(value);
				return res.end();
			},
			end() {
				res.headersSent = true;
				res.writableEnded = true;
				return res;
			},
		};
		const workflow = this.workflow();
		const test = input.test === true;
		const additionalData = this.additionalData({
			httpRequest: req as never,
			httpResponse: res as never,
		});
		const context = new WebhookContext(
			workflow,
			this.node,
			additionalData,
			test ? 'manual' : 'webhook',
			this.webhookData(test, additionalData),
			[],
			null,
		);
		let result: IWebhookResponseData;
		try {
			result = await nodeType.webhook.call(context);
		} catch (error) {
			// n8n answers 500 and records a failed execution with this error. The node throws only
			// for a verified message it cannot process (a download its rules refuse).
			return {
				status: 500,
				body: `THROWN: ${(error as Error).message}`,
				items: undefined,
				error: error as Answer['error'],
			};
		}
		if (result.noWebhookResponse)
			return { status: res.statusCode, body: sent ?? '', items: undefined };
		if (result.workflowData) {
			const items = (result.workflowData[0] as INodeExecutionData[]).map((i) => i.json);
			// n8n answers through the same response once the execution is stored, or fails to.
			const answer = (status: number) =>
				res.status(status).json({ message: 'Workflow was started' });
			if (this.startAnswer === 'later') {
				this.heldAnswers.push(answer);
				return { status: 0, body: '', items };
			}
			answer(this.startAnswer);
			return { status: res.statusCode, body: sent ?? '', items };
		}
		return {
			status: 200,
			body: JSON.stringify(result.webhookResponse ?? { message: 'Webhook call received' }),
			items: undefined,
		};
	}

	/** n8n answers the deliveries held by `startAnswer: 'later'` (status 0 in their Answer). */
	answerHeld(status = 200): void {
		for (const answer of this.heldAnswers.splice(0)) answer(status);
	}

	/** The requests that started the workflow, in order. */
	started(): Received[] {
		return this.received.filter((r) => r.items !== undefined);
	}
}

export { SEED };
