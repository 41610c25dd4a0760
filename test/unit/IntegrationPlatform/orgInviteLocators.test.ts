/**
 * Organization and Invite are resource locators (From List / By ID) wherever the Organization and
 * Invite resources show them, with list searches the node registers.
 */
import type { INodeProperties } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';

const node = new IntegrationPlatform();
const properties = node.description.properties as INodeProperties[];
const shownFor = (property: INodeProperties, resource: string) =>
	property.displayOptions?.show?.resource?.includes(resource) ?? false;

describe.each([
	['orgId', 'organization', 'searchOrganizations'],
	['orgId', 'invite', 'searchOrganizations'],
	['inviteId', 'invite', 'searchInvites'],
])('%s on %s', (name, resource, search) => {
	const fields = properties.filter((p) => p.name === name && shownFor(p, resource));

	test('is a required resource locator from a list or by ID, empty by default', () => {
		expect(fields.length).toBeGreaterThan(0);
		for (const field of fields) {
			expect(field).toMatchObject({
				type: 'resourceLocator',
				required: true,
				default: { mode: 'list', value: '' },
			});
			expect(field.modes?.map((m) => [m.name, m.type])).toEqual([
				['list', 'list'],
				['id', 'string'],
			]);
			expect(field.modes?.[0].typeOptions).toEqual({ searchListMethod: search, searchable: true });
		}
	});

	test('its search is registered on the node', () => {
		expect(typeof node.methods.listSearch[search as keyof typeof node.methods.listSearch]).toBe(
			'function',
		);
	});
});

test('no Organization or Invite operation has a text field for an organization or invite ID', () => {
	const text = properties.filter(
		(p) =>
			(p.name === 'orgId' || p.name === 'inviteId') &&
			p.type !== 'resourceLocator' &&
			(shownFor(p, 'organization') || shownFor(p, 'invite')),
	);
	expect(text).toEqual([]);
});
