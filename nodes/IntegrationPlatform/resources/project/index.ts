import type { INodeProperties } from 'n8n-workflow';

import { projectLocator } from '../../../common/project';
import { orgIdField, returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { listOutput } from '../outputs';
import { booleanOptionQuery, maskedUpdate } from '../../routing/updateMask';

const resource = 'project';
const showFor = (...operation: string[]) => ({ show: { resource: [resource], operation } });

export const projectOperations: OperationDefinition[] = [
	// POST /projects — docs/api-notes.md, "Projects": bearer only; 201 Project; 422 on a bad name.
	{
		name: 'Create',
		value: 'create',
		action: 'Create a project',
		description:
			'Create a project in an organization; needs a bearer token. Returns the new project.',
		method: 'POST',
		path: '/projects',
		requires: 'bearerToken',
		body: { name: '{projectName}', appName: '{appName}', orgId: '{projectOrgId}' },
	},
	// GET /projects/{projectIdOrName} — docs/api-notes.md, "Projects": `includeEntitlements` adds them.
	{
		name: 'Get',
		value: 'get',
		action: 'Get a project',
		description:
			'Get a project by name or ID, optionally with its entitlements. Returns its ID, name, app name and organization.',
		method: 'GET',
		path: '/projects/{project}',
		preSend: [
			booleanOptionQuery('includeEntitlements', 'includeEntitlements', 'Include Entitlements'),
		],
	},
	// GET /projects — docs/api-notes.md, "listProjects": a bare array; an API key sees its own project.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many projects',
		description:
			'List the projects the credential can access (an API key sees its own project). Returns one item per project: ID, name, app name and organization (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/projects',
		...listOutput,
	},
	// PATCH /projects/{projectIdOrName} — docs/api-notes.md, "Projects": mask of appName and name.
	{
		name: 'Update',
		value: 'update',
		action: 'Update a project',
		description:
			'Rename a project or change the app name its users see. Returns the updated project.',
		method: 'PATCH',
		path: '/projects/{project}',
		preSend: [
			maskedUpdate('project', [
				{ option: 'appName', label: 'App Name', mask: 'appName' },
				{ option: 'name', label: 'Name', mask: 'name' },
			]),
		],
	},
];

export const projectFields: INodeProperties[] = [
	// The shared project locator (fields.ts) is shown for the resources below a project; here it
	// is the subject itself, for Get and Update only.
	{ ...projectLocator, displayOptions: showFor('get', 'update') },
	{
		displayName: 'Name',
		name: 'projectName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. mailmonkey-staging',
		description:
			'Unique name of the project: letters, digits and hyphens (the service stores it in lowercase)',
		displayOptions: showFor('create'),
	},
	{
		displayName: 'App Name',
		name: 'appName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. MailMonkey',
		description: 'Name of your application, shown to end users when they connect',
		displayOptions: showFor('create'),
	},
	{
		// The organization locator of the organization operations, under the name the body template uses.
		...orgIdField,
		name: 'projectOrgId',
		description: 'The organization the project belongs to, from the list or by ID',
		displayOptions: showFor('create'),
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor('get'),
		options: [
			{
				displayName: 'Include Entitlements',
				name: 'includeEntitlements',
				type: 'boolean',
				default: false,
				description:
					"Whether to add the project's plan-based entitlements (branding removal, log retention)",
			},
		],
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('update'),
		options: [
			{
				displayName: 'App Name',
				name: 'appName',
				type: 'string',
				default: '',
				description: 'Name of your application, shown to end users when they connect',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description:
					'New unique name of the project. Workflows that address the project by name need the new one.',
			},
		],
	},
	...returnAllAndLimit({ show: { resource: [resource], operation: ['getAll'] } }),
];
