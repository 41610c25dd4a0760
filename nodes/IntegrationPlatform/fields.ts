import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { installationLocator, integrationLocator } from '../common/installation';
import { projectLocator } from '../common/project';

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

export const connectionField: INodeProperties = {
	displayName: 'Connection',
	name: 'connectionId',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description:
		"The consumer's connection to the provider; the service uses its credentials to read field metadata",
	// Revision → Create reads no field metadata.
	displayOptions: { show: { resource: ['revision'] }, hide: { operation: ['create'] } },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a connection…',
			typeOptions: { searchListMethod: 'searchConnections', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 4c0d…' },
	],
};

export const destinationField: INodeProperties = {
	displayName: 'Destination',
	name: 'destination',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'The destination, by name (as the API documents it) or ID',
	// Get takes a name or an ID; Update and Delete take the ID (resources/destination: destinationId).
	displayOptions: show({ resource: ['destination'], operation: ['get', 'rotateSecret'] }),
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a destination…',
			typeOptions: { searchListMethod: 'searchDestinations', searchable: true },
		},
		{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. n8n-webhook' },
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 0c5e…' },
	],
};

export const topicField: INodeProperties = {
	displayName: 'Topic',
	name: 'topic',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'The topic, from the list or by ID',
	displayOptions: show({ resource: ['topic'], operation: ['delete', 'update'] }),
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a topic…',
			typeOptions: { searchListMethod: 'searchTopics', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 2d4f…' },
	],
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
export const orgIdField: INodeProperties = {
	displayName: 'Organization',
	name: 'orgId',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'The organization, from the list or by ID (shown as orgId on every project)',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an organization…',
			typeOptions: { searchListMethod: 'searchOrganizations', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 8d2b…' },
	],
	// Not for operations without an organization in the path: Organization → Create, Claimed
	// Domain → Claim and Check. Invite → Create has its own copy (resources/invite), since n8n's
	// display rules cannot hide a field for one resource's Create only.
	displayOptions: {
		show: { resource: ['organization', 'invite', 'claimedDomain'] },
		hide: { operation: ['create', 'claim', 'check'] },
	},
};

/**
 * An object of the integration (its provider name), from the objects its latest revision reads or
 * writes, or by name. Records and Installation each place it under their own name and display
 * rules.
 */
export const objectLocator: INodeProperties = {
	displayName: 'Object',
	name: 'object',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an object…',
			typeOptions: { searchListMethod: 'searchObjects', searchable: true },
		},
		{ displayName: 'By Name', name: 'id', type: 'string', placeholder: 'e.g. contacts' },
	],
};

/** The fields several resources share, listed once in the node's properties. */
export const sharedFields: INodeProperties[] = [
	projectField,
	integrationField,
	installationField,
	connectionField,
	destinationField,
	topicField,
	orgIdField,
];
