import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { editorRequest } from '../transport/send';
import { INSTALLATIONS_NONE } from '../../common/installation';
import { currentValue, idOf } from '../../common/locator';
import { embedded, isEntry, list, matches, results, selected, textOf } from './shared';

/** The lists of connections, groups and consumers: who a customer is to the API. */

/** `name (ref)`, or the ref alone when there is no other name. */
const labelled = (name: string | undefined, ref: string) =>
	name && name !== ref ? `${name} (${ref})` : ref;

export async function searchConnections(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const connections = await list(this, `/projects/${project}/connections`);
	const items: INodeListSearchItems[] = [];
	for (const connection of connections) {
		const id = idOf(connection.id);
		if (id === undefined) continue;
		const group = embedded(connection, 'group');
		const consumer = embedded(connection, 'consumer');
		const provider = textOf(connection.provider) ?? 'unknown provider';
		const groupLabel = textOf(group.groupName) ?? textOf(group.groupRef) ?? 'no group';
		const consumerLabel =
			textOf(consumer.consumerName) ?? textOf(consumer.consumerRef) ?? 'no consumer';
		if (!matches(filter, provider, group.groupRef, group.groupName, consumer.consumerRef, id))
			continue;
		items.push({ name: `${provider}: ${groupLabel} / ${consumerLabel}`, value: id });
	}
	return results(
		this,
		items,
		filter,
		'No connections yet in this project: connect a customer first (Connection → Generate, or OAuth → Get Authorization URL)',
	);
}

/**
 * Each group once, shown by its name with its group ref; the value is the group ref. Groups come
 * embedded in installations and connections (docs/api-notes.md, "Installations", "Connections").
 */
function groupItems(owners: IDataObject[], filter: string | undefined): INodeListSearchItems[] {
	const groups = new Map<string, string | undefined>();
	for (const owner of owners) {
		const group = embedded(owner, 'group');
		const groupRef = idOf(group.groupRef);
		if (groupRef === undefined || groups.has(groupRef)) continue;
		const name = textOf(group.groupName);
		if (matches(filter, name, groupRef)) groups.set(groupRef, name);
	}
	return [...groups].map(([groupRef, name]) => ({
		name: labelled(name, groupRef),
		value: groupRef,
	}));
}

/** Groups (consumers) with an installation of the integration; the value is the group ref. */
export async function searchGroups(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const integration = selected(this, 'integration', 'integration');
	const installations = await list(
		this,
		`/projects/${project}/integrations/${integration}/installations`,
	);
	return results(this, groupItems(installations, filter), filter, INSTALLATIONS_NONE);
}

/** The project's connections, of one provider when given. */
async function connectionsOf(
	context: ILoadOptionsFunctions,
	project: string,
	provider: string,
): Promise<IDataObject[]> {
	return await list(
		context,
		`/projects/${project}/connections`,
		provider ? { provider } : undefined,
	);
}

const CONNECT_FIRST =
	'connect the customer first (Connection → Generate, or OAuth → Get Authorization URL)';

/**
 * The Group list of every field whose value is a group ref, except Records' own. Which groups
 * fit depends on the operation: those with an installation of the integration where the
 * operation reads through it, those with a connection (to the provider chosen, or to the
 * integration's provider for a new installation) where it reads through a connection, and the
 * project's known groups where a new connection may start a new one.
 */
export async function searchGroupRefs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const where = `${currentValue(this, 'resource')}.${currentValue(this, 'operation')}`;
	const project = selected(this, 'project', 'project');
	switch (where) {
		case 'installation.getAll':
		case 'objectMetadata.getForInstallation':
		case 'customField.upsertForInstallation':
			return await searchGroups.call(this, filter);
		case 'installation.getAllInProject':
			return results(
				this,
				groupItems(await list(this, `/projects/${project}/installations`), filter),
				filter,
				'No installations yet in this project: create one (Installation → Create)',
			);
		case 'installation.create': {
			// A new installation uses its group's connection to the integration's provider.
			const integration = selected(this, 'integration', 'integration');
			const body = await editorRequest(
				this,
				'GET',
				`/projects/${project}/integrations/${integration}`,
			);
			const name = (isEntry(body) ? idOf(body.provider) : undefined) ?? '';
			return results(
				this,
				groupItems(await connectionsOf(this, project, name), filter),
				filter,
				`No group has a connection to ${name || 'this provider'} yet: ${CONNECT_FIRST}`,
			);
		}
		case 'objectMetadata.getForConnection':
		case 'customField.upsert':
		case 'customField.getAll': {
			const provider = currentValue(this, 'provider');
			return results(
				this,
				groupItems(await connectionsOf(this, project, provider), filter),
				filter,
				`No group has a connection to ${provider || 'this provider'} yet: ${CONNECT_FIRST}`,
			);
		}
		case 'connection.getAll':
			return results(
				this,
				groupItems(await connectionsOf(this, project, ''), filter),
				filter,
				'No connections yet in this project, so no group to filter by',
			);
		default:
			// Connection → Generate and OAuth → Get Authorization URL, which may start a new group.
			return results(
				this,
				groupItems(await connectionsOf(this, project, ''), filter),
				filter,
				'No group has a connection in this project yet. For a new customer choose By Group Ref and enter your ID of their account.',
			);
	}
}

/**
 * The consumers of the project's connections (of the group chosen, where the operation has one:
 * beside the list in Connection → Get Many's Filters, at the top elsewhere); the value is the
 * consumer ref.
 */
export async function searchConsumers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const groupRef = currentValue(this, 'groupRef');
	const connections = await list(
		this,
		`/projects/${project}/connections`,
		groupRef ? { groupRef } : undefined,
	);
	const consumers = new Map<string, string | undefined>();
	for (const connection of connections) {
		const consumer = embedded(connection, 'consumer');
		const consumerRef = idOf(consumer.consumerRef);
		if (consumerRef === undefined || consumers.has(consumerRef)) continue;
		const name = textOf(consumer.consumerName);
		if (matches(filter, name, consumerRef)) consumers.set(consumerRef, name);
	}
	return results(
		this,
		[...consumers].map(([consumerRef, name]) => ({
			name: labelled(name, consumerRef),
			value: consumerRef,
		})),
		filter,
		groupRef
			? 'No consumer of this group has a connection yet. For a new user choose By Consumer Ref and enter your ID of them.'
			: 'No consumer has a connection in this project yet. For a new user choose By Consumer Ref and enter your ID of them.',
	);
}
