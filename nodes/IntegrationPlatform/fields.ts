import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { installationLocator, integrationLocator } from '../common/installation';
import { projectLocator } from '../common/project';
import { byId, byName, listLocator, typedMode } from '../common/locator';

/**
 * Fields used by several operations. Each is defined ONCE with display options that cover every
 * operation using it: n8n's routing engine evaluates every property object on every item, so a
 * parameter defined five times would have its expression evaluated five times per item.
 */

/** Resources whose operations live under /projects/{projectIdOrName}. */
export const PROJECT_RESOURCES = [
	'apiKey',
	'connection',
	'customField',
	'destination',
	'installation',
	'integration',
	'jwtKey',
	'notificationEventTopicRoute',
	// OAuth → Get Authorization URL sends the project in its body.
	'oauth',
	'objectMetadata',
	'operation',
	'providerApi',
	'providerApp',
	'records',
	'revision',
	'topic',
	'topicDestinationRoute',
];

const show = (options: IDisplayOptions['show']): IDisplayOptions => ({ show: options });

export const projectField: INodeProperties = {
	...projectLocator,
	displayOptions: show({ resource: PROJECT_RESOURCES }),
};

export const integrationField: INodeProperties = {
	...integrationLocator,
	// Installation → Get Many in Project lists every integration's installations.
	displayOptions: {
		show: { resource: ['installation', 'providerApi', 'records', 'revision'] },
		hide: { operation: ['getAllInProject'] },
	},
};

export const installationField: INodeProperties = {
	...installationLocator,
	// Not for the operations that list or create installations.
	displayOptions: {
		show: { resource: ['installation', 'providerApi'] },
		hide: { operation: ['create', 'getAll', 'getAllInProject'] },
	},
};

export const connectionField: INodeProperties = listLocator({
	displayName: 'Connection',
	name: 'connectionId',
	description:
		"The consumer's connection to the provider; the service uses its credentials to read field metadata",
	search: 'searchConnections',
	select: 'Select a connection…',
	typed: [byId('4c0d…')],
	// Revision → Create reads no field metadata.
	displayOptions: { show: { resource: ['revision'] }, hide: { operation: ['create'] } },
});

export const destinationField: INodeProperties = listLocator({
	displayName: 'Destination',
	name: 'destination',
	description: 'The destination, by name (as the API documents it) or ID',
	search: 'searchDestinations',
	select: 'Select a destination…',
	typed: [byName('n8n-webhook'), byId('0c5e…')],
	// Get takes a name or an ID; Update and Delete take the ID (resources/destination: destinationId).
	displayOptions: show({ resource: ['destination'], operation: ['get', 'rotateSecret'] }),
});

export const topicField: INodeProperties = listLocator({
	displayName: 'Topic',
	name: 'topic',
	description: 'The topic, from the list or by ID',
	search: 'searchTopics',
	select: 'Select a topic…',
	typed: [byId('2d4f…')],
	displayOptions: show({ resource: ['topic'], operation: ['delete', 'update'] }),
});

/**
 * The topic a route starts from (Topic Destination Route and Notification Event Topic Route →
 * Create), by ID as the API takes it. One definition for both: n8n's routing engine evaluates an
 * expression in a parameter once per property of that name, in each of its two walks per item
 * (docs/n8n-notes.md, "Per-item cost of routing").
 */
export const topicIdField: INodeProperties = listLocator({
	displayName: 'Topic',
	name: 'topicId',
	description:
		'The topic: for a destination route, the topic whose notifications are delivered; for an event route, the topic that receives the events (its ID; the list shows names)',
	search: 'searchTopics',
	select: 'Select a topic…',
	typed: [byId('2d4f…')],
	displayOptions: show({
		resource: ['topicDestinationRoute', 'notificationEventTopicRoute'],
		operation: ['create'],
	}),
});

/** Limit for list operations; the API returns whole lists, so the node slices them. */
export function returnAllAndLimit(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...displayOptions.show, returnAll: [false] } },
		},
	];
}

/**
 * A resource locator under the name the field had as a plain text field: n8n's engine passes a
 * plain string stored by an older workflow through `extractValue` unchanged and counts it as
 * filled in, so such workflows keep working without a new node version.
 */
export const orgIdField: INodeProperties = listLocator({
	displayName: 'Organization',
	name: 'orgId',
	description: 'The organization, from the list or by ID (shown as orgId on every project)',
	search: 'searchOrganizations',
	select: 'Select an organization…',
	typed: [byId('8d2b…')],
	// Not for operations without an organization in the path: Organization → Create, Claimed
	// Domain → Claim and Check. Invite → Create has its own copy (resources/invite), since n8n's
	// display rules cannot hide a field for one resource's Create only.
	displayOptions: {
		show: { resource: ['organization', 'invite', 'claimedDomain'] },
		hide: { operation: ['create', 'claim', 'check'] },
	},
});

/**
 * An object of the integration (its provider name), from the objects its latest revision reads or
 * writes, or by name. Records and Installation each place it under their own name and display
 * rules.
 */
export const objectLocator: INodeProperties = listLocator({
	displayName: 'Object',
	name: 'object',
	search: 'searchObjects',
	select: 'Select an object…',
	typed: [typedMode('By Name', 'id', 'contacts')],
});

/** The fields several resources share, listed once in the node's properties. */
export const sharedFields: INodeProperties[] = [
	projectField,
	integrationField,
	installationField,
	connectionField,
	destinationField,
	topicField,
	topicIdField,
	orgIdField,
];
