import type {
	DeclarativeRestApiSettings,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodePropertyRouting,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { Authentication } from '../../common/api';
import { authenticationOf, CREDENTIAL_TYPE } from '../../common/api';
import { DEFAULT_READ_URL, DEFAULT_SEARCH_URL, versionedBaseUrl } from '../../common/hosts';
import { apiContextOf, decryptedCredential } from './customContext';
import { asNodeError, DEFAULT_TIMEOUT_MS, sendWithRequestPolicy } from './requestPolicy';
import { wrongCredentialError } from './wrongCredential';

/**
 * A routed operation run in a workflow: the same routing (request, preSend steps, request policy,
 * postReceive steps) that n8n's declarative engine would run, applied here item by item. n8n's
 * engine walks all of the node's properties twice per item and evaluates every expression
 * parameter twice before the operation's own steps read it once more; with this node's ~200
 * properties that is most of its per-item time (docs/n8n-notes.md, "Per-item cost of routing").
 * What stays n8n's: parameters, expressions, credentials, the HTTP helper, Retry On Fail,
 * Continue On Fail. The AI-tool path still routes (customAsRouting.ts says why).
 */

/** Headers and flags of every request (the node's requestDefaults). */
export const REQUEST_DEFAULTS = {
	headers: { Accept: 'application/json' },
	// Error bodies reach throwOnProblem (defineOperation.ts), which words them.
	ignoreHttpStatusErrors: true,
};

/** The hosts a routed operation may name besides the management API's (defineOperation.ts). */
export type RoutedHost = 'read' | 'search';

/** Where each routed host's base URL comes from: the credential's field, else the default. */
const HOST_URL: Record<RoutedHost, { field: string; fallback: string }> = {
	read: { field: 'readUrl', fallback: DEFAULT_READ_URL },
	search: { field: 'searchUrl', fallback: DEFAULT_SEARCH_URL },
};

/** versionedBaseUrl (nodes/common/hosts.ts) of a routed host as an n8n expression, for n8n's routing. */
export function baseUrlExpression(host: RoutedHost): string {
	const { field, fallback } = HOST_URL[host];
	return `={{ ($credentials.${field} || "${fallback}").trim().replace(/\\/+$/, "").replace(/\\/v1$/, "") + "/v1" }}`;
}

/** Routing keys this runner applies; defineOperation.ts builds nothing else. */
const KNOWN = {
	routing: ['request', 'send', 'output', 'operations'],
	request: ['method', 'url', 'baseURL', 'qs', 'body'],
	send: ['paginate', 'preSend'],
	output: ['postReceive'],
	operations: ['pagination'],
};

function checkKnown(routing: INodePropertyRouting, where: string): void {
	const unknown = [
		...Object.keys(routing).filter((key) => !KNOWN.routing.includes(key)),
		...(['request', 'send', 'output', 'operations'] as const).flatMap((part) =>
			Object.keys(routing[part] ?? {})
				.filter((key) => !KNOWN[part].includes(key))
				.map((key) => `${part}.${key}`),
		),
	];
	// A developer error: a routing feature this runner would silently skip.
	if (unknown.length) throw new Error(`${where}: routing ${unknown.join(', ')} is not run in code`);
}

interface RequestSettings {
	proxy?: string;
	timeout?: number;
	allowUnauthorizedCerts?: boolean;
	batching?: { batch?: { batchSize?: number; batchInterval?: number } };
}

/** Request Options → Proxy as n8n's declarative engine reads it (host, port, protocol, auth). */
function proxyOf(context: IExecuteFunctions, proxy: string): IHttpRequestOptions['proxy'] {
	let parsed: URL | undefined;
	try {
		parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`);
	} catch {
		parsed = undefined;
	}
	// The port as written: URL drops a scheme's default port (http://proxy:80 has port '').
	const port = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/@]+):(\d+)/i.exec(
		proxy.trim(),
	)?.[1];
	const part = !parsed?.hostname ? 'host' : !port ? 'port' : undefined;
	if (!parsed || part) {
		throw new NodeOperationError(context.getNode(), 'The proxy is not valid', {
			description: `The proxy URL does not contain a valid value for "${part ?? 'host'}"`,
		});
	}
	return {
		host: parsed.hostname,
		port: Number(port),
		protocol: parsed.protocol.replace(/:$/, ''),
		...(parsed.username
			? {
					auth: {
						username: decodeURIComponent(parsed.username),
						password: decodeURIComponent(parsed.password),
					},
				}
			: {}),
	};
}

/** The execute context seen by routing steps as n8n's single-item context for item `itemIndex`. */
function itemContext(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
): IExecuteSingleFunctions {
	return Object.create(context, {
		getItemIndex: { value: () => itemIndex },
		getInputData: { value: () => item },
		getNodeParameter: {
			value: (name: string, fallback?: unknown, options?: object) =>
				context.getNodeParameter(name, itemIndex, fallback, options),
		},
		getCredentials: {
			value: async (type: string) => await context.getCredentials(type, itemIndex),
		},
	}) as IExecuteSingleFunctions;
}

/**
 * The operation's routing as a custom operation (n8n's `customOperations`): all items, each sent
 * as soon as it is prepared (Request Options → Batching pauses between batches, as in routing);
 * an item that fails fails alone with Continue On Fail.
 */
export function routingInCode(
	routing: INodePropertyRouting,
	operation: {
		/** "Resource → Operation", for messages. */
		where: string;
		host?: RoutedHost;
		/** The only credential the service accepts (defineOperation.ts). */
		requires?: Authentication;
	},
): (this: IExecuteFunctions) => Promise<INodeExecutionData[][]> {
	const { where, host, requires } = operation;
	checkKnown(routing, where);
	const preSend: PreSendAction[] = routing.send?.preSend ?? [];
	const steps: PostReceiveAction[] = routing.output?.postReceive ?? [];
	const postReceive = steps.filter((step) => typeof step === 'function');
	if (postReceive.length !== steps.length) {
		throw new Error(`${where}: only postReceive functions are run in code`);
	}
	const pagination = routing.operations?.pagination ?? sendWithRequestPolicy;
	if (typeof pagination !== 'function') {
		throw new Error(`${where}: only a pagination function is run in code`);
	}
	// The read and search hosts' baseURL is an expression for n8n's engine; here it is taken from
	// the credential when the request goes out.
	const request = { ...routing.request };
	delete request.baseURL;

	return async function (this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const node = this.getNode();
		const authentication = authenticationOf(apiContextOf(this));
		if (requires && requires !== authentication) {
			// Refused before anything is read or sent; with Continue On Fail each item says so.
			const refusal = (itemIndex: number) =>
				wrongCredentialError(node, itemIndex, where, requires, host);
			if (!this.continueOnFail()) throw refusal(0);
			return [items.map((_, item) => ({ json: {}, error: refusal(item), pairedItem: { item } }))];
		}
		const type = CREDENTIAL_TYPE[authentication];
		// Read once for all items, when the first request goes out; n8n's helper would read and
		// decrypt it again for every request.
		let credential: Promise<ICredentialsDecrypted> | undefined;
		const credentialOnce = async () =>
			await (credential ??= this.getCredentials(type).then((data) =>
				decryptedCredential(node, type, data),
			));
		const settings = this.getNodeParameter('requestOptions', 0, {}) as RequestSettings;
		const proxy = settings.proxy ? proxyOf(this, settings.proxy) : undefined;

		const runItem = async (itemIndex: number): Promise<INodeExecutionData[]> => {
			const single = itemContext(this, items[itemIndex], itemIndex);
			let options = {
				url: '',
				qs: {},
				body: {},
				...(structuredClone(request) as Partial<IHttpRequestOptions>),
				...REQUEST_DEFAULTS,
				headers: { ...REQUEST_DEFAULTS.headers },
				timeout: settings.timeout || DEFAULT_TIMEOUT_MS,
				...(proxy ? { proxy } : {}),
				...(settings.allowUnauthorizedCerts ? { skipSslCertificateValidation: true } : {}),
			} as IHttpRequestOptions;
			for (const step of preSend) options = await step.call(single, options);
			const makeRoutingRequest = async (
				requestData: DeclarativeRestApiSettings.ResultOptions,
			): Promise<INodeExecutionData[]> => {
				const credentialsDecrypted = await credentialOnce();
				// The options object itself, as n8n's routing passes it: the credential sets its
				// base URL there, which the request policy names when the host cannot be reached.
				const sent = requestData.options as IHttpRequestOptions;
				sent.returnFullResponse = true;
				if (host && !sent.baseURL) {
					const { field, fallback } = HOST_URL[host];
					sent.baseURL = versionedBaseUrl(credentialsDecrypted.data?.[field], fallback);
				}
				const response = (await this.helpers.httpRequestWithAuthentication.call(
					single,
					type,
					sent,
					{ credentialsDecrypted },
				)) as IN8nHttpFullResponse;
				let output: INodeExecutionData[] = [{ json: response.body as never }];
				for (const step of postReceive) output = await step.call(single, output, response);
				return output;
			};
			const requestData: DeclarativeRestApiSettings.ResultOptions = {
				options,
				paginate: true,
				preSend: [],
				postReceive: [],
				requestOperations: {},
			};
			const withRequest = Object.create(single, {
				makeRoutingRequest: { value: makeRoutingRequest },
			}) as IExecutePaginationFunctions;
			return await pagination.call(withRequest, requestData);
		};

		const size =
			Number(settings.batching?.batch?.batchSize) > 0
				? Number(settings.batching?.batch?.batchSize)
				: 1;
		const interval = Number(settings.batching?.batch?.batchInterval);
		const pending: Array<Promise<INodeExecutionData[]>> = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			if (itemIndex > 0 && interval > 0 && itemIndex % size === 0) await sleep(interval);
			const result = runItem(itemIndex);
			// Settled below; until then a failure is not an unhandled rejection.
			result.catch(() => undefined);
			pending.push(result);
		}
		const settled = await Promise.allSettled(pending);
		const output: INodeExecutionData[] = [];
		for (const [itemIndex, result] of settled.entries()) {
			if (result.status === 'fulfilled') {
				output.push(...result.value);
				continue;
			}
			const error = asNodeError(node, result.reason);
			error.context.itemIndex = itemIndex;
			if (!this.continueOnFail()) throw error;
			output.push({ json: {}, error, pairedItem: { item: itemIndex } });
		}
		return [output];
	};
}
