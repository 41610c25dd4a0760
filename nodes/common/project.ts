import type { ILoadOptionsFunctions, INodeListSearchResult, INodeProperties } from 'n8n-workflow';

import { apiRequest } from './api';
import { byName, idOf, listLocator, listOrReason, textOf, typedMode, withReason } from './locator';

/** The project locator of every node of the package: from a list, by name or by ID. */
export const projectLocator: INodeProperties = listLocator({
	displayName: 'Project',
	name: 'project',
	description: 'The project, chosen from the list or given by name or ID (the API accepts both)',
	search: 'searchProjects',
	select: 'Select a project…',
	// The API takes a name where it takes an ID, so neither mode refuses the other.
	typed: [byName('my-project'), typedMode('By ID', 'id', '6f1c2b9e-5d1a-4a51-9a0e-0d6a5e2b7c11')],
});

/**
 * listSearch method behind projectLocator: the projects the credential reaches, filtered by name
 * or ID. An empty list without a search term says why (a new account may have none yet). The
 * value is the project's name (the API takes it where it takes the ID); a project without a name
 * that is text is not listed.
 */
export const searchProjects = withReason(async function (
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const body = await apiRequest(this, 'GET', '/projects');
	const projects = Array.isArray(body) ? (body as unknown[]) : [];
	const needle = filter?.trim().toLowerCase();
	const seen = new Set<string>();
	const items = [];
	for (const entry of projects) {
		if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
		const p = entry as Record<string, unknown>;
		const name = idOf(p.name);
		if (name === undefined || seen.has(name)) continue;
		seen.add(name);
		const appName = textOf(p.appName);
		if (needle && ![name, appName, textOf(p.id)].some((t) => t?.toLowerCase().includes(needle)))
			continue;
		items.push({ name: appName ? `${name} (${appName})` : name, value: name });
	}
	return listOrReason(
		this.getNode(),
		items.sort((a, b) => a.name.localeCompare(b.name)),
		filter,
		'This credential reaches no project yet: create one in the dashboard, or with Project → Create and a token credential',
	);
});
