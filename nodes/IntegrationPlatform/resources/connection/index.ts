import type { INodeProperties } from 'n8n-workflow';

import { byConsumerRef, byGroupRef, byName, listLocator } from '../../../common/locator';
import { connectionField, fromVersion2, inVersion1, returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { deletedOutput, listOutput } from '../outputs';
import {
	addConnectionId,
	buildConnectionBody,
	buildConnectionUpdate,
	connectionFilters,
	hideProviderSecrets,
} from './body';

const resource = 'connection';
const showForGenerate = { show: { resource: [resource], operation: ['generate'] } };
const showFor = (...operation: string[]) => ({ show: { resource: [resource], operation } });
const showForForms = (...forms: string[]) => ({
	show: { resource: [resource], operation: ['generate'], providerCredentials: forms },
});

export const connectionOperations: OperationDefinition[] = [
	// POST /projects/{projectIdOrName}/connections:generate — docs/api-notes.md, "generateConnection": 201 Connection.
	{
		name: 'Generate',
		value: 'generate',
		action: 'Generate a connection',
		description:
			'Create a connection for a consumer from provider credentials you already hold (for OAuth authorization code, import existing tokens). Returns the new connection without its provider secrets.',
		method: 'POST',
		path: '/projects/{project}/connections:generate',
		preSend: [buildConnectionBody],
		outputShape: 'hiddenProviderSecrets',
		output: [hideProviderSecrets],
	},
	// DELETE /projects/{projectIdOrName}/connections/{connectionId} — docs/api-notes.md, "Connections": 204.
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a connection',
		description:
			"Delete a consumer's connection and the provider credentials stored with it. Returns deleted: true and the connection ID.",
		method: 'DELETE',
		path: '/projects/{project}/connections/{connectionId}',
		...deletedOutput('connectionId', 'connectionId'),
	},
	// GET /projects/{projectIdOrName}/connections/{connectionId} — docs/api-notes.md, "Connections".
	{
		name: 'Get',
		value: 'get',
		action: 'Get a connection',
		description:
			'Get a connection by ID. Returns its provider, group, consumer, auth scheme and status, without provider secrets.',
		method: 'GET',
		path: '/projects/{project}/connections/{connectionId}',
		outputShape: 'hiddenProviderSecrets',
		output: [hideProviderSecrets],
	},
	// GET /projects/{projectIdOrName}/connections — docs/api-notes.md, "Connections": a bare array,
	// filtered by provider, groupRef and consumerRef.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many connections',
		description:
			'List the connections of a project, optionally of one provider, group or consumer. Returns one item per connection: ID, provider, group, consumer and status, without secrets (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/projects/{project}/connections',
		preSend: [connectionFilters],
		...listOutput,
	},
	// PATCH /projects/{projectIdOrName}/connections/{connectionId}:oauth-update — docs/api-notes.md,
	// "Connections": 200 text/plain, the URL the consumer opens to grant access again.
	{
		name: 'Get Reauthorization URL',
		value: 'getReauthorizationUrl',
		action: 'Get an OAuth URL to reauthorize a connection',
		description:
			"Get the URL a consumer opens to renew an OAuth connection's access (e.g. after its refresh token was revoked). Returns the URL and the connection ID.",
		method: 'PATCH',
		path: '/projects/{project}/connections/{connectionId}:oauth-update',
		outputShape: 'reauthorizationUrl',
		textAnswer: 'url',
		output: [addConnectionId],
	},
	// PATCH /projects/{projectIdOrName}/connections/{connectionId} — docs/api-notes.md, "Connections":
	// `{ updateMask, connection }`; the mask is built from the fields given.
	{
		name: 'Update',
		value: 'update',
		action: 'Update a connection',
		description:
			'Rotate the provider credentials of a connection or change its workspace and metadata. Returns the updated connection without its provider secrets.',
		method: 'PATCH',
		path: '/projects/{project}/connections/{connectionId}',
		preSend: [buildConnectionUpdate],
		outputShape: 'hiddenProviderSecrets',
		output: [hideProviderSecrets],
	},
];

/**
 * The connection locator of this resource: the shared field, shown here for the operations on one
 * connection (the shared one's text speaks of hydrated revisions).
 */
const connectionLocator: INodeProperties = {
	...connectionField,
	description: 'A connection of the project, from the list (shown by group and provider) or by ID',
	displayOptions: showFor('get', 'update', 'delete', 'getReauthorizationUrl'),
};

export const connectionFields: INodeProperties[] = [
	connectionLocator,
	...returnAllAndLimit(showFor('getAll')),
	// Version 1 keeps its text filters; version 2 picks them from lists (a resource locator's saved
	// value has another shape than text, docs/architecture.md "Node versions").
	{
		displayName: 'Filters',
		name: 'connectionFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { ...showFor('getAll').show, ...inVersion1 } },
		options: [
			{
				displayName: 'Consumer',
				name: 'consumerRef',
				type: 'string',
				default: '',
				description: 'Only connections of this consumer (your ID of the user)',
			},
			{
				displayName: 'Group',
				name: 'groupRef',
				type: 'string',
				default: '',
				description: 'Only connections of this group (your ID of the customer account)',
			},
			{
				displayName: 'Provider',
				name: 'provider',
				type: 'string',
				default: '',
				placeholder: 'e.g. hubspot',
				description: 'Only connections to this provider',
			},
		],
	},
	{
		displayName: 'Filters',
		name: 'connectionFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { ...showFor('getAll').show, ...fromVersion2 } },
		options: [
			listLocator({
				displayName: 'Consumer',
				name: 'consumerRef',
				description: 'Only connections of this consumer (your ID of the user, their consumer ref)',
				search: 'searchConsumers',
				select: 'Select a consumer…',
				typed: [byConsumerRef],
				required: false,
			}),
			listLocator({
				displayName: 'Group',
				name: 'groupRef',
				description:
					'Only connections of this group (your ID of the customer account, its group ref)',
				search: 'searchGroupRefs',
				select: 'Select a group…',
				typed: [byGroupRef],
				required: false,
			}),
			listLocator({
				displayName: 'Provider',
				name: 'provider',
				description: 'Only connections to this provider',
				search: 'searchProviders',
				select: 'Select a provider…',
				typed: [byName('hubspot')],
				required: false,
			}),
		],
	},
	{
		displayName: 'Update Fields',
		name: 'connectionUpdate',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'What to change; credentials must be of the auth scheme the connection already has',
		displayOptions: showFor('update'),
		options: [
			{
				displayName: 'Basic Auth Password',
				name: 'password',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description: 'New password; send it with the username',
			},
			{
				displayName: 'Basic Auth Username',
				name: 'username',
				type: 'string',
				default: '',
				description: 'New username; send it with the password',
			},
			{
				displayName: 'OAuth2 Client ID',
				name: 'clientId',
				type: 'string',
				default: '',
				description:
					'New client ID of an OAuth2 client-credentials connection; send it with the secret',
			},
			{
				displayName: 'OAuth2 Client Secret',
				name: 'clientSecret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description: 'New client secret; send it with the client ID',
			},
			{
				displayName: 'Provider API Key',
				name: 'providerApiKey',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description: 'New API key of an API-key connection',
			},
			{
				displayName: 'Provider Metadata (JSON)',
				name: 'providerMetadata',
				type: 'json',
				default: '{}',
				description:
					'Replaces the provider metadata, e.g. {"instance": {"value": "eu1", "source": "input"}}',
			},
			{
				displayName: 'Provider Workspace Ref',
				name: 'providerWorkspaceRef',
				type: 'string',
				default: '',
				description: 'The provider workspace, e.g. a Salesforce subdomain',
			},
		],
	},
	{
		displayName: 'Provider Name or ID',
		name: 'provider',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getProviders' },
		required: true,
		default: '',
		description:
			'The SaaS provider of the connection. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: showForGenerate,
	},
	{
		displayName: 'Provider Credentials',
		name: 'providerCredentials',
		type: 'options',
		default: 'apiKey',
		description: 'How the provider account is accessed; the service stores these credentials',
		displayOptions: showForGenerate,
		options: [
			{ name: 'API Key', value: 'apiKey' },
			{ name: 'Basic Auth', value: 'basicAuth' },
			{ name: 'Custom Auth', value: 'customAuth' },
			{ name: 'None', value: 'none' },
			{ name: 'OAuth2 Authorization Code (Existing Tokens)', value: 'oauth2AuthorizationCode' },
			{ name: 'OAuth2 Client Credentials', value: 'oauth2ClientCredentials' },
			{ name: 'OAuth2 Password', value: 'oauth2PasswordCredentials' },
		],
	},
	{
		displayName: 'Provider API Key',
		name: 'providerApiKey',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		displayOptions: showForForms('apiKey'),
	},
	{
		displayName: 'Username',
		name: 'username',
		type: 'string',
		required: true,
		default: '',
		displayOptions: showForForms('basicAuth', 'oauth2PasswordCredentials'),
	},
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		displayOptions: showForForms('basicAuth', 'oauth2PasswordCredentials'),
	},
	{
		displayName: 'Client ID',
		name: 'clientId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: showForForms('oauth2ClientCredentials', 'oauth2PasswordCredentials'),
	},
	{
		displayName: 'Client Secret',
		name: 'clientSecret',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		displayOptions: showForForms('oauth2ClientCredentials', 'oauth2PasswordCredentials'),
	},
	{
		displayName: 'Access Token',
		name: 'accessToken',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: 'An access token you already hold for this account',
		displayOptions: showForForms('oauth2AuthorizationCode'),
	},
	{
		displayName: 'Access Token Expires At',
		name: 'accessTokenExpiresAt',
		type: 'dateTime',
		default: '',
		displayOptions: showForForms('oauth2AuthorizationCode'),
	},
	{
		displayName: 'Refresh Token',
		name: 'refreshToken',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: 'A refresh token you already hold; the service refreshes the access token with it',
		displayOptions: showForForms('oauth2AuthorizationCode'),
	},
	{
		displayName: 'Refresh Token Expires At',
		name: 'refreshTokenExpiresAt',
		type: 'dateTime',
		default: '',
		displayOptions: showForForms('oauth2AuthorizationCode'),
	},
	{
		displayName: 'Scopes',
		name: 'scopes',
		type: 'string',
		default: '',
		placeholder: 'e.g. crm.objects.contacts.read, crm.objects.contacts.write',
		description: 'OAuth scopes, separated by commas or spaces',
		displayOptions: showForForms(
			'oauth2AuthorizationCode',
			'oauth2ClientCredentials',
			'oauth2PasswordCredentials',
		),
	},
	{
		displayName: 'Custom Auth Values (JSON)',
		name: 'customAuth',
		type: 'json',
		default: '{}',
		description:
			'Values of the provider\'s custom auth inputs, e.g. {"serviceAccountKey": "…", "scopes": ["…"]}',
		displayOptions: showForForms('customAuth'),
	},
	{
		displayName: 'Additional Fields',
		name: 'connectionFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showForGenerate,
		options: [
			{ displayName: 'Consumer Name', name: 'consumerName', type: 'string', default: '' },
			{ displayName: 'Group Name', name: 'groupName', type: 'string', default: '' },
			{
				displayName: 'Provider Metadata',
				name: 'providerMetadata',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Metadata',
				description: 'Provider-specific values the connection needs, e.g. a Salesforce instance',
				options: [
					{
						displayName: 'Entry',
						name: 'entry',
						values: [
							{ displayName: 'Key', name: 'key', type: 'string', default: '' },
							{ displayName: 'Value', name: 'value', type: 'string', default: '' },
							{
								displayName: 'Source',
								name: 'source',
								type: 'options',
								default: 'input',
								options: [
									{ name: 'Input', value: 'input' },
									{ name: 'Provider', value: 'provider' },
									{ name: 'Token', value: 'token' },
								],
							},
							{ displayName: 'Display Name', name: 'displayName', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Provider Workspace Ref',
				name: 'providerWorkspaceRef',
				type: 'string',
				default: '',
				description: 'The provider workspace, e.g. a Salesforce subdomain',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'connectionOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showForGenerate,
		options: [
			{
				displayName: 'Include Credentials in Output',
				name: 'includeSecrets',
				type: 'boolean',
				default: false,
				description:
					'Whether to keep the provider API key and OAuth tokens that the service echoes back. They then appear in the execution data.',
			},
		],
	},
];
