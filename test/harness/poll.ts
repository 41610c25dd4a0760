/**
 * Runs a polling node's real `poll()` with a hand-written `this` against the simulator, and keeps
 * its static data the way n8n 2.41.1 does, so tests can restart "n8n".
 *
 * - `getWorkflowStaticData('node')` is the node's bucket of a real n8n-workflow `Workflow`
 *   (ObservableObject: top-level writes mark it changed, nested edits do not).
 * - `helpers.httpRequestWithAuthentication` applies the credential type's own `authenticate`
 *   function, then sends the request with fetch, as n8n's axios-based helper would: JSON bodies
 *   parsed when they parse (raw text otherwise), `ignoreHttpStatusErrors`, `returnFullResponse`,
 *   `timeout` (the node's own, as axios applies it; 60 s when the node sets none). A request the
 *   simulator hangs (a `hang` fault) fails at once with the timeout's error, "timeout of Nms
 *   exceeded" (ECONNABORTED), when the runner is given the simulator (`hangs`,
 *   test/harness/hangs.ts): no test waits for a timeout, and no answered request can hit one.
 * - Persistence models (what is written to the "database" copy, and when):
 *     legacy          n8n 2.41 default: after every activation poll (even one returning null) and
 *                     whenever a poll emits; the live object lives until a restart.
 *                     Source: n8n-core active-workflow-triggers.js (activation polls once,
 *                     awaited), n8n workflow-trigger-activator.js (saveStaticData after it),
 *                     trigger-execution-context.factory.js (__emit saves; null polls do not).
 *     emitOnly        stricter: only polls that emit are persisted (activation too).
 *     freshPerTick    durable scheduler without durable cursors: every scheduled poll starts from
 *                     the persisted copy; persisted on activation and on emission.
 *     durableCursors  every successful scheduled poll commits (null polls via __commitCursor),
 *                     activation polls only when they emit (executePollTrigger(true) skips the
 *                     cursor-only commit), though the activator still saves the workflow's
 *                     global static data; every poll starts from the persisted copy.
 */
import { returnJsonArray } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IPollFunctions,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { CREDENTIAL_TYPES } from './engine';
import { HANG_HEADER, HangAborts, type HangSource } from './hangs';

/** The deadline of a request whose node sets no timeout: only a real hang reaches it. */
const DEFAULT_TIMEOUT_MS = 60_000;

export type Persistence = 'legacy' | 'emitOnly' | 'freshPerTick' | 'durableCursors';

export interface PollRunnerOptions {
	nodeType: INodeType;
	nodeTypeName: string;
	parameters: IDataObject;
	/** Credential data by type, e.g. `{ integrationPlatformApi: { apiKey, baseUrl, readUrl } }`. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	persistence?: Persistence;
	/**
	 * The simulator the requests go to: a request it hangs fails at once as a timeout (see above).
	 * Without it, a hung request waits for its timeout.
	 */
	hangs?: HangSource;
	/** Upper bound for any request's timeout (default: none, the node's timeout applies). */
	networkTimeoutMs?: number;
	/** Called with every response the node receives (after JSON parsing), for test oracles. */
	onResponse?: (
		request: IHttpRequestOptions,
		response: { statusCode: number; body: unknown },
	) => void;
	nodeName?: string;
	/**
	 * Answers requests in-process instead of over HTTP (an in-process fake of the API, e.g.
	 * test/harness/operationsFake.ts): gets the authenticated request's method and full URL.
	 */
	transport?: (
		method: string,
		url: URL,
	) => { statusCode: number; body: unknown } | Promise<{ statusCode: number; body: unknown }>;
}

export interface PollOutcome {
	items: INodeExecutionData[] | null;
	error?: Error & { description?: string; httpCode?: string | null; context?: IDataObject };
	/** Whether the static data was written to the persisted copy after this poll. */
	persisted: boolean;
}

/** The full URL of a request: base URL joined, query string appended. */
export function requestUrl(options: IHttpRequestOptions): URL {
	const base = (options.baseURL ?? '').replace(/\/+$/, '');
	const path = options.url.startsWith('http')
		? options.url
		: `${base}${options.url.startsWith('/') ? '' : '/'}${options.url}`;
	const url = new URL(path);
	for (const [key, value] of Object.entries(options.qs ?? {})) {
		if (value !== undefined) url.searchParams.append(key, String(value));
	}
	return url;
}

/** The request as n8n's helper would send it: base URL joined, query string, JSON body. */
async function send(
	options: IHttpRequestOptions,
	networkTimeoutMs: number,
	hangAborts: HangAborts | undefined,
): Promise<{
	statusCode: number;
	statusMessage: string;
	headers: Record<string, string>;
	body: unknown;
}> {
	const url = requestUrl(options);
	const headers: Record<string, string> = {};
	for (const [key, value] of Object.entries(options.headers ?? {})) headers[key] = String(value);
	let body: string | undefined;
	if (options.body !== undefined) {
		body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
		headers['content-type'] ??= 'application/json';
	}
	const timeout = Math.min(options.timeout ?? DEFAULT_TIMEOUT_MS, networkTimeoutMs);
	const hang = hangAborts?.open();
	if (hang) headers[HANG_HEADER] = hang.id;
	const signals = [AbortSignal.timeout(timeout), ...(hang ? [hang.signal] : [])];
	let res: Response;
	let text: string;
	try {
		res = await fetch(url, {
			method: options.method ?? 'GET',
			headers,
			body,
			signal: AbortSignal.any(signals),
		});
		text = await res.text();
	} catch (error) {
		// axios says "timeout of Nms exceeded" (code ECONNABORTED); fetch says TimeoutError, or
		// aborts with HungError when the simulator tells that it hangs this request.
		const e = error as Error;
		const timedOut = e.name === 'TimeoutError' || e.name === 'HungError';
		const wrapped = new Error(
			timedOut
				? `timeout of ${timeout}ms exceeded`
				: `${e.message} (${(e as { cause?: Error }).cause?.message ?? 'network'})`,
		);
		throw Object.assign(wrapped, { code: timedOut ? 'ECONNABORTED' : 'ECONNRESET' });
	} finally {
		hang?.close();
	}
	let parsed: unknown = text;
	if (text !== '') {
		try {
			parsed = JSON.parse(text); // axios: forced JSON parsing, silently keeps text that does not parse
		} catch {
			parsed = text;
		}
	}
	const responseHeaders: Record<string, string> = {};
	res.headers.forEach((value, key) => {
		responseHeaders[key] = value;
	});
	return {
		statusCode: res.status,
		statusMessage: res.statusText,
		headers: responseHeaders,
		body: parsed,
	};
}

export class PollRunner {
	readonly node: INode;

	/** The persisted copy ("workflow_entity.staticData"), JSON text. */
	persistedJson = '{}';

	private workflow!: Workflow;

	private readonly nodeTypes: INodeTypes;

	private readonly persistence: Persistence;

	private readonly networkTimeoutMs: number;

	private readonly hangAborts: HangAborts | undefined;

	/** The node's static data as the last poll found it (after any reload), JSON text. */
	staticDataAtPollStart = '{}';

	/** Activations happen after start and restart: the first poll then is the activation poll. */
	private activationPending = true;

	constructor(private options: PollRunnerOptions) {
		this.persistence = options.persistence ?? 'legacy';
		this.networkTimeoutMs = options.networkTimeoutMs ?? Number.POSITIVE_INFINITY;
		this.hangAborts = options.hangs ? new HangAborts(options.hangs) : undefined;
		const authentication = (options.parameters.authentication as string) ?? 'apiKey';
		const credentialType =
			authentication === 'bearerToken' ? 'integrationPlatformTokenApi' : 'integrationPlatformApi';
		this.node = {
			id: 'poll-node-1',
			name: options.nodeName ?? 'Log Trigger',
			type: options.nodeTypeName,
			typeVersion: 1,
			position: [0, 0],
			parameters: options.parameters as INode['parameters'],
			credentials: { [credentialType]: { id: 'credential-1', name: 'Test credential' } },
		};
		this.nodeTypes = {
			getByName: () => this.options.nodeType,
			getByNameAndVersion: () => this.options.nodeType,
			getKnownTypes: () => ({}),
		};
		this.load();
	}

	/** A Workflow built from the persisted copy, as n8n builds one at activation. */
	private load(): void {
		this.workflow = new Workflow({
			id: 'poll-test',
			name: 'poll test',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes: this.nodeTypes,
			staticData: JSON.parse(this.persistedJson) as IDataObject,
		});
	}

	/** The node's static data as the node sees it now (live object). */
	get staticData(): IDataObject {
		return this.workflow.getStaticData('node', this.node);
	}

	/** n8n's saveStaticData: writes only when the observable object was changed. */
	private save(): boolean {
		const root = this.workflow.staticData as IDataObject & { __dataChanged?: boolean };
		if (root.__dataChanged !== true) return false;
		this.persistedJson = JSON.stringify(root);
		root.__dataChanged = false;
		return true;
	}

	/** saveStaticData with the node's bucket left as persisted (durable cursors' activation). */
	private saveAllButNode(): boolean {
		const root = this.workflow.staticData as IDataObject & { __dataChanged?: boolean };
		if (root.__dataChanged !== true) return false;
		const bucket = `node:${this.node.name}`;
		const persisted = JSON.parse(this.persistedJson) as IDataObject;
		const next = JSON.parse(JSON.stringify(root)) as IDataObject;
		if (persisted[bucket] === undefined) delete next[bucket];
		else next[bucket] = persisted[bucket];
		this.persistedJson = JSON.stringify(next);
		return true;
	}

	/**
	 * n8n stops (or crashes) and starts again: the live object is gone; the next poll activates.
	 * With `newProcess` (the node type loaded in a fresh module registry, see `freshNodeType`),
	 * the node runs in a new process, as it does after a real restart of main.
	 */
	restart(newProcess?: INodeType): void {
		if (newProcess) this.options.nodeType = newProcess;
		this.load();
		this.activationPending = true;
	}

	/** Deactivate and activate again: the same, as n8n rebuilds the workflow from the database. */
	reactivate(): void {
		this.restart();
	}

	get nextPollIsActivation(): boolean {
		return this.activationPending;
	}

	/** One poll in production ('trigger') or "Fetch Test Event" ('manual') mode. */
	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<PollOutcome> {
		const activation = mode === 'trigger' && this.activationPending;
		const freshEachPoll =
			this.persistence === 'freshPerTick' || this.persistence === 'durableCursors';
		if (mode === 'trigger' && freshEachPoll && !activation) this.load();
		this.staticDataAtPollStart = JSON.stringify(this.staticData);
		const context = this.context(mode, activation);
		let items: INodeExecutionData[] | null = null;
		let error: PollOutcome['error'];
		try {
			const result = await this.options.nodeType.poll!.call(context as unknown as IPollFunctions);
			items = result ? result[0] : null;
		} catch (e) {
			error = e as PollOutcome['error'];
		}
		if (mode === 'manual') return { items, error, persisted: false };
		let persisted = false;
		const emitted = !error && items !== null;
		switch (this.persistence) {
			case 'legacy':
			case 'emitOnly':
			case 'freshPerTick':
				// The activation's save happens even when its poll failed (the activator saves anyway),
				// and the emit's save before the execution runs.
				if (emitted || (activation && this.persistence !== 'emitOnly')) persisted = this.save();
				break;
			case 'durableCursors':
				if (!error && (emitted || !activation)) persisted = this.save();
				// the activator saves the workflow's static data after activation; the node's cursor
				// is not in it (it lives in n8n's poller state), so only the global part is saved
				else if (activation) persisted = this.saveAllButNode();
				break;
		}
		// n8n retries a failed activation; only a successful one ends the activation phase.
		if (activation && !error) this.activationPending = false;
		return { items, error, persisted };
	}

	private context(mode: 'trigger' | 'manual', activation: boolean) {
		const { parameters, credentials, onResponse, transport } = this.options;
		const node = this.node;
		const workflow = this.workflow;
		const networkTimeoutMs = this.networkTimeoutMs;
		const hangAborts = this.hangAborts;
		return {
			getNode: () => node,
			getMode: () => mode,
			getActivationMode: () => (activation ? 'activate' : 'update'),
			getWorkflow: () => ({ id: workflow.id, name: workflow.name, active: true }),
			getPollBudgetMs: () => 5 * 60 * 1000,
			// As n8n's poll context: the credential's data (the node reads it to mask echoed secrets).
			getCredentials: async (type: string) => {
				if (!credentials[type]) throw new Error(`no test credentials of type ${type}`);
				return { ...credentials[type] };
			},
			getWorkflowStaticData: (type: string) =>
				type === 'node' ? workflow.getStaticData('node', node) : workflow.getStaticData('global'),
			getNodeParameter(name: string, fallback?: unknown, options?: { extractValue?: boolean }) {
				const value = Object.prototype.hasOwnProperty.call(parameters, name)
					? parameters[name]
					: fallback;
				if (
					options?.extractValue &&
					value &&
					typeof value === 'object' &&
					'__rl' in (value as IDataObject)
				) {
					return (value as IDataObject).value;
				}
				if (
					options?.extractValue &&
					value &&
					typeof value === 'object' &&
					'mode' in (value as IDataObject)
				) {
					return (value as IDataObject).value;
				}
				return value;
			},
			helpers: {
				returnJsonArray,
				async httpRequestWithAuthentication(
					credentialType: string,
					requestOptions: IHttpRequestOptions,
				) {
					const type = CREDENTIAL_TYPES[credentialType];
					const data = credentials[credentialType];
					if (!type || !data) throw new Error(`no test credentials of type ${credentialType}`);
					if (typeof type.authenticate !== 'function')
						throw new Error(`${credentialType}: expected a function authenticate`);
					// n8n hands authenticate the caller's own options object (request-helpers
					// authentication.js), so what it sets (headers, baseURL) is visible to the caller.
					const authenticated = await type.authenticate({ ...data }, requestOptions);
					const response = transport
						? {
								headers: {},
								...(await transport(authenticated.method ?? 'GET', requestUrl(authenticated))),
							}
						: await send(authenticated, networkTimeoutMs, hangAborts);
					onResponse?.(requestOptions, response);
					if (response.statusCode >= 400 && !requestOptions.ignoreHttpStatusErrors) {
						throw Object.assign(
							new Error(`Request failed with status code ${response.statusCode}`),
							{
								httpCode: String(response.statusCode),
								response,
							},
						);
					}
					return requestOptions.returnFullResponse ? response : response.body;
				},
			},
		};
	}
}
