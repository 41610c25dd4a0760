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
