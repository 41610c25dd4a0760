import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from './api';
import { encodePathSegment } from './paths';
import { byId, listLocator, listOrReason } from './locator';

/**
 * Integration and installation locators for nodes that pick them in code (the log trigger), with
 * their searches. They depend on the `project` locator (project.ts) and, for installations, on an
 * `integration` parameter of the same node.
 */
export const integrationLocator: INodeProperties = listLocator({
	displayName: 'Integration',
	name: 'integration',
	description: 'An integration of the project, chosen from the list or given by ID or name',
	search: 'searchIntegrations',
	select: 'Select an integration…',
	typed: [byId('1a7e5c2d-…')],
});

export const installationLocator: INodeProperties = listLocator({
	displayName: 'Installation',
	name: 'installation',
	description:
		"An installation of the integration (for one group), chosen from the list by its group's name or given by ID",
	search: 'searchInstallations',
	select: 'Select an installation…',
	typed: [byId('9b3f0e1a-…')],
});

/** Why an integration's list of installations (or of their groups) is empty. */
export const INSTALLATIONS_NONE =
	'No installations yet for this integration: create one (Installation → Create) or pick another integration';

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
	return listOrReason(
		this.getNode(),
		integrations
			.filter((i) => contains(filter, i.name, i.provider, i.id))
			.map((i) => ({ name: `${String(i.name)} (${String(i.provider)})`, value: String(i.id) }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		filter,
		'No integrations yet in this project: deploy one (Integration → Create) or pick another project',
	);
}

/** listSearch behind installationLocator: the integration's installations, named by group. */
export async function searchInstallations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const path = `/projects/${segmentOf(this, 'project')}/integrations/${segmentOf(this, 'integration')}/installations`;
	const installations = await arrayAt(this, path);
	return listOrReason(
		this.getNode(),
		installations
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
		filter,
		INSTALLATIONS_NONE,
	);
}
