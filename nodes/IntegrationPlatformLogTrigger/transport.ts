import type { IDataObject, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { installationOfGroup, noInstallationOfGroup } from '../common/installation';
import { encodePathSegment } from '../common/paths';
import { apiRequest, apiResponse } from '../common/api';
import type { ListedOperation } from './discovery';
import { MAX_AHEAD_KNOWN, MAX_OPERATION_ID_LENGTH, PAGE_SIZE } from './discovery';
import { MAX_STATE_BYTES } from './stateSize';
import { MAX_AHEAD_PER_OPERATION } from './cursor/ahead';
import { CLOCK_TOLERANCE_MS } from './cursor/time';

/**
 * Requests of the log trigger: nodes/common/api.ts `apiRequest` with a timeout (a hanging API
 * must fail the poll, not block it), and errors that name what was being read and say that the
 * cursor did not move.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

export const NOTHING_MOVED =
	"Nothing was emitted and the trigger's cursor did not move: the next poll reads the log again, so no entry is lost or repeated.";

async function get(
	context: IPollFunctions,
	path: string,
	what: string,
	qs?: IDataObject,
): Promise<unknown> {
	try {
		return await apiRequest(context, 'GET', path, { timeout: REQUEST_TIMEOUT_MS, qs });
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

/**
 * The operations list handed back a page token this listing already used (the same one again, or
 * a cycle such as A, B, A): following it would read the same pages forever, so the poll fails.
 */
export function pagingLoopError(
	context: IPollFunctions,
	installation: string,
	pagesRead: number,
): NodeApiError {
	return new NodeApiError(context.getNode(), { message: 'Paging loop' } as JsonObject, {
		message: `Could not get the operations of installation ${installation}: the list's paging does not advance (after ${pagesRead} page${pagesRead === 1 ? '' : 's'}, the next page token is one this listing already followed)`,
		description: `The API answered with a page token it had already given, so paging would never end. ${NOTHING_MOVED} If this repeats, report it to the API's provider.`,
	});
}

/** More finished operations dated ahead of the clock than the state keeps (MAX_AHEAD_KNOWN). */
export function aheadOfClockError(context: IPollFunctions, count: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`${count} finished operations were created more than ${CLOCK_TOLERANCE_MS / 60_000} minutes ahead of this n8n's clock; the trigger remembers at most ${MAX_AHEAD_KNOWN}`,
		{
			description: `Each is remembered until its creation time has passed, so that it is not emitted twice. Check the clock of n8n's host; operations dated in the future by the API are for its provider to fix. ${NOTHING_MOVED}`,
		},
	);
}

/** Operations with more log entries ahead of the clock than their cursor remembers. */
export function aheadEntriesError(
	context: IPollFunctions,
	overflow: ReadonlyArray<{ operationId: string; waiting: number }>,
): NodeOperationError {
	const [first] = overflow;
	const others = overflow.length > 1 ? ` (and ${overflow.length - 1} more operations)` : '';
	return new NodeOperationError(
		context.getNode(),
		`Operation ${first.operationId} has log entries dated more than ${CLOCK_TOLERANCE_MS / 60_000} minutes ahead of this n8n's clock, more than the ${MAX_AHEAD_PER_OPERATION} the trigger remembers per operation${others}`,
		{
			description: `Entries ahead of the clock are remembered one by one until the clock reaches them, so that they are emitted once; ${first.waiting} more did not fit. Check the clock of n8n's host; entries dated in the future by the API are for its provider to fix. ${NOTHING_MOVED}`,
		},
	);
}

/** A listed operation whose ID is longer than the state keeps (MAX_OPERATION_ID_LENGTH). */
export function overlongIdError(
	context: IPollFunctions,
	overlong: { id: string; installationId: string },
): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`Installation ${overlong.installationId} lists an operation whose ID has ${overlong.id.length} characters ("${overlong.id.slice(0, 40)}…"); the trigger watches IDs of at most ${MAX_OPERATION_ID_LENGTH}`,
		{
			description: `The trigger keeps the ID of every operation it follows in the workflow's static data, which n8n saves after each poll; the API's operation IDs are UUIDs. Report the operation to the API's provider. ${NOTHING_MOVED}`,
		},
	);
}

/** The serialised state past MAX_STATE_BYTES (the other bounds keep it well below). */
export function stateTooLargeError(context: IPollFunctions, bytes: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`The trigger's state would take ${bytes} bytes, more than the ${MAX_STATE_BYTES} it may keep in the workflow's static data`,
		{
			description: `n8n saves the static data after each poll. Watch fewer operations or groups per trigger (split them over several triggers). ${NOTHING_MOVED}`,
		},
	);
}

function unexpected(context: IPollFunctions, what: string, expected: string): NodeApiError {
	return new NodeApiError(context.getNode(), { message: 'Unexpected answer' } as JsonObject, {
		message: `Could not get ${what}: expected ${expected}`,
		description: NOTHING_MOVED,
	});
}

const projectPath = (project: string) => `/projects/${encodePathSegment(project)}`;
const integrationPath = (project: string, integration: string) =>
	`${projectPath(project)}/integrations/${encodePathSegment(integration)}`;

/** GET …/integrations/{integration}/installations: a bare array, not paginated ("The wider API"). */
export async function fetchInstallationIds(
	context: IPollFunctions,
	project: string,
	integration: string,
): Promise<string[]> {
	const what = `the installations of integration ${integration}`;
	const body = await get(context, `${integrationPath(project, integration)}/installations`, what);
	if (!Array.isArray(body)) throw unexpected(context, what, 'a JSON array of installations');
	const ids = body
		.map((i) => (typeof i === 'object' && i !== null ? (i as { id?: unknown }).id : undefined))
		.filter((id): id is string => typeof id === 'string' && id !== '');
	return [...new Set(ids)].sort();
}

/**
 * GET …/installations?groupRef=: the ID of the group's installation, for Watch → Group given By
 * Group Ref (asked on every poll: a group's installation may be replaced).
 */
export async function fetchGroupInstallationId(
	context: IPollFunctions,
	project: string,
	integration: string,
	groupRef: string,
): Promise<string> {
	const what = `the installation of group ${groupRef}`;
	const path = `${integrationPath(project, integration)}/installations`;
	const body = await get(context, path, what, { groupRef });
	if (!Array.isArray(body)) throw unexpected(context, what, 'a JSON array of installations');
	const id = installationOfGroup(body, groupRef);
	if (id !== undefined) return id;
	const { message, description } = noInstallationOfGroup(groupRef);
	throw new NodeOperationError(context.getNode(), message, {
		description: `${description} ${NOTHING_MOVED}`,
	});
}

export interface OperationsPage {
	results: ListedOperation[];
	done: boolean;
	nextPageToken?: string;
}

/**
 * GET …/installations/{installation}/operations?pageSize&pageToken: one page of the API's one
 * paginated list (docs/api-notes.md, "Operations of an installation"). The token is sent as a
 * query value, so it is percent-encoded (it holds `+`, `/` and `=`).
 */
export async function fetchOperationsPage(
	context: IPollFunctions,
	project: string,
	integration: string,
	installation: string,
	pageToken?: string,
): Promise<OperationsPage> {
	const what = `the operations of installation ${installation}`;
	const body = await get(
		context,
		`${integrationPath(project, integration)}/installations/${encodePathSegment(installation)}/operations`,
		what,
		{ pageSize: PAGE_SIZE, ...(pageToken ? { pageToken } : {}) },
	);
	const page = typeof body === 'object' && body !== null ? (body as IDataObject) : undefined;
	if (!page || !Array.isArray(page.results)) {
		throw unexpected(context, what, '{ results, pagination }');
	}
	const pagination = (page.pagination ?? {}) as IDataObject;
	const token =
		typeof pagination.nextPageToken === 'string' && pagination.nextPageToken !== ''
			? pagination.nextPageToken
			: undefined;
	const results = (page.results as unknown[]).filter(
		(r): r is ListedOperation =>
			typeof r === 'object' && r !== null && typeof (r as ListedOperation).id === 'string',
	);
	// without a token there is no next page, whatever `done` says
	return { results, done: pagination.done === true || token === undefined, nextPageToken: token };
}

/** GET …/operations/{operationId}: the operation, or null when the API no longer knows it (404). */
export async function fetchOperation(
	context: IPollFunctions,
	project: string,
	operationId: string,
): Promise<ListedOperation | null> {
	const path = `${projectPath(project)}/operations/${encodePathSegment(operationId)}`;
	const what = `operation ${operationId}`;
	let body: unknown;
	try {
		const response = await apiResponse(context, 'GET', path, { timeout: REQUEST_TIMEOUT_MS });
		if (response.status === 404) return null;
		body = response.status < 400 ? response.body : undefined;
	} catch {
		body = undefined; // asked again below, for the error that names what failed
	}
	body ??= await get(context, path, what);
	if (
		typeof body !== 'object' ||
		body === null ||
		typeof (body as ListedOperation).id !== 'string'
	) {
		throw unexpected(context, what, 'an operation');
	}
	return body as ListedOperation;
}
