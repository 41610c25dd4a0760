import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { idOf } from '../../common/locator';
import { list, matches, namesById, results, selected, textOf } from './shared';

/** The lists of where messages go: destinations, topics and the routes between them. */

async function searchDestinationsBy(
	context: ILoadOptionsFunctions,
	filter: string | undefined,
	value: 'name' | 'id',
) {
	const project = selected(context, 'project', 'project');
	const destinations = await list(context, `/projects/${project}/destinations`);
	const items: INodeListSearchItems[] = [];
	for (const destination of destinations) {
		const chosen = idOf(destination[value]);
		if (chosen === undefined) continue;
		const name = textOf(destination.name) ?? chosen;
		const type = textOf(destination.type) ?? 'unknown type';
		if (matches(filter, name, type, destination.id)) {
			items.push({ name: `${name} (${type})`, value: chosen });
		}
	}
	return results(
		context,
		items,
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
	const items: INodeListSearchItems[] = [];
	for (const topic of topics) {
		const id = idOf(topic.id);
		if (id === undefined) continue;
		const name = textOf(topic.name) ?? id;
		if (matches(filter, name, id)) items.push({ name, value: id });
	}
	return results(this, items, filter, 'No topics yet in this project: create one (Topic → Create)');
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
	const topicNames = namesById(topics, 'name');
	const items: INodeListSearchItems[] = [];
	for (const route of routes) {
		const id = idOf(route.id);
		if (id === undefined) continue;
		const topicId = idOf(route.topicId);
		const topic = (topicId && topicNames.get(topicId)) ?? topicId ?? 'unknown topic';
		const eventType = textOf(route.eventType) ?? 'unknown event';
		if (matches(filter, eventType, topic, id)) {
			items.push({ name: `${eventType} → ${topic}`, value: id });
		}
	}
	return results(
		this,
		items,
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
	const topicNames = namesById(topics, 'name');
	const destinationNames = namesById(destinations, 'name');
	const items: INodeListSearchItems[] = [];
	for (const route of routes) {
		const id = idOf(route.id);
		if (id === undefined) continue;
		const topicId = idOf(route.topicId);
		const destinationId = idOf(route.destinationId);
		const topic = (topicId && topicNames.get(topicId)) ?? topicId ?? 'unknown topic';
		const destination =
			(destinationId && destinationNames.get(destinationId)) ??
			destinationId ??
			'unknown destination';
		if (matches(filter, topic, destination, id)) {
			items.push({ name: `${topic} → ${destination}`, value: id });
		}
	}
	return results(
		this,
		items,
		filter,
		'No topic destination routes yet in this project: create one (Topic Destination Route → Create)',
	);
}
