import type { INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from '../../routing/defineOperation';
import { resultItem } from '../../routing/defineOperation';

const resource = 'apiKey';

export const apiKeyOperations: OperationDefinition[] = [
	// DELETE /projects/{projectIdOrName}/api-keys/{apiKey} — docs/api-notes.md, "deleteApiKey": 204, no body.
	// The key itself is the path parameter, so it is masked in every error message.
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete an API key',
		description: "Delete (revoke) one of the project's API keys",
		method: 'DELETE',
		path: '/projects/{project}/api-keys/{apiKey}',
		output: [resultItem((values) => ({ deleted: true, project: values.project }))],
	},
];

export const apiKeyFields: INodeProperties[] = [
	{
		displayName: 'API Key to Delete',
		name: 'apiKey',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description:
			'The API key to delete, as the dashboard shows it. It is sent in the request path, never shown in outputs or errors.',
		displayOptions: { show: { resource: [resource], operation: ['delete'] } },
	},
];
