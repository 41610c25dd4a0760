/**
 * The action node's output schemas in a real n8n (docs/architecture.md, "Output schemas"): the
 * editor asks n8n's server for `/schemas/<node type>/<version as x.y.z>/<resource>/<operation>.json`
 * to preview a node that has not run, and the server looks for the file in the `__schema__` folder
 * next to the installed package's compiled node. Asked as the editor asks (no session cookie),
 * the server answers every operation of every node version with the committed schema, and 404
 * for an operation the node does not have; the triggers' previews
 * (`/schemas/<node type>/<version>.json`) get theirs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { n8nClient } from '../harness/e2eContext';
import {
	NODE_TYPE,
	nodeVersions,
	operationsOf,
	paddedVersion,
	SCHEMA_DIR,
	schemaFile,
} from '../harness/outputSchemas';

// fetch, once more when n8n had closed the pooled connection (test/harness/n8n/restClient.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { send } = require('../harness/n8n/restClient') as { send: typeof fetch };

const versions = nodeVersions();
const schemaUrl = (version: number, resource: string, operation: string) =>
	`${n8nClient().baseUrl}/schemas/${NODE_TYPE}/${paddedVersion(version)}/${resource}/${operation}.json`;

describe.each(versions)('node version %s', (version) => {
	test("the server answers each operation's preview request with its schema", async () => {
		const wrong: string[] = [];
		const operations = operationsOf(version);
		for (const { resource, operation } of operations) {
			const res = await send(schemaUrl(version, resource, operation));
			const committed = JSON.parse(
				fs.readFileSync(path.join(SCHEMA_DIR, schemaFile(version, resource, operation)), 'utf8'),
			) as unknown;
			const type = res.headers.get('content-type') ?? '';
			if (res.status !== 200 || !/^application\/json\b/.test(type)) {
				wrong.push(`${resource}/${operation}: HTTP ${res.status} ${type}`);
				continue;
			}
			// What the editor reads: the committed schema, with type and properties at the top.
			const served = (await res.json()) as unknown;
			if (JSON.stringify(served) !== JSON.stringify(committed)) {
				wrong.push(`${resource}/${operation}: not the committed schema`);
			}
		}
		expect(wrong).toEqual([]);
		expect(operations.length).toBeGreaterThanOrEqual(80);
	});

	test('an operation the node does not have gets 404', async () => {
		const res = await send(schemaUrl(version, 'records', 'noSuchOperation'));
		expect(res.status).toBe(404);
	});
});

test('a version the node does not have gets 404', async () => {
	const res = await send(schemaUrl(Math.max(...versions) + 1, 'records', 'write'));
	expect(res.status).toBe(404);
});

describe.each([
	['integrationPlatformLogTrigger', 'IntegrationPlatformLogTrigger', [1, 2, 3]],
	['integrationPlatformTrigger', 'IntegrationPlatformTrigger', [2, 3]],
] as const)('%s', (name, folder, triggerVersions) => {
	test.each(triggerVersions)(
		'version %s: the preview request gets the committed schema (no resource or operation)',
		async (version) => {
			const url = `${n8nClient().baseUrl}/schemas/n8n-nodes-integration-platform.${name}/${paddedVersion(version)}.json`;
			const res = await send(url);
			expect(res.status).toBe(200);
			const committed = JSON.parse(
				fs.readFileSync(
					path.join(
						__dirname,
						'..',
						'..',
						'nodes',
						folder,
						'__schema__',
						`v${paddedVersion(version)}.json`,
					),
					'utf8',
				),
			) as unknown;
			expect(await res.json()).toEqual(committed);
		},
	);
});
