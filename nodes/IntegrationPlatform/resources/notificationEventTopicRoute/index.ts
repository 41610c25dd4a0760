import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { deletedOutput, listOutput } from '../outputs';
import { filterQuery, routeFilters, TOPIC_FILTER } from '../topicDestinationRoute/filters';
import { byId, listLocator } from '../../../common/locator';

const resource = 'notificationEventTopicRoute';
const showFor = (operation: string[]) => ({ show: { resource: [resource], operation } });

/** The 15 notification event types (docs/api-notes.md, "Notifications"). */
const EVENT_TYPES = [
	'connection.created',
	'connection.deleted',
	'connection.error',
	'connection.refreshed',
	'connection.updated',
	'destination.webhook.disabled',
	'installation.created',
	'installation.deleted',
	'installation.updated',
	'read.backfill.done',
	'read.schedule.paused',
	'read.triggered.done',
	'read.triggered.error',
	'subscribe.create.error',
	'write.async.done',
].map((type) => ({ name: type, value: type }));

/** `?topicId=&eventType=` from Filters (docs/api-notes.md, "The wider API"). */
async function listFilters(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	return filterQuery(this, requestOptions, { topicId: 'Topic', eventType: 'Event Type' });
}

export const notificationEventTopicRouteOperations: OperationDefinition[] = [
	// POST /projects/{projectIdOrName}/notification-event-topic-routes — { eventType, topicId } → 201 route.
	{
		name: 'Create',
		value: 'create',
		action: 'Create a notification event topic route',
		description: 'Route a notification event type to a topic. Returns the new route.',
		method: 'POST',
		path: '/projects/{project}/notification-event-topic-routes',
		body: { eventType: '{eventType}', topicId: '{topicId}' },
	},
	// DELETE /projects/{projectIdOrName}/notification-event-topic-routes/{routeId} — docs/api-notes.md, "deleteEventTopicRoute".
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a notification event topic route',
		description:
			'Stop routing a notification event type to a topic. Returns deleted: true and the route ID.',
		method: 'DELETE',
		path: '/projects/{project}/notification-event-topic-routes/{route}',
		...deletedOutput('routeId', 'route'),
	},
	// GET /projects/{projectIdOrName}/notification-event-topic-routes — a bare array; optional filters.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many notification event topic routes',
		description:
			'List which notification event types go to which topic. Returns one item per route (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/projects/{project}/notification-event-topic-routes',
		preSend: [listFilters],
		...listOutput,
	},
];

export const notificationEventTopicRouteFields: INodeProperties[] = [
	listLocator({
		displayName: 'Route',
		name: 'route',
		description: 'The route to delete, from the list (event type → topic) or by ID',
		search: 'searchEventTopicRoutes',
		select: 'Select a route…',
		typed: [byId('7e21…', { noun: 'route', format: 'hex' })],
		displayOptions: showFor(['delete']),
	}),
	{
		displayName: 'Event Type',
		name: 'eventType',
		type: 'options',
		required: true,
		default: 'connection.error',
		options: EVENT_TYPES,
		description: 'The notification event type to route',
		displayOptions: showFor(['create']),
	},
	...returnAllAndLimit(showFor(['getAll'])),
	...routeFilters(
		showFor(['getAll']).show,
		[TOPIC_FILTER('Only routes to this topic')],
		[
			{
				displayName: 'Event Type',
				name: 'eventType',
				type: 'options',
				default: 'connection.error',
				options: EVENT_TYPES,
				description: 'Only routes of this event type',
			},
		],
	),
];
