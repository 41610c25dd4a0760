import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { integrationField, returnAllAndLimit } from '../../fields';
import { jsonBodyParameter } from '../../routing/parameters';
import { checkPathSegment, encodePathSegment } from '../../../common/paths';
import { pathValues } from '../../routing/templates';
import type { OperationDefinition } from '../../routing/defineOperation';
import { deletedOutput, listOutput } from '../outputs';
import { lookupRequest } from '../../transport/send';
import { byId, byName } from '../../../common/locator';
import { buildSourceBody, sourceFields } from '../revision/source';

const resource = 'integration';
const showForCreate = { show: { resource: [resource], operation: ['create'] } };
const showFor = (...operation: string[]) => ({ show: { resource: [resource], operation } });

/**
 * Create answers 201 with an empty body (docs/api-notes.md, "createIntegration"), so the node looks the new
 * integration up by name to return it with its ID and revision. If that lookup fails, the create
 * still succeeded: the item then says so with what was sent.
 */
async function returnCreatedIntegration(
	this: IExecuteSingleFunctions,
): Promise<INodeExecutionData[]> {
	const { name, project, provider } = pathValues(this);
	// A name that cannot be a path segment ("..") cannot be looked up: it would address another
	// resource (nodes/common/paths.ts).
	if (typeof checkPathSegment('Name', name) !== 'string') {
		return [{ json: { created: true, name, provider } }];
	}
	try {
		const integration = await lookupRequest(
			this,
			'GET',
			`/projects/${encodePathSegment(project)}/integrations/${encodePathSegment(name)}`,
		);
		return [{ json: { created: true, ...(integration as object) } }];
	} catch {
		return [{ json: { created: true, name, provider } }];
	}
}

/** One item per integration of the batch answer (an array of Integration). */
async function splitIntegrations(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = Array.isArray(response.body) ? (response.body as IDataObject[]) : [];
	return body.map((json) => ({ json }));
}

export const integrationOperations: OperationDefinition[] = [
	// POST /projects/{projectIdOrName}/integrations — docs/api-notes.md, "createIntegration". The spec's redacted
	// "the service" field is `latestRevision { specVersion, content }`.
	{
		name: 'Create',
		value: 'create',
		action: 'Create an integration',
		description:
			'Create an integration from a manifest (its first revision). Returns the new integration (ID, name) with created: true.',
		method: 'POST',
		path: '/projects/{project}/integrations',
		body: {
			name: '{name}',
			provider: '{provider}',
			latestRevision: { specVersion: '{specVersion}' },
		},
		preSend: [
			jsonBodyParameter('content', 'Manifest Content (JSON)', ['latestRevision', 'content']),
		],
		outputShape: 'createdIntegration',
		output: [returnCreatedIntegration],
	},
	// PUT /projects/{projectIdOrName}/integrations:batch — docs/api-notes.md, "Integrations and
	// revisions": creates the integrations of an amp.yaml that do not exist, gives the others a new
	// revision, and answers the array of them.
	{
		name: 'Create or Update Many',
		value: 'upsertMany',
		action: 'Create or update many integrations',
		description:
			'Deploy every integration of an amp.yaml (or a zip of the source): new ones are created, existing ones get a new revision. Returns one item per integration, with its latest revision.',
		method: 'PUT',
		path: '/projects/{project}/integrations:batch',
		preSend: [buildSourceBody],
		outputShape: 'listEntry',
		output: [splitIntegrations],
	},
	// DELETE /projects/{projectIdOrName}/integrations/{integrationIdOrName} — docs/api-notes.md,
	// "Integrations and revisions": 204; its installations go too.
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete an integration',
		description:
			'Delete an integration and all its installations. Returns deleted: true and the integration.',
		method: 'DELETE',
		path: '/projects/{project}/integrations/{integration}',
		...deletedOutput('integration', 'integration'),
	},
	// GET /projects/{projectIdOrName}/integrations/{integrationIdOrName} — docs/api-notes.md,
	// "Integrations and revisions": by ID or name.
	{
		name: 'Get',
		value: 'get',
		action: 'Get an integration',
		description: 'Get an integration by ID or name. Returns it with its latest revision.',
		method: 'GET',
		path: '/projects/{project}/integrations/{integration}',
	},
	// GET /projects/{projectIdOrName}/integrations — docs/api-notes.md, "listIntegrations": a bare array.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many integrations',
		description:
			'List the integrations of a project. Returns one item per integration, each with its latest revision (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/projects/{project}/integrations',
		...listOutput,
	},
];

export const integrationFields: INodeProperties[] = [
	// Get and Delete take an ID or a name (docs/api-notes.md, "Integrations and revisions"); the
	// shared locator (fields.ts) offers no name mode.
	{
		...integrationField,
		description: 'The integration, from the list, by name or by ID',
		displayOptions: showFor('get', 'delete'),
		modes: [
			...(integrationField.modes ?? []).filter((mode) => mode.name === 'list'),
			byName('hubspot-sync'),
			byId('1a7e5c2d-…', { noun: 'integration', format: 'uuid', nameMode: 'By Name' }),
		],
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. hubspot-sync',
		description: 'Name of the integration, unique in the project',
		displayOptions: showForCreate,
	},
	{
		displayName: 'Provider Name or ID',
		name: 'provider',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getProviders' },
		required: true,
		default: '',
		description:
			'The SaaS provider the integration connects to. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: showForCreate,
	},
	{
		displayName: 'Spec Version',
		name: 'specVersion',
		type: 'string',
		default: '1.0.0',
		description: 'Version of the manifest format the content follows',
		displayOptions: showForCreate,
	},
	{
		displayName: 'Manifest Content (JSON)',
		name: 'content',
		type: 'json',
		required: true,
		default: '{\n  "name": "",\n  "provider": "",\n  "read": { "objects": [] }\n}',
		description:
			'The integration definition: name, provider, displayName, read, write, proxy, subscribe and watchSchema, as in amp.yaml',
		displayOptions: showForCreate,
	},
	...returnAllAndLimit({ show: { resource: [resource], operation: ['getAll'] } }),
	...sourceFields(resource, 'upsertMany'),
];
