/**
 * What n8n 2.41's nodes panel searches (docs/n8n-notes.md, "The nodes panel and the Docs link"):
 * a node's display name and its codex aliases, not its actions. The words users type for the
 * action node's everyday operations must be among them, and their actions must lead the node's
 * action list.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';

const codex = JSON.parse(
	fs.readFileSync(
		path.join(__dirname, '../../../nodes/IntegrationPlatform/IntegrationPlatform.node.json'),
		'utf8',
	),
) as { alias: string[] };
const searched = [new IntegrationPlatform().description.displayName, ...codex.alias];

test.each(['write records', 'search records', 'proxy', 'Ampersand'])(
	'searching "%s" finds the action node',
	(query) => {
		expect(searched.filter((text) => text.toLowerCase().includes(query.toLowerCase()))).not.toEqual(
			[],
		);
	},
);

/**
 * What the panel shows once the node is chosen: a community node's actions come in a "Node
 * details" view without a search box, grouped by resource in the order of the Resource options
 * and, within a resource, of its Operation options. So the everyday actions lead the list.
 */
describe('the order of the actions', () => {
	const properties = new IntegrationPlatform().description.properties;
	const options = (property?: INodeProperties) =>
		(property?.options ?? []) as INodePropertyOptions[];
	const resources = options(properties.find((p) => p.name === 'resource'));
	const actionsOf = (resource: string) =>
		options(
			properties.find(
				(p) =>
					p.name === 'operation' &&
					(p.displayOptions?.show?.resource as unknown[] | undefined)?.includes(resource),
			),
		).map((o) => o.action);

	test('Record and Provider API come first, the other resources alphabetically', () => {
		const names = resources.map((r) => r.name);
		expect(names.slice(0, 2)).toEqual(['Record', 'Provider API']);
		const rest = names.slice(2);
		expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b)));
		expect(rest).toHaveLength(22);
	});

	test("Record's first actions include writing and searching records", () => {
		expect(actionsOf('records').slice(0, 4)).toEqual(
			expect.arrayContaining(['Write records', 'Search records']),
		);
	});
});
