/**
 * What the integrations' manifests deliver to each destination (manifests.ts), from answers of
 * every shape: only text names count, prototype names are ordinary names, and a mark stays short.
 */
import {
	deliveryMark,
	manifestDeliveries,
} from '../../../nodes/IntegrationPlatformTrigger/manifests';
import { ODD_VALUES, PROTOTYPE_NAMES } from '../../harness/oddAnswers';

const integration = (name: unknown, content: unknown) => ({
	name,
	id: 'int-1',
	latestRevision: { content },
});

test('read, subscribe and schema-watch destinations, each with its integrations and objects', () => {
	const deliveries = manifestDeliveries([
		integration('sync', {
			read: {
				objects: [
					{ objectName: 'contacts', destination: 'hook' },
					{ objectName: 'companies', destination: 'hook' },
					{ objectName: 'deals', destination: 'other' },
				],
			},
			subscribe: { objects: [{ objectName: 'contacts', destination: 'hook' }] },
			watchSchema: { destination: 'schema-hook', allObjects: {} },
		}),
		integration('deals', { read: { objects: [{ objectName: 'deals', destination: 'hook' }] } }),
	]);
	expect([...deliveries.keys()].sort()).toEqual(['hook', 'other', 'schema-hook']);
	expect(deliveryMark(deliveries, 'hook')).toBe(
		'read results of deals (deals), sync (companies, contacts); subscribe events of sync (contacts)',
	);
	expect(deliveryMark(deliveries, 'schema-hook')).toBe('schema changes of sync');
	expect(deliveryMark(deliveries, 'unnamed')).toBeUndefined();
});

test('odd answers: no content, content of the wrong shape, names that are not text', () => {
	const odd = [
		...ODD_VALUES,
		...ODD_VALUES.map((value) => ({ name: 'x', latestRevision: value })),
		...ODD_VALUES.map((value) => integration('x', value)),
		...ODD_VALUES.map((value) =>
			integration('x', {
				read: value,
				subscribe: { objects: value },
				watchSchema: { destination: value },
			}),
		),
		...ODD_VALUES.map((value) =>
			integration(value, {
				read: { objects: [value, { objectName: value, destination: value }] },
			}),
		),
	];
	for (const answer of [...ODD_VALUES, odd]) {
		expect(manifestDeliveries(answer).size).toBe(0);
	}
	// An integration without a text name is named by its ID; an object without a name is left out.
	const deliveries = manifestDeliveries([
		integration(42, { read: { objects: [{ objectName: 7, destination: 'hook' }] } }),
	]);
	expect(deliveryMark(deliveries, 'hook')).toBe('read results of int-1');
});

test('prototype names as destinations, integrations and objects are ordinary names', () => {
	const answer = JSON.parse(
		JSON.stringify(
			PROTOTYPE_NAMES.map((name) =>
				integration(name, {
					read: { objects: [{ objectName: name, destination: name }] },
					watchSchema: { destination: name },
				}),
			),
		),
	) as unknown;
	const deliveries = manifestDeliveries(answer);
	expect([...deliveries.keys()].sort()).toEqual([...PROTOTYPE_NAMES].sort());
	for (const name of PROTOTYPE_NAMES) {
		expect(deliveryMark(deliveries, name)).toBe(
			`read results of ${name} (${name}); schema changes of ${name}`,
		);
	}
});

test('a mark names at most 3 integrations per kind and 4 objects per integration', () => {
	const objects = ['a', 'b', 'c', 'd', 'e', 'f'].map((objectName) => ({
		objectName,
		destination: 'hook',
	}));
	const deliveries = manifestDeliveries(
		['i1', 'i2', 'i3', 'i4', 'i5'].map((name) => integration(name, { read: { objects } })),
	);
	expect(deliveryMark(deliveries, 'hook')).toBe(
		'read results of i1 (a, b, c, d and 2 more), i2 (a, b, c, d and 2 more), i3 (a, b, c, d and 2 more) and 2 more',
	);
});
