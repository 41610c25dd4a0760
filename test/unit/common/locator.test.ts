/**
 * nodes/common/locator.ts: every resource locator of the package has one shape, a required
 * searchable list first, then the typed modes in the order given.
 */
import { byId, byName, listLocator, typedMode } from '../../../nodes/common/locator';

test('a locator: required, empty list choice by default, searchable list, then the typed modes', () => {
	const field = listLocator({
		displayName: 'Topic',
		name: 'topic',
		description: 'The topic',
		search: 'searchTopics',
		select: 'Select a topic…',
		typed: [byName('orders'), byId('2d4f…')],
		displayOptions: { show: { resource: ['topic'] } },
	});
	expect(field).toEqual({
		displayName: 'Topic',
		name: 'topic',
		description: 'The topic',
		displayOptions: { show: { resource: ['topic'] } },
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a topic…',
				typeOptions: { searchListMethod: 'searchTopics', searchable: true },
			},
			{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. orders' },
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 2d4f…' },
		],
	});
});

test('a typed mode may show one label and be read under another mode name', () => {
	expect(typedMode('By Name', 'id', 'contacts')).toEqual({
		displayName: 'By Name',
		name: 'id',
		type: 'string',
		placeholder: 'e.g. contacts',
	});
});
