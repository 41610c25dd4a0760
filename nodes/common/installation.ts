import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from './api';
import { encodePathSegment } from './paths';
import {
	byId,
	currentValue,
	idOf,
	listLocator,
	listOrReason,
	textOf,
	typedMode,
	withReason,
} from './locator';

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

/**
 * The same parameter where the user picks whose account to act on (Provider API → Send Request,
 * the log trigger): labelled Group, the word the Record operations use for the customer, since
 * the API's installation is the integration installed for one group (docs/architecture.md, "One
 * word per thing"). Its name and its value stay the installation's: saved workflows hold
 * installation IDs, which By ID still takes; By Group Ref is looked up in the
 * integration's installations when the node runs (installationOfGroup).
 */
export const GROUP_REF_MODE = 'groupRef';

export const groupInstallationLocator: INodeProperties = listLocator({
	displayName: 'Group',
	name: 'installation',
	description:
		"The group (customer account) whose installation of the integration is used: from the list by the group's name, by its group ref, or by the installation's ID",
	search: 'searchInstallations',
	select: 'Select a group…',
	typed: [
		typedMode('By Group Ref', GROUP_REF_MODE, 'acme-inc'),
		// n8n's editor labels a mode named `id` "By ID" whatever its display name
		// (docs/n8n-notes.md, "List searches"): the placeholder says which ID. A group ref typed
		// there is sent to By Group Ref.
		byId('9b3f0e1a-… (the installation ID)', {
			noun: 'installation',
			format: 'uuid',
			nameMode: 'By Group Ref',
		}),
	],
});

/**
 * The ID of the group's installation in an answer of the integration's installations list, if it
 * holds one (the list is asked with `?groupRef=`, and each entry is still checked: a service that
 * ignored the filter would otherwise hand over another group's installation).
 */
export function installationOfGroup(installations: unknown, groupRef: string): string | undefined {
	for (const entry of Array.isArray(installations) ? (installations as unknown[]) : []) {
		if (typeof entry !== 'object' || entry === null) continue;
		const { id, group } = entry as IDataObject;
		const ref = typeof group === 'object' && group !== null ? (group as IDataObject).groupRef : '';
		if (ref === groupRef && idOf(id) !== undefined) return id as string;
	}
	return undefined;
}

/** The message and hint when a group ref names no installation of the integration. */
export function noInstallationOfGroup(groupRef: string): { message: string; description: string } {
	return {
		message: `Group "${groupRef}" has no installation of this integration`,
		description:
			'Check the group ref (your ID of the customer account), pick the group from the list (it shows the groups that have the integration installed), or install the integration for it first (Installation → Create).',
	};
}

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

/**
 * listSearch behind installationLocator and groupInstallationLocator: the integration's
 * installations, each named by its group; the value is the installation's ID.
 */
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
			// As the Record operations' Group list names a group: `name (ref)`, or the ref alone.
			.map(({ id, groupName, groupRef }) => ({
				name: groupRef
					? groupName && groupName !== groupRef
						? `${groupName} (${groupRef})`
						: groupRef
					: (groupName ?? id),
				value: id,
			}))
			.sort((a, b) => a.name.localeCompare(b.name)),
		filter,
		INSTALLATIONS_NONE,
	);
});
