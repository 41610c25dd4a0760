import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { deletedOutput, listOutput } from '../outputs';
import { filterQuery, routeFilters, TOPIC_FILTER } from './filters';
import { byId, listLocator } from '../../../common/locator';

const resource = 'topicDestinationRoute';
const showFor = (operation: string[]) => ({ show: { resource: [resource], operation } });
const showForCreate = showFor(['create']);

/** `?topicId=&destinationId=` from Filters (docs/api-notes.md, "The wider API"). */
async function listFilters(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	return filterQuery(this, requestOptions, {
		topicId: 'Topic',
		destinationId: 'Destination',
	});
}

export const topicDestinationRouteOperations: OperationDefinition[] = [
	// POST /projects/{projectIdOrName}/topic-destination-routes — docs/api-notes.md, "createTopicDestinationRoute": 201 route.
	{
		name: 'Create',
		value: 'create',
		action: 'Create a topic destination route',
		description: 'Deliver the notifications of a topic to a destination. Returns the new route.',
		method: 'POST',
		path: '/projects/{project}/topic-destination-routes',
		// The route takes the destination's ID, not its name (docs/api-notes.md, "createTopicDestinationRoute").
		body: { topicId: '{topicId}', destinationId: '{destinationId}' },
	},
	// DELETE /projects/{projectIdOrName}/topic-destination-routes/{routeId} — 204.
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a topic destination route',
		description:
			'Stop delivering the notifications of a topic to a destination. Returns deleted: true and the route ID.',
		method: 'DELETE',
		path: '/projects/{project}/topic-destination-routes/{routeId}',
		...deletedOutput('routeId', 'routeId'),
	},
	// GET /projects/{projectIdOrName}/topic-destination-routes — a bare array; optional filters.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many topic destination routes',
		description:
			'List which topics are delivered to which destinations. Returns one item per route (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/projects/{project}/topic-destination-routes',
		preSend: [listFilters],
		...listOutput,
	},
];

export const topicDestinationRouteFields: INodeProperties[] = [
	listLocator({
		displayName: 'Destination',
		name: 'destinationId',
		description: 'The destination that receives the notifications (its ID; the list shows names)',
		search: 'searchDestinationIds',
		select: 'Select a destination…',
		typed: [byId('0c5e…', { noun: 'destination', format: 'hex' })],
		displayOptions: showForCreate,
	}),
	listLocator({
		displayName: 'Route',
		name: 'routeId',
		description: 'The route to delete, from the list (topic → destination) or by ID',
		search: 'searchTopicDestinationRoutes',
		select: 'Select a route…',
		typed: [byId('4259…', { noun: 'route', format: 'hex' })],
		displayOptions: showFor(['delete']),
	}),
	...returnAllAndLimit(showFor(['getAll'])),
	...routeFilters(showFor(['getAll']).show, [
		{
			displayName: 'Destination',
			name: 'destinationId',
			keeps: 'Only routes to this destination',
			search: 'searchDestinationIds',
			select: 'Select a destination…',
			example: '0c5e…',
		},
		TOPIC_FILTER('Only routes from this topic'),
	]),
];
