/**
 * A trigger's output in the next node's input, in n8n 2.41.1's editor (headless Chromium,
 * test/harness/browser.ts), walked as a user would: open the node after a trigger that has not
 * run and read its input panel.
 *
 * n8n 2.41's editor asks the server for the trigger's schema (`/schemas/<type>/<version>.json`,
 * answered 200 from the package's `__schema__` folder), but its schema view refuses a preview for
 * any node whose `group` holds "trigger" (docs/n8n-notes.md, "A trigger's output in the next
 * node"): the panel says "Execute previous nodes" instead. What the user does instead is what this
 * file checks last: that link runs the trigger once (the log trigger's Fetch Test Event, which
 * leaves the cursor alone) and the input then shows the trigger's fields.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { Locator } from 'playwright-core';

import { closePanel, describeProblems, expectVisible } from '../../harness/browser';
import { editorWalk } from '../../harness/editorWalk';
import { n8nClient, readExample, type N8nClient } from '../../harness/e2eContext';
import { SEED, startSimulator, type LogSimulator } from '../../harness/logTriggerEngine';

jest.setTimeout(180_000);

const PACKAGE = 'n8n-nodes-integration-platform';
const NEXT = 'Use the output';

let n8n: N8nClient;
let sim: LogSimulator;
let credential: { id: string; name: string };

const walk = editorWalk(
	'trigger preview',
	async () => {
		n8n = n8nClient();
		sim = await startSimulator();
		credential = await n8n.createCredential({
			type: 'integrationPlatformApi',
			name: `Simulator API key (preview ${Date.now().toString(36)})`,
			data: { apiKey: SEED.apiKey, baseUrl: sim.apiUrl, readUrl: sim.readUrl },
		});
		return n8n.baseUrl;
	},
	async () => {
		await sim?.close();
	},
);

/**
 * A workflow of an example's trigger (at `typeVersion`) followed by a No Operation node, created
 * through n8n's API and opened in the editor.
 */
async function openTriggerThenNext(
	exampleFile: string,
	typeVersion: number,
	name: string,
): Promise<string> {
	const example = readExample(exampleFile);
	const trigger = example.nodes.find((n: { type: string }) => n.type.startsWith(`${PACKAGE}.`));
	trigger.typeVersion = typeVersion;
	example.name = `${name} ${Date.now().toString(36)}`;
	example.nodes = [
		trigger,
		{
			parameters: {},
			id: 'a0000000-0000-4000-8000-00000000000a',
			name: NEXT,
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [480, 0],
		},
	];
	example.connections = { [trigger.name]: { main: [[{ node: NEXT, type: 'main', index: 0 }]] } };
	const workflow = await n8n.createWorkflow(example, { integrationPlatformApi: credential });
	await walk.page.goto(`${n8n.baseUrl}/workflow/${workflow.id}`);
	await expectVisible(walk.page.getByTestId('canvas-node').first(), 'the workflow on the canvas');
	return trigger.name as string;
}

/** Opens the next node's panel, watching the editor's schema requests meanwhile. */
async function openNext(): Promise<{
	input: Locator;
	schemaRequests: Array<{ url: string; status: number }>;
}> {
	const schemaRequests: Array<{ url: string; status: number }> = [];
	const watch = (response: { url(): string; status(): number }) => {
		if (response.url().includes('/schemas/')) {
			schemaRequests.push({ url: response.url(), status: response.status() });
		}
	};
	walk.page.on('response', watch);
	try {
		await walk.page.getByTestId('canvas-node').filter({ hasText: NEXT }).dblclick();
		const input = walk.page.getByTestId('ndv-input-panel');
		await expectVisible(input, 'the input panel', walk.page.getByTestId('ndv'));
		// The request is sent as the panel opens; wait until its answer is in (or 10 s).
		for (const until = Date.now() + 10_000; !schemaRequests.length && Date.now() < until; ) {
			await walk.page.waitForTimeout(100);
		}
		return { input, schemaRequests };
	} finally {
		walk.page.off('response', watch);
	}
}

/** The names of the fields the input panel's schema view shows. */
async function schemaFields(input: Locator): Promise<string[]> {
	const names = await input
		.getByTestId('run-data-schema-item')
		.locator('.title')
		.allInnerTexts()
		.catch(() => []);
	return names.map((n) => n.trim()).filter(Boolean);
}

/** The top-level fields of a trigger's committed schema (what a preview would list). */
function schemaProperties(folder: string, version: number): string[] {
	const file = path.join(
		__dirname,
		'..',
		'..',
		'..',
		'nodes',
		folder,
		'__schema__',
		`v${version}.0.0.json`,
	);
	const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as { properties: object };
	return Object.keys(schema.properties);
}

describe.each([
	['the log trigger', 'log-trigger.json', 'IntegrationPlatformLogTrigger', 2],
	['the event trigger', 'event-trigger.json', 'IntegrationPlatformTrigger', 3],
] as const)('%s', (what, exampleFile, folder, version) => {
	const type = folder.charAt(0).toLowerCase() + folder.slice(1);
	test(`the next node's input asks to execute the trigger: n8n 2.41 requests the trigger's schema (200) but does not preview a trigger`, async () => {
		await walk.step(`${what}: the next node's input before any run`, async () => {
			await openTriggerThenNext(exampleFile, version, `preview: ${what}`);
			const { input, schemaRequests } = await openNext();
			const link = input.getByText('Execute previous nodes').first();
			await expectVisible(link, 'the "Execute previous nodes" link', input);
			// The schema view lists n8n's variables ($now, $vars …) but none of the trigger's fields.
			const trigger = schemaProperties(folder, version);
			expect(trigger.length).toBeGreaterThan(0);
			const shown = await schemaFields(input);
			expect(shown).toContain('$now');
			expect(shown.filter((field) => trigger.includes(field))).toEqual([]);
			if (folder === 'IntegrationPlatformLogTrigger') {
				await walk.screenshot('trigger-input-before-run.png');
			}
			expect(schemaRequests).toContainEqual({
				url: expect.stringMatching(
					new RegExp(`/schemas/${PACKAGE}\\.${type}/${version}\\.0\\.0\\.json$`),
				),
				status: 200,
			});
			await closePanel(walk.page);
		});
	});
});

test('"Execute previous nodes" runs the log trigger once and the input then shows its fields', async () => {
	await walk.step('the log trigger: execute previous nodes from the next node', async () => {
		// Version 1 of the example watches the simulator's seeded operation by its ID.
		await openTriggerThenNext('log-trigger.json', 1, 'preview: fetch test event');
		const { input } = await openNext();
		await input.getByText('Execute previous nodes').first().click();
		const schema = input.getByRole('radio', { name: 'Schema' });
		await expectVisible(schema, 'the Schema view switch', input);
		await schema.click();
		for (const field of ['severity', 'message', 'operationId', 'entryKey']) {
			await expectVisible(
				input
					.getByTestId('run-data-schema-item')
					.locator('span')
					.filter({ hasText: new RegExp(`^${field}$`) })
					.first(),
				`the trigger's field ${field}`,
				input,
			);
		}
		await walk.screenshot('trigger-input-after-fetch.png');
		await closePanel(walk.page);
	});
});

test('the browser console stayed free of errors', () => {
	if (walk.editor.problems.length) {
		throw new Error(
			`${walk.editor.problems.length} browser error(s):\n${describeProblems(walk.editor.problems)}`,
		);
	}
	expect(walk.editor.problems).toEqual([]);
});
