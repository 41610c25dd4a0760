import type { INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { deletedOutput, listOutput } from '../outputs';

const resource = 'topic';

export const topicOperations: OperationDefinition[] = [
	// POST /projects/{projectIdOrName}/topics — docs/api-notes.md, "Topics and routes": 201 Topic; 409 on a duplicate name.
	{
		name: 'Create',
		value: 'create',
		action: 'Create a topic',
		description: 'Create a notification topic. Returns the new topic.',
		method: 'POST',
		path: '/projects/{project}/topics',
		body: { name: '{name}' },
	},
	// DELETE /projects/{projectIdOrName}/topics/{topicId} — docs/api-notes.md, "deleteTopic": 204; 404 "Topic not found".
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a topic',
		description: 'Delete a notification topic. Returns deleted: true and the topic ID.',
		method: 'DELETE',
		path: '/projects/{project}/topics/{topic}',
		...deletedOutput('topicId', 'topic'),
	},
	// GET /projects/{projectIdOrName}/topics — a bare array.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many topics',
		description:
			'List the notification topics of a project. Returns one item per topic (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/projects/{project}/topics',
		...listOutput,
	},
	// PATCH /projects/{projectIdOrName}/topics/{topicId} — body { name } (no update mask); 200 Topic; 409 on a duplicate.
	{
		name: 'Update',
		value: 'update',
		action: 'Update a topic',
		description: 'Rename a notification topic. Returns the updated topic.',
		method: 'PATCH',
		path: '/projects/{project}/topics/{topic}',
		body: { name: '{name}' },
	},
];

// The topic locator is shared (fields.ts).
export const topicFields: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. connection-alerts',
		description:
			'Name of the topic, unique in the project: letters, digits and dashes, at most 64 characters',
		displayOptions: { show: { resource: [resource], operation: ['create', 'update'] } },
	},
	...returnAllAndLimit({ show: { resource: [resource], operation: ['getAll'] } }),
];
