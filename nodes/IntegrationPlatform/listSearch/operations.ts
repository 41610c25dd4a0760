import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { editorRequest } from '../transport/send';
import { idOf } from '../../common/locator';
import { encodePathSegment } from '../../common/paths';
import { embedded, inOrder, isEntry, list, matches, namesById, selected, textOf } from './shared';

/** How many installations the Operation list reads, and how many operations of each. */
const OPERATION_LIST_INSTALLATIONS = 20;
const OPERATION_LIST_PAGE = 100;

interface Recent {
	id: string;
	actionType: string;
	status: string;
	createTime: string;
	integration: string;
	groupLabel: string;
}

/**
 * Recent operations of the project's installations, newest first: the first page of each
 * installation's list (docs/api-notes.md, "Operations of an installation"), for at most 20
 * installations; older operations are given by ID. Shown by type, integration, group, status and
 * creation time.
 */
export async function searchOperations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const [installations, integrations] = await Promise.all([
		list(this, `/projects/${project}/installations`),
		list(this, `/projects/${project}/integrations`),
	]);
	const integrationNames = namesById(integrations, 'name');
	// Only installations whose IDs can be put in a path: the others have no operations to ask for.
	const readable = installations.flatMap((installation) => {
		const id = idOf(installation.id);
		const integrationId = idOf(installation.integrationId);
		if (id === undefined || integrationId === undefined) return [];
		const group = embedded(installation, 'group');
		return [
			{ id, integrationId, groupLabel: textOf(group.groupName) ?? textOf(group.groupRef) ?? id },
		];
	});
	const recentOf = async (installation: (typeof readable)[number]): Promise<Recent[]> => {
		const path = `/projects/${project}/integrations/${encodePathSegment(installation.integrationId)}/installations/${encodePathSegment(installation.id)}/operations`;
		const body = await editorRequest(this, 'GET', path, { qs: { pageSize: OPERATION_LIST_PAGE } });
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
	const items = recent
		.filter((o) => matches(filter, o.id, o.actionType, o.status, o.integration, o.groupLabel))
		.sort((a, b) => b.createTime.localeCompare(a.createTime))
		.map((o) => ({
			name: `${o.actionType} · ${o.integration} · ${o.groupLabel} · ${o.status}${o.createTime ? ` · ${o.createTime}` : ''}`,
			value: o.id,
		}));
	return inOrder(
		this,
		items,
		filter,
		installations.length
			? 'No operations yet: they appear when an installation reads, writes or subscribes'
			: 'No installations yet in this project, so no operations: create one (Installation → Create)',
	);
}
