import type { ILoadOptionsFunctions, INodeListSearchResult, INodeProperties } from 'n8n-workflow';

import { apiRequest } from './api';

/** The project locator of every node of the package: from a list, by name or by ID. */
export const projectLocator: INodeProperties = {
	displayName: 'Project',
	name: 'project',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'The project, chosen from the list or given by name or ID (the API accepts both)',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a project…',
			typeOptions: { searchListMethod: 'searchProjects', searchable: true },
		},
		{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. my-project' },
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 6f1c2b9e-5d1a-4a51-9a0e-0d6a5e2b7c11',
		},
	],
};

/** listSearch method behind projectLocator: the credential's projects, filtered by name or ID. */
export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const body = await apiRequest(this, 'GET', '/projects');
	const projects = Array.isArray(body) ? (body as Array<Record<string, unknown>>) : [];
	const needle = filter?.toLowerCase();
	return {
		results: projects
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
			.sort((a, b) => a.name.localeCompare(b.name)),
	};
}
