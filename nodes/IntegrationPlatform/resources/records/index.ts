import type { INodeProperties } from 'n8n-workflow';

import { objectLocator } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { resultItem } from '../../routing/results';
import { MAX_BATCH_SIZE } from './writeInput';
import { recordSourceFields } from './writeSource';
import { recordMapperFields } from './writeMapper';
import { writeRecords } from './write';
import { buildSearchFilters, searchResults, readWindow } from './search';
import { listLocator, typedMode } from '../../../common/locator';

/**
 * The data plane (docs/api-notes.md, "Data plane"): write a consumer's records, start a read,
 * search them. The object and group address one consumer's SaaS instance through the
 * integration: the group is the one its installation was created for.
 */

const resource = 'records';
const showFor = (...operation: string[]) => ({ show: { resource: [resource], operation } });
const objectPath = '/projects/{project}/integrations/{integration}/objects/{object}';

export const recordsOperations: OperationDefinition[] = [
	// POST {write_url}/v1/…/objects/{objectName} — docs/api-notes.md, "Write": one record or a batch
	// of up to 100; run in code so that items share batches (records/write.ts).
	{
		name: 'Write',
		value: 'write',
		action: 'Write records',
		description:
			"Create, update or delete records in a consumer's SaaS instance, one per input item, in batches of up to 100. Returns one result per item: the record ID, or why the provider refused it.",
		method: 'POST',
		path: objectPath,
		host: 'write',
		requires: 'apiKey',
		outputShape: 'writeResult',
		custom: writeRecords,
	},
	// POST {read_url}/v1/…/objects/{objectName} — docs/api-notes.md, "Trigger read and deliver results": 201 { operationId }.
	{
		name: 'Trigger Read',
		value: 'triggerRead',
		action: 'Trigger a read of records',
		description:
			"Start reading an object's records from a consumer's SaaS instance (optionally only those changed in a time window). Returns the operation ID; the records arrive at the project's destinations.",
		method: 'POST',
		path: objectPath,
		host: 'read',
		requires: 'apiKey',
		body: { groupRef: '{groupRef}', mode: 'async' },
		preSend: [readWindow],
	},
	// POST {read_url}/v1/…/objects/{objectName}:deliverResults — docs/api-notes.md, "Trigger read and deliver results": 204.
	{
		name: 'Deliver Results',
		value: 'deliverResults',
		action: 'Ask for read results to be delivered',
		description:
			"Tell the platform how many pages of a read's results the project is ready to receive for a group. Returns what was asked.",
		method: 'POST',
		path: `${objectPath}:deliverResults`,
		host: 'read',
		requires: 'apiKey',
		body: { groupRef: '{groupRef}', pages: '{pages}' },
		outputShape: 'resultsRequested',
		output: [
			resultItem((values) => ({
				requested: true,
				object: values.object,
				groupRef: values.groupRef,
				pages: Number(values.pages),
			})),
		],
	},
	// POST {search_url}/v1/projects/{p}/integrations/{i}?groupRef=… — docs/api-notes.md, "Search".
	{
		name: 'Search',
		value: 'search',
		action: 'Search records',
		description:
			"Find a consumer's records of an object whose fields equal the values given. Returns one item per record found (fields, mapped fields and the provider's raw record).",
		method: 'POST',
		path: '/projects/{project}/integrations/{integration}',
		host: 'search',
		qs: { groupRef: '{groupRef}' },
		body: { objectName: '{object}' },
		preSend: [buildSearchFilters],
		outputShape: 'searchResults',
		output: [searchResults],
	},
];

export const recordsFields: INodeProperties[] = [
	listLocator({
		displayName: 'Group',
		name: 'groupRef',
		description:
			'The consumer whose SaaS instance is used: the group its installation of the integration was created for',
		search: 'searchGroups',
		select: 'Select a group…',
		typed: [typedMode('By Group Ref', 'id', 'customer-acme')],
		displayOptions: { show: { resource: [resource] } },
	}),
	{
		...objectLocator,
		description: "The provider's object, as the integration names it (e.g. contacts)",
		displayOptions: { show: { resource: [resource] } },
	},
	// Write
	{
		displayName: 'Write Type',
		name: 'writeType',
		type: 'options',
		default: 'create',
		options: [
			{ name: 'Create', value: 'create', description: 'Create a record per item' },
			{ name: 'Update', value: 'update', description: 'Change the record whose ID the item holds' },
			{
				name: 'Delete',
				value: 'delete',
				description:
					'Delete the record whose ID the item holds (the installation must allow deletes)',
			},
		],
		displayOptions: showFor('write'),
	},
	{
		displayName: 'Mode',
		name: 'writeMode',
		type: 'options',
		default: 'synchronous',
		options: [
			{
				name: 'Synchronous',
				value: 'synchronous',
				description: "Wait for the provider's answer: each item gets its record ID or error",
			},
			{
				name: 'Asynchronous',
				value: 'asynchronous',
				description:
					'Return at once with the operation ID; the platform writes and retries in the background',
			},
		],
		displayOptions: {
			show: { resource: [resource], operation: ['write'] },
			hide: { writeType: ['delete'] },
		},
	},
	...recordSourceFields,
	...recordMapperFields,
	{
		displayName: 'Record (JSON)',
		name: 'recordJson',
		type: 'json',
		required: true,
		default: '{\n  "email": "ada@example.com"\n}',
		description: "The record's fields as a JSON object, usually an expression over the item",
		displayOptions: {
			show: { resource: [resource], operation: ['write'], recordSource: ['json'] },
		},
	},
	{
		displayName: 'Record ID Field',
		name: 'idField',
		type: 'string',
		default: 'id',
		description:
			"The field of each record that holds the provider's record ID, which the node sends as the record's ID field",
		displayOptions: {
			show: { resource: [resource], operation: ['write'], writeType: ['update', 'delete'] },
			hide: { recordSource: ['mapper'] },
		},
	},
	{
		displayName: 'Options',
		name: 'writeOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor('write'),
		options: [
			{
				displayName: 'All or None',
				name: 'allOrNone',
				type: 'boolean',
				default: false,
				description:
					'Whether a batch is written only if every record in it can be (otherwise the records that can be are written). Deletes are not batched.',
			},
			{
				displayName: 'Associations Field',
				name: 'associationsField',
				type: 'string',
				default: '',
				placeholder: 'e.g. associations',
				description:
					'A field of each record that holds its associations (HubSpot): sent as the associations of the record, not as a field',
			},
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
				default: MAX_BATCH_SIZE,
				description:
					'Records per request (1 to 100). A failed record fails its own item only, whatever the size.',
			},
			{
				displayName: 'Fields to Ignore',
				name: 'fieldsToIgnore',
				type: 'string',
				default: '',
				placeholder: 'e.g. row_number, sheet',
				description: 'Comma-separated fields of the input items not to send',
			},
			{
				displayName: 'Retry Deadline (Hours)',
				name: 'deadlineHours',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 48 },
				default: 1,
				description:
					'Asynchronous mode: how long the platform keeps retrying a write that fails (1 to 48 hours)',
			},
		],
	},
	// Trigger Read
	{
		displayName: 'Options',
		name: 'readOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor('triggerRead'),
		options: [
			{
				displayName: 'Since',
				name: 'since',
				type: 'dateTime',
				default: '',
				description: 'Read only records changed at or after this time (all records when empty)',
			},
			{
				displayName: 'Until',
				name: 'until',
				type: 'dateTime',
				default: '',
				description: 'Read only records changed before this time',
			},
		],
	},
	// Deliver Results
	{
		displayName: 'Pages',
		name: 'pages',
		type: 'number',
		typeOptions: { minValue: 0 },
		required: true,
		default: 1,
		description: 'How many pages of results the project is ready to receive',
		displayOptions: showFor('deliverResults'),
	},
	// Search. Version 2 picks the field from the object's metadata (records/mapping.ts,
	// getSearchFields); the saved value stays the field's name, as in version 1.
	fieldFilters(
		{ show: { ...showFor('search').show, '@version': [1] } },
		{
			displayName: 'Field Name',
			name: 'fieldName',
			type: 'string',
			default: '',
			placeholder: 'e.g. email',
			description: 'A field of the object, by its provider or mapped name',
		},
	),
	fieldFilters(
		{ show: { ...showFor('search').show, '@version': [{ _cnd: { gte: 2 } }] } },
		{
			displayName: 'Field Name or ID',
			name: 'fieldName',
			type: 'options',
			typeOptions: {
				loadOptionsMethod: 'getSearchFields',
				loadOptionsDependsOn: [
					'project.value',
					'integration.value',
					'groupRef.value',
					'object.value',
				],
			},
			default: '',
			description:
				'A field of the object, from its metadata for the group, each shown with its type. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
	),
];

/** Search's filters; `fieldName` is a typed name (version 1) or picked from the metadata (version 2). */
function fieldFilters(
	displayOptions: INodeProperties['displayOptions'],
	fieldName: INodeProperties,
): INodeProperties {
	return {
		displayName: 'Field Filters',
		name: 'fieldFilters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		required: true,
		default: {},
		placeholder: 'Add Filter',
		description: 'Records must match every filter (field equals value)',
		displayOptions,
		options: [
			{
				displayName: 'Filter',
				name: 'filter',
				values: [
					fieldName,
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description: 'The value the field must equal',
					},
					{
						displayName: 'Value Type',
						name: 'valueType',
						type: 'options',
						default: 'string',
						options: [
							{ name: 'Text', value: 'string' },
							{ name: 'Number', value: 'number' },
							{ name: 'Boolean', value: 'boolean' },
						],
						description:
							'How the value is sent: the type of the field in the provider (the field list shows it)',
					},
				],
			},
		],
	};
}
