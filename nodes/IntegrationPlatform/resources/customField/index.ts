import type { INodeProperties } from 'n8n-workflow';

import { integrationField } from '../../fields';
import { byGroupRef, listLocator, typedMode } from '../../../common/locator';
import type { OperationDefinition } from '../../routing/defineOperation';
import { buildUpsertBody, customFieldsOf, splitFieldResults } from './body';

const resource = 'customField';
const upserts = ['upsert', 'upsertForInstallation'];
// Get Many reads through the same connection as Create or Update.
const showForConnection = { show: { resource: [resource], operation: ['upsert', 'getAll'] } };
const showForUpserts = { show: { resource: [resource], operation: upserts } };
const showForMode = (mode: string) => ({
	show: { resource: [resource], operation: upserts, definedWith: [mode] },
});

export const customFieldOperations: OperationDefinition[] = [
	// PUT /projects/{projectIdOrName}/providers/{provider}/object-metadata — docs/api-notes.md, "upsertMetadataForConnection".
	{
		name: 'Create or Update',
		value: 'upsert',
		action: 'Create or update custom fields',
		description: 'Create a new record, or update the current one if it already exists (upsert)',
		method: 'PUT',
		path: '/projects/{project}/providers/{provider}/object-metadata',
		preSend: [buildUpsertBody],
		outputShape: 'fieldResults',
		output: [splitFieldResults],
	},
	// PUT /projects/{projectIdOrName}/integrations/{integrationId}/object-metadata —
	// docs/api-notes.md, "Object metadata": the same request, in the provider account of the
	// group's installation of the integration.
	{
		name: 'Create or Update via Installation',
		value: 'upsertForInstallation',
		action: 'Create or update custom fields via an installation',
		description:
			"Create or update custom fields in the provider account of a group's installation (upsert). Returns one item per field: success, object, field name and the action taken (create or update).",
		method: 'PUT',
		path: '/projects/{project}/integrations/{integration}/object-metadata',
		preSend: [buildUpsertBody],
		outputShape: 'fieldResults',
		output: [splitFieldResults],
	},
	// GET /projects/{projectIdOrName}/providers/{provider}/objects/{objectName}/metadata?groupRef= —
	// docs/api-notes.md, "Object metadata": the object's fields, of which the custom ones are kept.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many custom fields',
		description:
			"Get the custom fields of an object in a group's provider account, read through its connection. Returns one item per custom field: name, display name, type and whether it is required.",
		method: 'GET',
		path: '/projects/{project}/providers/{provider}/objects/{objectName}/metadata',
		qs: { groupRef: '{groupRef}' },
		outputShape: 'customFields',
		output: [customFieldsOf],
	},
];

const fieldOptions: INodeProperties = {
	displayName: 'Field Options',
	name: 'fieldOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Allowed Values',
			name: 'allowedValues',
			type: 'string',
			default: '',
			description: 'Text and select fields: allowed values, comma-separated',
		},
		{
			displayName: 'Association Required',
			name: 'associationRequired',
			type: 'boolean',
			default: false,
			description: 'Whether reference fields must point at a record',
		},
		{
			displayName: 'Association Type',
			name: 'associationType',
			type: 'string',
			default: '',
			placeholder: 'e.g. lookup',
			description: 'Reference fields: foreignKey, lookup, ref, …',
		},
		{
			displayName: 'Cardinality',
			name: 'cardinality',
			type: 'string',
			default: '',
			placeholder: 'e.g. many-to-one',
			description: 'Reference fields',
		},
		{
			displayName: 'Default (Number)',
			name: 'numericDefault',
			type: 'number',
			default: 0,
			description: 'Number fields: default value',
		},
		{
			displayName: 'Default (Text)',
			name: 'stringDefault',
			type: 'string',
			default: '',
			description: 'Text and select fields: default value',
		},
		{ displayName: 'Description', name: 'description', type: 'string', default: '' },
		{
			displayName: 'Indexed',
			name: 'indexed',
			type: 'boolean',
			default: false,
			description: 'Whether the provider indexes the field',
		},
		{
			displayName: 'Max',
			name: 'max',
			type: 'number',
			default: 0,
			description: 'Number fields: largest value',
		},
		{
			displayName: 'Max Length',
			name: 'length',
			type: 'number',
			default: 255,
			description: 'Text fields: maximum length',
		},
		{
			displayName: 'Min',
			name: 'min',
			type: 'number',
			default: 0,
			description: 'Number fields: smallest value',
		},
		{
			displayName: 'On Delete',
			name: 'onDelete',
			type: 'string',
			default: '',
			placeholder: 'e.g. setNull',
			description: 'Reference fields: what happens when the target is deleted',
		},
		{
			displayName: 'Pattern',
			name: 'pattern',
			type: 'string',
			default: '',
			description: 'Text fields: a regular expression values must match',
		},
		{
			displayName: 'Plural Label',
			name: 'pluralLabel',
			type: 'string',
			default: '',
			description: 'Reference fields',
		},
		{
			displayName: 'Precision',
			name: 'precision',
			type: 'number',
			default: 18,
			description: 'Number fields: total digits',
		},
		{
			displayName: 'Required',
			name: 'required',
			type: 'boolean',
			default: false,
			description: 'Whether records must have a value',
		},
		{
			displayName: 'Reverse Lookup Field Name',
			name: 'reverseLookupFieldName',
			type: 'string',
			default: '',
			description: 'Reference fields',
		},
		{
			displayName: 'Scale',
			name: 'scale',
			type: 'number',
			default: 0,
			description: 'Number fields: digits after the decimal point',
		},
		{
			displayName: 'Singular Label',
			name: 'singularLabel',
			type: 'string',
			default: '',
			description: 'Reference fields',
		},
		{
			displayName: 'Target Field',
			name: 'targetField',
			type: 'string',
			default: '',
			description: 'Reference fields',
		},
		{
			displayName: 'Target Object',
			name: 'targetObject',
			type: 'string',
			default: '',
			description: 'Reference fields: the object referenced',
		},
		{
			displayName: 'Unique',
			name: 'unique',
			type: 'boolean',
			default: false,
			description: 'Whether values must be unique',
		},
		{
			displayName: 'Values Restricted',
			name: 'valuesRestricted',
			type: 'boolean',
			default: false,
			description: 'Whether only the allowed values are accepted',
		},
	],
};

export const customFieldFields: INodeProperties[] = [
	{
		...integrationField,
		description: 'The integration (HubSpot or Salesforce) whose installation for the group is used',
		displayOptions: { show: { resource: [resource], operation: ['upsertForInstallation'] } },
	},
	{
		displayName: 'Provider',
		name: 'provider',
		type: 'options',
		default: 'hubspot',
		// The service supports custom fields for these two providers only (docs/api-notes.md, "upsertMetadataForConnection").
		options: [
			{ name: 'HubSpot', value: 'hubspot' },
			{ name: 'Salesforce', value: 'salesforce' },
		],
		displayOptions: showForConnection,
	},
	{
		displayName: 'Define Fields With',
		name: 'definedWith',
		type: 'options',
		default: 'fields',
		options: [
			{ name: 'Field List (One Object)', value: 'fields' },
			{ name: 'JSON (Several Objects)', value: 'json' },
		],
		displayOptions: showForUpserts,
	},
	{
		displayName: 'Object Name',
		name: 'objectName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. contacts',
		description: 'The provider object that gets the fields',
		displayOptions: showForMode('fields'),
	},
	// Get Many came with version 2's lists, so it has a Group list in every version; the shared
	// Group (fields.ts) cannot show here, since Connection and Installation have a Get Many too.
	listLocator({
		displayName: 'Group',
		name: 'groupRef',
		description:
			'The group of users (usually a customer account) whose connection to the provider is read, by your ID of it (its group ref)',
		search: 'searchGroupRefs',
		select: 'Select a group…',
		typed: [byGroupRef],
		displayOptions: { show: { resource: [resource], operation: ['getAll'] } },
	}),
	// Like its Group, a list in every version (Get Many came with version 2's lists).
	listLocator({
		displayName: 'Object Name',
		name: 'objectName',
		description:
			"The provider object whose custom fields are listed: from the objects the project's integrations of the provider read or write, or by name",
		search: 'searchMetadataObjects',
		select: 'Select an object…',
		typed: [typedMode('By Name', 'id', 'contacts')],
		displayOptions: { show: { resource: [resource], operation: ['getAll'] } },
	}),
	{
		displayName: 'Fields',
		name: 'fieldDefinitions',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Field',
		displayOptions: showForMode('fields'),
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Field Name',
						name: 'fieldName',
						type: 'string',
						default: '',
						placeholder: 'e.g. loyalty_tier',
						description: 'API name of the field',
					},
					{
						displayName: 'Display Name',
						name: 'displayName',
						type: 'string',
						default: '',
						placeholder: 'e.g. Loyalty Tier',
					},
					{
						displayName: 'Value Type',
						name: 'valueType',
						type: 'options',
						default: 'string',
						options: [
							{ name: 'Boolean', value: 'boolean' },
							{ name: 'Date', value: 'date' },
							{ name: 'Date & Time', value: 'datetime' },
							{ name: 'Float', value: 'float' },
							{ name: 'Integer', value: 'int' },
							{ name: 'Multi Select', value: 'multiSelect' },
							{ name: 'Reference', value: 'reference' },
							{ name: 'Single Select', value: 'singleSelect' },
							{ name: 'String', value: 'string' },
						],
					},
					fieldOptions,
				],
			},
		],
	},
	{
		displayName: 'Fields (JSON)',
		name: 'fieldsJson',
		type: 'json',
		default:
			'{\n  "contacts": [\n    { "fieldName": "loyalty_tier", "displayName": "Loyalty Tier", "valueType": "string" }\n  ]\n}',
		description: 'The fields map of the request: object name → list of field definitions',
		displayOptions: showForMode('json'),
	},
];
