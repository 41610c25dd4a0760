/**
 * An item's record from the resource mapper's value (records/mappedRecord.ts): what is sent, what
 * is checked, and the problems an item fails with.
 */
import { DateTime } from 'luxon';

import type { MapperValue } from '../../../../../nodes/IntegrationPlatform/resources/records/mappedRecord';
import {
	mappedRecord,
	MappingProblem,
} from '../../../../../nodes/IntegrationPlatform/resources/records/mappedRecord';

const schema: MapperValue['schema'] = [
	// As getRecordFields gives it for Update (Create's schema has no ID).
	{ id: 'id', displayName: 'Record ID', type: 'string', required: false },
	{ id: 'email', displayName: 'Email (email)', type: 'string', required: true },
	{ id: 'age', displayName: 'Age (age)', type: 'number', required: false },
	{ id: 'vip', displayName: 'VIP (vip)', type: 'boolean', required: true },
	{ id: 'born', displayName: 'Born (born)', type: 'dateTime', required: false },
	{
		id: 'tags',
		displayName: 'Tags (tags)',
		type: 'array',
		required: false,
		options: [
			{ name: 'A', value: 'a' },
			{ name: 'B', value: 'b' },
		],
	},
];
const below = (value: Record<string, unknown>, more: Partial<MapperValue> = {}): MapperValue => ({
	mappingMode: 'defineBelow',
	value: value as MapperValue['value'],
	matchingColumns: ['id'],
	schema,
	...more,
});

const problem = (run: () => unknown) => {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(MappingProblem);
		return (error as MappingProblem).message;
	}
	throw new Error('no problem raised');
};

test('defined below: empty values are not sent; a required boolean may stay unset', () => {
	const { record } = mappedRecord(
		below({ email: 'a@example.com', age: null, born: '', tags: undefined }),
		{},
		'create',
	);
	expect(record).toEqual({ email: 'a@example.com' });
});

test('a date stays as given when text; a date object from an expression is sent as ISO text', () => {
	expect(
		mappedRecord(below({ email: 'a@x.io', born: '1815-12-10' }), {}, 'create').record.born,
	).toBe('1815-12-10');
	const born = DateTime.fromISO('1815-12-10T00:00:00.000Z', { zone: 'utc' });
	expect(mappedRecord(below({ email: 'a@x.io', born }), {}, 'create').record.born).toBe(
		'1815-12-10T00:00:00.000Z',
	);
});

test('a list field: each entry must be an allowed value', () => {
	expect(
		mappedRecord(below({ email: 'a@x.io', tags: ['a', 'b'] }), {}, 'create').record.tags,
	).toEqual(['a', 'b']);
	expect(
		problem(() => mappedRecord(below({ email: 'a@x.io', tags: ['a', 'c'] }), {}, 'create')),
	).toBe('"Tags (tags)": "c" is not among the allowed values (a, b)');
});

test('required fields are named together when empty (create only)', () => {
	expect(problem(() => mappedRecord(below({ age: 3 }), {}, 'create'))).toBe(
		'"Email (email)" is required but empty',
	);
	expect(mappedRecord(below({ id: '9', age: 3 }), {}, 'update')).toEqual({
		record: { age: 3 },
		recordId: '9',
		matchField: 'id',
	});
});

test('map automatically: the input item, known fields checked, unknown ones kept; the ID from the item', () => {
	const auto = below({}, { mappingMode: 'autoMapInputData', value: null });
	expect(mappedRecord(auto, { id: 7, age: 40, nickname: 'Al' }, 'update')).toEqual({
		record: { age: 40, nickname: 'Al' },
		recordId: 7,
		matchField: 'id',
	});
	expect(problem(() => mappedRecord(auto, { vip: 'maybe' }, 'create'))).toBe(
		`"VIP (vip)" expects a boolean but we got 'maybe'`,
	);
});

test('strict unless Attempt to Convert Types: "40" for a number', () => {
	expect(problem(() => mappedRecord(below({ email: 'a@x.io', age: '40' }), {}, 'create'))).toBe(
		`"Age (age)" expects a number but we got '40'`,
	);
	expect(
		mappedRecord(
			below({ email: 'a@x.io', age: '40' }, { attemptToConvertTypes: true }),
			{},
			'create',
		).record.age,
	).toBe(40);
});

describe('each value is sent as given, or its item refused naming the field and why', () => {
	const auto = (more: Partial<MapperValue> = {}) =>
		below({}, { mappingMode: 'autoMapInputData', value: null, ...more });
	const converting = { attemptToConvertTypes: true };

	test.each([
		['1/0 from an expression', Infinity, {}],
		['-1/0', -Infinity, {}],
		['NaN', NaN, {}],
		['"1e400" with Attempt to Convert Types', '1e400', converting],
	])('a number field given %s is refused, not sent as null', (_, age, more) => {
		expect(
			problem(() => mappedRecord(below({ email: 'a@x.io', age }, more), {}, 'create')),
		).toMatch(/^"Age \(age\)" expects a finite number but we got '(-?Infinity|NaN|1e400)'$/);
	});

	test('converting, a number field takes decimal text only; other text is refused, not read as Number() reads it', () => {
		const age = (value: unknown) =>
			mappedRecord(below({ email: 'a@x.io', age: value }, converting), {}, 'create').record.age;
		expect(age(' -3.5 ')).toBe(-3.5);
		expect(age('1e3')).toBe(1000);
		for (const text of ['0x10', 'Infinity', '1,5', '12abc']) {
			expect(
				problem(() =>
					mappedRecord(below({ email: 'a@x.io', age: text }, converting), {}, 'create'),
				),
			).toBe(`"Age (age)" expects a number but we got '${text}'`);
		}
		expect(
			problem(() => mappedRecord(below({ email: 'a@x.io', age: [] }, converting), {}, 'create')),
		).toBe(`"Age (age)" expects a number but we got array`);
	});

	test('Map Automatically with conversion: "" for a number field is left out, never 0; without conversion refused', () => {
		const { record } = mappedRecord(auto(converting), { email: 'a@x.io', age: '' }, 'create');
		expect(record).toEqual({ email: 'a@x.io' });
		expect(Object.keys(record)).toEqual(['email']);
		expect(problem(() => mappedRecord(auto(), { age: '' }, 'create'))).toBe(
			`"Age (age)" expects a number but we got ''`,
		);
	});

	test.each([
		'1',
		'42',
		'2024-02-30',
		'Wed, 01 May 2024 08:30:00 GMT',
		'Wed, 1 May 2024 08:30:00 +0000',
		42,
	])(
		'a date field given %j is refused, naming the forms it takes (with conversion too)',
		(born) => {
			for (const more of [{}, converting]) {
				const error = (() => {
					try {
						mappedRecord(below({ email: 'a@x.io', born }, more), {}, 'create');
					} catch (caught) {
						return caught as MappingProblem;
					}
					throw new Error(`${JSON.stringify(born)} was accepted`);
				})();
				expect(error).toBeInstanceOf(MappingProblem);
				expect(error.message).toMatch(/^"Born \(born\)" (is not|must be)/);
				expect(error.message).toMatch(/ISO 8601|not a real date/);
				expect(error.hint).toContain('2024-05-01T08:30:00Z');
			}
		},
	);

	test('a date field: ISO dates and times are sent as given; a Date as ISO text', () => {
		const born = (value: unknown) =>
			mappedRecord(below({ email: 'a@x.io', born: value }), {}, 'create').record.born;
		expect(born('2024-02-29')).toBe('2024-02-29');
		expect(born(' 2024-05-01T10:30:00+02:00 ')).toBe('2024-05-01T10:30:00+02:00');
		expect(born(new Date('2024-05-01T08:30:00Z'))).toBe('2024-05-01T08:30:00.000Z');
	});

	test.each([
		['an object', { first: 'Ada' }, 'object'],
		['a list', ['Ada'], 'array'],
	])('a text field given %s is refused, not sent (with conversion too)', (_, email, what) => {
		for (const more of [{}, converting]) {
			expect(problem(() => mappedRecord(below({ email }, more), {}, 'create'))).toBe(
				`"Email (email)" expects text but we got ${what}`,
			);
			expect(problem(() => mappedRecord(auto(more), { email }, 'create'))).toBe(
				`"Email (email)" expects text but we got ${what}`,
			);
		}
	});

	test('a text field given a number: refused, or its text with Attempt to Convert Types', () => {
		expect(problem(() => mappedRecord(below({ email: 42 }), {}, 'create'))).toBe(
			`"Email (email)" expects text but we got '42'`,
		);
		expect(mappedRecord(below({ email: 42 }, converting), {}, 'create').record.email).toBe('42');
	});

	test('converting, a boolean takes true/false/1/0 and nothing else (n8n reads [] as false)', () => {
		const vip = (value: unknown) =>
			mappedRecord(below({ email: 'a@x.io', vip: value }, converting), {}, 'create').record.vip;
		expect([vip('TRUE'), vip('0'), vip(1)]).toEqual([true, false, true]);
		expect(
			problem(() => mappedRecord(below({ email: 'a@x.io', vip: [] }, converting), {}, 'create')),
		).toBe(`"VIP (vip)" expects a boolean but we got array`);
	});

	test('a field type the node does not give (a saved schema with `{}` or "__proto__") is text', () => {
		const odd = (type: unknown): MapperValue => ({
			mappingMode: 'defineBelow',
			value: { odd: 'plain text' },
			matchingColumns: [],
			schema: [{ id: 'odd', displayName: 'Odd', type: type as 'string', required: true }],
		});
		for (const type of [{}, '__proto__', 'constructor', 7, 'toString']) {
			expect(mappedRecord(odd(type), {}, 'create').record).toEqual({ odd: 'plain text' });
		}
	});
});

describe('field names that are also names of object properties are ordinary field names', () => {
	const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
	const schemaOf = (required: boolean): MapperValue['schema'] =>
		names.map((id) => ({ id, displayName: id, type: 'string', required }));
	/** A value object as n8n holds one parsed from a saved workflow: `__proto__` an own key. */
	const parsed = (text: string) => JSON.parse(text) as MapperValue['value'];

	test('Map Each Column Manually: each is sent as an own field, in JSON too', () => {
		const value = parsed('{"__proto__":"p","constructor":"c","toString":"t","hasOwnProperty":"h"}');
		const { record } = mappedRecord(
			{ mappingMode: 'defineBelow', value, matchingColumns: [], schema: schemaOf(true) },
			{},
			'create',
		);
		expect(Object.keys(record)).toEqual(names);
		expect(JSON.parse(JSON.stringify(record))).toEqual(
			parsed('{"__proto__":"p","constructor":"c","toString":"t","hasOwnProperty":"h"}'),
		);
		expect(JSON.stringify(record)).toBe(
			'{"__proto__":"p","constructor":"c","toString":"t","hasOwnProperty":"h"}',
		);
	});

	test('required and left empty: each is named', () => {
		const value = parsed('{"__proto__":"p","constructor":"c"}');
		expect(
			problem(() =>
				mappedRecord(
					{ mappingMode: 'defineBelow', value, matchingColumns: [], schema: schemaOf(true) },
					{},
					'create',
				),
			),
		).toBe('"toString", "hasOwnProperty" are required but empty');
	});

	test('a shown field whose name n8n drops from the parameters (__proto__, constructor, prototype) and whose value is missing: refused, saying why', () => {
		const schema = [
			{ id: '__proto__', displayName: '__proto__', type: 'string' as const, required: true },
			{ id: 'prototype', displayName: 'prototype', type: 'string' as const, removed: false },
			{ id: 'constructor', displayName: 'constructor', type: 'string' as const, removed: true },
		];
		expect(
			problem(() =>
				mappedRecord(
					{ mappingMode: 'defineBelow', value: { a: 1 }, matchingColumns: [], schema },
					{},
					'create',
				),
			),
		).toMatch(/^"__proto__", "prototype": n8n does not pass on a value mapped to a field named/);
		const constructorRequired = [
			{ id: 'constructor', displayName: 'constructor', type: 'string' as const, required: true },
		];
		expect(
			problem(() =>
				mappedRecord(
					{ mappingMode: 'defineBelow', value: { a: 1 }, schema: constructorRequired },
					{},
					'create',
				),
			),
		).toMatch(/^"constructor": n8n does not pass on/);
	});

	test('Map Automatically: an input field named __proto__ is sent, and checked by its type', () => {
		const input = JSON.parse('{"__proto__":"p","email":"a@x.io"}') as Record<string, unknown>;
		const { record } = mappedRecord(
			{ mappingMode: 'autoMapInputData', value: null, schema: schemaOf(false) },
			input as never,
			'create',
		);
		expect(JSON.stringify(record)).toBe('{"__proto__":"p","email":"a@x.io"}');
		const wrong = JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>;
		expect(
			problem(() =>
				mappedRecord(
					{ mappingMode: 'autoMapInputData', value: null, schema: schemaOf(false) },
					wrong as never,
					'create',
				),
			),
		).toBe('"__proto__" expects text but we got object');
	});
});

test('a DateTime from an expression keeps its zone', () => {
	const born = DateTime.fromISO('2024-05-01T10:30:00.000+02:00', { setZone: true });
	expect(mappedRecord(below({ email: 'a@x.io', born }), {}, 'create').record.born).toBe(
		'2024-05-01T10:30:00.000+02:00',
	);
});
