/**
 * nodes/common/locator.ts: every resource locator of the package has one shape, a required
 * searchable list first, then the typed modes in the order given.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, UserError } from 'n8n-workflow';

import {
	byName,
	currentValue,
	idOf,
	listLocator,
	listOrReason,
	textOf,
	typedMode,
	withReason,
} from '../../../nodes/common/locator';
import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { answeringContext } from '../../harness/listSearch';

test('a locator: required, empty list choice by default, searchable list, then the typed modes', () => {
	const field = listLocator({
		displayName: 'Topic',
		name: 'topic',
		description: 'The topic',
		search: 'searchTopics',
		select: 'Select a topic…',
		typed: [byName('orders'), typedMode('By ID', 'id', '2d4f…')],
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
		typed: [byName('acme')],
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

describe('currentValue: a parameter as a list sees it', () => {
	const { properties } = new IntegrationPlatform().description;
	const at = (path: string, current: Record<string, unknown>) =>
		answeringContext(() => ({ body: [] }), { current, path, properties, typeVersion: 2 });
	const rl = (value: string) => ({ __rl: true, mode: 'id', value });
	const filters = { resource: 'connection', operation: 'getAll' };

	test('beside the list in its collection, when the list is an option of one', () => {
		const context = at('parameters.connectionFilters.consumerRef', {
			...filters,
			connectionFilters: { groupRef: rl(' acme ') },
		});
		expect(currentValue(context, 'groupRef')).toBe('acme');
	});

	test('at the top for a top-level list; a value n8n does not show there is not given', () => {
		const oauth = at('parameters.consumerRef', {
			resource: 'oauth',
			operation: 'getAuthorizationUrl',
			groupRef: rl('acme'),
		});
		expect(currentValue(oauth, 'groupRef')).toBe('acme');
		// Left over from another operation: n8n finds no Group shown for Connection → Get Many.
		const leftOver = at('parameters.connectionFilters.consumerRef', {
			...filters,
			groupRef: rl('acme'),
			connectionFilters: {},
		});
		expect(currentValue(leftOver, 'groupRef')).toBe('');
	});
});

describe('withReason: a list method fails only with a reason', () => {
	const context = answeringContext(() => ({ body: [] }));

	test('any error becomes a UserError with its message (n8n answers it with 400, not 500)', async () => {
		const failing = withReason(async () => {
			throw new NodeOperationError({ name: 'n' } as INode, 'No topics yet', {
				description: 'why',
			});
		});
		const error = await failing.call(context).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(UserError);
		expect(error).toMatchObject({ message: 'No topics yet', description: 'why' });
		const typeError = withReason(async () => {
			throw new TypeError('x.trim is not a function');
		});
		await expect(typeError.call(context)).rejects.toBeInstanceOf(UserError);
	});

	test("an API error's description joins its message, which the editor shows alone", async () => {
		const failing = withReason(async () => {
			throw new NodeApiError(
				{ name: 'n' } as INode,
				{},
				{
					message: 'Forbidden',
					description: 'The key has no access to this project',
				},
			);
		});
		await expect(failing.call(context)).rejects.toThrow(
			'Forbidden. The key has no access to this project',
		);
	});
});

describe('textOf and idOf: only text is a name or an ID', () => {
	test.each([
		['Acme', 'Acme', 'Acme'],
		[42, '42', undefined],
		[null, undefined, undefined],
		[{}, undefined, undefined],
		[['a'], undefined, undefined],
		['  ', undefined, undefined],
	])('%p', (value, name, id) => {
		expect(textOf(value)).toBe(name);
		expect(idOf(value)).toBe(id);
	});
});
