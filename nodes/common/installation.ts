import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from './api';
import { encodePathSegment } from './paths';
import { byId, currentValue, idOf, listLocator, listOrReason, textOf, withReason } from './locator';

/**
 * Integration and installation locators for nodes that pick them in code (the log trigger), with
 * their searches. They depend on the `project` locator (project.ts) and, for installations, on an
 * `integration` parameter of the same node.
 */
export const integrationLocator: INodeProperties = listLocator({
	displayName: 'Integration',
	name: 'integration',
	description: 'An integration of the project, chosen from the list or given by ID',
	search: 'searchIntegrations',
	select: 'Select an integration…',
	typed: [byId('1a7e5c2d-…', { noun: 'integration', format: 'uuid' })],
});

export const installationLocator: INodeProperties = listLocator({
	displayName: 'Installation',
	name: 'installation',
	description:
		"An installation of the integration (for one group), chosen from the list by its group's name or given by ID",
	search: 'searchInstallations',
	select: 'Select an installation…',
	typed: [byId('9b3f0e1a-…', { noun: 'installation', format: 'uuid' })],
});

/** Why an integration's list of installations (or of their groups) is empty. */
export const INSTALLATIONS_NONE =
	'No installations yet for this integration: create one (Installation → Create) or pick another integration';

/** The current value of a locator another search depends on, as one path segment. */
function segmentOf(context: ILoadOptionsFunctions, parameter: string): string {
	const text = currentValue(context, parameter);
	if (!text) throw new NodeOperationError(context.getNode(), `Select the ${parameter} first`);
	return encodePathSegment(text);
}

const contains = (needle: string | undefined, ...texts: unknown[]) =>
	!needle?.trim() ||
	texts.some((t) => textOf(t)?.toLowerCase().includes(needle.trim().toLowerCase()));

/** The entries of a list answer that are objects, each ID (text only) once. */
async function entriesAt(
	context: ILoadOptionsFunctions,
	path: string,
): Promise<Array<{ id: string; entry: IDataObject }>> {
	const body = await apiRequest(context, 'GET', path);
	const seen = new Set<string>();
	const entries = [];
	for (const entry of Array.isArray(body) ? (body as unknown[]) : []) {
		if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
		const id = idOf((entry as IDataObject).id);
		if (id === undefined || seen.has(id)) continue;
		seen.add(id);
		entries.push({ id, entry: entry as IDataObject });
	}
	return entries;
}

/** listSearch behind integrationLocator: the project's integrations (name, provider, ID). */
export const searchIntegrations = withReason(async function (
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const integrations = await entriesAt(
		this,
		`/projects/${segmentOf(this, 'project')}/integrations`,
	);
	return listOrReason(
		this.getNode(),
		integrations
			.filter(({ id, entry }) => contains(filter, entry.name, entry.provider, id))
			.map(({ id, entry }) => ({
				name: `${textOf(entry.name) ?? id} (${textOf(entry.provider) ?? 'unknown provider'})`,
				value: id,
			}))
			.sort((a, b) => a.name.localeCompare(b.name)),
		filter,
		'No integrations yet in this project: deploy one (Integration → Create) or pick another project',
	);
});

/** listSearch behind installationLocator: the integration's installations, named by group. */
export const searchInstallations = withReason(async function (
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const path = `/projects/${segmentOf(this, 'project')}/integrations/${segmentOf(this, 'integration')}/installations`;
	const installations = await entriesAt(this, path);
	return listOrReason(
		this.getNode(),
		installations
			.map(({ id, entry }) => {
				const group = (
					typeof entry.group === 'object' && entry.group !== null ? entry.group : {}
				) as IDataObject;
				return { id, groupName: textOf(group.groupName), groupRef: textOf(group.groupRef) };
			})
			.filter(({ id, groupName, groupRef }) => contains(filter, groupName, groupRef, id))
			.map(({ id, groupName, groupRef }) => ({
				name: `${groupName ?? groupRef ?? id} (${groupRef ?? id})`,
				value: id,
			}))
			.sort((a, b) => a.name.localeCompare(b.name)),
		filter,
		INSTALLATIONS_NONE,
	);
});
