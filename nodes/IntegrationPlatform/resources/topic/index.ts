import type { INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from '../../routing/defineOperation';
import { resultItem } from '../../routing/defineOperation';


export const topicOperations: OperationDefinition[] = [
	// DELETE /projects/{projectIdOrName}/topics/{topicId} — docs/api-notes.md, "deleteTopic": 204; 404 "Topic not found".
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a topic',
		description: 'Delete a notification topic',
		method: 'DELETE',
		path: '/projects/{project}/topics/{topic}',
		output: [resultItem((values) => ({ deleted: true, topicId: values.topic }))],
	},
];

// The topic locator is shared (fields.ts): it is the only field of this resource.
export const topicFields: INodeProperties[] = [];
