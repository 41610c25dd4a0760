import type { ILoadOptionsFunctions, INodeListSearchResult, INodeProperties } from 'n8n-workflow';

import { apiRequest } from './api';
import { byId, byName, listLocator, listOrReason } from './locator';

/** The project locator of every node of the package: from a list, by name or by ID. */
export const projectLocator: INodeProperties = listLocator({
	displayName: 'Project',
	name: 'project',
	description: 'The project, chosen from the list or given by name or ID (the API accepts both)',
	search: 'searchProjects',
	select: 'Select a project…',
	typed: [byName('my-project'), byId('6f1c2b9e-5d1a-4a51-9a0e-0d6a5e2b7c11')],
});

/**
 * listSearch method behind projectLocator: the projects the credential reaches, filtered by name
 * or ID. An empty list without a search term says why (a new account may have none yet).
 */
export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const body = await apiRequest(this, 'GET', '/projects');
	const projects = Array.isArray(body) ? (body as Array<Record<string, unknown>>) : [];
	const needle = filter?.toLowerCase();
	const items = projects
		.filter(
			(p) =>
				!needle ||
				[p.name, p.appName, p.id].some(
					(text) => typeof text === 'string' && text.toLowerCase().includes(needle),
				),
		)
		.map((p) => ({
			name: `${p.name as string} (${p.appName as string})`,
			value: p.name as string,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
	return listOrReason(
		this.getNode(),
		items,
		filter,
		'This credential reaches no project yet: create one in the dashboard, or with Project → Create and a token credential',
	);
}
