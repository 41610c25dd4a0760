/**
 * nodes/common/locator.ts: every resource locator of the package has one shape, a required
 * searchable list first, then the typed modes in the order given.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { byId, byName, listLocator, listOrReason, typedMode } from '../../../nodes/common/locator';

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

test('a filter locator (an option of a collection) is not required', () => {
	const field = listLocator({
		displayName: 'Group',
		name: 'groupRef',
		search: 'searchGroupRefs',
		select: 'Select a group…',
		typed: [byId('acme')],
		required: false,
	});
	expect(field.required).toBeUndefined();
	expect(field.type).toBe('resourceLocator');
});

describe('listOrReason: an empty list says why', () => {
	const node = { name: 'Integration Platform' } as INode;
	const items = [{ name: 'Acme', value: 'acme' }];

	test('a list with items is the answer, in the order given', () => {
		expect(listOrReason(node, items, undefined, 'none')).toEqual({ results: items });
	});

	test('empty without a search term: an error with the reason, which the editor shows', () => {
		const empty = () => listOrReason(node, [], '  ', 'No topics yet: create one');
		expect(empty).toThrow(NodeOperationError);
		expect(empty).toThrow('No topics yet: create one');
	});

	test('empty for a search term: nothing matches, an empty answer', () => {
		expect(listOrReason(node, [], 'zzz', 'No topics yet')).toEqual({ results: [] });
	});
});
