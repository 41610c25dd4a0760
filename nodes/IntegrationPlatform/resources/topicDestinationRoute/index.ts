import type { OperationDefinition } from '../../routing/defineOperation';
import type { INodeProperties } from 'n8n-workflow';


const resource = 'topicDestinationRoute';
const showForCreate = { show: { resource: [resource], operation: ['create'] } };

export const topicDestinationRouteOperations: OperationDefinition[] = [
	// POST /projects/{projectIdOrName}/topic-destination-routes — docs/api-notes.md, "createTopicDestinationRoute": 201 route.
	{
		name: 'Create',
		value: 'create',
		action: 'Create a topic destination route',
		description: 'Deliver the notifications of a topic to a destination',
		method: 'POST',
		path: '/projects/{project}/topic-destination-routes',
		// The route takes the destination's ID, not its name (docs/api-notes.md, "createTopicDestinationRoute").
		body: { topicId: '{topicId}', destinationId: '{destinationId}' },
	},
];

export const topicDestinationRouteFields: INodeProperties[] = [
	{
		displayName: 'Topic',
		name: 'topicId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description: 'The topic whose notifications are delivered',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a topic…',
				typeOptions: { searchListMethod: 'searchTopics', searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 2d4f…' },
		],
		displayOptions: showForCreate,
	},
	{
		displayName: 'Destination',
		name: 'destinationId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description: 'The destination that receives the notifications (its ID; the list shows names)',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a destination…',
				typeOptions: { searchListMethod: 'searchDestinationIds', searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 0c5e…' },
		],
		displayOptions: showForCreate,
	},
];
