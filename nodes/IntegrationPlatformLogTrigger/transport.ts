import type { IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { encodePathSegment } from '../common/paths';
import { apiRequest } from '../common/api';

/**
 * Requests of the log trigger: nodes/common/api.ts `apiRequest` with a timeout (a hanging API
 * must fail the poll, not block it), and errors that name what was being read and say that the
 * cursor did not move.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

const NOTHING_MOVED =
	"Nothing was emitted and the trigger's cursor did not move: the next poll reads the log again, so no entry is lost or repeated.";

async function get(context: IPollFunctions, path: string, what: string): Promise<unknown> {
	try {
		return await apiRequest(context, 'GET', path, { timeout: REQUEST_TIMEOUT_MS });
	} catch (error) {
		const failure =
			error instanceof NodeApiError
				? error
				: new NodeApiError(context.getNode(), error as JsonObject);
		failure.message = `Could not get ${what}: ${failure.message}`;
		failure.description = [failure.description, NOTHING_MOVED].filter(Boolean).join('\n');
		throw failure;
	}
}

/** GET /projects/{project}/operations/{operationId}/logs: a bare array (docs/api-notes.md, "Operation logs"). */
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
