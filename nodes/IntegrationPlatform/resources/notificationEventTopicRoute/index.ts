import type { INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from '../../routing/defineOperation';
import { resultItem } from '../../routing/defineOperation';

const resource = 'notificationEventTopicRoute';

export const notificationEventTopicRouteOperations: OperationDefinition[] = [
	// DELETE /projects/{projectIdOrName}/notification-event-topic-routes/{routeId} — docs/api-notes.md, "deleteEventTopicRoute".
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a notification event topic route',
		description: 'Stop routing a notification event type to a topic',
		method: 'DELETE',
		path: '/projects/{project}/notification-event-topic-routes/{route}',
		output: [resultItem((values) => ({ deleted: true, routeId: values.route }))],
	},
];

export const notificationEventTopicRouteFields: INodeProperties[] = [
	{
		displayName: 'Route',
		name: 'route',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description: 'The route to delete, from the list (event type → topic) or by ID',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a route…',
				typeOptions: { searchListMethod: 'searchEventTopicRoutes', searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 7e21…' },
		],
		displayOptions: { show: { resource: [resource], operation: ['delete'] } },
	},
];
