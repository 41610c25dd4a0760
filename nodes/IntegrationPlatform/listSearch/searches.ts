import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { encodePathSegment } from '../../common/paths';
import { apiRequest } from '../../common/api';
import { INSTALLATIONS_NONE } from '../../common/installation';
import { listOrReason } from '../../common/locator';

/** The value of a resource locator the search depends on (the project, the integration). */
function selected(context: ILoadOptionsFunctions, parameter: string, label: string): string {
	const value = context.getCurrentNodeParameter(parameter, { extractValue: true });
	if (typeof value !== 'string' || value.trim() === '') {
		const article = /^[aeiou]/i.test(label) ? 'an' : 'a';
		throw new NodeOperationError(context.getNode(), `Select ${article} ${label} first`);
	}
	return encodePathSegment(value.trim());
}

function matches(filter: string | undefined, ...texts: unknown[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((text) => typeof text === 'string' && text.toLowerCase().includes(needle));
}

async function list(
	context: ILoadOptionsFunctions,
	path: string,
	qs?: IDataObject,
): Promise<IDataObject[]> {
	const body = await apiRequest(context, 'GET', path, qs ? { qs } : {});
	return Array.isArray(body) ? (body as IDataObject[]) : [];
}

/**
 * The items sorted by name; an empty list before any search term is typed says why it is empty
 * (`listOrReason`, nodes/common/locator.ts).
 */
function results(
	context: ILoadOptionsFunctions,
	items: INodeListSearchItems[],
	filter: string | undefined,
	reason: string,
): INodeListSearchResult {
	return listOrReason(
		context.getNode(),
		items.sort((a, b) => a.name.localeCompare(b.name)),
		filter,
		reason,
	);
}

export async function searchConnections(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const connections = await list(this, `/projects/${project}/connections`);
	return results(
		this,
		connections
			.map((c) => ({
				connection: c,
				group: (c.group ?? {}) as IDataObject,
				consumer: (c.consumer ?? {}) as IDataObject,
			}))
			.filter(({ connection, group, consumer }) =>
				matches(
					filter,
					connection.provider,
					group.groupRef,
					group.groupName,
					consumer.consumerRef,
					connection.id,
				),
			)
			.map(({ connection, group, consumer }) => ({
				name: `${connection.provider as string}: ${(group.groupName as string) ?? group.groupRef} / ${(consumer.consumerName as string) ?? consumer.consumerRef}`,
				value: connection.id as string,
			})),
		filter,
		'No connections yet in this project: connect a customer first (Connection → Generate, or OAuth → Get Authorization URL)',
	);
}

async function searchDestinationsBy(
	context: ILoadOptionsFunctions,
	filter: string | undefined,
	value: 'name' | 'id',
) {
	const project = selected(context, 'project', 'project');
	const destinations = await list(context, `/projects/${project}/destinations`);
	return results(
		context,
		destinations
			.filter((d) => matches(filter, d.name, d.type, d.id))
			.map((d) => ({
				name: `${d.name as string} (${d.type as string})`,
				value: d[value] as string,
			})),
		filter,
		'No destinations yet in this project: create one (Destination → Create)',
	);
}

/** Destinations by name: the form GET /destinations/{destination} documents. */
export async function searchDestinations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await searchDestinationsBy(this, filter, 'name');
}

/** Destinations by ID: what topic-destination routes take. */
export async function searchDestinationIds(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await searchDestinationsBy(this, filter, 'id');
}

export async function searchTopics(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const topics = await list(this, `/projects/${project}/topics`);
	return results(
		this,
		topics
			.filter((t) => matches(filter, t.name, t.id))
			.map((t) => ({ name: t.name as string, value: t.id as string })),
		filter,
		'No topics yet in this project: create one (Topic → Create)',
	);
}

export async function searchEventTopicRoutes(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const [routes, topics] = await Promise.all([
		list(this, `/projects/${project}/notification-event-topic-routes`),
		list(this, `/projects/${project}/topics`),
	]);
	const topicNames = new Map(topics.map((t) => [t.id as string, t.name as string]));
	return results(
		this,
		routes
			.map((r) => ({
				route: r,
				topic: topicNames.get(r.topicId as string) ?? (r.topicId as string),
			}))
			.filter(({ route, topic }) => matches(filter, route.eventType, topic, route.id))
			.map(({ route, topic }) => ({
				name: `${route.eventType as string} → ${topic}`,
				value: route.id as string,
			})),
		filter,
		'No notification event topic routes yet in this project: create one (Notification Event Topic Route → Create)',
	);
}

/** Topic-destination routes, shown as "topic → destination" by name. */
export async function searchTopicDestinationRoutes(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const [routes, topics, destinations] = await Promise.all([
		list(this, `/projects/${project}/topic-destination-routes`),
		list(this, `/projects/${project}/topics`),
		list(this, `/projects/${project}/destinations`),
	]);
	const topicNames = new Map(topics.map((t) => [t.id as string, t.name as string]));
	const destinationNames = new Map(destinations.map((d) => [d.id as string, d.name as string]));
	return results(
		this,
		routes
			.map((r) => ({
				route: r,
				topic: topicNames.get(r.topicId as string) ?? (r.topicId as string),
				destination: destinationNames.get(r.destinationId as string) ?? (r.destinationId as string),
			}))
			.filter(({ route, topic, destination }) => matches(filter, topic, destination, route.id))
			.map(({ route, topic, destination }) => ({
				name: `${topic} → ${destination}`,
				value: route.id as string,
			})),
		filter,
		'No topic destination routes yet in this project: create one (Topic Destination Route → Create)',
	);
}

export async function searchJwtKeys(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const keys = await list(this, `/projects/${project}/jwt-keys`);
	return results(
		this,
		keys
			.filter((k) => matches(filter, k.label, k.id))
			.map((k) => ({
				name: `${k.label as string}${k.active === false ? ' (inactive)' : ''}`,
				value: k.id as string,
			})),
		filter,
		'No JWT keys yet in this project: add one (JWT Key → Create)',
	);
}

/** The provider catalog (GET /providers, public) for provider drop-downs. */
export async function getProviders(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const catalog = (await apiRequest(this, 'GET', '/providers')) as Record<string, IDataObject>;
	return Object.values(catalog ?? {})
		.map((p) => ({
			name: (p.displayName as string) ?? (p.name as string),
			value: p.name as string,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

export { searchProjects } from '../../common/project';

/**
 * Organizations the credential reaches, for Project → Create. There is no list of organizations
 * in the API: their IDs come from the projects the credential sees, their labels from
 * GET /orgs/{orgId} (bearer only; the ID stands in when it fails).
 */
export async function searchOrganizations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const projects = await list(this, '/projects');
	const ids = [...new Set(projects.map((p) => p.orgId).filter((id) => typeof id === 'string'))];
	const orgs = await Promise.all(
		(ids as string[]).map(async (id) => {
			try {
				const org = (await apiRequest(
					this,
					'GET',
					`/orgs/${encodePathSegment(id)}`,
				)) as IDataObject;
				return { id, label: typeof org?.label === 'string' ? org.label : id };
			} catch {
				return { id, label: id };
			}
		}),
	);
	return results(
		this,
		orgs
			.filter((o) => matches(filter, o.label, o.id))
			.map((o) => ({ name: o.label === o.id ? o.id : `${o.label} (${o.id})`, value: o.id })),
		filter,
		'No organization found: the credential reaches no project, and organizations are known only through their projects',
	);
}

/** The provider catalog (GET /providers, public) for provider locators, by name. */
export async function searchProviders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const catalog = (await apiRequest(this, 'GET', '/providers')) as Record<string, IDataObject>;
	return results(
		this,
		Object.values(catalog ?? {})
			.filter((p) => matches(filter, p.name, p.displayName))
			.map((p) => ({
				name: (p.displayName as string) ?? (p.name as string),
				value: p.name as string,
			})),
		filter,
		'The provider catalog is empty: the service listed no providers',
	);
}

export async function searchProviderApps(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const apps = await list(this, `/projects/${project}/provider-apps`);
	return results(
		this,
		apps
			.filter((a) => matches(filter, a.provider, a.clientId, a.externalRef, a.id))
			.map((a) => ({
				name: `${a.provider as string} (${a.clientId as string})`,
				value: a.id as string,
			})),
		filter,
		'No provider apps yet in this project: add one (Provider App → Create)',
	);
}

/**
 * The invitations of the selected organization (GET /orgs/{orgId}/invites, bearer only), shown by
 * email and status; the API returns invites of every status, pending ones first here.
 */
export async function searchInvites(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const org = selected(this, 'orgId', 'organization');
	const invites = await list(this, `/orgs/${org}/invites`);
	const pendingFirst = (status: unknown) => (status === 'pending' ? 0 : 1);
	return listOrReason(
		this.getNode(),
		invites
			.filter((i) => matches(filter, i.invitedEmail, i.status, i.id))
			.sort(
				(a, b) =>
					pendingFirst(a.status) - pendingFirst(b.status) ||
					String(a.invitedEmail).localeCompare(String(b.invitedEmail)),
			)
			.map((i) => ({
				name: `${i.invitedEmail as string} (${i.status as string})`,
				value: i.id as string,
			})),
		filter,
		'No invitations yet in this organization: invite someone (Invite → Create)',
	);
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
	return results(
		this,
		installations
			.map((i) => (i.group ?? {}) as IDataObject)
			.filter((group) => typeof group.groupRef === 'string')
			.filter((group) => matches(filter, group.groupName, group.groupRef))
			.map((group) => ({
				name: `${(group.groupName as string) || (group.groupRef as string)} (${group.groupRef as string})`,
				value: group.groupRef as string,
			})),
		filter,
		INSTALLATIONS_NONE,
	);
}

/** The objects a revision's content reads or writes, by name. */
function objectsOf(revision: unknown, into: Set<string>): Set<string> {
	const content = ((revision as IDataObject | undefined)?.content ?? {}) as IDataObject;
	for (const action of ['read', 'write']) {
		const objects = ((content[action] as IDataObject | undefined)?.objects ?? []) as IDataObject[];
		for (const object of Array.isArray(objects) ? objects : []) {
			if (typeof object?.objectName === 'string') into.add(object.objectName);
		}
	}
	return into;
}

/** Objects the integration reads or writes, from its latest revision; the value is the object name. */
export async function searchObjects(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const integration = selected(this, 'integration', 'integration');
	const body = (await apiRequest(
		this,
		'GET',
		`/projects/${project}/integrations/${integration}`,
	)) as IDataObject;
	const names = objectsOf(body?.latestRevision, new Set<string>());
	return results(
		this,
		[...names].filter((name) => matches(filter, name)).map((name) => ({ name, value: name })),
		filter,
		'The integration reads and writes no objects: its latest revision names none',
	);
}

/**
 * The Object list of the operations that read an object's metadata (Object Metadata, Custom Field
 * → Get Many): through an installation, the objects of its integration (searchObjects); through a
 * connection, the objects the project's integrations of the chosen provider read or write. Any
 * other object of the provider can be given By Name.
 */
export async function searchMetadataObjects(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	if (currentText(this, 'operation') === 'getForInstallation') {
		return await searchObjects.call(this, filter);
	}
	const project = selected(this, 'project', 'project');
	const provider = currentText(this, 'provider');
	if (!provider) throw new NodeOperationError(this.getNode(), 'Select a provider first');
	const names = new Set<string>();
	for (const integration of await list(this, `/projects/${project}/integrations`)) {
		if (integration.provider === provider) objectsOf(integration.latestRevision, names);
	}
	return results(
		this,
		[...names].filter((name) => matches(filter, name)).map((name) => ({ name, value: name })),
		filter,
		`No integration of this project reads or writes ${provider} objects: give the object By Name`,
	);
}

/** A parameter of the node as the editor holds it (resource, operation, provider), as text. */
function currentText(context: ILoadOptionsFunctions, name: string): string {
	const value = context.getCurrentNodeParameter(name, { extractValue: true });
	return typeof value === 'string' ? value.trim() : '';
}

/**
 * Each group once, shown by its name with its group ref; the value is the group ref. Groups come
 * embedded in installations and connections (docs/api-notes.md, "Installations", "Connections").
 */
function groupItems(owners: IDataObject[], filter: string | undefined): INodeListSearchItems[] {
	const groups = new Map<string, string>();
	for (const owner of owners) {
		const group = (owner.group ?? {}) as IDataObject;
		if (typeof group.groupRef !== 'string' || groups.has(group.groupRef)) continue;
		const name = typeof group.groupName === 'string' ? group.groupName : '';
		if (matches(filter, name, group.groupRef)) groups.set(group.groupRef, name);
	}
	return [...groups].map(([groupRef, groupName]) => ({
		name: groupName && groupName !== groupRef ? `${groupName} (${groupRef})` : groupRef,
		value: groupRef,
	}));
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
	const where = `${currentText(this, 'resource')}.${currentText(this, 'operation')}`;
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
			const { provider } = (await apiRequest(
				this,
				'GET',
				`/projects/${project}/integrations/${integration}`,
			)) as IDataObject;
			const name = typeof provider === 'string' ? provider : '';
			return results(
				this,
				groupItems(await connectionsOf(this, project, name), filter),
				filter,
				`No group has a connection to ${name || 'this provider'} yet: connect the customer first (Connection → Generate, or OAuth → Get Authorization URL)`,
			);
		}
		case 'objectMetadata.getForConnection':
		case 'customField.upsert':
		case 'customField.getAll': {
			const provider = currentText(this, 'provider');
			return results(
				this,
				groupItems(await connectionsOf(this, project, provider), filter),
				filter,
				`No group has a connection to ${provider || 'this provider'} yet: connect the customer first (Connection → Generate, or OAuth → Get Authorization URL)`,
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
 * The consumers of the project's connections (of the group chosen, where the operation has one);
 * the value is the consumer ref.
 */
export async function searchConsumers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const groupRef = currentText(this, 'groupRef');
	const connections = await list(
		this,
		`/projects/${project}/connections`,
		groupRef ? { groupRef } : undefined,
	);
	const consumers = new Map<string, string>();
	for (const connection of connections) {
		const consumer = (connection.consumer ?? {}) as IDataObject;
		if (typeof consumer.consumerRef !== 'string' || consumers.has(consumer.consumerRef)) continue;
		const name = typeof consumer.consumerName === 'string' ? consumer.consumerName : '';
		if (matches(filter, name, consumer.consumerRef)) consumers.set(consumer.consumerRef, name);
	}
	return results(
		this,
		[...consumers].map(([consumerRef, consumerName]) => ({
			name:
				consumerName && consumerName !== consumerRef
					? `${consumerName} (${consumerRef})`
					: consumerRef,
			value: consumerRef,
		})),
		filter,
		groupRef
			? 'No consumer of this group has a connection yet. For a new user choose By Consumer Ref and enter your ID of them.'
			: 'No consumer has a connection in this project yet. For a new user choose By Consumer Ref and enter your ID of them.',
	);
}

/** How many installations the Operation list reads, and how many operations of each. */
const OPERATION_LIST_INSTALLATIONS = 20;
const OPERATION_LIST_PAGE = 100;

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
	const integrationNames = new Map(integrations.map((i) => [i.id as string, i.name as string]));
	const recentOf = async (installation: IDataObject) => {
		const path = `/projects/${project}/integrations/${encodePathSegment(String(installation.integrationId))}/installations/${encodePathSegment(String(installation.id))}/operations`;
		const body = (await apiRequest(this, 'GET', path, {
			qs: { pageSize: OPERATION_LIST_PAGE },
		})) as IDataObject;
		const operations = Array.isArray(body?.results) ? (body.results as IDataObject[]) : [];
		const group = (installation.group ?? {}) as IDataObject;
		const groupLabel = String(group.groupName ?? group.groupRef ?? installation.id);
		return operations.map((operation) => ({ operation, groupLabel }));
	};
	// Four requests at a time, as the log trigger reads logs: a burst of 20 could meet the rate limit.
	const chosen = installations.slice(0, OPERATION_LIST_INSTALLATIONS);
	const pages: Array<Awaited<ReturnType<typeof recentOf>>> = [];
	for (let start = 0; start < chosen.length; start += 4) {
		pages.push(...(await Promise.all(chosen.slice(start, start + 4).map(recentOf))));
	}
	const items = pages
		.flat()
		.map(({ operation, groupLabel }) => ({
			operation,
			integration:
				integrationNames.get(operation.integrationId as string) ?? String(operation.integrationId),
			groupLabel,
		}))
		.filter(({ operation, integration, groupLabel }) =>
			matches(
				filter,
				operation.id,
				operation.actionType,
				operation.status,
				integration,
				groupLabel,
			),
		)
		.sort((a, b) =>
			String(b.operation.createTime ?? '').localeCompare(String(a.operation.createTime ?? '')),
		)
		.map(({ operation, integration, groupLabel }) => ({
			name: `${String(operation.actionType)} · ${integration} · ${groupLabel} · ${String(operation.status)}${operation.createTime ? ` · ${String(operation.createTime)}` : ''}`,
			value: String(operation.id),
		}));
	return listOrReason(
		this.getNode(),
		items,
		filter,
		installations.length
			? 'No operations yet: they appear when an installation reads, writes or subscribes'
			: 'No installations yet in this project, so no operations: create one (Installation → Create)',
	);
}
