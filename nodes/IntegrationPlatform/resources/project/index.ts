import type { INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../fields';
import { defineOperation, listEntries } from '../../routing/defineOperation';

const resource = 'project';

export const projectOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	default: 'getAll',
	options: [
		// GET /projects — api-facts §1 op 16: a bare array; an API key sees its own project.
		defineOperation('Project', resource, {
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many projects',
			description: 'List the projects the credential can access',
			method: 'GET',
			path: '/projects',
			output: [listEntries],
		}),
	],
};

export const projectFields: INodeProperties[] = [
	...returnAllAndLimit({ show: { resource: [resource], operation: ['getAll'] } }),
];
