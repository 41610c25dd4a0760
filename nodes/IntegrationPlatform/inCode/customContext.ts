import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ApiContext, ApiResponse, Authentication } from '../../common/api';
import {
	apiResponse,
	authenticationOf,
	CREDENTIAL_TYPE,
	decryptedCredential,
} from '../../common/api';
import { allowedDomainsOf } from '../../common/domains';
import { problemError } from '../../common/errors';
import { DEFAULT_WRITE_URL, proxyBaseUrl, versionedBaseUrl } from '../../common/hosts';
import { checkPathSegment } from '../../common/paths';
import type { RetrySettings } from '../routing/requestPolicy';
import { asNodeError, DEFAULT_TIMEOUT_MS, withRateLimitRetries } from '../routing/requestPolicy';
import { wrongCredentialError } from '../routing/wrongCredential';

/**
 * What an operation run in code (defineOperation.ts, `custom`) needs from n8n's execute context:
 * the node's settings read once, its credential's data, and requests under what n8n's routing
 * engine applies to a routed request (Request Options → Timeout, Proxy, SSL; the credential's
 * Allowed HTTP Request Domains) and the node's rate-limit retries (requestPolicy.ts).
 */

/** An operation run in code instead of routing (n8n's `customOperations`), with all items at once. */
export type CustomOperation = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/** The hosts of the operations run in code (docs/api-notes.md, "Hosts and base URLs"). */
export type InCodeHost = 'write' | 'proxy';

/** The base URL an operation run in code sends to, from the credential (or the default). */
export function hostBaseUrl(host: InCodeHost, credential: ICredentialDataDecryptedObject): string {
	return host === 'write'
		? versionedBaseUrl(credential.writeUrl, DEFAULT_WRITE_URL)
		: proxyBaseUrl(credential.proxyUrl);
}

/**
 * Request Options as n8n's routing engine applies them to a routed request (timeout, proxy, SSL),
 * and the credential's Allowed HTTP Request Domains, which n8n's HTTP helper checks again on every
 * redirect.
 */
export function requestSettings(
	context: IExecuteFunctions,
	credential: ICredentialDataDecryptedObject,
): Pick<
	IHttpRequestOptions,
	'timeout' | 'proxy' | 'skipSslCertificateValidation' | 'allowedDomains'
> {
	const settings = context.getNodeParameter('requestOptions', 0, {}) as {
		timeout?: number;
		proxy?: string;
		allowUnauthorizedCerts?: boolean;
	};
	const allowedDomains = allowedDomainsOf(context.getNode(), credential);
	return {
		timeout: settings.timeout || DEFAULT_TIMEOUT_MS,
		...(settings.proxy ? { proxy: proxyOf(context, settings.proxy) } : {}),
		...(settings.allowUnauthorizedCerts ? { skipSslCertificateValidation: true } : {}),
		...(allowedDomains ? { allowedDomains } : {}),
	};
}

/** Request Options → Proxy as n8n's routing engine reads it (host, port, protocol, auth). */
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

/**
 * The execute context seen as the ApiContext of nodes/common/api.ts. Node-wide settings
 * (Authentication, Request Options) are read for the first item: n8n offers no expression there.
 */
export function apiContextOf(context: IExecuteFunctions): ApiContext {
	// Everything else (getCredentials, helpers, the cancel signal) is the execute context's own.
	return Object.create(context, {
		getNodeParameter: {
			value: (name: string, fallbackValue?: unknown) =>
				context.getNodeParameter(name, 0, fallbackValue),
		},
	}) as ApiContext;
}

/** The credential of the node's Authentication choice, refused before sending when the operation needs the other. */
export async function credentialFor(
	context: IExecuteFunctions,
	where: string,
	def: { requires?: Authentication; host?: InCodeHost },
): Promise<{
	authentication: Authentication;
	data: ICredentialDataDecryptedObject;
	decrypted: ICredentialsDecrypted;
}> {
	const authentication = authenticationOf(apiContextOf(context));
	if (def.requires && def.requires !== authentication) {
		throw wrongCredentialError(context.getNode(), 0, where, def.requires, def.host);
	}
	const type = CREDENTIAL_TYPE[authentication];
	const data = await context.getCredentials(type);
	return { authentication, data, decrypted: decryptedCredential(context.getNode(), type, data) };
}

export interface SendOptions {
	baseUrl: string;
	body?: unknown;
	secrets?: string[];
}

/**
 * One request of an operation run in code, answered whatever its status once the rate-limit
 * retries are spent (the caller maps statuses to items). Network failures throw, naming the host.
 */
export async function sendWithPolicy(
	context: IExecuteFunctions,
	method: IHttpRequestMethods,
	path: string,
	options: SendOptions,
): Promise<ApiResponse> {
	const settings = context.getNodeParameter('requestOptions', 0, {}) as RetrySettings;
	const api = apiContextOf(context);
	// Read once per run (customOperation.ts hands the operation the credential it read).
	const credential = await context.getCredentials(CREDENTIAL_TYPE[authenticationOf(api)]);
	const request = requestSettings(context, credential);
	let last: ApiResponse | undefined;
	try {
		return await withRateLimitRetries(
			context,
			settings,
			async () => {
				last = undefined;
				last = await apiResponse(api, method, path, {
					baseUrl: options.baseUrl,
					body: options.body as never,
					request,
					credential,
					secrets: options.secrets,
				});
				// Only rate limits are thrown here, so that withRateLimitRetries can wait and retry them.
				if (last.status === 429 || last.status === 503) {
					throw problemError(
						context.getNode(),
						last.status,
						last.body,
						last.headers,
						options.secrets,
					);
				}
				return last;
			},
			(error) => error as Error,
		);
	} catch (error) {
		// A rate limit that outlasted the retries is an answer like any other.
		if (last && (last.status === 429 || last.status === 503)) return last;
		throw asNodeError(context.getNode(), error);
	}
}

/**
 * A value for one item that travels in the URL (a path segment or query value), checked like the
 * routed operations' placeholders (templates.ts): text or a number, not empty, not `.` or `..`.
 */
export function urlValue(node: INode, itemIndex: number, label: string, raw: unknown): string {
	const empty = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
	const checked = empty
		? { problem: `"${label}" is empty: the service requires it` }
		: checkPathSegment(label, raw);
	if (typeof checked !== 'string') {
		throw new NodeOperationError(node, checked.problem, {
			itemIndex,
			description:
				'No request was sent for this item. Fill in the parameter, or check the expression that sets it.',
		});
	}
	return checked;
}

/** Whether a parameter's stored value holds an expression anywhere (n8n marks them with a leading "="). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (typeof value === 'object' && value !== null)
		return Object.values(value).some(holdsExpression);
	return false;
}

/**
 * Node parameters for many items, each read once when it holds no expression: n8n's
 * getNodeParameter copies and checks the value on every call, which adds up over thousands of
 * items (docs/n8n-notes.md, "Per-item cost of expressions"). A parameter with an expression is
 * still evaluated for each item.
 */
export class ItemParameters {
	private readonly fixed = new Map<string, unknown>();

	constructor(private readonly context: IExecuteFunctions) {}

	get<T = unknown>(name: string, itemIndex: number, fallback?: unknown, extractValue = false): T {
		if (this.fixed.has(name)) return this.fixed.get(name) as T;
		const read = (index: number) =>
			this.context.getNodeParameter(name, index, fallback, extractValue ? { extractValue } : {});
		if (holdsExpression(this.context.getNode().parameters[name])) return read(itemIndex) as T;
		const value = read(itemIndex);
		this.fixed.set(name, value);
		return value as T;
	}
}

/**
 * n8n's Request Options → Batching, which it gives every declarative node (Items per Batch, Batch
 * Interval): routed operations wait Batch Interval after each batch of items. Operations run in
 * code honour it for their requests: one at a time, pausing after every Items per Batch requests.
 */
export interface Throttle {
	requestsPerPause: number;
	pauseMs: number;
}

export function throttleOf(context: IExecuteFunctions): Throttle | undefined {
	const { batching } = context.getNodeParameter('requestOptions', 0, {}) as {
		batching?: { batch?: { batchSize?: number; batchInterval?: number } };
	};
	const size = Number(batching?.batch?.batchSize);
	const interval = Number(batching?.batch?.batchInterval);
	if (!(size > 0) || !(interval > 0)) return undefined;
	return { requestsPerPause: size, pauseMs: interval };
}

/**
 * Runs `task` for 0…count-1 with at most `concurrency` at once (one at a time under a throttle),
 * in order of index; stops starting new ones once `stop()` says so.
 */
export async function runPool(
	count: number,
	concurrency: number,
	throttle: Throttle | undefined,
	task: (index: number) => Promise<void>,
	stop: () => boolean = () => false,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (!stop() && next < count) {
			const index = next++;
			if (throttle && index > 0 && index % throttle.requestsPerPause === 0) {
				await sleep(throttle.pauseMs);
			}
			await task(index);
		}
	};
	const workers = throttle ? 1 : Math.min(concurrency, count);
	await Promise.all(Array.from({ length: workers }, worker));
}
