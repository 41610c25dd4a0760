import type { IHttpRequestOptions, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { encodePathSegment } from '../IntegrationPlatform/shared/paths';
import { authenticationOf, CREDENTIAL_TYPE } from '../shared/api';
import { problemError } from '../shared/errors';

/**
 * Requests of the log trigger. Like nodes/shared/api.ts `apiRequest`, plus a timeout (a hanging
 * API must fail the poll, not block it) and errors that name the operation; `apiRequest` takes
 * no timeout option.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

const NOTHING_MOVED =
	"Nothing was emitted and the trigger's cursor did not move: the next poll reads the log again, so no entry is lost or repeated.";

interface FullResponse {
	statusCode: number;
	body: unknown;
	headers?: Record<string, unknown>;
}

async function get(context: IPollFunctions, path: string, what: string): Promise<unknown> {
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: path,
		headers: { Accept: 'application/json' },
		json: true,
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		timeout: REQUEST_TIMEOUT_MS,
	};
	let response: FullResponse;
	try {
		response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE[authenticationOf(context)],
			options,
		)) as FullResponse;
	} catch (error) {
		// Network failures and timeouts: only the text is passed on, so that n8n keeps this message
		// rather than a generic one for the error code.
		const reason = error instanceof Error ? error.message : String(error);
		throw new NodeApiError(context.getNode(), { message: reason } as JsonObject, {
			message: `Could not get ${what}: ${reason}`,
			description: NOTHING_MOVED,
		});
	}
	if (response.statusCode >= 400) {
		const error = problemError(
			context.getNode(),
			response.statusCode,
			response.body,
			response.headers ?? {},
		);
		error.message = `Could not get ${what}: ${error.message}`;
		error.description = [error.description, NOTHING_MOVED].filter(Boolean).join('\n');
		throw error;
	}
	let body = response.body;
	if (typeof body === 'string') {
		// n8n hands back the raw text when a JSON answer does not parse.
		const text = body;
		try {
			body = text.trim() === '' ? undefined : JSON.parse(text);
		} catch {
			throw new NodeApiError(context.getNode(), { message: 'Malformed JSON' } as JsonObject, {
				message: `Could not get ${what}: the service answered with malformed JSON`,
				description: `The answer began with: ${text.slice(0, 120)}\n${NOTHING_MOVED}`,
				httpCode: String(response.statusCode),
			});
		}
	}
	return body;
}

/** GET /projects/{project}/operations/{operationId}/logs: a bare array (api-facts §1 op 9, §8). */
export async function fetchOperationLogs(
	context: IPollFunctions,
	project: string,
	operationId: string,
): Promise<unknown[]> {
	const what = `the logs of operation ${operationId}`;
	const body = await get(
		context,
		`/projects/${encodePathSegment(project)}/operations/${encodePathSegment(operationId)}/logs`,
		what,
	);
	if (!Array.isArray(body)) {
		const shape =
			body === null || body === undefined
				? 'nothing'
				: Array.isArray(body)
					? 'a list'
					: typeof body;
		throw new NodeApiError(context.getNode(), { message: 'Unexpected answer' } as JsonObject, {
			message: `Could not get ${what}: expected a JSON array of log entries, got ${shape}`,
			description: NOTHING_MOVED,
		});
	}
	return body;
}

/** GET /projects/{projectIdOrName}: the project's ID when the node names the project. */
export async function fetchProjectId(context: IPollFunctions, project: string): Promise<string> {
	const body = await get(context, `/projects/${encodePathSegment(project)}`, `project ${project}`);
	const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
	if (typeof id !== 'string' || id === '') {
		throw new NodeApiError(context.getNode(), { message: 'Unexpected answer' } as JsonObject, {
			message: `Could not get project ${project}: the answer has no "id"`,
			description: NOTHING_MOVED,
		});
	}
	return id;
}
