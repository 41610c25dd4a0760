import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import {
	groupInstallationLocator,
	installationLocator,
	integrationLocator,
} from '../common/installation';
import { projectLocator } from '../common/project';
import { byConsumerRef, byGroupRef, byId, byName, listLocator, typedMode } from '../common/locator';

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
		show: { resource: ['installation'] },
		hide: { operation: ['create', 'getAll', 'getAllInProject'] },
	},
};

/**
 * The same parameter under the user's word where it picks whose account is used (common/
 * installation.ts, groupInstallationLocator). A second property of the name: n8n's routing reads
 * it for the Installation resource's operations too (docs/n8n-notes.md, "Per-item cost of
 * routing"), which costs an evaluation only when the field holds an expression.
 */
export const groupInstallationField: INodeProperties = {
	...groupInstallationLocator,
	displayOptions: show({ resource: ['providerApi'] }),
};

export const connectionField: INodeProperties = listLocator({
	displayName: 'Connection',
	name: 'connectionId',
	description:
		"The consumer's connection to the provider; the service uses its credentials to read field metadata",
	search: 'searchConnections',
	select: 'Select a connection…',
	typed: [byId('4c0d…', { noun: 'connection', format: 'hex' })],
	// Revision → Create reads no field metadata.
	displayOptions: { show: { resource: ['revision'] }, hide: { operation: ['create'] } },
});

export const destinationField: INodeProperties = listLocator({
	displayName: 'Destination',
	name: 'destination',
	description: 'The destination, by name (as the API documents it) or ID',
	search: 'searchDestinations',
	select: 'Select a destination…',
	typed: [
		byName('n8n-webhook'),
		byId('0c5e…', { noun: 'destination', format: 'hex', nameMode: 'By Name' }),
	],
	// Get takes a name or an ID; Update and Delete take the ID (resources/destination: destinationId).
	displayOptions: show({ resource: ['destination'], operation: ['get', 'rotateSecret'] }),
});

export const topicField: INodeProperties = listLocator({
	displayName: 'Topic',
	name: 'topic',
	description: 'The topic, from the list or by ID',
	search: 'searchTopics',
	select: 'Select a topic…',
	typed: [byId('2d4f…', { noun: 'topic', format: 'hex' })],
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
	typed: [byId('2d4f…', { noun: 'topic', format: 'hex' })],
	displayOptions: show({
		resource: ['topicDestinationRoute', 'notificationEventTopicRoute'],
		operation: ['create'],
	}),
});

/** Display conditions by node version (docs/architecture.md, "Node versions"). */
export const inVersion1 = { '@version': [1] };
export const fromVersion2 = { '@version': [{ _cnd: { gte: 2 } }] };

/**
 * The operations whose Group is a field of their own (Records has its own Group). n8n's display
 * rules combine conditions with "and", so resources and operations are listed apart: none of these
 * resources has another operation of these names (test/unit/IntegrationPlatform/listsAndLabels.test.ts
 * checks every operation that shows the field).
 */
const GROUP_RESOURCES = ['connection', 'customField', 'installation', 'oauth', 'objectMetadata'];
const GROUP_OPERATIONS = [
	'generate',
	'getAuthorizationUrl',
	'upsert',
	'upsertForInstallation',
	'create',
	'getForConnection',
	'getForInstallation',
];
const CONSUMER_RESOURCES = ['connection', 'oauth'];
const CONSUMER_OPERATIONS = ['generate', 'getAuthorizationUrl'];

/**
 * Group: your ID of the customer account (its group ref), one label wherever a value is a group
 * ref. Version 2 picks it from a list (searchGroupRefs: the groups that fit the operation) or
 * takes it typed; version 1 keeps the text field its saved workflows hold. One definition per
 * version: n8n's routing evaluates an expression once per property of its name (docs/n8n-notes.md,
 * "Per-item cost of routing").
 */
export const groupField: INodeProperties = listLocator({
	displayName: 'Group',
	name: 'groupRef',
	description:
		'The group of users (usually a customer account), by your ID of it (its group ref): from the list, or typed for a new one',
	search: 'searchGroupRefs',
	select: 'Select a group…',
	typed: [byGroupRef],
	displayOptions: {
		show: { ...fromVersion2, resource: GROUP_RESOURCES, operation: GROUP_OPERATIONS },
	},
});

export const groupFieldVersion1: INodeProperties = {
	displayName: 'Group',
	name: 'groupRef',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. acme-inc',
	description: 'Your ID of the group of users (usually a customer account): its group ref',
	displayOptions: {
		show: { ...inVersion1, resource: GROUP_RESOURCES, operation: GROUP_OPERATIONS },
	},
};

/** Consumer: your ID of the user who owns the provider account (its consumer ref). */
export const consumerField: INodeProperties = listLocator({
	displayName: 'Consumer',
	name: 'consumerRef',
	description:
		'The user who owns the provider account, by your ID of them (their consumer ref): from the list, or typed for a new one',
	search: 'searchConsumers',
	select: 'Select a consumer…',
	typed: [byConsumerRef],
	displayOptions: {
		show: { ...fromVersion2, resource: CONSUMER_RESOURCES, operation: CONSUMER_OPERATIONS },
	},
});

export const consumerFieldVersion1: INodeProperties = {
	displayName: 'Consumer',
	name: 'consumerRef',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. user-42',
	description: 'Your ID of the user who owns the provider account: their consumer ref',
	displayOptions: {
		show: { ...inVersion1, resource: CONSUMER_RESOURCES, operation: CONSUMER_OPERATIONS },
	},
};

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
	typed: [byId('8d2b…', { noun: 'organization', format: 'hex' })],
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
	groupInstallationField,
	groupFieldVersion1,
	groupField,
	consumerFieldVersion1,
	consumerField,
	connectionField,
	destinationField,
	topicField,
	topicIdField,
	orgIdField,
];
