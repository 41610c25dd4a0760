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

/** The value of a resource locator the search depends on (the project, the integration). */
function selected(context: ILoadOptionsFunctions, parameter: string, label: string): string {
	const value = context.getCurrentNodeParameter(parameter, { extractValue: true });
	if (typeof value !== 'string' || value.trim() === '') {
		throw new NodeOperationError(context.getNode(), `Select a ${label} first`);
	}
	return encodePathSegment(value.trim());
}

function matches(filter: string | undefined, ...texts: unknown[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((text) => typeof text === 'string' && text.toLowerCase().includes(needle));
}

async function list(context: ILoadOptionsFunctions, path: string): Promise<IDataObject[]> {
	const body = await apiRequest(context, 'GET', path);
	return Array.isArray(body) ? (body as IDataObject[]) : [];
}

function results(items: INodeListSearchItems[]): INodeListSearchResult {
	return { results: items.sort((a, b) => a.name.localeCompare(b.name)) };
}

export async function searchConnections(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const connections = await list(this, `/projects/${project}/connections`);
	return results(
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
		destinations
			.filter((d) => matches(filter, d.name, d.type, d.id))
			.map((d) => ({
				name: `${d.name as string} (${d.type as string})`,
				value: d[value] as string,
			})),
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
		topics
			.filter((t) => matches(filter, t.name, t.id))
			.map((t) => ({ name: t.name as string, value: t.id as string })),
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
	);
}

export async function searchJwtKeys(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const keys = await list(this, `/projects/${project}/jwt-keys`);
	return results(
		keys
			.filter((k) => matches(filter, k.label, k.id))
			.map((k) => ({
				name: `${k.label as string}${k.active === false ? ' (inactive)' : ''}`,
				value: k.id as string,
			})),
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
		orgs
			.filter((o) => matches(filter, o.label, o.id))
			.map((o) => ({ name: o.label === o.id ? o.id : `${o.label} (${o.id})`, value: o.id })),
	);
}

/** The provider catalog (GET /providers, public) for provider locators, by name. */
export async function searchProviders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const catalog = (await apiRequest(this, 'GET', '/providers')) as Record<string, IDataObject>;
	return results(
		Object.values(catalog ?? {})
			.filter((p) => matches(filter, p.name, p.displayName))
			.map((p) => ({
				name: (p.displayName as string) ?? (p.name as string),
				value: p.name as string,
			})),
	);
}

export async function searchProviderApps(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const apps = await list(this, `/projects/${project}/provider-apps`);
	return results(
		apps
			.filter((a) => matches(filter, a.provider, a.clientId, a.externalRef, a.id))
			.map((a) => ({
				name: `${a.provider as string} (${a.clientId as string})`,
				value: a.id as string,
			})),
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
	const orgId = this.getCurrentNodeParameter('orgId', { extractValue: true });
	if (typeof orgId !== 'string' || orgId.trim() === '') {
		throw new NodeOperationError(this.getNode(), 'Select an organization first');
	}
	const org = encodePathSegment(orgId.trim());
	const invites = await list(this, `/orgs/${org}/invites`);
	const pendingFirst = (status: unknown) => (status === 'pending' ? 0 : 1);
	return {
		results: invites
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
	};
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
		installations
			.map((i) => (i.group ?? {}) as IDataObject)
			.filter((group) => typeof group.groupRef === 'string')
			.filter((group) => matches(filter, group.groupName, group.groupRef))
			.map((group) => ({
				name: `${(group.groupName as string) || (group.groupRef as string)} (${group.groupRef as string})`,
				value: group.groupRef as string,
			})),
	);
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
	const content = ((body?.latestRevision as IDataObject | undefined)?.content ?? {}) as IDataObject;
	const names = new Set<string>();
	for (const action of ['read', 'write']) {
		const objects = ((content[action] as IDataObject | undefined)?.objects ?? []) as IDataObject[];
		for (const object of Array.isArray(objects) ? objects : []) {
			if (typeof object?.objectName === 'string') names.add(object.objectName);
		}
	}
	return results(
		[...names].filter((name) => matches(filter, name)).map((name) => ({ name, value: name })),
	);
}
