import type { INodeProperties } from 'n8n-workflow';

import { apiKeyFields, apiKeyOperations } from './apiKey/index';
import { claimedDomainFields, claimedDomainOperations } from './claimedDomain/index';
import { connectionFields, connectionOperations } from './connection/index';
import { customFieldFields, customFieldOperations } from './customField/index';
import { destinationFields, destinationOperations } from './destination/index';
import { installationFields, installationOperations } from './installation/index';
import { integrationFields, integrationOperations } from './integration/index';
import { inviteFields, inviteOperations } from './invite/index';
import { jwtKeyFields, jwtKeyOperations } from './jwtKey/index';
import {
	notificationEventTopicRouteFields,
	notificationEventTopicRouteOperations,
} from './notificationEventTopicRoute/index';
import { operationFields, operationOperations } from './operation/index';
import { organizationFields, organizationOperations } from './organization/index';
import { projectFields, projectOperations } from './project/index';
import { revisionFields, revisionOperations } from './revision/index';
import { topicFields, topicOperations } from './topic/index';
import {
	topicDestinationRouteFields,
	topicDestinationRouteOperations,
} from './topicDestinationRoute/index';

export interface ResourceDescription {
	name: string;
	value: string;
	description: string;
	operations: INodeProperties;
	fields: INodeProperties[];
}

/** Every resource of the node, in the order the resource selector lists them (alphabetical). */
export const RESOURCES: ResourceDescription[] = [
	{
		name: 'API Key',
		value: 'apiKey',
		description: "A project's API keys",
		operations: apiKeyOperations,
		fields: apiKeyFields,
	},
	{
		name: 'Claimed Domain',
		value: 'claimedDomain',
		description: 'Email domains claimed by an organization',
		operations: claimedDomainOperations,
		fields: claimedDomainFields,
	},
	{
		name: 'Connection',
		value: 'connection',
		description: "A consumer's credentials at a provider",
		operations: connectionOperations,
		fields: connectionFields,
	},
	{
		name: 'Custom Field',
		value: 'customField',
		description: "Custom fields on a provider's objects",
		operations: customFieldOperations,
		fields: customFieldFields,
	},
	{
		name: 'Destination',
		value: 'destination',
		description: 'Where events and read results are delivered',
		operations: destinationOperations,
		fields: destinationFields,
	},
	{
		name: 'Installation',
		value: 'installation',
		description: 'An integration installed for a group of users',
		operations: installationOperations,
		fields: installationFields,
	},
	{
		name: 'Integration',
		value: 'integration',
		description: 'A named definition for one provider',
		operations: integrationOperations,
		fields: integrationFields,
	},
	{
		name: 'Invite',
		value: 'invite',
		description: 'Invitations to an organization',
		operations: inviteOperations,
		fields: inviteFields,
	},
	{
		name: 'JWT Key',
		value: 'jwtKey',
		description: 'Public keys that verify frontend tokens',
		operations: jwtKeyOperations,
		fields: jwtKeyFields,
	},
	{
		name: 'Notification Event Topic Route',
		value: 'notificationEventTopicRoute',
		description: 'Which notification events go to which topic',
		operations: notificationEventTopicRouteOperations,
		fields: notificationEventTopicRouteFields,
	},
	{
		name: 'Operation',
		value: 'operation',
		description: 'Read, write and subscribe operations and their logs',
		operations: operationOperations,
		fields: operationFields,
	},
	{
		name: 'Organization',
		value: 'organization',
		description: 'The organization that owns projects',
		operations: organizationOperations,
		fields: organizationFields,
	},
	{
		name: 'Project',
		value: 'project',
		description: 'Projects group integrations, connections and keys',
		operations: projectOperations,
		fields: projectFields,
	},
	{
		name: 'Revision',
		value: 'revision',
		description: 'Versions of an integration definition',
		operations: revisionOperations,
		fields: revisionFields,
	},
	{
		name: 'Topic',
		value: 'topic',
		description: 'Named channels for notifications',
		operations: topicOperations,
		fields: topicFields,
	},
	{
		name: 'Topic Destination Route',
		value: 'topicDestinationRoute',
		description: 'Which topic goes to which destination',
		operations: topicDestinationRouteOperations,
		fields: topicDestinationRouteFields,
	},
];
