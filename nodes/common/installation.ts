import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from './api';
import { encodePathSegment } from './paths';

/**
 * Integration and installation locators for nodes that pick them in code (the log trigger), with
 * their searches. They depend on the `project` locator (project.ts) and, for installations, on an
 * `integration` parameter of the same node.
 */
export const integrationLocator: INodeProperties = {
	displayName: 'Integration',
	name: 'integration',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'An integration of the project, chosen from the list or given by ID or name',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an integration…',
			typeOptions: { searchListMethod: 'searchIntegrations', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 1a7e5c2d-…' },
	],
};

export const installationLocator: INodeProperties = {
	displayName: 'Installation',
	name: 'installation',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'An installation of the integration, chosen from the list (by group) or given by ID',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an installation…',
			typeOptions: { searchListMethod: 'searchInstallations', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 9b3f0e1a-…' },
	],
};

/** The current value of a locator another search depends on, as one path segment. */
function segmentOf(context: ILoadOptionsFunctions, parameter: string): string {
	const value = context.getCurrentNodeParameter(parameter, { extractValue: true });
	const text = typeof value === 'string' ? value.trim() : '';
	if (!text) throw new NodeOperationError(context.getNode(), `Select the ${parameter} first`);
	return encodePathSegment(text);
}

const contains = (needle: string | undefined, ...texts: unknown[]) =>
	!needle ||
	texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(needle.toLowerCase()));

async function arrayAt(context: ILoadOptionsFunctions, path: string): Promise<IDataObject[]> {
	const body = await apiRequest(context, 'GET', path);
	return Array.isArray(body) ? (body as IDataObject[]) : [];
}

/** listSearch behind integrationLocator: the project's integrations (name, provider, ID). */
export async function searchIntegrations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const integrations = await arrayAt(this, `/projects/${segmentOf(this, 'project')}/integrations`);
	return {
		results: integrations
			.filter((i) => contains(filter, i.name, i.provider, i.id))
			.map((i) => ({ name: `${String(i.name)} (${String(i.provider)})`, value: String(i.id) }))
			.sort((a, b) => a.name.localeCompare(b.name)),
	};
}

/** listSearch behind installationLocator: the integration's installations, named by group. */
export async function searchInstallations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const path = `/projects/${segmentOf(this, 'project')}/integrations/${segmentOf(this, 'integration')}/installations`;
	const installations = await arrayAt(this, path);
	return {
		results: installations
			.filter((i) => {
				const group = (i.group ?? {}) as IDataObject;
				return contains(filter, group.groupName, group.groupRef, i.id);
			})
			.map((i) => {
				const group = (i.group ?? {}) as IDataObject;
				const label = group.groupName ?? group.groupRef ?? i.id;
				return {
					name: `${String(label)} (${String(group.groupRef ?? i.id)})`,
					value: String(i.id),
				};
			})
			.sort((a, b) => a.name.localeCompare(b.name)),
	};
}
