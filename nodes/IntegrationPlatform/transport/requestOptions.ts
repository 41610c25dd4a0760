import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { allowedDomainsOf } from '../../common/domains';
import type { RetrySettings } from './policy';
import { DEFAULT_TIMEOUT_MS } from './policy';

/**
 * n8n's Request Options setting (Timeout, Proxy, Ignore SSL Issues, Batching) and the node's own
 * retry options beside it, for the requests the node sends itself. n8n applies them to a routed
 * request inside its routing engine and hands node code no helper that does the same, so this
 * follows the engine's reading (docs/n8n-notes.md, "Request Options outside routing").
 */
export interface NodeRequestOptions extends RetrySettings {
	proxy?: string;
	allowUnauthorizedCerts?: boolean;
	batching?: { batch?: { batchSize?: number; batchInterval?: number } };
}

/** The request options of Request Options, and the credential's Allowed HTTP Request Domains. */
export type RequestSettings = Pick<
	IHttpRequestOptions,
	'timeout' | 'proxy' | 'skipSslCertificateValidation' | 'allowedDomains'
>;

/**
 * Request Options as n8n's routing engine applies them to a routed request (timeout, proxy, SSL),
 * and the credential's Allowed HTTP Request Domains, which n8n's HTTP helper checks again on every
 * redirect.
 */
export function requestSettings(
	node: INode,
	settings: NodeRequestOptions,
	credential: ICredentialDataDecryptedObject,
): RequestSettings {
	const allowedDomains = allowedDomainsOf(node, credential);
	return { ...connectionSettings(node, settings), ...(allowedDomains ? { allowedDomains } : {}) };
}

/** Request Options → Timeout, Proxy and Ignore SSL Issues as request options. */
export function connectionSettings(
	node: INode,
	settings: NodeRequestOptions,
): Omit<RequestSettings, 'allowedDomains'> {
	return {
		timeout: settings.timeout || DEFAULT_TIMEOUT_MS,
		...(settings.proxy ? { proxy: proxyOf(node, settings.proxy) } : {}),
		...(settings.allowUnauthorizedCerts ? { skipSslCertificateValidation: true } : {}),
	};
}

/** Request Options → Proxy as n8n's routing engine reads it (host, port, protocol, auth). */
function proxyOf(node: INode, proxy: string): IHttpRequestOptions['proxy'] {
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
		throw new NodeOperationError(node, 'The proxy is not valid', {
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
 * Request Options → Batching (Items per Batch, Batch Interval): routed operations wait Batch
 * Interval after each batch of items. Operations run in code honour it for their requests: one at
 * a time, pausing after every Items per Batch requests.
 */
export interface Throttle {
	requestsPerPause: number;
	pauseMs: number;
}

export function throttleOf(settings: NodeRequestOptions): Throttle | undefined {
	const size = Number(settings.batching?.batch?.batchSize);
	const interval = Number(settings.batching?.batch?.batchInterval);
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
