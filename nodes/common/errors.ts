import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { FieldLabeler } from './problem';
import { summarizeProblem } from './problem';

/**
 * A NodeApiError carrying the service's problem document as the user should read it: title,
 * detail and every invalid input in the message; remedy, status and request id in the description
 * (problem.ts). n8n's default handling would show only "Your request is invalid…"
 * (docs/n8n-notes.md, "Errors from routed requests"). `labelOf` names the node's fields behind the
 * inputs the service names ("Project" rather than "path parameter projectIdOrName").
 */
export function problemError(
	node: INode,
	statusCode: number,
	body: unknown,
	headers: Record<string, unknown>,
	secrets: string[] = [],
	itemIndex?: number,
	labelOf?: FieldLabeler,
): NodeApiError {
	const problem = summarizeProblem(statusCode, body, headers, secrets, Date.now(), labelOf);
	// The problem document, minus anything secret, goes into the error's details panel.
	const details: JsonObject = {
		status: statusCode,
		title: problem.title,
		...(problem.detail ? { detail: problem.detail } : {}),
		...(problem.issues.length ? { issues: problem.issues } : {}),
		...(problem.requestId ? { requestId: problem.requestId } : {}),
		...(problem.retryAfterSeconds !== undefined
			? { retryAfterSeconds: problem.retryAfterSeconds }
			: {}),
	};
	const error = new NodeApiError(node, details, {
		message: problem.message,
		description: problem.description,
		httpCode: String(statusCode),
		itemIndex,
	});
	if (problem.retryAfterSeconds !== undefined) {
		(error.context as Record<string, unknown>).retryAfterSeconds = problem.retryAfterSeconds;
	}
	return error;
}
