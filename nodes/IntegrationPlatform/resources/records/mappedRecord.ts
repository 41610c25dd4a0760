import type { IDataObject, ResourceMapperField } from 'n8n-workflow';

import { RECORD_ID_FIELD } from './mapping';
import { checkMappedValue, mapperTypeOf, MappingProblem } from './mappedValue';

export { MappingProblem } from './mappedValue';

/**
 * Record → Write, versions 2 and 3: the record of one item from the resource mapper's value
 * (`{ mappingMode, value, matchingColumns, schema, attemptToConvertTypes }`). Each value is checked
 * against its field's type (records/mappedValue.ts), strictly unless the user turned on Attempt
 * To Convert Types; nothing is sent when a value fails. Nothing is sent here.
 *
 * Field names are the provider's and may be any text, `__proto__` and `constructor` included:
 * fields are kept in Maps, and the record handed on holds each as an own property and reaches
 * the request body whole (recordOf).
 */

export interface MapperValue {
	mappingMode?: string;
	value?: IDataObject | null;
	matchingColumns?: string[];
	schema?: Array<Partial<ResourceMapperField>>;
	attemptToConvertTypes?: boolean;
}

const isEmptyValue = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * An object holding exactly these fields as own properties (`__proto__` too), inheriting nothing:
 * a field the record lacks reads as undefined whatever its name. (A body holding such a key is
 * sent as JSON text, nodes/common/jsonBody.ts, since n8n's HTTP client would drop it.)
 */
export function recordOf(fields: Map<string, unknown>): IDataObject {
	const record = Object.create(null) as IDataObject;
	for (const [name, value] of fields) {
		Object.defineProperty(record, name, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return record;
}

/**
 * Names n8n 2.41 leaves out when it copies a node's parameters (its `deepCopy`, as the workflow
 * is loaded): a value mapped below to a field of one of these names never reaches the node
 * (docs/architecture.md, "Record → Write: the resource mapper").
 */
const DROPPED_BY_N8N: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * "Map Each Column Manually": a field of such a name that the mapper shows (required, or added
 * by the user) and whose value did not arrive fails the item, saying why, rather than going
 * unsent.
 */
function refuseDroppedByN8n(
	schema: Map<string, Partial<ResourceMapperField>>,
	fields: Map<string, unknown>,
	labelOf: (id: string) => string,
) {
	const lost = [...schema.values()].filter(
		(field) =>
			DROPPED_BY_N8N.has(field.id!) &&
			!fields.has(field.id!) &&
			(field.removed === false || (field.required === true && field.removed !== true)),
	);
	if (!lost.length) return;
	throw new MappingProblem(
		`${lost.map((field) => `"${labelOf(field.id!)}"`).join(', ')}: n8n does not pass on a value mapped to a field named __proto__, constructor or prototype (it leaves these names out of a node's parameters)`,
		"Write the field with Map Automatically (the input item's field of that name), or remove it from the fields below.",
	);
}

/** The own fields of an object, in order, whatever their names. */
const ownFields = (source: unknown): Array<[string, unknown]> =>
	source !== null && typeof source === 'object' && !Array.isArray(source)
		? Object.keys(source).map((name) => [name, (source as Record<string, unknown>)[name]])
		: [];

/**
 * The fields to write and the record ID (for Update and Delete) of one item. "Map Each Column
 * Manually": the values set in the node, those left empty not sent; "Map Automatically": the
 * input item's fields, those the object's metadata knows checked by their type, the others sent
 * as they are (the integration may map them). `idInMapper`: the record ID is the mapper's field to
 * match on (version 2); in version 3 it is a parameter of its own and every value is a field.
 */
export function mappedRecord(
	mapper: MapperValue,
	input: IDataObject,
	writeType: 'create' | 'update' | 'delete',
	idInMapper = true,
): { record: IDataObject; recordId?: unknown; matchField: string } {
	const auto = mapper.mappingMode === 'autoMapInputData';
	const schema = new Map<string, Partial<ResourceMapperField>>();
	for (const field of mapper.schema ?? []) {
		if (typeof field?.id === 'string' && !schema.has(field.id)) schema.set(field.id, field);
	}
	const labelOf = (id: string) => {
		const name = schema.get(id)?.displayName;
		return typeof name === 'string' && name ? name : id;
	};
	const matchField = mapper.matchingColumns?.[0] || RECORD_ID_FIELD;
	const fields = new Map<string, unknown>();
	let recordId: unknown;
	for (const [id, value] of ownFields(auto ? input : mapper.value)) {
		if (!auto && isEmptyValue(value)) continue;
		if (idInMapper && id === matchField && writeType !== 'create') {
			recordId = value;
			continue;
		}
		const field = schema.get(id);
		if (!field || value === null || value === undefined) {
			fields.set(id, value);
			continue;
		}
		const checked = checkMappedValue(value, {
			label: labelOf(id),
			type: mapperTypeOf(field.type, field.options),
			options: field.options,
			convert: mapper.attemptToConvertTypes === true,
		});
		if (checked.send) fields.set(id, checked.value);
	}
	if (!auto) refuseDroppedByN8n(schema, fields, labelOf);
	if (!auto && writeType === 'create') {
		const missing = [...schema.values()].filter(
			(field) =>
				field.required === true &&
				field.removed !== true &&
				field.type !== 'boolean' &&
				isEmptyValue(fields.get(field.id!)),
		);
		if (missing.length) {
			throw new MappingProblem(
				`${missing.map((field) => `"${labelOf(field.id!)}"`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} required but empty`,
				'The provider needs these fields to create a record: map a value to each.',
			);
		}
	}
	const record = recordOf(fields);
	return writeType === 'create' || !idInMapper
		? { record, matchField }
		: { record, recordId, matchField };
}
