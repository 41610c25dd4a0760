/**
 * Errors name the node's fields, not the API's inputs (routing/issueFields.ts): a query or body
 * input by the template slot it fills, a path parameter by the value it carried.
 */
import { issueLabeler } from '../../../../nodes/IntegrationPlatform/routing/issueFields';
import { setPathValue } from '../../../../nodes/IntegrationPlatform/routing/templates';
import type { PlaceholderFields } from '../../../../nodes/IntegrationPlatform/routing/templates';

const fields: PlaceholderFields = {
	project: { label: 'Project', secret: false },
	integration: { label: 'Integration', secret: false },
	groupRef: { label: 'Group', secret: false },
	topicId: { label: 'Topic', secret: false },
};

/** One item's context, with the values its request sent (as resolveRequest records them). */
function itemSent(values: Record<string, string>): object {
	const context = {};
	for (const [name, value] of Object.entries(values)) setPathValue(context, name, value);
	return context;
}

const labeler = issueLabeler(
	{ qs: { groupRef: '{groupRef}' }, body: { route: { topicId: '{topicId}' } } },
	fields,
);

test('a path parameter under the API’s own name is the field that sent its value', () => {
	const labelOf = labeler(itemSent({ project: 'nope', integration: 'i-1' }));
	expect(labelOf({ in: 'path', name: 'projectIdOrName', value: 'nope' })).toBe('Project');
	expect(labelOf({ in: 'path', name: 'integrationId', value: 'i-1' })).toBe('Integration');
});

test('query and body inputs by the slot they fill, by name or JSON pointer', () => {
	const labelOf = labeler(itemSent({}));
	expect(labelOf({ in: 'query', name: 'groupRef' })).toBe('Group');
	expect(labelOf({ in: 'body', name: 'route.topicId' })).toBe('Topic');
	expect(labelOf({ in: 'body', name: '/route/topicId' })).toBe('Topic');
});

test('no guess: unknown inputs, a body value equal to a path value, two fields with one value', () => {
	const labelOf = labeler(itemSent({ project: 'same', integration: 'same' }));
	expect(labelOf({ in: 'query', name: 'pageSize', value: 5 })).toBeUndefined();
	expect(labelOf({ in: 'body', name: 'name', value: 'same' })).toBeUndefined();
	expect(labelOf({ in: 'path', name: 'projectIdOrName', value: 'same' })).toBeUndefined();
	expect(labelOf({ in: 'path', name: 'projectIdOrName', value: 'other' })).toBeUndefined();
});
