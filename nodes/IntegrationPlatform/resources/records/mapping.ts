import type {
	FieldType,
	ILoadOptionsFunctions,
	INodePropertyOptions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { editorRequest } from '../../transport/send';
import { encodePathSegment } from '../../../common/paths';

/**
 * The fields of an object as the installation reports them (docs/api-notes.md, "Object
 * metadata"), for the editor: Record → Write's resource mapper and Search's field list. Each
 * field's value type becomes the n8n field type that picks its input and checks its value
 * (docs/architecture.md, "Record → Write: the resource mapper").
 */

/** FieldMetadata of the API (manifest.yaml), as far as the node reads it. */
export interface FieldMetadata {
	fieldName: string;
	displayName?: string;
	valueType?: string;
	readOnly?: boolean;
	isRequired?: boolean;
	values?: Array<{ value: string; displayValue?: string }>;
}

/** The API's normalized value types and the n8n field type each is mapped and checked as. */
export const FIELD_TYPES: Record<string, FieldType> = {
	string: 'string',
	boolean: 'boolean',
	singleSelect: 'options',
	multiSelect: 'array',
	date: 'dateTime',
	datetime: 'dateTime',
	int: 'number',
	float: 'number',
	// A reference holds the other record's ID; "other" is whatever the provider did not classify.
	reference: 'string',
	other: 'string',
};

/**
 * The entry of a table for a value type, looked up as an own key only: metadata is the provider's
 * text, and `__proto__` or `constructor` must not reach the object's prototype.
 */
const entryOf = <T>(table: Record<string, T>, valueType: unknown): T | undefined =>
	typeof valueType === 'string' && Object.prototype.hasOwnProperty.call(table, valueType)
		? table[valueType]
		: undefined;

/**
 * The n8n field type of an API value type; a type the API adds later, or anything that is not a
 * type name, is taken as text. (n8n's type check, `validateFieldType`, calls `toLowerCase` on a
 * mapper field's type: `FIELD_TYPES['__proto__']`, an object, failed every item with "type.
 * toLowerCase is not a function".)
 */
export const fieldTypeOf = (valueType: unknown): FieldType =>
	entryOf(FIELD_TYPES, valueType) ?? 'string';

/** The field the API takes a record's ID in (`record.id`), offered to match on for Update and Delete. */
export const RECORD_ID_FIELD = 'id';

const LOCATORS = [
	['project', 'Project'],
	['integration', 'Integration'],
	['groupRef', 'Group'],
	['object', 'Object'],
] as const;

/** The label of a field as the editor shows it: its display name, and its name when that differs. */
export const fieldLabel = (field: FieldMetadata): string => {
	const display = typeof field.displayName === 'string' ? field.displayName.trim() : '';
	return !display || display === field.fieldName
		? field.fieldName
		: `${display} (${field.fieldName})`;
};

/**
 * The object's fields for the group's installation, in the API's order. `writable` leaves out
 * read-only fields (the API's own `excludeReadOnly`, and each field's flag): they cannot be
 * written, and a write that carries one is refused by the provider.
 */
/** The Project, Integration, Group and Object chosen, or the labels of those still missing. */
function selection(context: ILoadOptionsFunctions): {
	values: Record<string, string>;
	missing: string[];
} {
	const values: Record<string, string> = {};
	const missing: string[] = [];
	for (const [name, label] of LOCATORS) {
		const value = context.getCurrentNodeParameter(name, { extractValue: true });
		if (typeof value === 'string' && value.trim() !== '') values[name] = value.trim();
		else missing.push(label);
	}
	return { values, missing };
}

/** What to choose before the fields can be read. */
function selectFirst(missing: string[]): string {
	const list =
		missing.length === 1
			? missing[0]
			: `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
	return `Select ${list} first: the fields come from the object's metadata for the group's installation`;
}

export async function objectFields(
	context: ILoadOptionsFunctions,
	writable: boolean,
): Promise<FieldMetadata[]> {
	const { values, missing } = selection(context);
	if (missing.length) throw new NodeOperationError(context.getNode(), selectFirst(missing));
	const path = `/projects/${encodePathSegment(values.project)}/integrations/${encodePathSegment(
		values.integration,
	)}/objects/${encodePathSegment(values.object)}/metadata`;
	const body = (await editorRequest(context, 'GET', path, {
		qs: { groupRef: values.groupRef, ...(writable ? { excludeReadOnly: true } : {}) },
	})) as { fields?: Record<string, FieldMetadata> } | undefined;
	const fields = Object.entries(body?.fields ?? {}).map(([key, field]) => ({
		...field,
		fieldName: typeof field?.fieldName === 'string' && field.fieldName ? field.fieldName : key,
	}));
	return writable ? fields.filter((field) => field.readOnly !== true) : fields;
}

const optionsOf = (field: FieldMetadata): INodePropertyOptions[] | undefined =>
	Array.isArray(field.values) && field.values.length
		? field.values.map(({ value, displayValue }) => ({ name: displayValue || value, value }))
		: undefined;

/**
 * resourceMapperMethod of Record → Write: one mapper field per writable field. Version 3 gives the
 * same fields whatever the write type (the fields the provider requires marked), so that n8n's
 * editor keeps the mapped values when Write Type changes; the record ID is a parameter of its own
 * (records/writeMapper.ts). Version 2: Create marks the required fields, Update and Delete add the
 * record ID to match on (Delete sends only it).
 */
export async function getRecordFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const sameForEveryType = this.getNode().typeVersion >= 3;
	const writeType = sameForEveryType
		? 'create'
		: String(this.getCurrentNodeParameter('writeType') ?? 'create');
	const recordId: ResourceMapperField = {
		id: RECORD_ID_FIELD,
		displayName: 'Record ID',
		required: true,
		defaultMatch: true,
		canBeUsedToMatch: true,
		display: true,
		type: 'string',
	};
	if (writeType === 'delete') {
		// Delete needs only the record's ID: no metadata to read.
		return { fields: [recordId] };
	}
	// The editor asks as soon as the panel opens, also before anything is chosen: say what to
	// choose in n8n's own notice for an empty list, rather than fail the request.
	const { missing } = selection(this);
	if (missing.length) return { fields: [], emptyFieldsNotice: selectFirst(missing) };
	const fields: ResourceMapperField[] = (await objectFields(this, true))
		// `record.id` is the record's ID to the API, not a field to write.
		.filter((field) => field.fieldName !== RECORD_ID_FIELD)
		.map((field) => ({
			id: field.fieldName,
			displayName: fieldLabel(field),
			// Version 2's Update changes only the fields given: none is required there.
			required: writeType === 'create' && field.isRequired === true,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
			// One of a list without listed values is text: an empty list would refuse every value.
			type:
				fieldTypeOf(field.valueType) === 'options' && !optionsOf(field)
					? 'string'
					: fieldTypeOf(field.valueType),
			...(optionsOf(field) ? { options: optionsOf(field) } : {}),
		}));
	return {
		fields: writeType === 'create' ? fields : [recordId, ...fields],
		// n8n's editor shows this notice whenever it does not list the fields, in "Map
		// Automatically" too: given only when there is truly no field to write.
		...(fields.length
			? {}
			: {
					emptyFieldsNotice:
						'The object has no field that can be written for this group: its metadata lists none, or only read-only ones',
				}),
	};
}

/** A field of a mapper schema, as the node reads it back from the saved parameter. */
export type MapperSchemaField = Pick<
	ResourceMapperField,
	'id' | 'displayName' | 'required' | 'type' | 'options' | 'removed'
>;
