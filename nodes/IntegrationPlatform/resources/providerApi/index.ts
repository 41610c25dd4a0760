import type { INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from '../../routing/defineOperation';
import { sendProviderRequest } from './sendRequest';

const resource = 'providerApi';
const show = { show: { resource: [resource] } };

export const providerApiOperations: OperationDefinition[] = [
	// {proxy_url}/<provider path> — docs/api-notes.md, "Proxy": not in the OpenAPI documents; the
	// method is the user's (GET here only names the operation's default).
	{
		name: 'Send Request',
		value: 'sendRequest',
		action: "Send a request to a consumer's provider API",
		description:
			"Call the consumer's own provider API (e.g. Salesforce, HubSpot) through the platform, which signs it with the provider credentials of the group's installation. Returns the provider's answer: one item per entry when it is a list.",
		method: 'GET',
		path: '/{proxyPath}',
		host: 'proxy',
		requires: 'apiKey',
		outputShape: 'providerAnswer',
		custom: sendProviderRequest,
	},
];

export const providerApiFields: INodeProperties[] = [
	{
		displayName: 'Method',
		name: 'proxyMethod',
		type: 'options',
		default: 'GET',
		options: ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'].map((method) => ({
			name: method,
			value: method,
		})),
		description: 'The HTTP method of the request to the provider',
		displayOptions: show,
	},
	{
		displayName: 'Path',
		name: 'proxyPath',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. crm/v3/objects/contacts',
		description:
			"The path of the provider's API, below its base URL (the platform knows the consumer's instance)",
		displayOptions: show,
	},
	{
		displayName: 'Query Parameters',
		name: 'proxyQuery',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Parameter',
		displayOptions: show,
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Headers',
		name: 'proxyHeaders',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Header',
		description:
			'Headers for the provider. The API key and the x-amp-* headers are set by the node.',
		displayOptions: show,
		options: [
			{
				displayName: 'Header',
				name: 'header',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Send Body',
		name: 'proxySendBody',
		type: 'boolean',
		default: false,
		description: 'Whether to send a JSON body',
		displayOptions: {
			show: { resource: [resource], proxyMethod: ['DELETE', 'PATCH', 'POST', 'PUT'] },
		},
	},
	{
		displayName: 'Body (JSON)',
		name: 'proxyBody',
		type: 'json',
		default: '{}',
		displayOptions: {
			show: {
				resource: [resource],
				proxyMethod: ['DELETE', 'PATCH', 'POST', 'PUT'],
				proxySendBody: [true],
			},
		},
	},
	{
		displayName: 'Options',
		name: 'proxyOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show,
		options: [
			{
				displayName: 'Include Response Headers and Status',
				name: 'fullResponse',
				type: 'boolean',
				default: false,
				description: 'Whether to return the status code and headers with the body',
			},
			{
				displayName: 'Never Error',
				name: 'neverError',
				type: 'boolean',
				default: false,
				description:
					'Whether an answer with an error status (4xx, 5xx) becomes an item instead of failing the item',
			},
		],
	},
];
