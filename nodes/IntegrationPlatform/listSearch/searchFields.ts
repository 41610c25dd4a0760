import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { textOf } from '../../common/locator';
import { FIELD_TYPES, objectFields } from '../resources/records/mapping';
import { onceEach } from './shared';

/**
 * The Field Name list of Record → Search (load options): the object's fields (read-only ones too:
 * they can be searched), each with its type, the value being the field's name. The metadata is
 * taken as it comes: a display name that is not text is no display name, a type that is not text
 * or not known reads as text, allowed values that are not text or numbers are left out.
 */

/** How the list names each of the API's value types (a Map: a type named `constructor` is unknown). */
const TYPE_LABELS = new Map<string, string>([
	['string', 'text'],
	['boolean', 'boolean'],
	['singleSelect', 'one of a list'],
	['multiSelect', 'several of a list'],
	['date', 'date'],
	['datetime', 'date and time'],
	['int', 'whole number'],
	['float', 'number'],
	['reference', 'record ID'],
	['other', 'other'],
]);

export async function getSearchFields(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const fields = await objectFields(this, false);
	return onceEach(
		fields.map((field) => {
			const valueType = typeof field.valueType === 'string' ? field.valueType : '';
			return {
				name: `${labelOf(field.fieldName, field.displayName)} — ${TYPE_LABELS.get(valueType) ?? 'text'}`,
				value: field.fieldName,
				description: typeHint(valueType, field.values),
			};
		}),
	).sort((a, b) => a.name.localeCompare(b.name));
}

/** Its display name, and its name when that differs. */
function labelOf(fieldName: string, displayName: unknown): string {
	const display = textOf(displayName)?.trim();
	return !display || display === fieldName ? fieldName : `${display} (${fieldName})`;
}

/** What Value Type to choose for a field, from its metadata type, and the values it allows. */
function typeHint(valueType: string, values: unknown): string {
	const type = Object.hasOwn(FIELD_TYPES, valueType) ? FIELD_TYPES[valueType] : 'string';
	const choose = type === 'number' ? 'Number' : type === 'boolean' ? 'Boolean' : 'Text';
	const allowed = (Array.isArray(values) ? values : [])
		.map((entry: unknown) =>
			typeof entry === 'object' && entry !== null
				? textOf((entry as { value?: unknown }).value)
				: undefined,
		)
		.filter((value): value is string => value !== undefined);
	return `Value Type: ${choose}${allowed.length ? `. Values: ${allowed.join(', ')}` : ''}`;
}
