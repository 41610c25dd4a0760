import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	getProviders,
	getSearchFields,
	searchApiKeys,
	searchConnections,
	searchDestinationIds,
	searchDestinations,
	searchEventTopicRoutes,
	searchConsumers,
	searchGroupRefs,
	searchGroups,
	searchOperations,
	searchObjects,
	searchMetadataObjects,
	searchTopicDestinationRoutes,
	searchInstallations,
	searchIntegrations,
	searchInvites,
	searchJwtKeys,
	searchOrganizations,
	searchProjects,
	searchProviderApps,
	searchProviders,
	searchTopics,
} from './listSearch/searches';
import { RESOURCES } from './resources';
import { getRecordFields } from './resources/records/mapping';
import { sharedFields } from './fields';
import { withReason } from '../common/locator';
import { authenticationParameter, CREDENTIAL_LABEL, nodeCredentials } from '../common/api';
import { DEFAULT_MAX_RETRY_WAIT_SECONDS, RATE_LIMIT_RETRIES } from './transport/policy';
import { sendWithRequestPolicy } from './routing/requestHook';

/**
 * The service accepts only one kind of credential for some operations (docs/api-notes.md,
 * "Credentials per operation"). Those operations declare it (`requires`); the node shows a notice
 * when the other kind is selected, and refuses before sending anything (routing/defineOperation.ts).
 */
const credentialNotices: INodeProperties[] = (['apiKey', 'bearerToken'] as const).flatMap(
	(required) => {
		const other = required === 'apiKey' ? 'bearerToken' : 'apiKey';
		const byResource = RESOURCES.map((r) => ({
			resource: r.value,
			operations: r.credentialRequirements
				.filter((requirement) => requirement.requires === required)
				.map((requirement) => requirement.operation),
		})).filter((r) => r.operations.length > 0);
		return byResource.map(({ resource, operations }) => ({
			// Names the field the editor shows, "Credential", which lists both credential types
			// (n8n hides the Authentication option behind it).
			displayName:
				required === 'bearerToken'
					? `This operation needs ${CREDENTIAL_LABEL.bearerToken}: the service refuses API keys for it. Select one under Credential.`
					: `This operation needs ${CREDENTIAL_LABEL.apiKey}: its host accepts only X-Api-Key. Select one under Credential.`,
			name: `${required}OnlyNotice${resource[0].toUpperCase()}${resource.slice(1)}`,
			type: 'notice' as const,
			default: '',
			displayOptions: {
				show: { authentication: [other], resource: [resource], operation: operations },
			},
		}));
	},
);

// n8n's loader merges these options into the "Request Options" setting it gives every
// declarative node (batching, proxy, SSL, timeout). They configure the request policy
// (transport/policy.ts).
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
		// Version 2: every resource starts on an operation that only reads; version 3: Record →
		// Write's record ID is a parameter of its own, so that the mapper keeps its values when
		// Write Type changes (docs/architecture.md, "Node versions"). Older versions keep what
		// their saved workflows rely on.
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Manage projects, integrations, connections, destinations, topics and more with the Integration Platform (Ampersand) API',
		defaults: { name: 'Integration Platform' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: nodeCredentials,
		// No baseURL here: the credential supplies it, so routing needs no `$credentials` expression
		// (docs/n8n-notes.md, "Per-item cost of expressions"). Error statuses reach the operations'
		// postReceive, which turns problem documents into readable errors (routing/defineOperation.ts).
		requestDefaults: {
			headers: { Accept: 'application/json' },
			ignoreHttpStatusErrors: true,
		},
		// Not pagination: this is the one hook n8n's declarative engine runs around the HTTP call of
		// a routed request, and every operation enables it (`send.paginate`). The node's request
		// policy lives there: rate-limit retries and network errors that name the host. A paged
		// list's own pagination (routing/pagedList.ts) replaces it and sends each page through it.
		requestOperations: { pagination: sendWithRequestPolicy },
		properties: [
			authenticationParameter,
			...credentialNotices,
			resource,
			...RESOURCES.flatMap((r) => r.selectors),
			...sharedFields,
			...RESOURCES.flatMap((r) => r.fields),
			requestOptions,
		],
	};

	// The two operations n8n's routing cannot express, which n8n runs instead of routing, with all
	// items at once: Record → Write batches items into one request, Provider API → Send Request
	// sends to a path and method of the user's choosing and passes on answers that are not JSON.
	// Every other operation is routed by n8n.
	customOperations = Object.fromEntries(
		RESOURCES.filter((r) => Object.keys(r.customOperations).length > 0).map((r) => [
			r.value,
			r.customOperations,
		]),
	);

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
			searchTopicDestinationRoutes,
			searchGroups,
			searchGroupRefs,
			searchConsumers,
			searchOperations,
			searchObjects,
			searchMetadataObjects,
			searchApiKeys,
			searchJwtKeys,
			searchOrganizations,
			searchProviders,
			searchProviderApps,
			searchInvites,
		},
		loadOptions: { getProviders, getSearchFields },
		// The mapper's own fields list (records/mapping.ts), answering with reasons as the lists do.
		resourceMapping: { getRecordFields: withReason(getRecordFields) },
	};
}
