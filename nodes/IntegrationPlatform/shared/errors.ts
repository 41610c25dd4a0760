import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { summarizeProblem } from '../../shared/problem';
import { secretPathValues } from './paths';

/** What each credential choice is called in the UI, for messages that say which one to use. */
export const CREDENTIAL_LABEL = {
	apiKey: 'API Key (Integration Platform API credential)',
	bearerToken: 'Bearer Token (Integration Platform Token API credential)',
} as const;

export function problemError(
	node: INode,
	statusCode: number,
	body: unknown,
	headers: Record<string, unknown>,
	secrets: string[],
	itemIndex?: number,
	hint?: string,
): NodeApiError {
	const problem = summarizeProblem(statusCode, body, headers, secrets);
	const description = hint ? `${hint}\n${problem.description}` : problem.description;
	// The problem document, minus anything secret, goes into the error's details panel.
	const details: JsonObject = {
		status: statusCode,
		title: problem.title,
		...(problem.detail ? { detail: problem.detail } : {}),
		...(problem.issues.length ? { issues: problem.issues } : {}),
		...(problem.requestId ? { requestId: problem.requestId } : {}),
		...(problem.retryAfterSeconds !== undefined ? { retryAfterSeconds: problem.retryAfterSeconds } : {}),
	};
	const error = new NodeApiError(node, details, {
		message: problem.message,
		description,
		httpCode: String(statusCode),
		itemIndex,
	});
	if (problem.retryAfterSeconds !== undefined) {
		(error.context as Record<string, unknown>).retryAfterSeconds = problem.retryAfterSeconds;
	}
	return error;
}

/**
 * First postReceive step of every operation. Requests are sent with `ignoreHttpStatusErrors`, so
 * that error bodies reach this function: n8n's default handling would replace the service's
 * problem document with "Your request is invalid…" (n8n-conventions §0 #7).
 */
export async function throwOnProblem(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const { statusCode, body, headers } = response;
	if (statusCode >= 400) {
		throw problemError(this.getNode(), statusCode, body, headers, secretPathValues(this), this.getItemIndex());
	}
	// A success status with a body that did not parse as JSON (axios hands it over as a string).
	if (typeof body === 'string' && body.trim() !== '') {
		throw new NodeApiError(
			this.getNode(),
			{ status: statusCode },
			{
				message: `The service answered HTTP ${statusCode} with a body that is not valid JSON`,
				description: `First bytes: ${JSON.stringify(body.slice(0, 80))}. This is a fault of the service or of a proxy in between; retrying later may help (Settings → Retry On Fail).`,
				httpCode: String(statusCode),
				itemIndex: this.getItemIndex(),
			},
		);
	}
	return items;
}
