import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	INode,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { apiRequest } from '../../common/api';
import { withWholeJsonBody } from '../../common/jsonBody';
import { describeNetworkFailure, hostOf } from '../../common/network';
import { secretPathValues } from './templates';

/** Errors from the routing engine are already n8n errors; NodeApiError hands those back as they are. */
export function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	return error instanceof NodeOperationError ? error : new NodeApiError(node, error as JsonObject);
}

/** Retries the node makes by itself, when the service says when to come back (README.md, "Errors and retries"). */
export const RATE_LIMIT_RETRIES = 2;
export const DEFAULT_MAX_RETRY_WAIT_SECONDS = 60;

/** n8n's timeout for routed requests when Request Options → Timeout is not set (RoutingNode). */
export const DEFAULT_TIMEOUT_MS = 300_000;

export interface RetrySettings {
	retryOnRateLimit?: boolean;
	maxRetryWaitSeconds?: number;
	/** Request Options → Timeout (n8n's own option), in milliseconds. */
	timeout?: number;
}

/** How long to wait before retrying `error`, or undefined when the node should not retry it. */
function retryDelaySeconds(error: unknown, settings: RetrySettings): number | undefined {
	if (settings.retryOnRateLimit === false || !(error instanceof NodeApiError)) return undefined;
	if (error.httpCode !== '429' && error.httpCode !== '503') return undefined;
	const wait = (error.context as { retryAfterSeconds?: unknown }).retryAfterSeconds;
	if (typeof wait !== 'number') return undefined;
	const limit = settings.maxRetryWaitSeconds ?? DEFAULT_MAX_RETRY_WAIT_SECONDS;
	return wait <= limit ? wait : undefined;
}

/**
 * Runs `attempt`, retrying it (at most RATE_LIMIT_RETRIES times) after the wait the service asked
 * for when it answers 429 or 503 with a retry time within the node's limit. Any other failure, or
 * the last one, is thrown as `fail` words it.
 */
export async function withRateLimitRetries<T>(
	context: Pick<IExecuteSingleFunctions, 'getExecutionCancelSignal'>,
	settings: RetrySettings,
	attempt: () => Promise<T>,
	fail: (error: unknown) => Error,
): Promise<T> {
	for (let count = 0; ; count++) {
		try {
			return await attempt();
		} catch (error) {
			const wait = count < RATE_LIMIT_RETRIES ? retryDelaySeconds(error, settings) : undefined;
			if (wait === undefined) throw fail(error);
			await sleep(wait * 1000);
			if (context.getExecutionCancelSignal()?.aborted) throw fail(error);
		}
	}
}

/**
 * The request policy of every operation. n8n's declarative engine offers one hook around the HTTP
 * call, the pagination function; every operation turns it on (`send.paginate: true`) to:
 * - wait and retry (at most RATE_LIMIT_RETRIES times) when the service answers 429 or 503 and
 *   says when to retry (Retry-After, or the problem document's retryAfter), if that is within the
 *   node's limit; every other failure is left to n8n's Retry On Fail setting;
 * - report network failures with the host that failed, instead of n8n's generic text (its
 *   NodeApiError replaces messages that mention ECONNREFUSED and the like);
 * - send a body whose keys axios would drop as its JSON text (nodes/common/jsonBody.ts).
 */
export async function sendWithRequestPolicy(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const settings = this.getNodeParameter('requestOptions', {}) as RetrySettings;
	const fail = (error: unknown): Error => {
		const { url, baseURL } = requestData.options;
		const failure =
			error instanceof NodeOperationError
				? undefined
				: describeNetworkFailure(error, hostOf(url, baseURL), secretPathValues(this));
		if (!failure) return asNodeError(this.getNode(), error);
		return new NodeApiError(this.getNode(), { host: hostOf(url, baseURL) } as JsonObject, {
			...failure,
			itemIndex: this.getItemIndex(),
		});
	};
	return await withRateLimitRetries(
		this,
		settings,
		// A body key axios would drop (a metadata key named `constructor`) travels as JSON text.
		async () =>
			await this.makeRoutingRequest({
				...requestData,
				options: withWholeJsonBody(requestData.options),
			}),
		fail,
	);
}

/**
 * A request an operation makes in code (a lookup before or after its own request), under the
 * same policy as the operation's own requests: Request Options → Timeout, and the rate-limit
 * retries above. Errors are apiRequest's (problem documents, network failures naming the host).
 */
export async function lookupRequest<T = unknown>(
	context: IExecuteSingleFunctions,
	method: IHttpRequestMethods,
	path: string,
	qs?: IDataObject,
): Promise<T> {
	const settings = context.getNodeParameter('requestOptions', {}) as RetrySettings;
	// apiRequest applies the credential's allowed domains, as n8n's routing does to the
	// operation's own request.
	return await withRateLimitRetries(
		context,
		settings,
		async () =>
			await apiRequest<T>(context, method, path, {
				qs,
				request: { timeout: settings.timeout || DEFAULT_TIMEOUT_MS },
				secrets: secretPathValues(context),
			}),
		(error) => asNodeError(context.getNode(), error),
	);
}
