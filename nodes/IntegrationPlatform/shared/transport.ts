import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	INode,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { describeNetworkFailure, hostOf } from '../../shared/network';
import { secretPathValues } from './templates';

/** Errors from the routing engine are already n8n errors; NodeApiError hands those back as they are. */
function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	return error instanceof NodeOperationError ? error : new NodeApiError(node, error as JsonObject);
}

/** Retries the node makes by itself, when the service says when to come back (README, "Retries"). */
export const RATE_LIMIT_RETRIES = 2;
export const DEFAULT_MAX_RETRY_WAIT_SECONDS = 60;

interface RetrySettings {
	retryOnRateLimit?: boolean;
	maxRetryWaitSeconds?: number;
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
 * The request policy of every operation. n8n's declarative engine offers one hook around the HTTP
 * call, the pagination function; every operation turns it on (`send.paginate: true`) to:
 * - wait and retry (at most RATE_LIMIT_RETRIES times) when the service answers 429 or 503 and
 *   says when to retry (Retry-After, or the problem document's retryAfter), if that is within the
 *   node's limit; every other failure is left to n8n's Retry On Fail setting;
 * - report network failures with the host that failed, instead of n8n's generic text (its
 *   NodeApiError replaces messages that mention ECONNREFUSED and the like).
 */
export async function requestPolicy(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const settings = this.getNodeParameter('requestOptions', {}) as RetrySettings;
	for (let attempt = 0; ; attempt++) {
		try {
			return await this.makeRoutingRequest(requestData);
		} catch (error) {
			const wait = attempt < RATE_LIMIT_RETRIES ? retryDelaySeconds(error, settings) : undefined;
			if (wait !== undefined) {
				await sleep(wait * 1000);
				if (!this.getExecutionCancelSignal()?.aborted) continue;
			}
			const { url, baseURL } = requestData.options;
			const failure =
				error instanceof NodeOperationError
					? undefined
					: describeNetworkFailure(error, hostOf(url, baseURL), secretPathValues(this));
			if (!failure) throw asNodeError(this.getNode(), error);
			throw new NodeApiError(this.getNode(), { host: hostOf(url, baseURL) } as JsonObject, {
				...failure,
				itemIndex: this.getItemIndex(),
			});
		}
	}
}
