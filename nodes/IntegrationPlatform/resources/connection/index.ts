import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseJsonParameter, requiredParameter } from '../../routing/parameters';
import type { OperationDefinition } from '../../routing/defineOperation';

const resource = 'connection';
const showForGenerate = { show: { resource: [resource], operation: ['generate'] } };
const showForForms = (...forms: string[]) => ({
	show: { resource: [resource], operation: ['generate'], providerCredentials: forms },
});

/** OAuth scopes from text (commas or spaces) or a list of text; undefined for anything else. */
function scopeList(text: unknown): string[] | undefined {
	const isText = (value: unknown) => typeof value === 'string' || typeof value === 'number';
	if (text === undefined || text === null) return [];
	if (Array.isArray(text) ? !text.every(isText) : !isText(text)) return undefined;
	return (Array.isArray(text) ? text.map(String) : String(text).split(/[\s,]+/))
		.map((scope) => scope.trim())
		.filter(Boolean);
}

/** A token and, when given, its expiry as an ISO date; an expiry that is not a date is refused. */
function tokenRecord(
	context: IExecuteSingleFunctions,
	token: unknown,
	expiryParameter: string,
	expiryLabel: string,
): IDataObject | undefined {
	if (typeof token !== 'string' || token === '') return undefined;
	const expiresAt = context.getNodeParameter(expiryParameter, '') as unknown;
	if (!expiresAt) return { token };
	const date = new Date(String(expiresAt));
	if (Number.isNaN(date.getTime())) {
		throw new NodeOperationError(
			context.getNode(),
			`"${expiryLabel}" is not a date: ${JSON.stringify(expiresAt)?.slice(0, 60)}`,
			{
				itemIndex: context.getItemIndex(),
				description:
					'No request was sent. Give a date and time such as 2030-01-31T12:00:00Z, or leave the field empty.',
			},
		);
	}
	return { token, expiresAt: date.toISOString() };
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
	const required = (name: string, label: string) =>
		requiredParameter(this, name, label) as IDataObject[string];
	const body: IDataObject = {
		provider: required('provider', 'Provider Name or ID'),
		groupRef: required('groupRef', 'Group Ref'),
		consumerRef: required('consumerRef', 'Consumer Ref'),
	};
	const form = get('providerCredentials', 'none') as string;
	const withScopes = (value: IDataObject) => {
		const scopes = scopeList(get('scopes'));
		if (scopes === undefined) {
			throw new NodeOperationError(
				this.getNode(),
				'"Scopes" must be text (separated by commas or spaces) or a list of text',
				{
					itemIndex: this.getItemIndex(),
					description: `No request was sent. Check the expression that sets it; it gave ${JSON.stringify(get('scopes'))?.slice(0, 60)}.`,
				},
			);
		}
		return scopes.length ? { ...value, scopes } : value;
	};
	switch (form) {
		case 'apiKey':
			body.apiKey = required('providerApiKey', 'Provider API Key');
			break;
		case 'basicAuth':
			body.basicAuth = {
				username: required('username', 'Username'),
				password: required('password', 'Password'),
			};
			break;
		case 'oauth2ClientCredentials':
			body.oauth2ClientCredentials = withScopes({
				clientId: required('clientId', 'Client ID'),
				clientSecret: required('clientSecret', 'Client Secret'),
			});
			break;
		case 'oauth2PasswordCredentials':
			body.oauth2PasswordCredentials = withScopes({
				username: required('username', 'Username'),
				password: required('password', 'Password'),
				clientId: required('clientId', 'Client ID'),
				clientSecret: required('clientSecret', 'Client Secret'),
			});
			break;
		case 'oauth2AuthorizationCode': {
			const accessToken = tokenRecord(
				this,
				get('accessToken'),
				'accessTokenExpiresAt',
				'Access Token Expires At',
			);
			const refreshToken = tokenRecord(
				this,
				get('refreshToken'),
				'refreshTokenExpiresAt',
				'Refresh Token Expires At',
			);
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

export const connectionOperations: OperationDefinition[] = [
	// POST /projects/{projectIdOrName}/connections:generate — api-facts §1 op 2: 201 Connection.
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
