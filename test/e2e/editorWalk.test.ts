/**
 * A new user's first hour in the editor, in headless Chromium (test/harness/browser.ts), against
 * the e2e run's n8n and a simulator of this file: what issue-level checks of the editor
 * experience ask for, each step as a user takes it, with screenshots for docs/images/.
 *
 * - A new action node starts on an operation that changes nothing, and so does every resource the
 *   user switches to (version 2's defaults).
 * - Record → Write built from scratch: chosen from the nodes panel by searching "write records",
 *   Project, Integration, Group and Object picked from their lists, the fields mapped one by one
 *   in n8n's resource mapper (from the installation's object metadata), run from the canvas: the
 *   record reaches the simulator with exactly the mapped values.
 * - The event trigger listening for a test event receives the simulator's delivery command.
 * - The schema preview of an action node that has not run: the next node's input shows the
 *   fields of the node's output schema, and the editor's request for it is not a 404.
 *
 * The browser console must stay free of errors throughout (the harness's short allow-list aside).
 */
import type { Page } from 'playwright-core';

import { SEED } from '../harness/actionEngine';
import {
	closePanel,
	describeProblems,
	dismissToasts,
	expectVisible,
	openEditor,
	screenshot,
	signIn,
	type EditorSession,
} from '../harness/browser';
import { readExample, setUpE2e, type E2eContext } from '../harness/e2eContext';
import { until } from '../harness/wait';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OWNER } = require('../harness/n8n/bootstrap') as {
	OWNER: { email: string; password: string };
};

jest.setTimeout(180_000);

const started = Date.now();
const steps: Array<{ step: string; seconds: number }> = [];
let ctx: E2eContext;
let n8nUrl: string;
let editor: EditorSession;
let page: Page;
const screenshots: string[] = [];

beforeAll(async () => {
	// n8n is served over plain http on this machine, as npm start serves it.
	// A label of its own: credentials of other runs in the same n8n may carry the same name.
	ctx = await setUpE2e(`editor walk ${Date.now().toString(36)}`, { httpsWebhooksOnly: false });
	n8nUrl = ctx.n8n.baseUrl;
	editor = await openEditor(n8nUrl);
	page = editor.page;
	page.on('dialog', (dialog) => void dialog.accept());
	await signIn(page, n8nUrl, OWNER);
});

afterAll(async () => {
	await editor?.close();
	await ctx?.sim.close();
	process.stderr.write(
		[
			`[e2e] editor walk: ${((Date.now() - started) / 1000).toFixed(1)} s in headless Chromium`,
			...steps.map((s) => `  ${s.step}: ${s.seconds.toFixed(1)} s`),
			`  console errors: ${editor?.problems.length} (allowed n8n noise: ${JSON.stringify(editor?.allowed)})`,
			`  screenshots: ${screenshots.join(', ')}`,
		].join('\n') + '\n',
	);
});

/** Runs one step of the walk and records how long it took. */
async function step(name: string, body: () => Promise<void>): Promise<void> {
	const at = Date.now();
	await body();
	steps.push({ step: name, seconds: (Date.now() - at) / 1000 });
}

/** The text a parameter's input shows (its input's value and its text). */
async function shownValue(name: string): Promise<string> {
	const input = page.getByTestId('ndv').getByTestId(`parameter-input-${name}`);
	await expectVisible(input, `parameter ${name}`, page.getByTestId('ndv'));
	return await input.evaluate((el) =>
		`${el.querySelector('input')?.value ?? ''} ${el.textContent ?? ''}`.trim(),
	);
}

/** Picks the option named `option` in the options parameter `name` of the open panel. */
async function choose(name: string, option: string): Promise<void> {
	await page.getByTestId('ndv').getByTestId(`parameter-input-${name}`).click();
	await page
		.locator('.el-popper:visible [data-test-id="parameter-input-item"]')
		.filter({ has: page.locator('.option-headline', { hasText: new RegExp(`^${option}$`) }) })
		.first()
		.click();
}

/** Picks `entry` from the list of the resource locator `name` of the open panel. */
async function pickFromList(name: string, entry: RegExp): Promise<void> {
	const locator = page.getByTestId('ndv').getByTestId(`resource-locator-${name}`);
	await expectVisible(locator, `the ${name} list`, page.getByTestId('ndv'));
	await locator.getByTestId('rlc-input').click();
	const item = page.getByTestId('rlc-item').filter({ hasText: entry }).first();
	await expectVisible(item, `${entry} in the ${name} list`, page.locator('body'));
	await item.click();
}

/** Opens a workflow created through the API in the editor. */
async function openWorkflow(workflow: { id: string }): Promise<void> {
	await page.goto(`${n8nUrl}/workflow/${workflow.id}`);
	await expectVisible(page.getByTestId('canvas-node').first(), 'the workflow on the canvas');
}

/** Opens a new workflow holding a Manual Trigger and opens the nodes panel after it. */
async function addAfterStart(name: string): Promise<void> {
	const workflow = await ctx.n8n.createWorkflow({
		name,
		nodes: [
			{
				parameters: {},
				id: crypto.randomUUID(),
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
		],
		connections: {},
	});
	await openWorkflow(workflow);
	await page.getByTestId('canvas-handle-plus').first().click();
}

test('a new action node starts on a read, and so does every resource it is switched to', async () => {
	await step('resource switch', async () => {
		await addAfterStart('editor walk: defaults');
		await page.getByTestId('node-creator-search-bar').fill('Integration Platform');
		await page
			.getByTestId('node-creator-item-name')
			.filter({ hasText: /^Integration Platform$/ })
			.click();
		await page
			.getByTestId('node-creator-item-name')
			.filter({ hasText: /^Get many projects$/ })
			.click();
		await expectVisible(page.getByTestId('ndv'), 'the action node panel');
		expect(await shownValue('operation')).toContain('Get Many');

		// Each resource whose first operation used to delete or change something.
		const lands: Record<string, string> = {};
		for (const resource of [
			'API Key',
			'Topic',
			'Notification Event Topic Route',
			'Installation',
			'JWT Key',
			'Organization',
			'Connection',
			'Claimed Domain',
			'Custom Field',
			'Record',
		]) {
			await choose('resource', resource);
			lands[resource] = (await shownValue('operation')).split('\n')[0].trim();
		}
		expect(lands).toEqual({
			'API Key': 'Get Many',
			Topic: 'Get Many',
			'Notification Event Topic Route': 'Get Many',
			Installation: 'Get Many',
			'JWT Key': 'Get Many',
			Organization: 'Get',
			Connection: 'Get Many',
			'Claimed Domain': 'Get Many',
			'Custom Field': 'Get Many',
			Record: 'Search',
		});
		const title = await page.getByTestId('ndv').getByTestId('node-title-container').innerText();
		expect(title).not.toMatch(/delete|update|claim|generate|unpause/i);
		await choose('resource', 'API Key');
		screenshots.push(await screenshot(page, 'resource-switch.png'));
		await closePanel(page);
	});
});

test('Record → Write built from scratch: found by searching, lists, fields mapped one by one', async () => {
	await step('Record → Write with the resource mapper', async () => {
		await addAfterStart('editor walk: write a contact');
		// What a user types: the codex aliases make the search find the action node.
		await page.getByTestId('node-creator-search-bar').fill('write records');
		await page
			.getByTestId('node-creator-item-name')
			.filter({ hasText: /^Integration Platform$/ })
			.click();
		await page
			.getByTestId('node-creator-item-name')
			.filter({ hasText: /^Write records$/ })
			.click();
		const ndv = page.getByTestId('ndv');
		await expectVisible(ndv, 'the Write records panel');
		expect(await shownValue('resource')).toContain('Record');
		expect(await shownValue('operation')).toContain('Write');

		// n8n preselects the credential updated last (the token): Write needs the API key.
		const credential = ndv.getByTestId('node-credentials-select').first();
		await credential.click();
		await page
			.locator('.el-popper:visible [role="option"]')
			.filter({ hasText: ctx.credentials.integrationPlatformApi.name })
			.first()
			.click();
		await until(
			'the API key credential chosen',
			async () =>
				(
					await credential.evaluate((el) => el.querySelector('input')?.value ?? el.textContent)
				)?.includes(ctx.credentials.integrationPlatformApi.name),
			60_000,
		);

		await pickFromList('project', new RegExp(SEED.projectName));
		await pickFromList('integration', new RegExp(SEED.integrationName));
		await pickFromList('groupRef', new RegExp(SEED.groupRef));
		await pickFromList('object', /^contacts/);

		// The mapper lists the object's writable fields from its metadata.
		const fields = ndv.getByTestId('mapping-fields-container');
		await expectVisible(fields, 'the mapped fields', ndv);
		const field = (label: string) =>
			fields.locator('.parameter-item').filter({ hasText: label }).locator('input').first();
		await expectVisible(field('Email (email)'), 'the Email field', fields);
		expect(await fields.innerText()).not.toContain('Create Date');
		// Required fields are listed; the others are added by choice, so none is written unasked.
		expect(await fields.innerText()).not.toContain('Unsubscribed from all email');
		await field('Email (email)').fill('walk@acme.example');
		screenshots.push(await screenshot(page, 'records-mapper.png'));

		const before = contactsByEmail('walk@acme.example');
		expect(before).toEqual([]);
		await ndv.getByTestId('node-execute-button').click();
		const output = page.getByTestId('output-panel');
		await expectVisible(output.getByTestId('ndv-items-count'), 'the written record', ndv);
		expect(await output.getByTestId('ndv-items-count').innerText()).toBe('1 item');
		const written = contactsByEmail('walk@acme.example');
		expect(written).toEqual([{ email: 'walk@acme.example' }]);
		screenshots.push(await screenshot(page, 'records-written.png'));
		await closePanel(page);
	});
});

function contactsByEmail(email: string): Array<Record<string, unknown>> {
	const records = (
		ctx.sim.state as unknown as {
			records: Map<string, Map<string, { fields: Record<string, unknown> }>>;
		}
	).records.get(`${SEED.installationId}/contacts`);
	return [...(records?.values() ?? [])]
		.map((record) => record.fields)
		.filter((fields) => fields.email === email);
}

test('the event trigger listening for a test event receives the simulator’s delivery', async () => {
	await step('event trigger listening', async () => {
		const example = readExample('event-trigger.json');
		example.name = 'editor walk: event trigger';
		const trigger = example.nodes.find(
			(n: { type: string }) =>
				n.type === 'n8n-nodes-integration-platform.integrationPlatformTrigger',
		);
		Object.assign(trigger, { typeVersion: 3, webhookId: crypto.randomUUID() });
		Object.assign(trigger.parameters, {
			destinationName: { __rl: true, mode: 'list', value: SEED.destinationName },
			objectNames: ['contacts'],
		});
		const workflow = await ctx.n8n.createWorkflow(example, ctx.credentials);
		await openWorkflow(workflow);
		await page
			.getByTestId('canvas-node')
			.filter({ hasText: 'Integration Platform Trigger' })
			.dblclick();
		const ndv = page.getByTestId('ndv');
		await expectVisible(ndv.getByTestId('node-execute-button'), 'the trigger panel’s test button');
		await ndv.getByTestId('node-execute-button').click();
		await expectVisible(
			ndv.getByText(/Listening for test event/i).first(),
			'the panel listening',
			ndv,
		);
		// The trigger registers its test destination when n8n starts listening.
		const testName = `${SEED.destinationName}-test`;
		await until(`the "${testName}" destination`, () => registered(testName), 30_000, 200);
		screenshots.push(await screenshot(page, 'trigger-listening.png'));

		// The command `npm start` prints.
		const sent = Date.now();
		const response = await fetch(`${ctx.sim.apiUrl}/__sim/emit/read`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				objectName: 'contacts',
				records: [{ fields: { email: 'jo@example.com' } }],
			}),
		});
		expect(response.status).toBe(201);
		const output = page.getByTestId('output-panel');
		await expectVisible(output.getByTestId('ndv-items-count'), 'the received event', ndv);
		const received = (Date.now() - sent) / 1000;
		expect(received).toBeLessThan(10);
		await output.getByTestId('radio-button-json').click();
		await expectVisible(
			output.getByTestId('ndv-data-container').getByText('jo@example.com').first(),
			'the delivered record in the output',
			output,
		);
		const json = await output.getByTestId('ndv-data-container').innerText();
		expect(json).toMatch(/"verified":\s*true/);
		screenshots.push(await screenshot(page, 'trigger-received.png'));
		steps.push({ step: 'delivery command → event shown in the panel', seconds: received });
		await closePanel(page);
	});
});

function registered(name: string): boolean {
	const destinations = (ctx.sim.state as unknown as { destinations: Map<string, { name: string }> })
		.destinations;
	return [...destinations.values()].some((d) => d.name === name);
}

test('an action node that has not run shows its output schema to the next node', async () => {
	await step('schema preview', async () => {
		const example = readExample('destination-get.json');
		example.name = 'editor walk: schema preview';
		const action = example.nodes.find(
			(n: { type: string }) => n.type === 'n8n-nodes-integration-platform.integrationPlatform',
		);
		action.typeVersion = 2;
		example.nodes.push({
			parameters: {},
			id: 'a0000000-0000-4000-8000-000000000009',
			name: 'Use the destination',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [480, 0],
		});
		example.connections[action.name] = {
			main: [[{ node: 'Use the destination', type: 'main', index: 0 }]],
		};
		const workflow = await ctx.n8n.createWorkflow(example, ctx.credentials);
		await openWorkflow(workflow);
		const schemaRequests: Array<{ url: string; status: number }> = [];
		const watch = (response: { url(): string; status(): number }) => {
			if (response.url().includes('/schemas/')) {
				schemaRequests.push({ url: response.url(), status: response.status() });
			}
		};
		page.on('response', watch);
		try {
			await page.getByTestId('canvas-node').filter({ hasText: 'Use the destination' }).dblclick();
			const input = page.getByTestId('ndv-input-panel');
			await expectVisible(input, 'the input panel', page.getByTestId('ndv'));
			await input.getByRole('radio', { name: 'Schema' }).click();
			for (const field of ['id', 'name', 'type', 'metadata']) {
				await expectVisible(
					input
						.getByTestId('run-data-schema-item')
						.locator('span')
						.filter({ hasText: new RegExp(`^${field}$`) })
						.first(),
					`the previewed field ${field}`,
					input,
				);
			}
			await dismissToasts(page);
			screenshots.push(await screenshot(page, 'schema-preview.png'));
			await closePanel(page);
		} finally {
			page.off('response', watch);
		}
		expect(schemaRequests).toEqual([
			{
				url: expect.stringMatching(
					/\/schemas\/[^/]+\.integrationPlatform\/2\.0\.0\/destination\/get\.json$/,
				),
				status: 200,
			},
		]);
	});
});

test('the browser console stayed free of errors', () => {
	if (editor.problems.length) {
		throw new Error(
			`${editor.problems.length} browser error(s):\n${describeProblems(editor.problems)}`,
		);
	}
	expect(editor.problems).toEqual([]);
});
