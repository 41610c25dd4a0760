/**
 * Locators in the editor (issue 30, points 3 and 5), in headless Chromium against the e2e run's
 * n8n and a simulator of this file, each step as a user takes it:
 *
 * - Integration "By ID" with a name typed in: the field shows n8n's validation message, which
 *   names the mode to use;
 * - the log trigger watching operation IDs: operations picked from a list (type, integration,
 *   group, status), two of them, then "Fetch Test Event" reads both (screenshot
 *   docs/images/log-trigger-operations.png);
 * - API Key → Get: the key picked from a list that shows labels and last four characters, never a
 *   whole key.
 *
 * Step times are printed at the end.
 */
import type { Page } from 'playwright-core';

import { SEED } from '../../harness/actionEngine';
import { closePanel, describeProblems, expectVisible } from '../../harness/browser';
import { editorWalk } from '../../harness/editorWalk';
import { setUpE2e, type E2eContext } from '../../harness/e2eContext';
import { until } from '../../harness/wait';

jest.setTimeout(180_000);

const PACKAGE = 'n8n-nodes-integration-platform';
let ctx: E2eContext;

const walk = editorWalk(
	'locators',
	async () => {
		ctx = await setUpE2e(`locators ${Date.now().toString(36)}`, { httpsWebhooksOnly: false });
		return ctx.n8n.baseUrl;
	},
	async () => {
		await ctx?.sim.close();
	},
);

const project = {
	__rl: true,
	mode: 'list',
	value: SEED.projectName,
	cachedResultName: SEED.projectName,
};

/** Creates a workflow of `nodes` (after a Manual Trigger when `afterStart`), opens it and the node named `open`. */
async function openNode(
	name: string,
	node: Record<string, unknown>,
	afterStart: boolean,
): Promise<void> {
	const start = {
		parameters: {},
		id: crypto.randomUUID(),
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
	};
	const nodes = [
		...(afterStart ? [start] : []),
		{ id: crypto.randomUUID(), position: [240, 0], ...node },
	];
	const connections = afterStart
		? { Start: { main: [[{ node: node.name as string, type: 'main', index: 0 }]] } }
		: {};
	const workflow = await ctx.n8n.createWorkflow({ name, nodes, connections }, ctx.credentials);
	await walk.page.goto(`${walk.n8nUrl}/workflow/${workflow.id}`);
	const onCanvas = walk.page.getByTestId('canvas-node').filter({ hasText: node.name as string });
	await expectVisible(onCanvas.first(), `${node.name as string} on the canvas`);
	await onCanvas.first().dblclick();
	await expectVisible(walk.page.getByTestId('ndv'), 'the node panel');
}

/** Switches the locator `name` of the open panel to the mode labelled `mode`. */
async function chooseMode(name: string, mode: string): Promise<void> {
	const locator = walk.page.getByTestId('ndv').getByTestId(`resource-locator-${name}`);
	await locator.getByTestId('rlc-mode-selector').click();
	await walk.page
		.locator('.el-popper:visible [data-test-id="mode-' + mode + '"], .el-popper:visible li')
		.filter({ hasText: new RegExp(`^\\s*${mode}\\s*$`) })
		.first()
		.click();
}

/** Opens the list of a locator and returns the entries' texts once they are shown. */
async function listEntries(locator: ReturnType<Page['getByTestId']>): Promise<string[]> {
	await locator.getByTestId('rlc-input').click();
	const items = walk.page.getByTestId('rlc-item');
	await expectVisible(items.first(), 'the list entries', walk.page.locator('body'));
	return await items.allInnerTexts();
}

/**
 * The issue n8n shows for the parameter `name`: the warning mark beside the field, whose tooltip
 * lists the parameter's issues when the pointer rests on it. Returns the walk.page's text then.
 */
async function issuesOf(name: string, expected: string): Promise<string> {
	const ndv = walk.page.getByTestId('ndv');
	const icon = ndv
		.getByTestId(`parameter-input-${name}`)
		.locator('xpath=..')
		.getByTestId('parameter-issues');
	await expectVisible(icon.first(), `the issue mark of ${name}`, ndv);
	let text = '';
	await until(
		`the issue of ${name} in its tooltip`,
		async () => {
			await icon.first().hover();
			await icon
				.first()
				.locator('svg, *')
				.first()
				.hover()
				.catch(() => undefined);
			text = await walk.page.locator('body').innerText();
			return text.includes(expected);
		},
		20_000,
		250,
	);
	return text;
}

test('a name typed in Integration "By ID" is refused with the mode to use', async () => {
	await walk.step('Integration By ID: "hubspot-sync" refused', async () => {
		await openNode(
			'locators: integration by ID',
			{
				name: 'Get installation',
				type: `${PACKAGE}.integrationPlatform`,
				typeVersion: 2,
				parameters: {
					authentication: 'apiKey',
					resource: 'installation',
					operation: 'get',
					project,
				},
				credentials: { integrationPlatformApi: ctx.credentials.integrationPlatformApi },
			},
			true,
		);
		await chooseMode('integration', 'By ID');
		const input = walk.page
			.getByTestId('ndv')
			.getByTestId('resource-locator-integration')
			.getByTestId('rlc-input');
		await input.fill('hubspot-sync');
		await input.press('Tab');
		const message = 'Not an integration ID (IDs are UUIDs): pick it from the list ("From List")';
		expect(await issuesOf('integration', message)).toContain(message);
		// An ID clears it.
		await input.fill(SEED.integrationId);
		await input.press('Tab');
		const mark = walk.page
			.getByTestId('ndv')
			.getByTestId('parameter-input-integration')
			.locator('xpath=..')
			.getByTestId('parameter-issues');
		await until('the issue mark gone', async () => (await mark.count()) === 0, 10_000);
		await closePanel(walk.page);
	});
});

test("the log trigger's operations are picked from a list, two of them, and both are read", async () => {
	await walk.step('log trigger: operations from the list', async () => {
		await openNode(
			'locators: log trigger operations',
			{
				name: 'Operation logs',
				type: `${PACKAGE}.integrationPlatformLogTrigger`,
				typeVersion: 3,
				parameters: {
					authentication: 'apiKey',
					watch: 'operationIds',
					project,
					pollTimes: { item: [{ mode: 'everyMinute' }] },
				},
				credentials: { integrationPlatformApi: ctx.credentials.integrationPlatformApi },
			},
			false,
		);
		const ndv = walk.page.getByTestId('ndv');
		const rows = ndv.getByTestId('resource-locator-operationId');
		await expectVisible(rows.first(), 'the first operation row', ndv);
		const entries = await listEntries(rows.first());
		expect(entries.join('\n')).toContain(
			`read · ${SEED.integrationName} · ${SEED.groupName} · success`,
		);
		await walk.page.getByTestId('rlc-item').filter({ hasText: '· success' }).first().click();

		await ndv.getByRole('button', { name: 'Add Operation' }).click();
		await until('a second row', async () => (await rows.count()) === 2, 10_000);
		await listEntries(rows.nth(1));
		// The list open on the second row: what a user picks from.
		await walk.screenshot('log-trigger-operations.png');
		await walk.page.getByTestId('rlc-item').filter({ hasText: '· in_progress' }).first().click();

		await ndv.getByTestId('node-execute-button').click();
		const output = walk.page.getByTestId('output-panel');
		await expectVisible(output.getByTestId('ndv-items-count'), 'the fetched entries', ndv);
		await output.getByTestId('radio-button-json').click();
		let json = '';
		await until(
			'both operations in the output',
			async () => {
				json = await output.innerText();
				return json.includes(SEED.operationId) && json.includes(SEED.secondOperationId);
			},
			20_000,
			250,
		);
		await closePanel(walk.page);
	});
});

test('API Key → Get: the key picked from a list that never shows a whole key', async () => {
	await walk.step('API key from the list', async () => {
		await openNode(
			'locators: API key',
			{
				name: 'Get API key',
				type: `${PACKAGE}.integrationPlatform`,
				typeVersion: 2,
				parameters: { authentication: 'apiKey', resource: 'apiKey', operation: 'get', project },
				credentials: { integrationPlatformApi: ctx.credentials.integrationPlatformApi },
			},
			true,
		);
		const ndv = walk.page.getByTestId('ndv');
		const field = ndv.getByTestId('resource-locator-apiKey');
		const entries = await listEntries(field);
		expect(entries).toEqual(
			expect.arrayContaining([`rotating key (…${SEED.updatableApiKey.slice(-4)})`]),
		);
		const keys = [SEED.apiKey, SEED.deletableApiKey, SEED.updatableApiKey];
		for (const key of keys) expect(entries.join('\n')).not.toContain(key);
		await walk.page.getByTestId('rlc-item').filter({ hasText: 'rotating key' }).first().click();
		const panelText = await ndv.innerText();
		for (const key of keys) expect(panelText).not.toContain(key);
		await ndv.getByTestId('node-execute-button').click();
		const output = walk.page.getByTestId('output-panel');
		await expectVisible(output.getByTestId('ndv-items-count'), 'the key read', ndv);
		await output.getByTestId('radio-button-json').click();
		const json = (await output.getByTestId('ndv-data-container').innerText()).replace(/·/g, ' ');
		expect(json).toMatch(new RegExp(`"keyEnding":\\s*"${SEED.updatableApiKey.slice(-4)}"`));
		expect(json).not.toContain(SEED.updatableApiKey);
		await closePanel(walk.page);
	});
});

test('the browser console stayed free of errors', () => {
	expect(describeProblems(walk.editor.problems)).toBe('');
});
