import type { IExecuteSingleFunctions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { describeNetworkFailure } from '../../common/network';

/**
 * The node's request policy, the same for every request of the action node (transport/send.ts for
 * the requests it sends itself, routing/requestHook.ts for the ones n8n's routing sends): the
 * service's dated rate limits waited out and retried, and failures turned into n8n errors that
 * name the host.
 */

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
 * A failure without an answer (refused, reset, timeout, DNS, TLS) as an error naming the host,
 * instead of n8n's generic text (its NodeApiError replaces messages that mention ECONNREFUSED and
 * the like); any other error as an n8n error, as it is when it is one already.
 */
export function failureError(
	node: INode,
	error: unknown,
	host: string,
	secrets: readonly string[] = [],
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	const failure =
		error instanceof NodeOperationError ? undefined : describeNetworkFailure(error, host, secrets);
	if (!failure) return asNodeError(node, error);
	return new NodeApiError(node, { host } as JsonObject, {
		...failure,
		...(itemIndex !== undefined ? { itemIndex } : {}),
	});
}
