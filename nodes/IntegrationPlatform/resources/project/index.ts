import type { INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { listEntries } from '../../routing/defineOperation';

const resource = 'project';

export const projectOperations: OperationDefinition[] = [
	// GET /projects — docs/api-notes.md, "listProjects": a bare array; an API key sees its own project.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many projects',
		description: 'List the projects the credential can access',
		method: 'GET',
		path: '/projects',
		output: [listEntries],
	},
];

export const projectFields: INodeProperties[] = [
	...returnAllAndLimit({ show: { resource: [resource], operation: ['getAll'] } }),
];
