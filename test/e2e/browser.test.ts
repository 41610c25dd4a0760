/**
 * The editor as a user meets it, in headless Chromium (test/harness/browser.ts): the n8n of the e2e
 * run, set up as `npm start` sets it up (the owner account, the credentials under the names
 * scripts/start.js gives them, an example workflow using them), against a simulator of this file.
 *
 * Signs in on n8n's sign-in page; fills each credential type's form and saves it, which runs the
 * credential's test; adds each of the three nodes from the node creator and checks that its panel
 * opens with its parameters and credential; opens an example from the workflow list, executes it
 * from the canvas and reads the action node's output table. Fails on a node the editor does not
 * know, a panel that does not open, a credential test that does not pass, or an error in the
 * browser console. Screenshots go to docs/images/ (the README shows them).
 */
import type { Locator, Page } from 'playwright-core';

import { SEED, startSimulator, type Simulator } from '../harness/actionEngine';
import {
	closePanel,
	describeProblems,
	expectVisible,
	openEditor,
	screenshot,
	signIn,
	type EditorSession,
} from '../harness/browser';
import { n8nClient, readExample, type N8nClient } from '../harness/e2eContext';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OWNER, importMissing } = require('../harness/n8n/bootstrap') as {
	OWNER: { email: string; password: string };
	importMissing(
		client: N8nClient,
		wanted: { credentials: Credential[]; workflows: unknown[] },
	): Promise<{
		credentials: Record<string, { id: string; name: string }>;
		created: { credentials: number; workflows: number };
	}>;
};

interface Credential {
	type: string;
	name: string;
	data: Record<string, string>;
}
type Client = N8nClient & {
	listCredentials(): Promise<Array<{ id: string; name: string; type: string }>>;
};

jest.setTimeout(120_000);

const started = Date.now();
let n8n: Client;
let n8nUrl: string;
let sim: Simulator;
let editor: EditorSession;
let page: Page;
const screenshots: string[] = [];
const credentialTests: string[] = [];

/** What a credential form is filled with: scripts/start.js's credentials, field by field. */
function credentialsOfNpmStart(): Array<Credential & { displayName: string }> {
	return [
		{
			displayName: 'Integration Platform API',
			type: 'integrationPlatformApi',
			name: 'Integration Platform (simulator)',
			data: {
				apiKey: SEED.apiKey,
				baseUrl: sim.apiUrl,
				readUrl: sim.readUrl,
				writeUrl: sim.writeUrl,
				searchUrl: sim.searchUrl,
				proxyUrl: sim.proxyUrl,
			},
		},
		{
			displayName: 'Integration Platform Token API',
			type: 'integrationPlatformTokenApi',
			name: 'Integration Platform token (simulator)',
			data: { accessToken: SEED.bearerToken, baseUrl: sim.apiUrl, searchUrl: sim.searchUrl },
		},
		{
			// npm start creates no signing-secret credential; its test checks the secret's format.
			displayName: 'Integration Platform Signing Secret API',
			type: 'integrationPlatformSigningSecretApi',
			name: 'Integration Platform signing secret (simulator)',
			data: { signingSecret: SEED.webhookSigningKey },
		},
	];
}

beforeAll(async () => {
	n8n = n8nClient() as Client;
	n8nUrl = n8n.baseUrl;
	// As npm start runs it: n8n is served over plain http on this machine.
	sim = await startSimulator({ httpsWebhooksOnly: false });
	editor = await openEditor(n8nUrl);
	page = editor.page;
	// Leaving a workflow with unsaved changes asks "are you sure?": yes.
	page.on('dialog', (dialog) => void dialog.accept());
});

afterAll(async () => {
	await editor?.close();
	await sim?.close();
	process.stderr.write(
		[
			`[e2e] browser: ${((Date.now() - started) / 1000).toFixed(1)} s in headless Chromium`,
			`  pages visited: ${editor?.visited.join(' → ')}`,
			`  credential tests: ${credentialTests.join('; ')}`,
			`  console errors: ${editor?.problems.length} (allowed n8n noise: ${JSON.stringify(editor?.allowed)})`,
			`  requests outside n8n blocked: ${[...new Set(editor?.blocked)].join(', ') || 'none'}`,
			`  screenshots: ${screenshots.join(', ')}`,
		].join('\n') + '\n',
	);
});

/** The node panel (NDV) is open, knows the node and shows these parameters and this credential. */
async function expectPanel(
	nodeName: string,
	parameters: Record<string, string | undefined>,
	credential: string | RegExp,
): Promise<Locator> {
	const ndv = page.getByTestId('ndv');
	await expectVisible(ndv, `the panel of ${nodeName}`, page.locator('body'));
	await expectVisible(
		ndv.getByTestId('node-title-container').filter({ hasText: nodeName }),
		`${nodeName} as the panel's title`,
		ndv,
	);
	await expectVisible(ndv.getByTestId('node-parameters'), `${nodeName}'s parameters`, ndv);
	const text = await ndv.innerText();
	// n8n's panel for a node type it has not loaded, and its canvas badge.
	expect(text).not.toContain('Install this node to use it');
	expect(text).not.toMatch(/type \(.*\) is unknown/);
	expect(await page.getByTestId('node-not-installed').count()).toBe(0);
	for (const [name, value] of Object.entries(parameters)) {
		const input = ndv.getByTestId(`parameter-input-${name}`);
		await expectVisible(input, `${nodeName}: parameter ${name}`, ndv);
		if (value !== undefined) {
			const shown = await input.evaluate(
				(el) => `${el.querySelector('input')?.value ?? ''} ${el.textContent ?? ''}`,
			);
			expect({ parameter: name, shown }).toEqual({
				parameter: name,
				shown: expect.stringContaining(value),
			});
		}
	}
	// The credential created through the form is picked for the new node.
	const select = ndv.getByTestId('node-credentials-select').first();
	await expectVisible(select, `${nodeName}: its credential`, ndv);
	const chosen = await select.evaluate(
		(el) => `${el.querySelector('input')?.value ?? ''} ${el.textContent ?? ''}`,
	);
	expect(chosen).toMatch(credential);
	return ndv;
}

/** Opens the node creator on a new workflow's "Add first step" and searches for our nodes. */
async function searchInNewWorkflow(): Promise<void> {
	await page.goto(`${n8nUrl}/workflow/new`);
	await page.getByTestId('canvas-plus-button').click();
	await page.getByTestId('node-creator-search-bar').fill('Integration Platform');
}

test('signs in on n8n’s sign-in page as the owner npm start creates', async () => {
	await signIn(page, n8nUrl, OWNER);
	await expectVisible(page.getByTestId('project-home-menu-item'), 'the main menu after signing in');
	expect(new URL(page.url()).pathname).not.toMatch(/^\/signin/);
});

test('each credential type’s form, filled with the simulator’s values, saves and passes its test', async () => {
	for (const credential of credentialsOfNpmStart()) {
		await page.goto(`${n8nUrl}/home/credentials/create`);
		await page
			.getByTestId('new-credential-type-select')
			.locator('input')
			.fill('Integration Platform');
		await page
			.getByTestId('new-credential-type-select-option')
			.filter({ hasText: new RegExp(`^${credential.displayName}$`) })
			.click();
		await page.getByTestId('new-credential-type-button').click();
		const dialog = page.getByTestId('credential-edit-dialog');
		await expectVisible(dialog, `the ${credential.displayName} form`, page.locator('body'));
		await page.getByTestId('credential-name').click();
		const nameInput = page.getByTestId('credential-name').locator('input');
		await nameInput.fill(credential.name);
		await nameInput.press('Enter');
		for (const [field, value] of Object.entries(credential.data)) {
			await dialog.getByTestId(`parameter-input-${field}`).locator('input').fill(value);
		}
		await page.getByTestId('credential-save-button').click();
		const success = dialog.getByTestId('credentials-config-container-test-success');
		await expectVisible(success, `${credential.displayName}: n8n's credential test`, dialog);
		credentialTests.push(
			`${credential.displayName}: ${(await success.innerText()).split('\n')[0].trim()}`,
		);
		if (credential.type === 'integrationPlatformApi') {
			screenshots.push(await screenshot(page, 'credential.png'));
		}
		await page.keyboard.press('Escape');
		await dialog.waitFor({ state: 'hidden' });
	}
	// Stored under the names and types npm start uses: its set-up finds them and creates none.
	const wanted = credentialsOfNpmStart().slice(0, 2);
	const { created } = await importMissing(n8n, { credentials: wanted, workflows: [] });
	expect(created.credentials).toBe(0);
	const stored = await n8n.listCredentials();
	for (const credential of credentialsOfNpmStart()) {
		expect(stored.filter((c) => c.name === credential.name).map((c) => c.type)).toEqual([
			credential.type,
		]);
	}
	// Each test reached the simulator with the secret typed into the form (the signing secret's
	// test is a format check and sends nothing).
	const projects = sim.journal.entries.filter(
		(e) => e.method === 'GET' && e.pathname === '/v1/projects',
	);
	expect(projects.map((e) => e.headers['x-api-key'] ?? e.headers.authorization)).toEqual(
		expect.arrayContaining([SEED.apiKey, `Bearer ${SEED.bearerToken}`]),
	);
});

test('the event trigger and the action node come from the node creator, and their panels open', async () => {
	await searchInNewWorkflow();
	// In a new workflow the creator offers triggers: "Integration Platform" is the event trigger.
	await page
		.getByTestId('node-creator-item-name')
		.filter({ hasText: /^Integration Platform$/ })
		.click();
	await page
		.getByTestId('node-creator-item-name')
		.filter({ hasText: /^On read$/ })
		.click();
	await expectPanel(
		'Integration Platform Trigger',
		{ authentication: 'API Key', project: undefined, events: 'Read', verifySignature: undefined },
		'Integration Platform (simulator)',
	);
	screenshots.push(await screenshot(page, 'event-trigger.png'));
	await closePanel(page);

	// The "+" after the trigger: the action node, with its actions listed by resource.
	await page.getByTestId('canvas-handle-plus').first().click();
	await page.getByTestId('node-creator-search-bar').fill('Integration Platform');
	await page
		.getByTestId('node-creator-item-name')
		.filter({ hasText: /^Integration Platform$/ })
		.click();
	await page
		.getByTestId('node-creator-item-name')
		.filter({ hasText: /^Get a destination$/ })
		.click();
	// n8n names a node added through an action after the action.
	await expectPanel(
		'Get a destination',
		{ resource: 'Destination', operation: 'Get', project: undefined, destination: undefined },
		// Like the log trigger's: n8n 2.41 picks the credential created last (the token).
		/^Integration Platform (token )?\(simulator\)/,
	);
	screenshots.push(await screenshot(page, 'action-node.png'));
	await closePanel(page);
	await expectVisible(
		page.getByTestId('canvas-node').filter({ hasText: 'Integration Platform Trigger' }),
		'the event trigger on the canvas',
	);
	expect(await page.getByTestId('canvas-node').count()).toBe(2);
});

test('the log trigger comes from the node creator, and its panel opens', async () => {
	await searchInNewWorkflow();
	await page
		.getByTestId('node-creator-node-item')
		.filter({ hasText: 'Integration Platform Log Trigger' })
		.click();
	// A trigger without actions: n8n shows the community node's details with "Add to workflow".
	await page.getByRole('button', { name: 'Add to workflow' }).click();
	await expectPanel(
		'Integration Platform Log Trigger',
		{ watch: undefined, project: undefined, installation: undefined, severities: undefined },
		// Added as a whole node (no action), it gets one of the two credentials npm start makes:
		// n8n 2.41 picked the token, the one created last.
		/^Integration Platform (token )?\(simulator\)/,
	);
	screenshots.push(await screenshot(page, 'log-trigger.png'));
	await closePanel(page);
});

test('an example opened from the workflow list runs from the canvas; its output table shows the destination', async () => {
	// Imported as npm start imports it, with the credential of its type (the one made in the form).
	const { credentials } = await importMissing(n8n, {
		credentials: credentialsOfNpmStart().slice(0, 2),
		workflows: [],
	});
	const example = readExample('destination-get.json');
	// Created rather than imported by name: other e2e files run the same example in this n8n.
	const workflow = await n8n.createWorkflow(example, credentials);

	await page.goto(`${n8nUrl}/home/workflows`);
	await page.getByTestId('resources-list-search').fill(example.name);
	const card = page.locator(
		`[data-test-id="resources-list-item-workflow"][data-resourceid="${workflow.id}"]`,
	);
	await expectVisible(card, `"${example.name}" in the workflow list`, page.locator('body'));
	await card.click();
	await page.waitForURL(`**/workflow/${workflow.id}`);
	const action = page.getByTestId('canvas-node').filter({ hasText: 'Integration Platform' });
	await expectVisible(action, 'the action node on the canvas');
	sim.journal.clear();
	await page.getByTestId('execute-workflow-button').click();
	await expectVisible(
		action.getByTestId('canvas-node-status-success'),
		'the action node executed successfully',
		page.getByTestId('canvas'),
	);

	await action.dblclick();
	await expectPanel(
		'Integration Platform',
		{ resource: 'Destination', operation: 'Get' },
		'Integration Platform (simulator)',
	);
	const output = page.getByTestId('output-panel');
	await output.getByTestId('radio-button-table').click();
	const table = output.locator('table').first();
	await expectVisible(table, 'the output table', output);
	await expect(output.getByTestId('ndv-items-count').innerText()).resolves.toBe('1 item');
	const headers = (await table.locator('th').allInnerTexts()).map((h) => h.trim());
	expect(headers).toEqual(expect.arrayContaining(['id', 'name', 'type', 'metadata', 'createTime']));
	const cells = (await table.locator('tbody td').allInnerTexts()).map((c) => c.trim());
	expect(cells).toEqual(
		expect.arrayContaining([SEED.destinationId, SEED.destinationName, 'webhook']),
	);
	expect(cells.join('\n')).toContain(SEED.webhookUrl);
	screenshots.push(await screenshot(page, 'output-table.png'));
	await closePanel(page);

	// The canvas run is what reached the simulator: one request, with the form's API key.
	const requests = sim.journal.entries.filter((e) => e.pathname.includes('/destinations/'));
	expect(requests.map((e) => [e.method, e.headers['x-api-key']])).toEqual([['GET', SEED.apiKey]]);
});

test('the browser console stayed free of errors on every page', () => {
	if (editor.problems.length) {
		throw new Error(
			`${editor.problems.length} browser error(s):\n${describeProblems(editor.problems)}`,
		);
	}
	expect(editor.visited.length).toBeGreaterThan(3);
	expect(editor.problems).toEqual([]);
});
