import type { ResourceDefinition, ResourceDescription } from '../routing/defineOperation';
import { defineResource } from '../routing/defineOperation';
import { sharedFields } from '../fields';
import { apiKeyFields, apiKeyOperations } from './apiKey';
import { claimedDomainFields, claimedDomainOperations } from './claimedDomain';
import { connectionFields, connectionOperations } from './connection';
import { customFieldFields, customFieldOperations } from './customField';
import { destinationFields, destinationOperations } from './destination';
import { installationFields, installationOperations } from './installation';
import { integrationFields, integrationOperations } from './integration';
import { inviteFields, inviteOperations } from './invite';
import { jwtKeyFields, jwtKeyOperations } from './jwtKey';
import {
	notificationEventTopicRouteFields,
	notificationEventTopicRouteOperations,
} from './notificationEventTopicRoute';
import { oauthFields, oauthOperations } from './oauth';
import { objectMetadataFields, objectMetadataOperations } from './objectMetadata';
import { operationFields, operationOperations } from './operation';
import { organizationFields, organizationOperations } from './organization';
import { projectFields, projectOperations } from './project';
import { providerFields, providerOperations } from './provider';
import { providerApiFields, providerApiOperations } from './providerApi';
import { providerAppFields, providerAppOperations } from './providerApp';
import { recordsFields, recordsOperations } from './records';
import { revisionFields, revisionOperations } from './revision';
import { topicFields, topicOperations } from './topic';
import { uploadUrlFields, uploadUrlOperations } from './uploadUrl';
import { userFields, userOperations } from './user';
import {
	topicDestinationRouteFields,
	topicDestinationRouteOperations,
} from './topicDestinationRoute';

/**
 * The resources as written (the output-schema generator reads each operation's `outputShape` here).
 * Record and Provider API come first, the rest alphabetically: n8n's nodes panel lists a community
 * node's actions in this order with no search box (docs/n8n-notes.md, "The nodes panel and the
 * Docs link"), so the most used actions are in view when the node is chosen.
 */
export const RESOURCE_DEFINITIONS: ResourceDefinition[] = [
	{
		displayName: 'Record',
		value: 'records',
		description: "A consumer's records in their SaaS instance: write, read, search",
		defaultOperation: 'search',
		version1DefaultOperation: 'write',
		operations: recordsOperations,
		fields: recordsFields,
	},
	{
		displayName: 'Provider API',
		value: 'providerApi',
		description: "Requests to a consumer's own provider API, through the platform's proxy",
		defaultOperation: 'sendRequest',
		operations: providerApiOperations,
		fields: providerApiFields,
	},
	{
		displayName: 'API Key',
		value: 'apiKey',
		description: "A project's API keys",
		defaultOperation: 'getAll',
		version1DefaultOperation: 'delete',
		operations: apiKeyOperations,
		fields: apiKeyFields,
	},
	{
		displayName: 'Claimed Domain',
		value: 'claimedDomain',
		description: 'Email domains claimed by an organization',
		defaultOperation: 'getAll',
		version1DefaultOperation: 'claim',
		operations: claimedDomainOperations,
		fields: claimedDomainFields,
	},
	{
		displayName: 'Connection',
		value: 'connection',
		description: "A consumer's credentials at a provider",
		defaultOperation: 'getAll',
		version1DefaultOperation: 'generate',
		operations: connectionOperations,
		fields: connectionFields,
	},
	{
		displayName: 'Custom Field',
		value: 'customField',
		description: "Custom fields on a provider's objects",
		defaultOperation: 'getAll',
		version1DefaultOperation: 'upsert',
		operations: customFieldOperations,
		fields: customFieldFields,
	},
	{
		displayName: 'Destination',
		value: 'destination',
		description: 'Where events and read results are delivered',
		defaultOperation: 'getAll',
		version1DefaultOperation: 'get',
		operations: destinationOperations,
		fields: destinationFields,
	},
	{
		displayName: 'Installation',
		value: 'installation',
		description: 'An integration installed for a group of users',
		defaultOperation: 'getAll',
		version1DefaultOperation: 'unpauseReads',
		operations: installationOperations,
		fields: installationFields,
	},
	{
		displayName: 'Integration',
		value: 'integration',
		description: 'A named definition for one provider',
		defaultOperation: 'getAll',
		operations: integrationOperations,
		fields: integrationFields,
	},
	{
		displayName: 'Invite',
		value: 'invite',
		description: 'Invitations to an organization',
		defaultOperation: 'getAll',
		version1DefaultOperation: 'get',
		operations: inviteOperations,
		fields: inviteFields,
	},
	{
		displayName: 'JWT Key',
		value: 'jwtKey',
		description: 'Public keys that verify frontend tokens',
		defaultOperation: 'getAll',
		version1DefaultOperation: 'update',
		operations: jwtKeyOperations,
		fields: jwtKeyFields,
	},
	{
		displayName: 'Notification Event Topic Route',
		value: 'notificationEventTopicRoute',
		description: 'Which notification events go to which topic',
		defaultOperation: 'getAll',
		version1DefaultOperation: 'delete',
		operations: notificationEventTopicRouteOperations,
		fields: notificationEventTopicRouteFields,
	},
	{
		displayName: 'OAuth',
		value: 'oauth',
		description: 'Authorization URLs that start OAuth connections',
		defaultOperation: 'getAuthorizationUrl',
		operations: oauthOperations,
		fields: oauthFields,
	},
	{
		displayName: 'Object Metadata',
		value: 'objectMetadata',
		description: "Objects and fields of a customer's provider account",
		defaultOperation: 'getForInstallation',
		operations: objectMetadataOperations,
		fields: objectMetadataFields,
	},
	{
		displayName: 'Operation',
		value: 'operation',
		description: 'Read, write and subscribe operations and their logs',
		defaultOperation: 'getAll',
		version1DefaultOperation: 'getLogs',
		operations: operationOperations,
		fields: operationFields,
	},
	{
		displayName: 'Organization',
		value: 'organization',
		description: 'The organization that owns projects',
		defaultOperation: 'get',
		version1DefaultOperation: 'update',
		operations: organizationOperations,
		fields: organizationFields,
	},
	{
		displayName: 'Project',
		value: 'project',
		description: 'Projects group integrations, connections and keys',
		defaultOperation: 'getAll',
		operations: projectOperations,
		fields: projectFields,
	},
	{
		displayName: 'Provider',
		value: 'provider',
		description: 'The catalog of SaaS providers the platform supports',
		defaultOperation: 'getAll',
		operations: providerOperations,
		fields: providerFields,
	},
	{
		displayName: 'Provider App',
		value: 'providerApp',
		description: "Your OAuth apps at providers, used for the project's connections",
		defaultOperation: 'getAll',
		operations: providerAppOperations,
		fields: providerAppFields,
	},
	{
		displayName: 'Revision',
		value: 'revision',
		description: 'Versions of an integration definition',
		defaultOperation: 'getHydrated',
		operations: revisionOperations,
		fields: revisionFields,
	},
	{
		displayName: 'Topic',
		value: 'topic',
		description: 'Named channels for notifications',
		defaultOperation: 'getAll',
		version1DefaultOperation: 'delete',
		operations: topicOperations,
		fields: topicFields,
	},
	{
		displayName: 'Topic Destination Route',
		value: 'topicDestinationRoute',
		description: 'Which topic goes to which destination',
		defaultOperation: 'getAll',
		version1DefaultOperation: 'create',
		operations: topicDestinationRouteOperations,
		fields: topicDestinationRouteFields,
	},
	{
		displayName: 'Upload URL',
		value: 'uploadUrl',
		description: 'Signed URLs to upload integration definitions to',
		defaultOperation: 'generate',
		operations: uploadUrlOperations,
		fields: uploadUrlFields,
	},
	{
		displayName: 'User',
		value: 'user',
		description: 'The builder the bearer token belongs to',
		defaultOperation: 'getCurrent',
		operations: userOperations,
		fields: userFields,
	},
];

/** Every resource of the node, in the order the resource selector and the nodes panel list them. */
export const RESOURCES: ResourceDescription[] = RESOURCE_DEFINITIONS.map((resource) =>
	defineResource(resource, sharedFields),
);
