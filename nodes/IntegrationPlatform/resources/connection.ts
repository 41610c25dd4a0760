import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { parseJsonParameter } from '../shared/fields';
import { defineOperation } from '../shared/routing';

const resource = 'connection';
const showForGenerate = { show: { resource: [resource], operation: ['generate'] } };
const showForForms = (...forms: string[]) => ({
	show: { resource: [resource], operation: ['generate'], providerCredentials: forms },
});

function scopeList(text: unknown): string[] {
	return String(text ?? '')
		.split(/[\s,]+/)
		.map((scope) => scope.trim())
		.filter(Boolean);
}

function tokenRecord(token: unknown, expiresAt: unknown): IDataObject | undefined {
	if (typeof token !== 'string' || token === '') return undefined;
	return { token, ...(expiresAt ? { expiresAt: new Date(String(expiresAt)).toISOString() } : {}) };
}

/**
 * Builds the GenerateConnectionRequest (api-facts §1 op 2): groupRef, consumerRef, provider, and at
 * most one of the provider credential forms, with the shapes the real API documents (the spec
 * leaves them out).
 */
async function buildConnectionBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const get = (name: string, fallback: unknown = '') => this.getNodeParameter(name, fallback);
	const body: IDataObject = {
		provider: get('provider'),
		groupRef: get('groupRef'),
		consumerRef: get('consumerRef'),
	};
	const form = get('providerCredentials', 'none') as string;
	const scopes = scopeList(get('scopes'));
	const withScopes = (value: IDataObject) => (scopes.length ? { ...value, scopes } : value);
	switch (form) {
		case 'apiKey':
			body.apiKey = get('providerApiKey');
			break;
		case 'basicAuth':
			body.basicAuth = { username: get('username'), password: get('password') };
			break;
		case 'oauth2ClientCredentials':
			body.oauth2ClientCredentials = withScopes({
				clientId: get('clientId'),
				clientSecret: get('clientSecret'),
			});
			break;
		case 'oauth2PasswordCredentials':
			body.oauth2PasswordCredentials = withScopes({
				username: get('username'),
				password: get('password'),
				clientId: get('clientId'),
				clientSecret: get('clientSecret'),
			});
			break;
		case 'oauth2AuthorizationCode': {
			const accessToken = tokenRecord(get('accessToken'), get('accessTokenExpiresAt'));
			const refreshToken = tokenRecord(get('refreshToken'), get('refreshTokenExpiresAt'));
			body.oauth2AuthorizationCode = withScopes({
				...(accessToken ? { accessToken } : {}),
				...(refreshToken ? { refreshToken } : {}),
			});
			break;
		}
		case 'customAuth':
			body.customAuth = parseJsonParameter(
				this,
				'customAuth',
				'Custom Auth Values (JSON)',
				'object',
			) as IDataObject;
			break;
	}
	const extra = get('connectionFields', {}) as IDataObject & {
		providerMetadata?: {
			entry?: Array<{ key: string; value: string; source: string; displayName?: string }>;
		};
	};
	for (const key of ['groupName', 'consumerName', 'providerWorkspaceRef'] as const) {
		if (typeof extra[key] === 'string' && extra[key] !== '') body[key] = extra[key];
	}
	const metadata = extra.providerMetadata?.entry ?? [];
	if (metadata.length) {
		body.providerMetadata = Object.fromEntries(
			metadata.map(({ key, value, source, displayName }) => [
				key,
				{ value, source, ...(displayName ? { displayName } : {}) },
			]),
		);
	}
	requestOptions.body = body;
	return requestOptions;
}

/** The Connection echoes provider credentials (apiKey, OAuth tokens); keep them out unless asked. */
async function hideProviderSecrets(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { includeSecrets } = this.getNodeParameter('connectionOptions', {}) as {
		includeSecrets?: boolean;
	};
	if (includeSecrets) return items;
	return items.map(({ json }) => {
		const connection = { ...json };
		delete connection.apiKey;
		const oauth = connection.oauth2AuthorizationCode as IDataObject | undefined;
		if (oauth) {
			const copy: IDataObject = { ...oauth };
			for (const key of ['accessToken', 'refreshToken']) {
				if (copy[key] && typeof copy[key] === 'object') {
					const record = { ...(copy[key] as IDataObject) };
					delete record.token;
					copy[key] = record;
				}
			}
			connection.oauth2AuthorizationCode = copy;
		}
		return { json: connection };
	});
}

export const connectionOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	default: 'generate',
	options: [
		// POST /projects/{projectIdOrName}/connections:generate — api-facts §1 op 2: 201 Connection.
		defineOperation('Connection', resource, {
			name: 'Generate',
			value: 'generate',
			action: 'Generate a connection',
			description:
				'Create a connection for a consumer from provider credentials you already hold (for OAuth authorization code, import existing tokens)',
			method: 'POST',
			path: '/projects/{project}/connections:generate',
			preSend: [buildConnectionBody],
			output: [hideProviderSecrets],
		}),
	],
};

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
