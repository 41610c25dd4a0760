import type { IDataObject, ResourceMapperField } from 'n8n-workflow';
import { validateFieldType } from 'n8n-workflow';

import { RECORD_ID_FIELD } from './mapping';

/**
 * Record → Write, version 2: the record of one item from the resource mapper's value
 * (`{ mappingMode, value, matchingColumns, schema, attemptToConvertTypes }`). Each value is checked
 * against its field's type with n8n's own check (`validateFieldType`), strictly unless the user
 * turned on Attempt to Convert Types, as n8n's mapper does; nothing is sent when a value fails.
 * Nothing is sent here.
 */

export interface MapperValue {
	mappingMode?: string;
	value?: IDataObject | null;
	matchingColumns?: string[];
	schema?: Array<Partial<ResourceMapperField>>;
	attemptToConvertTypes?: boolean;
}

/** Why an item's mapped values cannot be sent; the caller turns it into the item's error. */
export class MappingProblem extends Error {
	constructor(
		message: string,
		readonly hint: string,
	) {
		super(message);
	}
}

const isEmptyValue = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const describe = (value: unknown) =>
	typeof value === 'string'
		? `"${value}"`
		: typeof value === 'object'
			? JSON.stringify(value)
			: String(value);

/** The value as the API gets it, once n8n's check accepted it. */
function sendable(original: unknown, checked: unknown, type: string | undefined): unknown {
	if (type === 'dateTime') {
		// As given when it is text (a date stays a date); a date object from an expression as ISO text.
		if (typeof original === 'string') return original.trim();
		const iso = (checked as { toISO?: () => string } | undefined)?.toISO?.();
		return iso ?? original;
	}
	return checked === undefined ? original : checked;
}

/**
 * The fields to write and the record ID (for Update and Delete) of one item. "Map Each Field
 * Below": the values set in the node, those left empty not sent; "Map Automatically": the input
 * item's fields, those the object's metadata knows checked by their type, the others sent as
 * they are (the integration may map them).
 */
export function mappedRecord(
	mapper: MapperValue,
	input: IDataObject,
	writeType: 'create' | 'update' | 'delete',
): { record: IDataObject; recordId?: unknown; matchField: string } {
	const auto = mapper.mappingMode === 'autoMapInputData';
	const schema = new Map((mapper.schema ?? []).map((field) => [field.id, field]));
	const label = (id: string) => {
		const name = schema.get(id)?.displayName;
		return name ? `"${name}"` : `"${id}"`;
	};
	const source: IDataObject = auto ? { ...input } : { ...(mapper.value ?? {}) };
	const matchField = mapper.matchingColumns?.[0] || RECORD_ID_FIELD;
	const record: IDataObject = {};
	for (const [id, value] of Object.entries(source)) {
		if (!auto && isEmptyValue(value)) continue;
		const field = schema.get(id);
		if (!field?.type || value === null || value === undefined || id === matchField) {
			record[id] = value;
			continue;
		}
		const name = field.displayName ?? id;
		const checked = validateFieldType(name, value, field.type, {
			valueOptions: field.options,
			strict: mapper.attemptToConvertTypes !== true,
		});
		if (!checked.valid) {
			// n8n's reason starts with the field's name, which the message gives once, in front.
			const reason = checked.errorMessage.replace(/ <br\/>.*$/s, '').replace(`'${name}' `, '');
			throw new MappingProblem(
				`${label(id)} ${reason}`,
				field.type === 'options'
					? 'Choose one of the allowed values, or map an expression that gives one.'
					: `Give a value of type ${field.type}${mapper.attemptToConvertTypes ? '' : ', or turn on Options → Attempt to Convert Types in the mapper'}.`,
			);
		}
		const value2 = sendable(value, checked.newValue, field.type);
		if (field.type === 'array' && field.options?.length && Array.isArray(value2)) {
			const allowed = field.options.map((option) => option.value);
			const wrong = value2.filter((entry) => !allowed.includes(entry as string));
			if (wrong.length) {
				throw new MappingProblem(
					`${label(id)}: ${wrong.map(describe).join(', ')} ${wrong.length > 1 ? 'are' : 'is'} not among the allowed values (${allowed.join(', ')})`,
					'Give a list of allowed values.',
				);
			}
		}
		record[id] = value2 as IDataObject[string];
	}
	if (!auto && writeType === 'create') {
		const missing = [...schema.values()].filter(
			(field) =>
				field.required &&
				!field.removed &&
				field.type !== 'boolean' &&
				isEmptyValue(record[field.id!]),
		);
		if (missing.length) {
			throw new MappingProblem(
				`${missing.map((field) => label(field.id!)).join(', ')} ${missing.length > 1 ? 'are' : 'is'} required but empty`,
				'The provider needs these fields to create a record: map a value to each.',
			);
		}
	}
	if (writeType === 'create') return { record, matchField };
	const recordId = record[matchField];
	delete record[matchField];
	return { record, recordId, matchField };
}
