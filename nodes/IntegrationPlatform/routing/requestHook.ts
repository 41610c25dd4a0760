import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { withWholeJsonBody } from '../../common/jsonBody';
import { hostOf } from '../../common/network';
import type { RetrySettings } from '../transport/policy';
import { failureError, withRateLimitRetries } from '../transport/policy';
import { secretsOf } from '../transport/secrets';

/**
 * The node's request policy (transport/policy.ts) around a request n8n's routing sends. n8n's
 * declarative engine offers one hook around the HTTP call, the pagination function; every
 * operation turns it on (`send.paginate: true`), and the node-wide `requestOperations.pagination`
 * is this function. n8n has already applied the credential, its Allowed HTTP Request Domains and
 * Request Options to the request; the hook adds:
 * - waiting and retrying (at most RATE_LIMIT_RETRIES times) when the service answers 429 or 503
 *   and says when to retry (Retry-After, or the problem document's retryAfter), if that is within
 *   the node's limit; every other failure is left to n8n's Retry On Fail setting;
 * - network failures reported with the host that failed;
 * - a body whose keys axios would drop sent as its JSON text (nodes/common/jsonBody.ts).
 */
export async function sendRouted(
	context: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const settings = context.getNodeParameter('requestOptions', {}) as RetrySettings;
	return await withRateLimitRetries(
		context,
		settings,
		async () =>
			await context.makeRoutingRequest({
				...requestData,
				options: withWholeJsonBody(requestData.options),
			}),
		// Read after the attempt: the credential's authenticate sets the base URL on the request.
		(error) =>
			failureError(
				context.getNode(),
				error,
				hostOf(requestData.options.url, requestData.options.baseURL),
				secretsOf(context),
				context.getItemIndex(),
			),
	);
}

/** The node-wide `requestOperations.pagination`: every routed request under the policy. */
export async function sendWithRequestPolicy(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	return await sendRouted(this, requestData);
}
