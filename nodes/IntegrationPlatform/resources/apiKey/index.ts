import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { fromVersion2, inVersion1, returnAllAndLimit } from '../../fields';
import { listLocator, typedMode } from '../../../common/locator';
import type { OperationDefinition } from '../../routing/defineOperation';
import { deletedOutput } from '../outputs';
import { listEntries } from '../../routing/results';
import { booleanOptionQuery, maskedUpdate, textList } from '../../routing/updateMask';

const resource = 'apiKey';
const showFor = (...operation: string[]) => ({ show: { resource: [resource], operation } });

/**
 * An API key record carries the key itself (docs/api-notes.md, "API keys"). Listing, getting and
 * updating keys leave it out of the items unless Options → Include Secrets is on: execution data
 * is stored, and the user did not ask for the secret. The last four characters stay, so that
 * keys can be told apart. Create always returns it: the new key is what the user asked for.
 */
function withoutKey(json: IDataObject): IDataObject {
	const { key, ...rest } = json;
	return typeof key === 'string' ? { ...rest, keyEnding: key.slice(-4) } : rest;
}

async function hideKeys(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { includeSecrets } = this.getNodeParameter('options', {}) as IDataObject;
	if (includeSecrets === true) return items;
	return items.map((item) => ({ ...item, json: withoutKey(item.json) }));
}

/** Additional Fields → Scopes of Create, as a list; without it the service gives the key its default scopes. */
async function createScopes(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const { scopes } = this.getNodeParameter('additionalFields', {}) as IDataObject;
	if (scopes !== undefined) {
		requestOptions.body = { ...(requestOptions.body as IDataObject), scopes: textList(scopes) };
	}
	return requestOptions;
}

const scopesOption: INodeProperties = {
	displayName: 'Scopes',
	name: 'scopes',
	type: 'string',
	default: '',
	placeholder: 'e.g. full',
	description:
		'Comma-separated scopes of the key (the API documents `full` and `frontend` as examples)',
};

export const apiKeyOperations: OperationDefinition[] = [
	// POST /projects/{projectIdOrName}/api-keys — docs/api-notes.md, "API keys": 201 ApiKey with the key.
	{
		name: 'Create',
		value: 'create',
		action: 'Create an API key',
		description:
			'Create an API key for the project. Returns the new key (shown only this once) with its label, scopes and state.',
		method: 'POST',
		path: '/projects/{project}/api-keys',
		body: { label: '{keyLabel}' },
		preSend: [createScopes],
	},
	// DELETE /projects/{projectIdOrName}/api-keys/{apiKey} — docs/api-notes.md, "deleteApiKey": 204, no body.
	// The key itself is the path parameter, so it is masked in every error message.
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete an API key',
		description:
			"Delete (revoke) one of the project's API keys. Returns deleted: true and the project.",
		method: 'DELETE',
		path: '/projects/{project}/api-keys/{apiKey}',
		...deletedOutput('project', 'project'),
	},
	// GET /projects/{projectIdOrName}/api-keys/{apiKey} — docs/api-notes.md, "API keys".
	{
		name: 'Get',
		value: 'get',
		action: 'Get an API key',
		description:
			"Get the label, scopes and state of an API key. Returns them with the key's last four characters, never the key itself.",
		method: 'GET',
		path: '/projects/{project}/api-keys/{apiKey}',
		outputShape: 'hiddenKey',
		output: [hideKeys],
	},
	// GET /projects/{projectIdOrName}/api-keys — docs/api-notes.md, "API keys": a bare array; `?active=`.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many API keys',
		description:
			"List the project's API keys. Returns one item per key: label, scopes, state and last four characters, never the key (at most Limit of them unless Return All is on).",
		method: 'GET',
		path: '/projects/{project}/api-keys',
		preSend: [booleanOptionQuery('activeOnly', 'active', 'Active Keys Only')],
		outputShape: 'hiddenKeyEntry',
		output: [listEntries, hideKeys],
	},
	// PATCH /projects/{projectIdOrName}/api-keys/{apiKey} — docs/api-notes.md, "API keys": mask of
	// active, label, scopes.
	{
		name: 'Update',
		value: 'update',
		action: 'Update an API key',
		description:
			"Rename an API key, change its scopes, or activate or deactivate it. Returns the updated key's label, scopes, state and last four characters, never the key.",
		method: 'PATCH',
		path: '/projects/{project}/api-keys/{apiKey}',
		preSend: [
			maskedUpdate('apiKey', [
				{ option: 'active', label: 'Active', mask: 'active' },
				{ option: 'label', label: 'Label', mask: 'label' },
				{ option: 'scopes', label: 'Scopes', mask: 'scopes', convert: textList },
			]),
		],
		outputShape: 'hiddenKey',
		output: [hideKeys],
	},
];

export const apiKeyFields: INodeProperties[] = [
	{
		// Version 1 keeps the text field its saved workflows hold (docs/architecture.md, "Node
		// versions"); it hides the key on screen, which a locator's input cannot.
		displayName: 'API Key',
		name: 'apiKey',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description:
			'The API key, as the dashboard shows it. It is sent in the request path, and never shown in errors.',
		displayOptions: { show: { ...inVersion1, ...showFor('delete', 'get', 'update').show } },
	},
	{
		// The key itself identifies it (docs/api-notes.md, "API keys"): the list shows each key by
		// its label and last four characters and keeps the key as the value. A plain text value
		// saved by the text field passes through unchanged. `password` marks the value as a
		// secret: masked in every error message (routing/templates.ts).
		...listLocator({
			displayName: 'API Key',
			name: 'apiKey',
			description:
				'The API key: from the list (by label and last four characters), or typed as the dashboard shows it. It is sent in the request path, and never shown in errors.',
			search: 'searchApiKeys',
			select: 'Select an API key…',
			typed: [typedMode('By Key', 'id', 'amp_…')],
			displayOptions: { show: { ...fromVersion2, ...showFor('delete', 'get', 'update').show } },
		}),
		typeOptions: { password: true },
	},
	{
		displayName: 'Label',
		name: 'keyLabel',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. n8n production',
		description: 'A short name for the new key',
		displayOptions: showFor('create'),
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('create'),
		options: [scopesOption],
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
				displayName: 'Active',
				name: 'active',
				type: 'boolean',
				default: true,
				description: 'Whether the key may call the API; a deactivated key is refused',
			},
			{
				displayName: 'Label',
				name: 'label',
				type: 'string',
				default: '',
				description: 'A short name for the key',
			},
			scopesOption,
		],
	},
	...returnAllAndLimit({ show: { resource: [resource], operation: ['getAll'] } }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor('get', 'getAll', 'update'),
		options: [
			{
				displayName: 'Active Keys Only',
				name: 'activeOnly',
				type: 'boolean',
				default: false,
				description: 'Whether to list only the keys that are active',
				displayOptions: { show: { '/operation': ['getAll'] } },
			},
			{
				displayName: 'Include Secrets',
				name: 'includeSecrets',
				type: 'boolean',
				default: false,
				description:
					'Whether to output the keys themselves (`key`). They then appear in the execution data; without this option each item shows only the last four characters (`keyEnding`).',
			},
		],
	},
];
