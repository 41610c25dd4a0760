import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationDefinition } from '../../routing/defineOperation';
import { parseJsonParameter } from '../../routing/parameters';

const resource = 'oauth';
const showForConnect = { show: { resource: [resource], operation: ['getAuthorizationUrl'] } };

const TEXT_OPTIONS: Record<string, string> = {
	groupName: 'Group Name',
	consumerName: 'Consumer Name',
	providerWorkspaceRef: 'Provider Workspace Ref',
	providerAppId: 'Provider App ID',
};

/** The optional body fields the user added (docs/api-notes.md, "OAuth connect and upload URLs"). */
async function addOptionalFields(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const options = this.getNodeParameter('additionalFields', {}) as IDataObject;
	const body = (requestOptions.body ?? {}) as IDataObject;
	for (const [name, label] of Object.entries(TEXT_OPTIONS)) {
		const value = options[name];
		if (value === undefined || value === '') continue;
		if (typeof value !== 'string') {
			throw new NodeOperationError(this.getNode(), `"${label}" must be text`, {
				itemIndex: this.getItemIndex(),
				description: 'No request was sent. Check the expression that sets the field.',
			});
		}
		body[name] = value;
	}
	if (options.providerMetadata !== undefined) {
		body.providerMetadata = parseJsonParameter(
			{
				getNodeParameter: () => options.providerMetadata,
				getNode: () => this.getNode(),
				getItemIndex: () => this.getItemIndex(),
			} as unknown as IExecuteSingleFunctions,
			'providerMetadata',
			'Provider Metadata (JSON)',
			'object',
		) as IDataObject;
	}
	requestOptions.body = body;
	return requestOptions;
}

export const oauthOperations: OperationDefinition[] = [
	// POST /oauth-connect — the project goes in the body; 200 text/plain: the URL the consumer opens
	// to authorize (docs/api-notes.md, "OAuth connect and upload URLs").
	{
		name: 'Get Authorization URL',
		value: 'getAuthorizationUrl',
		action: 'Get an OAuth authorization URL',
		description:
			'Start an OAuth connection: get the URL a consumer opens to authorize access to their provider account; the connection is created when they approve. Returns the URL.',
		method: 'POST',
		path: '/oauth-connect',
		body: {
			projectIdOrName: '{project}',
			provider: '{provider}',
			groupRef: '{groupRef}',
			consumerRef: '{consumerRef}',
		},
		preSend: [addOptionalFields],
		outputShape: 'url',
		textAnswer: 'url',
	},
];

export const oauthFields: INodeProperties[] = [
	{
		displayName: 'Provider Name or ID',
		name: 'provider',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getProviders' },
		required: true,
		default: '',
		description:
			'The SaaS provider to connect to. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: showForConnect,
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showForConnect,
		options: [
			{
				displayName: 'Consumer Name',
				name: 'consumerName',
				type: 'string',
				default: '',
				description: 'Display name of the consumer (defaults to its consumer ref)',
			},
			{
				displayName: 'Group Name',
				name: 'groupName',
				type: 'string',
				default: '',
				description: 'Display name of the group (defaults to its group ref)',
			},
			{
				displayName: 'Provider App ID',
				name: 'providerAppId',
				type: 'string',
				default: '',
				description: "The provider app to use; without it, the project's default app",
			},
			{
				displayName: 'Provider Metadata (JSON)',
				name: 'providerMetadata',
				type: 'json',
				default: '{}',
				description:
					'Provider-specific values, e.g. { "accountId": { "value": "123", "source": "input" } } for NetSuite',
			},
			{
				displayName: 'Provider Workspace Ref',
				name: 'providerWorkspaceRef',
				type: 'string',
				default: '',
				placeholder: 'e.g. acme',
				description: "The consumer's account at the provider, e.g. the Salesforce subdomain",
			},
		],
	},
];
