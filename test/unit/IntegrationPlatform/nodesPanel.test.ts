/**
 * What n8n 2.41's nodes panel searches (docs/n8n-notes.md, "The nodes panel and the Docs link"):
 * a node's display name and its codex aliases, not its actions. The words users type for the
 * action node's everyday operations must be among them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

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
