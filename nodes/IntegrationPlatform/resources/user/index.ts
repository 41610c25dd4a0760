import type { INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from '../../routing/defineOperation';

export const userOperations: OperationDefinition[] = [
	// GET /my-info — bearer only; 200 BuilderInfo { builder, projectRoles, orgRole? }
	// (docs/api-notes.md, "Organizations and builders").
	{
		name: 'Get Current',
		value: 'getCurrent',
		action: 'Get the current user',
		description:
			'Get the builder the bearer token belongs to, with their role in each project and in their organization. Returns the builder and their roles.',
		method: 'GET',
		path: '/my-info',
		requires: 'bearerToken',
	},
];

export const userFields: INodeProperties[] = [];
