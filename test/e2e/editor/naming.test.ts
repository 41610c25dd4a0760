/**
 * One word per thing, read off n8n 2.41.1's editor in headless Chromium (test/harness/browser.ts)
 * as a user meets it, against the e2e run's n8n and a simulator of this file:
 *
 * - Provider API → Send Request asks for the Group (not the Installation), lists the groups by
 *   name with their group ref, offers By Group Ref besides By ID, and runs with the group
 *   picked from the list (screenshot docs/images/send-request-group.png).
 * - The log trigger's Watch says Group, its picker says Group and lists the groups by name.
 * - The log trigger's test buttons: n8n labels them "Fetch Test Event" (header) and "Test this
 *   trigger" (empty output panel); the trigger panel's help, the node's own text, says they are
 *   one action, and the output panel's button fetches the entries.
 *
 * The browser console must stay free of errors throughout (the harness's short allow-list aside).
 */
import * as crypto from 'node:crypto';

import type { Locator } from 'playwright-core';

import { SEED } from '../../harness/actionEngine';
import { closePanel, describeProblems, dismissToasts, expectVisible } from '../../harness/browser';
import { editorWalk } from '../../harness/editorWalk';
import { setUpE2e, type E2eContext } from '../../harness/e2eContext';

jest.setTimeout(180_000);

let ctx: E2eContext;

const PACKAGE = 'n8n-nodes-integration-platform';
/** A value picked from a list, as the editor saves it (with the name it shows). */
const picked = (value: string, name: string) => ({
	__rl: true,
	mode: 'list',
	value,
	cachedResultName: name,
});
/** The API key credential (ctx.credentials maps it to this run's). */
const API_KEY = { integrationPlatformApi: { id: '1', name: 'x' } };
/** How both Group lists name the seeded group: its name, then its group ref. */
const GROUP_ENTRY = `${SEED.groupName} (${SEED.groupRef})`;

const walk = editorWalk(
	'naming',
	async () => {
		// A label of its own: credentials of other runs in the same n8n may carry the same name.
		ctx = await setUpE2e(`naming ${Date.now().toString(36)}`, { httpsWebhooksOnly: false });
		return ctx.n8n.baseUrl;
	},
	async () => {
		await ctx?.sim.close();
	},
);

afterEach(() => {
	expect(describeProblems(walk.editor.problems)).toBe('');
});

/** Creates a workflow of these nodes (each after the one before), opens it and the node `open`. */
async function openNode(
	name: string,
	nodes: Array<{ name: string; [key: string]: unknown }>,
	open: string,
) {
	const connections = Object.fromEntries(
		nodes
			.slice(1)
			.map((next, i) => [nodes[i].name, { main: [[{ node: next.name, type: 'main', index: 0 }]] }]),
	);
	const workflow = await ctx.n8n.createWorkflow({ name, nodes, connections }, ctx.credentials);
	await walk.page.goto(`${ctx.n8n.baseUrl}/workflow/${workflow.id}`);
	const node = walk.page.getByTestId('canvas-node').filter({ hasText: open });
	await expectVisible(node, `${open} on the canvas`);
	await node.dblclick();
	const ndv = walk.page.getByTestId('ndv');
	await expectVisible(ndv.getByTestId('node-parameters'), `the ${open} panel`);
	return ndv;
}

/** The label the panel shows above the resource locator `name`. */
async function labelOf(ndv: Locator, name: string): Promise<string> {
	const item = ndv
		.getByTestId('parameter-item')
		.filter({ has: walk.page.getByTestId(`resource-locator-${name}`) });
	await expectVisible(item.first(), `the ${name} field`, ndv);
	// The label's line; n8n adds its Fixed / Expression switch below it.
	const text = await item.first().getByTestId('input-label').first().innerText();
	return text.split('\n')[0].trim();
}

/** The entries of the list of the resource locator `name`, as shown, the list left open. */
async function listEntries(ndv: Locator, name: string): Promise<string[]> {
	await ndv.getByTestId(`resource-locator-${name}`).getByTestId('rlc-input').click();
	const item = walk.page.getByTestId('rlc-item');
	await expectVisible(item.first(), `the ${name} list's entries`, walk.page.locator('body'));
	return (await item.allInnerTexts()).map((text) => text.trim());
}

/** The typed modes a resource locator offers besides its list. */
async function modesOf(ndv: Locator, name: string): Promise<string[]> {
	await ndv.getByTestId(`resource-locator-${name}`).getByTestId('rlc-mode-selector').click();
	const options = walk.page.locator('.el-popper:visible [role="option"], .el-popper:visible li');
	await expectVisible(options.first(), `the ${name} modes`, walk.page.locator('body'));
	const texts = (await options.allInnerTexts()).map((text) => text.trim()).filter(Boolean);
	// Closed by choosing the mode it is in (Escape would close the panel).
	await options.filter({ hasText: 'From list' }).first().click();
	return [...new Set(texts)];
}

test('Provider API → Send Request: the Group is picked by name and the request runs', async () => {
	await walk.step('Send Request with a Group', async () => {
		const ndv = await openNode(
			'naming: send request',
			[
				{
					parameters: {},
					id: crypto.randomUUID(),
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
				},
				{
					parameters: {
						resource: 'providerApi',
						operation: 'sendRequest',
						project: picked(SEED.projectId, SEED.projectName),
						integration: picked(SEED.integrationId, SEED.integrationName),
						proxyPath: 'crm/v3/objects/contacts',
					},
					id: crypto.randomUUID(),
					name: 'Send Request',
					type: `${PACKAGE}.integrationPlatform`,
					typeVersion: 2,
					position: [240, 0],
					credentials: API_KEY,
				},
			],
			'Send Request',
		);
		expect(await labelOf(ndv, 'installation')).toBe('Group');
		const modes = (await modesOf(ndv, 'installation')).join(' | ');
		// n8n names the modes `list` and `id` itself ("From list", "By ID").
		for (const mode of ['From list', 'By Group Ref', 'By ID']) {
			expect(modes).toContain(mode);
		}
		const entries = await listEntries(ndv, 'installation');
		expect(entries).toContain(GROUP_ENTRY);
		expect(entries.join('\n')).not.toContain(SEED.installationId);
		await walk.page.getByTestId('rlc-item').filter({ hasText: GROUP_ENTRY }).first().click();

		await ndv.getByTestId('node-execute-button').first().click();
		const output = walk.page.getByTestId('output-panel');
		await expectVisible(output.getByTestId('ndv-items-count'), "the provider's answer", ndv);
		expect(await output.getByTestId('ndv-items-count').innerText()).toMatch(/^\d+ items?$/);
		const proxied = ctx.sim.journal.entries.filter((entry) => (entry.host as string) === 'proxy');
		expect(proxied.at(-1)?.headers['x-amp-installation-id']).toBe(SEED.installationId);
		await dismissToasts(walk.page);
		await walk.screenshot('send-request-group.png');
		await closePanel(walk.page);
	});
});

test("the log trigger: Watch → Group, the Group list by name, and n8n's two test buttons", async () => {
	await walk.step('log trigger words', async () => {
		const ndv = await openNode(
			'naming: log trigger',
			[
				{
					parameters: {
						project: picked(SEED.projectId, SEED.projectName),
						integration: picked(SEED.integrationId, SEED.integrationName),
					},
					id: crypto.randomUUID(),
					name: 'Log Trigger',
					type: `${PACKAGE}.integrationPlatformLogTrigger`,
					typeVersion: 2,
					position: [0, 0],
					credentials: API_KEY,
				},
			],
			'Log Trigger',
		);
		const watch = ndv.getByTestId('parameter-input-watch');
		await expectVisible(watch, 'the Watch field', ndv);
		expect(await watch.evaluate((el) => el.querySelector('input')?.value ?? '')).toBe('Group');
		expect(await labelOf(ndv, 'installation')).toBe('Group');
		expect(await listEntries(ndv, 'installation')).toContain(GROUP_ENTRY);
		await walk.page.getByTestId('rlc-item').filter({ hasText: GROUP_ENTRY }).first().click();

		// n8n's words for the one test run, and the panel's help that ties them together.
		const buttons = (await ndv.getByTestId('node-execute-button').allInnerTexts()).map((t) =>
			t.trim(),
		);
		expect(buttons).toContain('Fetch Test Event');
		const output = walk.page.getByTestId('output-panel');
		const testThisTrigger = output.getByRole('button', { name: 'Test this trigger' });
		await expectVisible(testThisTrigger, "the output panel's Test this trigger", ndv);
		await expectVisible(
			ndv.getByTestId('trigger-header').getByText('Fetch the latest log entries'),
			"the trigger panel's header",
			ndv,
		);
		await ndv.getByText('When will this node trigger my flow?').click();
		await expectVisible(
			ndv.getByText(/Test this trigger.{0,5} does the same/),
			'the help naming both buttons',
			ndv,
		);

		await testThisTrigger.click();
		await expectVisible(output.getByTestId('ndv-items-count'), 'the latest entries', ndv);
		expect(await output.getByTestId('ndv-items-count').innerText()).toMatch(/^[1-5] items?$/);
		await closePanel(walk.page);
	});
});
