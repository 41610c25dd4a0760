import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	getProviders,
	searchConnections,
	searchDestinationIds,
	searchDestinations,
	searchEventTopicRoutes,
	searchInstallations,
	searchIntegrations,
	searchJwtKeys,
	searchProjects,
	searchTopics,
} from './listSearch/searches';
import { RESOURCES } from './resources';
import {
	connectionField,
	destinationField,
	installationField,
	integrationField,
	orgIdField,
	projectField,
	topicField,
} from './fields';
import { authenticationParameter, nodeCredentials } from '../shared/api';
import {
	DEFAULT_MAX_RETRY_WAIT_SECONDS,
	RATE_LIMIT_RETRIES,
	requestPolicy,
} from './routing/requestPolicy';

// The real API accepts only one kind of credential for some operations (api-facts §3); the node
// says so here, and refuses before sending anything (shared/routing.ts, requireCredential).
const credentialNotices: INodeProperties[] = [
	{
		displayName:
			'This operation needs a Bearer Token: the service refuses API keys for organizations, invites and claimed domains',
		name: 'bearerOnlyNotice',
		type: 'notice',
		default: '',
		displayOptions: {
			show: { authentication: ['apiKey'], resource: ['claimedDomain', 'invite', 'organization'] },
		},
	},
	{
		displayName: 'This operation needs an API Key: the read API (unpause) accepts only X-Api-Key',
		name: 'apiKeyOnlyNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { authentication: ['bearerToken'], resource: ['installation'] } },
	},
];

// n8n's loader merges these options into the "Request Options" setting it gives every
// declarative node (batching, proxy, SSL, timeout): n8n-core DirectoryLoader
// applyDeclarativeNodeOptionParameters. They configure shared/transport.ts requestPolicy.
const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	isNodeSetting: true,
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Max Retry Wait (Seconds)',
			name: 'maxRetryWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_MAX_RETRY_WAIT_SECONDS,
			description:
				'Longest wait the node accepts before retrying a rate-limited request; a longer Retry-After fails the item at once',
		},
		{
			displayName: 'Retry When Rate Limited',
			name: 'retryOnRateLimit',
			type: 'boolean',
			default: true,
			description: `Whether to wait and retry (up to ${RATE_LIMIT_RETRIES} times) when the service answers 429 or 503 and says when to retry. Other failures: use Settings → Retry On Fail.`,
		},
	],
};

const resource: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	default: 'project',
	options: RESOURCES.map(({ name, value, description }) => ({ name, value, description })),
};

export class IntegrationPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Integration Platform',
		name: 'integrationPlatform',
		icon: {
			light: 'file:../../icons/integrationPlatform.svg',
			dark: 'file:../../icons/integrationPlatform.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Manage projects, integrations, connections, destinations, topics and more with the Integration Platform (Ampersand) API',
		defaults: { name: 'Integration Platform' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: nodeCredentials,
		// No baseURL here: the credential supplies it, so routing needs no `$credentials` expression
		// (README, "Speed"). Error statuses reach the operations' postReceive, which turns problem
		// documents into readable errors (shared/errors.ts).
		requestDefaults: {
			headers: { Accept: 'application/json' },
			ignoreHttpStatusErrors: true,
		},
		requestOperations: { pagination: requestPolicy },
		properties: [
			authenticationParameter,
			...credentialNotices,
			resource,
			...RESOURCES.map((r) => r.operations),
			projectField,
			integrationField,
			installationField,
			connectionField,
			destinationField,
			topicField,
			orgIdField,
			...RESOURCES.flatMap((r) => r.fields),
			requestOptions,
		],
	};

	methods = {
		listSearch: {
			searchProjects,
			searchIntegrations,
			searchInstallations,
			searchConnections,
			searchDestinations,
			searchDestinationIds,
			searchTopics,
			searchEventTopicRoutes,
			searchJwtKeys,
		},
		loadOptions: { getProviders },
	};
}
