import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { deletedOutput, listOutput } from '../outputs';
import { parseJsonParameter } from '../../routing/parameters';
import { addSecretValue } from '../../routing/templates';
import { maskedUpdate, textList } from '../../routing/updateMask';
import { byId, listLocator } from '../../../common/locator';

const resource = 'providerApp';
const showFor = (...operation: string[]) => ({ show: { resource: [resource], operation } });

const METADATA_LABEL = 'Metadata (JSON)';

/** `{ authQueryParams?, providerParams? }` (docs/api-notes.md, "Provider apps"), parsed strictly. */
function metadataOf(context: IExecuteSingleFunctions, collection: string): unknown {
	const chosen = context.getNodeParameter(collection, {}) as IDataObject;
	if (chosen?.metadata === undefined) return undefined;
	return parseJsonParameter(context, `${collection}.metadata`, METADATA_LABEL, 'object');
}

/** Optional create fields: external reference, scopes and metadata. */
async function createExtras(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
	const { externalRef, scopes } = this.getNodeParameter('additionalFields', {}) as IDataObject;
	const body = { ...(requestOptions.body as IDataObject) };
	if (externalRef !== undefined) body.externalRef = externalRef;
	if (scopes !== undefined) body.scopes = textList(scopes) as IDataObject[string];
	const metadata = metadataOf(this, 'additionalFields');
	if (metadata !== undefined) body.metadata = metadata as IDataObject;
	requestOptions.body = body;
	return requestOptions;
}

/** The client secret of an update travels in the body: masked in any error, like path secrets. */
async function maskUpdatedSecret(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
) {
	const { clientSecret } = this.getNodeParameter('updateFields', {}) as IDataObject;
	if (typeof clientSecret === 'string' && clientSecret !== '') addSecretValue(this, clientSecret);
	const body = requestOptions.body as IDataObject;
	const app = body.providerApp as IDataObject;
	if (app.metadata !== undefined) app.metadata = metadataOf(this, 'updateFields') as IDataObject;
	return requestOptions;
}

export const providerAppOperations: OperationDefinition[] = [
	// POST /projects/{projectIdOrName}/provider-apps — docs/api-notes.md, "Provider apps": 200 ProviderApp
	// (without the secret).
	{
		name: 'Create',
		value: 'create',
		action: 'Create a provider app',
		description:
			"Register your OAuth app at a provider (client ID and secret) for the project's connections. Returns the new provider app without its client secret.",
		method: 'POST',
		path: '/projects/{project}/provider-apps',
		body: {
			provider: '{appProvider}',
			clientId: '{appClientId}',
			clientSecret: '{appClientSecret}',
		},
		preSend: [createExtras],
	},
	// DELETE /projects/{projectIdOrName}/provider-apps/{providerAppId} — 204.
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a provider app',
		description: 'Delete a provider app. Returns deleted: true and the provider app ID.',
		method: 'DELETE',
		path: '/projects/{project}/provider-apps/{providerApp}',
		...deletedOutput('providerAppId', 'providerApp'),
	},
	// GET /projects/{projectIdOrName}/provider-apps — a bare array.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many provider apps',
		description:
			"List the project's provider apps. Returns one item per app, without client secrets (at most Limit of them unless Return All is on).",
		method: 'GET',
		path: '/projects/{project}/provider-apps',
		...listOutput,
	},
	// PATCH /projects/{projectIdOrName}/provider-apps/{providerAppId} — mask of externalRef,
	// clientId, clientSecret, provider, scopes, metadata.
	{
		name: 'Update',
		value: 'update',
		action: 'Update a provider app',
		description:
			'Change the client ID or secret, scopes, provider or metadata of a provider app. Returns the updated provider app without its client secret.',
		method: 'PATCH',
		path: '/projects/{project}/provider-apps/{providerApp}',
		preSend: [
			maskedUpdate('providerApp', [
				{ option: 'clientId', label: 'Client ID', mask: 'clientId' },
				{ option: 'clientSecret', label: 'Client Secret', mask: 'clientSecret' },
				{ option: 'externalRef', label: 'External Reference', mask: 'externalRef' },
				{ option: 'metadata', label: METADATA_LABEL, mask: 'metadata' },
				{ option: 'provider', label: 'Provider', mask: 'provider' },
				{ option: 'scopes', label: 'Scopes', mask: 'scopes', convert: textList },
			]),
			maskUpdatedSecret,
		],
	},
];

const externalRefOption: INodeProperties = {
	displayName: 'External Reference',
	name: 'externalRef',
	type: 'string',
	default: '',
	description: 'The ID the provider uses for the app',
};
const scopesOption: INodeProperties = {
	displayName: 'Scopes',
	name: 'scopes',
	type: 'string',
	default: '',
	placeholder: 'e.g. crm.objects.contacts.read, oauth',
	description: 'Comma-separated OAuth scopes of the app',
};
const metadataOption: INodeProperties = {
	displayName: METADATA_LABEL,
	name: 'metadata',
	type: 'json',
	default: '{\n  "providerParams": {}\n}',
	description:
		'Provider-specific settings: `authQueryParams` (extra query parameters of the authorization URL, each a list) and `providerParams` (texts such as packageInstallURL)',
};

export const providerAppFields: INodeProperties[] = [
	listLocator({
		displayName: 'Provider App',
		name: 'providerApp',
		description: 'The provider app, from the list or by ID',
		search: 'searchProviderApps',
		select: 'Select a provider app…',
		typed: [byId('32356abe-…', { noun: 'provider app', format: 'hex' })],
		displayOptions: showFor('delete', 'update'),
	}),
	{
		displayName: 'Provider Name or ID',
		name: 'appProvider',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getProviders' },
		required: true,
		default: '',
		description:
			'The SaaS provider the app belongs to. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: showFor('create'),
	},
	{
		displayName: 'Client ID',
		name: 'appClientId',
		type: 'string',
		required: true,
		default: '',
		description: 'The OAuth client ID of your app at the provider',
		displayOptions: showFor('create'),
	},
	{
		displayName: 'Client Secret',
		name: 'appClientSecret',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description: 'The OAuth client secret of your app. The service never returns it.',
		displayOptions: showFor('create'),
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('create'),
		options: [externalRefOption, metadataOption, scopesOption],
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
				displayName: 'Client ID',
				name: 'clientId',
				type: 'string',
				default: '',
				description: 'The OAuth client ID of your app at the provider',
			},
			{
				displayName: 'Client Secret',
				name: 'clientSecret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description: 'The OAuth client secret of your app',
			},
			externalRefOption,
			metadataOption,
			{
				displayName: 'Provider',
				name: 'provider',
				type: 'string',
				default: '',
				placeholder: 'e.g. salesforce',
				description: 'The SaaS provider the app belongs to',
			},
			scopesOption,
		],
	},
	...returnAllAndLimit({ show: { resource: [resource], operation: ['getAll'] } }),
];
