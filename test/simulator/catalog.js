// @ts-check
'use strict';

/**
 * Static reference data of the simulated service: the provider catalog served by
 * `GET /v1/providers` (docs/api-notes.md, "The wider API"), the object/field metadata a provider
 * would report (used to hydrate revisions, "getHydratedRevision") and the enumerations of
 * "Notifications" and "Enumerations" in docs/api-notes.md.
 */

/**
 * ProviderInfo and Support as the catalogue documents them, every required field present
 * (docs/api-notes.md, "Provider catalog").
 * @typedef {{ insert: boolean, update: boolean, upsert: boolean, delete: boolean }} BulkWriteSupport
 * @typedef {{ read: boolean, write: boolean, subscribe: boolean, proxy: boolean, delete: boolean,
 *   bulkWrite: BulkWriteSupport, search: { operators: { equals: boolean } } }} Support
 * @typedef {{ read?: boolean, write?: boolean, subscribe?: boolean, bulkWrite?: boolean,
 *   search?: boolean }} SupportFlags
 * @typedef {{ name: string, displayName: string, authType: string, baseURL: string,
 *   defaultModule: string, support: Support }} ProviderInfo
 */

/**
 * A provider of the catalogue. `delete` follows `write` (a provider the platform writes to can
 * also delete), `bulkWrite` is all or nothing and `search` offers the one operator the search host
 * implements (eq). The documents give no value for `defaultModule`: every provider here has one
 * module, "root".
 * @param {string} name @param {string} displayName @param {string} authType @param {string} baseURL
 * @param {SupportFlags} flags
 * @returns {ProviderInfo}
 */
function provider(name, displayName, authType, baseURL, flags) {
	const write = Boolean(flags.write);
	const bulk = Boolean(flags.bulkWrite);
	return {
		name,
		displayName,
		authType,
		baseURL,
		defaultModule: 'root',
		support: {
			read: Boolean(flags.read),
			write,
			subscribe: Boolean(flags.subscribe),
			proxy: true,
			delete: write,
			bulkWrite: { insert: bulk, update: bulk, upsert: bulk, delete: bulk },
			search: { operators: { equals: Boolean(flags.search) } },
		},
	};
}

/** @type {Record<string, ProviderInfo>} */
const PROVIDERS = {
	hubspot: provider('hubspot', 'HubSpot', 'oauth2', 'https://api.hubapi.com', {
		read: true,
		write: true,
		subscribe: true,
		search: true,
	}),
	salesforce: provider(
		'salesforce',
		'Salesforce',
		'oauth2',
		'https://{{.workspace}}.my.salesforce.com',
		{ read: true, write: true, subscribe: true, bulkWrite: true, search: true },
	),
	pipedrive: provider('pipedrive', 'Pipedrive', 'oauth2', 'https://api.pipedrive.com', {
		read: true,
		write: true,
	}),
	zendeskSupport: provider(
		'zendeskSupport',
		'Zendesk Support',
		'oauth2',
		'https://{{.workspace}}.zendesk.com',
		{ read: true, write: true },
	),
	gong: provider('gong', 'Gong', 'oauth2', 'https://api.gong.io', { read: true }),
	notion: provider('notion', 'Notion', 'oauth2', 'https://api.notion.com', {}),
	attio: provider('attio', 'Attio', 'oauth2', 'https://api.attio.com', { read: true, write: true }),
	marketo: provider('marketo', 'Marketo', 'oauth2', 'https://{{.workspace}}.mktorest.com', {
		read: true,
		write: true,
	}),
	apollo: provider('apollo', 'Apollo', 'apiKey', 'https://api.apollo.io', {
		read: true,
		write: true,
	}),
	freshdesk: provider('freshdesk', 'Freshdesk', 'basic', 'https://{{.workspace}}.freshdesk.com', {
		read: true,
	}),
};

/** Custom fields can only be upserted for these providers (docs/api-notes.md, "upsertMetadataForConnection"). */
const CUSTOM_FIELD_PROVIDERS = ['hubspot', 'salesforce'];

/**
 * FieldMetadata as a provider reports it (manifest.yaml FieldMetadata; docs/api-notes.md, "Enumerations").
 * @typedef {{ fieldName: string, displayName: string, valueType: string, providerType: string,
 *   readOnly: boolean, isCustom: boolean, isRequired: boolean, values?: { value: string, displayValue: string }[],
 *   referenceTo?: string[] }} FieldMetadata
 */

/**
 * @param {string} fieldName @param {string} displayName @param {string} valueType @param {string} providerType
 * @param {{ readOnly?: boolean, isRequired?: boolean, values?: string[], referenceTo?: string[] }} [extra]
 * @returns {FieldMetadata}
 */
function field(fieldName, displayName, valueType, providerType, extra = {}) {
	/** @type {FieldMetadata} */
	const meta = {
		fieldName,
		displayName,
		valueType,
		providerType,
		readOnly: Boolean(extra.readOnly),
		isCustom: false,
		isRequired: Boolean(extra.isRequired),
	};
	if (extra.values)
		meta.values = extra.values.map((v) => ({
			value: v,
			displayValue: v.charAt(0).toUpperCase() + v.slice(1),
		}));
	if (extra.referenceTo) meta.referenceTo = extra.referenceTo;
	return meta;
}

/** @type {Record<string, Record<string, { displayName: string, fields: FieldMetadata[] }>>} */
const PROVIDER_OBJECTS = {
	hubspot: {
		contacts: {
			displayName: 'Contacts',
			fields: [
				field('hs_object_id', 'Record ID', 'string', 'number', { readOnly: true }),
				field('email', 'Email', 'string', 'string', { isRequired: true }),
				field('firstname', 'First Name', 'string', 'string'),
				field('lastname', 'Last Name', 'string', 'string'),
				field('phone', 'Phone Number', 'string', 'string'),
				field('lifecyclestage', 'Lifecycle Stage', 'singleSelect', 'enumeration', {
					values: ['subscriber', 'lead', 'customer'],
				}),
				field('associatedcompanyid', 'Primary Associated Company ID', 'reference', 'number', {
					referenceTo: ['companies'],
				}),
				field('hs_email_optout', 'Unsubscribed from all email', 'boolean', 'bool'),
				field('date_of_birth', 'Date of birth', 'date', 'date'),
				field('createdate', 'Create Date', 'datetime', 'datetime', { readOnly: true }),
			],
		},
		companies: {
			displayName: 'Companies',
			fields: [
				field('hs_object_id', 'Record ID', 'string', 'number', { readOnly: true }),
				field('name', 'Company name', 'string', 'string', { isRequired: true }),
				field('domain', 'Company Domain Name', 'string', 'string'),
				field('industry', 'Industry', 'singleSelect', 'enumeration', {
					values: ['software', 'retail', 'finance'],
				}),
				field('numberofemployees', 'Number of Employees', 'int', 'number'),
				field('annualrevenue', 'Annual Revenue', 'float', 'number'),
				field('createdate', 'Create Date', 'datetime', 'datetime', { readOnly: true }),
			],
		},
		deals: {
			displayName: 'Deals',
			fields: [
				field('dealname', 'Deal Name', 'string', 'string', { isRequired: true }),
				field('amount', 'Amount', 'float', 'number'),
				field('dealstage', 'Deal Stage', 'singleSelect', 'enumeration', {
					values: ['appointmentscheduled', 'closedwon', 'closedlost'],
				}),
			],
		},
	},
	salesforce: {
		account: {
			displayName: 'Account',
			fields: [
				field('Id', 'Account ID', 'string', 'id', { readOnly: true }),
				field('Name', 'Account Name', 'string', 'string', { isRequired: true }),
				field('Industry', 'Industry', 'singleSelect', 'picklist', {
					values: ['Technology', 'Retail'],
				}),
				field('NumberOfEmployees', 'Employees', 'int', 'int'),
			],
		},
		contact: {
			displayName: 'Contact',
			fields: [
				field('Id', 'Contact ID', 'string', 'id', { readOnly: true }),
				field('Email', 'Email', 'string', 'email'),
				field('FirstName', 'First Name', 'string', 'string'),
				field('LastName', 'Last Name', 'string', 'string', { isRequired: true }),
				field('AccountId', 'Account ID', 'reference', 'reference', { referenceTo: ['account'] }),
			],
		},
		lead: {
			displayName: 'Lead',
			fields: [
				field('Id', 'Lead ID', 'string', 'id', { readOnly: true }),
				field('Company', 'Company', 'string', 'string', { isRequired: true }),
				field('Status', 'Lead Status', 'singleSelect', 'picklist', {
					values: ['Open', 'Working', 'Closed'],
				}),
			],
		},
	},
};

/** FieldDefinition.valueType is described (not enumerated) as one of these (docs/api-notes.md, "Enumerations"). */
const CUSTOM_FIELD_VALUE_TYPES = [
	'string',
	'boolean',
	'date',
	'datetime',
	'singleSelect',
	'multiSelect',
	'int',
	'float',
	'reference',
];

/** How each custom-field valueType is called on the provider side (op 3 results, hydrated custom fields). */
const PROVIDER_TYPES = {
	hubspot: {
		string: 'string',
		boolean: 'bool',
		date: 'date',
		datetime: 'datetime',
		singleSelect: 'enumeration',
		multiSelect: 'enumeration',
		int: 'number',
		float: 'number',
		reference: 'number',
	},
	salesforce: {
		string: 'Text',
		boolean: 'Checkbox',
		date: 'Date',
		datetime: 'DateTime',
		singleSelect: 'Picklist',
		multiSelect: 'MultiselectPicklist',
		int: 'Number',
		float: 'Number',
		reference: 'Lookup',
	},
};

/** The 15 NotificationEventType values (docs/api-notes.md, "Notifications"). */
const NOTIFICATION_EVENT_TYPES = [
	'installation.created',
	'installation.updated',
	'installation.deleted',
	'read.backfill.done',
	'read.schedule.paused',
	'read.triggered.done',
	'read.triggered.error',
	'write.async.done',
	'subscribe.create.error',
	'connection.created',
	'connection.refreshed',
	'connection.updated',
	'connection.deleted',
	'connection.error',
	'destination.webhook.disabled',
];

/**
 * The 12 destination types of the create enum (docs/api-notes.md, "Enumerations"), and the metadata/secrets
 * fields marked required (†) for a type. Webhook `url` is checked separately (https rule).
 * @type {Record<string, { metadata: string[], secrets: string[] }>}
 */
const DESTINATION_TYPES = {
	webhook: { metadata: ['url'], secrets: [] },
	kinesis: { metadata: [], secrets: [] },
	s3: { metadata: [], secrets: [] },
	slack: { metadata: ['url'], secrets: [] },
	clickhouse: { metadata: [], secrets: [] },
	snowflake: { metadata: [], secrets: [] },
	bigquery: { metadata: [], secrets: [] },
	redshift: { metadata: [], secrets: [] },
	sqs: { metadata: ['queueUrl'], secrets: ['awsKeyId', 'awsSecretKey'] },
	pubsub: { metadata: ['projectId', 'topicId'], secrets: ['credentials'] },
	rabbitmq: { metadata: ['serverUrl', 'exchange'], secrets: ['username', 'password'] },
	azureservicebus: { metadata: ['name'], secrets: ['connectionString'] },
};

/** The metadata fields a Destination can carry (docs/api-notes.md, "Enumerations"). */
const DESTINATION_METADATA_FIELDS = [
	'url',
	'headers',
	'streamName',
	'region',
	'endpointUrl',
	'partitionKeyTemplate',
	'bucket',
	'keyTemplate',
	'storageClass',
	'username',
	'tableName',
	'database',
	'accountIdentifier',
	'userId',
	'dbName',
	'schemaName',
	'projectId',
	'datasetId',
	'tableId',
	'workgroupName',
	'clusterIdentifier',
	'dbUser',
	'account',
	'container',
	'queueUrl',
	'topicId',
	'serverUrl',
	'exchange',
	'tls',
	'name',
	'batchSize',
	'maxWaitSecs',
];

/** Secrets by type; webhookSigningKey is generated, never set (docs/api-notes.md, "Enumerations"). */
const DESTINATION_SECRET_FIELDS = [
	'awsKeyId',
	'awsSecretKey',
	'awsSessionToken',
	'password',
	'privateKey',
	'credentials',
	'accessKeyId',
	'secretAccessKey',
	'username',
	'connectionString',
];

module.exports = {
	PROVIDERS,
	CUSTOM_FIELD_PROVIDERS,
	PROVIDER_OBJECTS,
	CUSTOM_FIELD_VALUE_TYPES,
	PROVIDER_TYPES,
	NOTIFICATION_EVENT_TYPES,
	DESTINATION_TYPES,
	DESTINATION_METADATA_FIELDS,
	DESTINATION_SECRET_FIELDS,
};
