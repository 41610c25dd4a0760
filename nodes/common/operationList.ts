import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { encodePathSegment } from './paths';
import { idOf, listOrReason, textOf } from './locator';

/**
 * The list of a project's recent operations, shared by the action node's Operation ID and the log
 * trigger's Operations: each node sends the requests its own way (`get`).
 */

/** How many installations the list reads, and how many operations of each. */
const OPERATION_LIST_INSTALLATIONS = 20;
const OPERATION_LIST_PAGE = 100;

/** A GET of a path of the management API, as the node sends it; the answer's JSON. */
export type ListGet = (path: string, qs?: IDataObject) => Promise<unknown>;

interface Recent {
	id: string;
	actionType: string;
	status: string;
	createTime: string;
	integration: string;
	groupLabel: string;
}

const isEntry = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The entries of a bare-array answer; any other answer says what came instead. */
async function entries(
	context: ILoadOptionsFunctions,
	get: ListGet,
	path: string,
): Promise<IDataObject[]> {
	const body = await get(path);
	if (body === undefined || body === null) return [];
	if (!Array.isArray(body)) {
		throw new NodeOperationError(
			context.getNode(),
			`The service answered GET ${path} with ${typeof body === 'object' ? 'an object' : `a ${typeof body}`} where a list was expected, so the list cannot be shown`,
		);
	}
	return body.filter(isEntry);
}

const matches = (filter: string | undefined, ...texts: Array<string | undefined>) => {
	const needle = filter?.trim().toLowerCase();
	return !needle || texts.some((text) => text?.toLowerCase().includes(needle));
};

/**
 * Recent operations of the project's installations, newest first: the first page of each
 * installation's list (docs/api-notes.md, "Operations of an installation"), for at most 20
 * installations; older operations are given by ID. Shown by type, integration, group, status and
 * creation time. `project` is already a path segment.
 */
export async function recentOperations(
	context: ILoadOptionsFunctions,
	get: ListGet,
	project: string,
	filter?: string,
): Promise<INodeListSearchResult> {
	const [installations, integrations] = await Promise.all([
		entries(context, get, `/projects/${project}/installations`),
		entries(context, get, `/projects/${project}/integrations`),
	]);
	const integrationNames = new Map<string, string>();
	for (const integration of integrations) {
		const id = textOf(integration.id);
		const name = textOf(integration.name);
		if (id !== undefined && name !== undefined && !integrationNames.has(id))
			integrationNames.set(id, name);
	}
	// Only installations whose IDs can be put in a path: the others have no operations to ask for.
	const readable = installations.flatMap((installation) => {
		const id = idOf(installation.id);
		const integrationId = idOf(installation.integrationId);
		if (id === undefined || integrationId === undefined) return [];
		const group = isEntry(installation.group) ? installation.group : {};
		return [
			{ id, integrationId, groupLabel: textOf(group.groupName) ?? textOf(group.groupRef) ?? id },
		];
	});
	const recentOf = async (installation: (typeof readable)[number]): Promise<Recent[]> => {
		const path = `/projects/${project}/integrations/${encodePathSegment(installation.integrationId)}/installations/${encodePathSegment(installation.id)}/operations`;
		const body = await get(path, { pageSize: OPERATION_LIST_PAGE });
		const operations = isEntry(body) && Array.isArray(body.results) ? body.results : [];
		const { groupLabel } = installation;
		return operations.filter(isEntry).flatMap((operation) => {
			const id = idOf(operation.id);
			if (id === undefined) return [];
			const integrationId = idOf(operation.integrationId);
			return [
				{
					id,
					actionType: textOf(operation.actionType) ?? 'unknown action',
					status: textOf(operation.status) ?? 'unknown status',
					createTime: idOf(operation.createTime) ?? '',
					integration:
						(integrationId && integrationNames.get(integrationId)) ??
						integrationId ??
						'unknown integration',
					groupLabel,
				},
			];
		});
	};
	// Four requests at a time, as the log trigger reads logs: a burst of 20 could meet the rate limit.
	const chosen = readable.slice(0, OPERATION_LIST_INSTALLATIONS);
	const recent: Recent[] = [];
	for (let start = 0; start < chosen.length; start += 4) {
		const pages = await Promise.all(chosen.slice(start, start + 4).map(recentOf));
		recent.push(...pages.flat());
	}
	const seen = new Set<string>();
	const items = recent
		.filter((o) => matches(filter, o.id, o.actionType, o.status, o.integration, o.groupLabel))
		.sort((a, b) => b.createTime.localeCompare(a.createTime))
		.filter((o) => !seen.has(o.id) && seen.add(o.id))
		.map((o) => ({
			name: `${o.actionType} · ${o.integration} · ${o.groupLabel} · ${o.status}${o.createTime ? ` · ${o.createTime}` : ''}`,
			value: o.id,
		}));
	return listOrReason(
		context.getNode(),
		items,
		filter,
		installations.length
			? 'No operations yet: they appear when an installation reads, writes or subscribes'
			: 'No installations yet in this project, so no operations: create one (Installation → Create)',
	);
}
