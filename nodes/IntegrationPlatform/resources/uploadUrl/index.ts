import type { INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from '../../routing/defineOperation';

export const uploadUrlOperations: OperationDefinition[] = [
	// GET /generate-upload-url — 200 { url, bucket, path } (docs/api-notes.md, "OAuth connect and upload URLs").
	{
		name: 'Generate',
		value: 'generate',
		action: 'Generate an upload URL',
		description:
			'Get a signed URL to upload a zip of integration definitions to (PUT it with an HTTP Request node), for the operations that take a zip URL. Returns the URL, bucket and path.',
		method: 'GET',
		path: '/generate-upload-url',
	},
];

export const uploadUrlFields: INodeProperties[] = [];
