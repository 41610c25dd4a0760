import type { INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from '../../routing/defineOperation';
import { buildConnectionBody, hideProviderSecrets } from './body';

const resource = 'connection';
const showForGenerate = { show: { resource: [resource], operation: ['generate'] } };
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
			'Create a connection for a consumer from provider credentials you already hold (for OAuth authorization code, import existing tokens)',
		method: 'POST',
		path: '/projects/{project}/connections:generate',
		preSend: [buildConnectionBody],
		output: [hideProviderSecrets],
	},
];

export const connectionFields: INodeProperties[] = [
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
		displayName: 'Group Ref',
		name: 'groupRef',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. acme-inc',
		description:
			'Your ID of the group of users (usually a customer account) that gets the connection',
		displayOptions: showForGenerate,
	},
	{
		displayName: 'Consumer Ref',
		name: 'consumerRef',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. user-42',
		description: 'Your ID of the user who owns the provider account',
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
