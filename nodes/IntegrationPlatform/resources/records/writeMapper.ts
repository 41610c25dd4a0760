import type { INodeProperties } from 'n8n-workflow';

/**
 * Record → Write's fields when Records From is Field Mapping: n8n's resource mapper, fed by the
 * object's metadata for the group's installation (records/mapping.ts, getRecordFields), and in
 * version 3 the record ID beside it. The mapper's value is `{ mappingMode, value,
 * matchingColumns, schema }` (records/mappedRecord.ts reads it).
 */

const writeShown = { resource: ['records'], operation: ['write'] };

/** The locators the object's fields depend on: changing one reloads the mapper's fields. */
const FIELDS_DEPEND_ON = ['project.value', 'integration.value', 'groupRef.value', 'object.value'];

/**
 * Record → Write's resource mapper, version 2, fed by the object's metadata for the group's
 * installation. One per write type, each reloaded when Write Type changes: n8n's editor then
 * empties the mapped values (docs/n8n-notes.md, "The resource mapper and Write Type"), which
 * version 3 avoids.
 */
function recordColumns(
	mode: 'add' | 'update',
	writeType: string,
	valuesLabel: string,
): INodeProperties {
	return {
		displayName: 'Fields',
		name: 'columns',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: [...FIELDS_DEPEND_ON, 'writeType'],
			resourceMapper: {
				resourceMapperMethod: 'getRecordFields',
				mode,
				valuesLabel,
				fieldWords: { singular: 'field', plural: 'fields' },
				// Only the required fields are listed at first, the others added by the user: n8n gives
				// a listed yes/no field the value false, which would then be written without the user
				// having set it (e.g. a contact's email opt-out).
				addAllFields: false,
				supportAutoMap: true,
				multiKeyMatch: false,
				showTypeConversionOptions: true,
				...(mode === 'update'
					? {
							matchingFieldsLabels: {
								title: 'Record to Match',
								description: "The provider's ID of the record to change or delete",
								hint: 'The record ID is the only field to match on',
							},
						}
					: {}),
			},
		},
		displayOptions: {
			show: {
				...writeShown,
				writeType: [writeType],
				recordSource: ['mapper'],
				'@version': [2],
			},
		},
	};
}

/**
 * Version 3: one set of fields for Create and Update, whatever the write type, so that n8n's
 * editor keeps the mapped values when Write Type changes: it empties them only when a parameter
 * the fields depend on changes, and Write Type is not one. The record ID is a parameter of its own
 * (Record ID), which Update and Delete share. Create's mapper marks the fields the provider
 * requires and n8n checks them ('add'); Update's checks none ('map': no field to match on, the ID
 * being outside). One label for both: n8n's editor keeps the label of the mapper it showed first
 * while the panel stays open (docs/n8n-notes.md, "The resource mapper and Write Type"). Delete
 * writes no field, so it shows none.
 */
function recordFields(writeType: 'create' | 'update'): INodeProperties {
	const create = writeType === 'create';
	return {
		displayName: 'Fields',
		name: 'columns',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: FIELDS_DEPEND_ON,
			resourceMapper: {
				resourceMapperMethod: 'getRecordFields',
				mode: create ? 'add' : 'map',
				valuesLabel: V3_FIELDS_LABEL,
				fieldWords: { singular: 'field', plural: 'fields' },
				// As in version 2: only the required fields are listed at first.
				addAllFields: false,
				supportAutoMap: true,
				showTypeConversionOptions: true,
			},
		},
		displayOptions: {
			show: {
				...writeShown,
				writeType: [writeType],
				recordSource: ['mapper'],
				'@version': [{ _cnd: { gte: 3 } }],
			},
		},
	};
}

/** The label of version 3's mapped fields, for Create and Update alike (see recordFields). */
export const V3_FIELDS_LABEL = 'Fields to Write';

/** Version 3's record ID for Update and Delete, outside the mapper (see recordFields). */
const recordIdField: INodeProperties = {
	displayName: 'Record ID',
	name: 'recordId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 10001',
	description:
		"The provider's ID of the record to change or delete, usually an expression over the item that holds it",
	displayOptions: {
		show: {
			...writeShown,
			writeType: ['update', 'delete'],
			recordSource: ['mapper'],
			'@version': [{ _cnd: { gte: 3 } }],
		},
	},
};

/**
 * Update's fields are Create's, the provider's required ones included: n8n requires none of them
 * in Update's mapper, and an empty one is not sent.
 */
const updateFieldsNotice: INodeProperties = {
	displayName:
		'Update changes only the fields that have a value below: a field left empty is not sent, whether or not a new record would need it.',
	name: 'updateFieldsNotice',
	type: 'notice',
	default: '',
	displayOptions: {
		show: {
			...writeShown,
			writeType: ['update'],
			recordSource: ['mapper'],
			'@version': [{ _cnd: { gte: 3 } }],
		},
	},
};

export const recordMapperFields: INodeProperties[] = [
	// Version 2: the mapper, once per write type: Create adds records (required fields marked),
	// Update and Delete match on the record ID.
	recordColumns('add', 'create', 'Fields to Write'),
	recordColumns('update', 'update', 'Fields to Change'),
	recordColumns('update', 'delete', 'Record to Delete'),
	// Version 3: the record ID on its own, then the same fields for Create and Update.
	recordIdField,
	updateFieldsNotice,
	recordFields('create'),
	recordFields('update'),
];
