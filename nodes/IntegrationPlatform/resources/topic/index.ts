import type { INodeProperties } from 'n8n-workflow';

import { defineOperation, resultItem } from '../../routing/defineOperation';

const resource = 'topic';

export const topicOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	default: 'delete',
	options: [
		// DELETE /projects/{projectIdOrName}/topics/{topicId} — api-facts §1 op 10: 204; 404 "Topic not found".
		defineOperation('Topic', resource, {
			name: 'Delete',
			value: 'delete',
			action: 'Delete a topic',
			description: 'Delete a notification topic',
			method: 'DELETE',
			path: '/projects/{project}/topics/{topic}',
			output: [resultItem((values) => ({ deleted: true, topicId: values.topic }))],
		}),
	],
};

// The topic locator is shared (shared/fields.ts): it is the only field of this resource.
export const topicFields: INodeProperties[] = [];
