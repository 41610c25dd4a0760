import type { INodePropertyOptions } from 'n8n-workflow';
import { getValueDescription, tryToParseArray } from 'n8n-workflow';

import { checkDateTime } from '../../../common/timestamps';

/**
 * Record → Write, version 2: one mapped value checked against its field's type, and the value the
 * API gets. A value is sent as given or refused with the field and the reason; converted only
 * when the user turned on Attempt To Convert Types, and then only from text that plainly means
 * the value (docs/architecture.md, "Record → Write: the resource mapper"). Pure, no requests.
 */

/** Why an item's mapped values cannot be sent; the caller turns it into the item's error. */
export class MappingProblem extends Error {
	constructor(
		message: string,
		readonly hint: string,
	) {
		super(message);
	}
}

/** The mapper field types the node gives its fields (records/mapping.ts, FIELD_TYPES). */
export type MapperType = 'string' | 'number' | 'boolean' | 'dateTime' | 'options' | 'array';

const MAPPER_TYPES: ReadonlySet<string> = new Set<MapperType>([
	'string',
	'number',
	'boolean',
	'dateTime',
	'options',
	'array',
]);

/**
 * The type a saved schema field is checked as. A type the node does not give (a schema saved from
 * metadata with an odd value type, which n8n stores as `{}` or anything else) is text, as the
 * mapper method now offers such a field; a list of one value without listed values is text too.
 */
export function mapperTypeOf(type: unknown, options: unknown): MapperType {
	if (typeof type !== 'string' || !MAPPER_TYPES.has(type)) return 'string';
	if (type === 'options' && !(Array.isArray(options) && options.length)) return 'string';
	return type as MapperType;
}

/** What to do with a value: send it (as `value`), or leave the field out of the record. */
export type CheckedValue = { send: true; value: unknown } | { send: false };

export interface ValueToCheck {
	/** The field's label as the editor shows it, e.g. `Age (age)`. */
	label: string;
	type: MapperType;
	options?: INodePropertyOptions[];
	/** Attempt To Convert Types is on. */
	convert: boolean;
}

/**
 * Where n8n's editor shows the conversion switch: below the mapped fields, not under the node's
 * Options (its label is n8n's, "Attempt To Convert Types").
 */
export const CONVERT_SWITCH = '"Attempt To Convert Types", the switch below the mapped fields';

const send = (value: unknown): CheckedValue => ({ send: true, value });
const isBlank = (value: unknown) => typeof value === 'string' && value.trim() === '';

/** A decimal number as text (`12`, `-3.5`, `1e3`); not hexadecimal, not `Infinity`, not blank. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

const DATE_FORMS =
	'Give an ISO 8601 date (2024-05-01) or date and time (2024-05-01T08:30:00Z, 2024-05-01T10:30:00+02:00), or a date from an expression such as {{ $now }}: the forms the Since and Until fields of Record → Trigger Read take.';

/**
 * The value to send for one field, or a MappingProblem naming the field and why. Null and
 * undefined are the caller's (empty, or sent as given by Map Automatically). With Attempt To
 * Convert Types, blank text for a field that is not text is left out, as an empty field of "Map
 * Each Column Manually" is: converting it would make up a value (n8n's conversion makes it 0).
 */
export function checkMappedValue(value: unknown, field: ValueToCheck): CheckedValue {
	const { label, type, convert } = field;
	const mismatch = (expects: string, hint: string) =>
		new MappingProblem(
			`"${label}" ${expects} but we got ${getValueDescription(value)}`,
			convert ? hint : `${hint} Or turn on ${CONVERT_SWITCH}.`,
		);
	if (convert && type !== 'string' && isBlank(value)) return { send: false };
	switch (type) {
		case 'number': {
			const number =
				typeof value === 'number'
					? value
					: convert && typeof value === 'string' && DECIMAL.test(value.trim())
						? Number(value.trim())
						: undefined;
			if (number === undefined) throw mismatch('expects a number', 'Give a number.');
			if (!Number.isFinite(number)) {
				// JSON has no Infinity or NaN: the request would carry null and clear the field.
				throw new MappingProblem(
					`"${label}" expects a finite number but we got ${getValueDescription(value)}`,
					'The value is not a number JSON can carry (such as 1/0, or beyond ±1.8e308): it would be sent as null, which clears the field. Give a finite number.',
				);
			}
			return send(number);
		}
		case 'boolean': {
			if (typeof value === 'boolean') return send(value);
			if (convert) {
				const text = String(value).trim().toLowerCase();
				if (typeof value === 'string' && (text === 'true' || text === '1')) return send(true);
				if (typeof value === 'string' && (text === 'false' || text === '0')) return send(false);
				if (value === 1 || value === 0) return send(value === 1);
			}
			throw mismatch(
				'expects a boolean',
				convert
					? 'Give true or false (the text true, false, 1 or 0, or the number 1 or 0, converts).'
					: 'Give true or false.',
			);
		}
		case 'dateTime': {
			const checked = checkDateTime(label, value);
			if ('problem' in checked) throw new MappingProblem(checked.problem, DATE_FORMS);
			// Text as given (a date alone stays a date); a Luxon DateTime as ISO text in its own
			// zone, a Date (which has none) in UTC.
			if (typeof value === 'string') return send(value.trim());
			const zoned = (value as { toISO?: () => string | null }).toISO?.();
			return send(typeof zoned === 'string' ? zoned : checked.iso);
		}
		case 'options': {
			const allowed = (field.options ?? []).map((option) => option.value);
			if (allowed.includes(value as string)) return send(value);
			throw new MappingProblem(
				`"${label}" expects one of the following values: [${allowed.join(', ')}] but we got ${getValueDescription(value)}`,
				'Choose one of the allowed values, or map an expression that gives one.',
			);
		}
		case 'array':
			return send(checkList(value, field, mismatch));
		default: {
			if (typeof value === 'string') return send(value);
			if (convert && typeof value === 'number' && Number.isFinite(value)) {
				return send(String(value));
			}
			if (convert && typeof value === 'boolean') return send(String(value));
			throw mismatch(
				'expects text',
				typeof value === 'object'
					? 'A list or an object is not sent to a text field: map one of its values, or an expression such as {{ JSON.stringify($json.field) }} to send it as text.'
					: 'Give text.',
			);
		}
	}
}

/** A list field: a list (or, converting, JSON text of one), each entry an allowed value if listed. */
function checkList(
	value: unknown,
	field: ValueToCheck,
	mismatch: (expects: string, hint: string) => MappingProblem,
): unknown[] {
	let list: unknown[] | undefined = Array.isArray(value) ? value : undefined;
	if (!list && field.convert && typeof value === 'string') {
		try {
			list = tryToParseArray(value);
		} catch {
			list = undefined;
		}
	}
	if (!list) throw mismatch('expects a list', 'Give a list, e.g. an expression {{ ["a", "b"] }}.');
	const allowed = (field.options ?? []).map((option) => option.value);
	if (!allowed.length) return list;
	const wrong = list.filter((entry) => !allowed.includes(entry as string));
	if (wrong.length) {
		const describe = (entry: unknown) =>
			typeof entry === 'string' ? `"${entry}"` : (JSON.stringify(entry) ?? String(entry));
		throw new MappingProblem(
			`"${field.label}": ${wrong.map(describe).join(', ')} ${wrong.length > 1 ? 'are' : 'is'} not among the allowed values (${allowed.join(', ')})`,
			'Give a list of allowed values.',
		);
	}
	return list;
}
