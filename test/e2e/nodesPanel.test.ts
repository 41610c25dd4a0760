/**
 * The nodes panel of n8n 2.41 in headless Chromium (test/harness/browser.ts), walked as a user
 * adding a step after a trigger: what users type finds the action node, and the action they mean
 * is then at hand. n8n's search lists nodes, never their actions: it matches display names and
 * codex aliases (docs/n8n-notes.md, "The nodes panel and the Docs link"). Choosing the node opens
 * its actions with the search box emptied, grouped by resource in the order of the node's
 * Resource options, and the search box there filters the actions by their `action` text.
 */
import type { Locator, Page } from 'playwright-core';

import {
	describeProblems,
	expectVisible,
	openEditor,
	screenshot,
	signIn,
	type EditorSession,
} from '../harness/browser';
import { n8nClient, type N8nClient } from '../harness/e2eContext';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OWNER } = require('../harness/n8n/bootstrap') as {
	OWNER: { email: string; password: string };
};

jest.setTimeout(180_000);

const ENTRY = 'Integration Platform';
/** The action each query is meant to reach, and its resource's group label in the panel. */
const WANTED = {
	'write records': { action: 'Write records', label: 'Record Actions' },
	'search records': { action: 'Search records', label: 'Record Actions' },
	proxy: { action: "Send a request to a consumer's provider API", label: 'Provider API Actions' },
} as const;
type Query = keyof typeof WANTED;

const started = Date.now();
const steps: Array<{ step: string; seconds: number }> = [];
const screenshots: string[] = [];
let n8n: N8nClient;
let editor: EditorSession;
let page: Page;
let workflowId: string;

beforeAll(async () => {
	n8n = n8nClient();
	editor = await openEditor(n8n.baseUrl);
	page = editor.page;
	page.on('dialog', (dialog) => void dialog.accept());
	await signIn(page, n8n.baseUrl, OWNER);
	workflowId = (
		await n8n.createWorkflow({
			name: `nodes panel ${Date.now().toString(36)}`,
			nodes: [
				{
					parameters: {},
					id: 'a0000000-0000-4000-8000-00000000000b',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
				},
			],
			connections: {},
		})
	).id;
});

afterAll(async () => {
	await editor?.close();
	process.stderr.write(
		[
			`[e2e] nodes panel: ${((Date.now() - started) / 1000).toFixed(1)} s in headless Chromium`,
			...steps.map((s) => `  ${s.step}: ${s.seconds.toFixed(1)} s`),
			`  screenshots: ${screenshots.join(', ') || 'none'}`,
		].join('\n') + '\n',
	);
});

/** Runs one step of the walk and records how long it took. */
async function step<T>(name: string, body: () => Promise<T>): Promise<T> {
	const at = Date.now();
	try {
		return await body();
	} finally {
		steps.push({ step: name, seconds: (Date.now() - at) / 1000 });
	}
}

/** Opens the workflow (a Manual Trigger) and the nodes panel after its trigger, then types `query`. */
async function searchAfterStart(query: string): Promise<void> {
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`);
	await expectVisible(page.getByTestId('canvas-node').first(), 'the workflow on the canvas');
	await page.getByTestId('canvas-handle-plus').first().click();
	await page.getByTestId('node-creator-search-bar').fill(query);
}

// Nodes and actions alike (a community node's actions are not action items in its Node details view).
const itemNames = (scope: Locator) => scope.getByTestId('node-creator-item-name');

/** The entry names the panel lists, once they include `wanted` (the list filters as one types) or after 10 s. */
async function namesOnceShown(wanted: string): Promise<string[]> {
	let shown: string[] = [];
	for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
		shown = (await itemNames(page.getByTestId('node-creator')).allInnerTexts()).map((n) =>
			n.trim(),
		);
		if (shown.includes(wanted)) break;
		await page.waitForTimeout(250);
	}
	return shown;
}

/** Where `name`'s row is, in pixels from the top of the panel, and whether it is in view. */
async function placeOf(name: string): Promise<{ top: number; inView: boolean }> {
	const row = itemNames(page.getByTestId('node-creator'))
		.filter({ hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
		.first();
	await expectVisible(row, `the entry "${name}"`, page.getByTestId('node-creator'));
	// The panel opens scrolled to the top; a row below its bottom edge needs scrolling to be seen.
	const box = await row.boundingBox();
	const frame = await page.getByTestId('node-creator').boundingBox();
	if (!box || !frame) throw new Error(`the entry "${name}" or the panel has no box`);
	const top = Math.round(box.y - frame.y);
	return { top, inView: box.y >= frame.y && box.y + box.height <= frame.y + frame.height };
}

/** The group labels of the open actions list, top to bottom, as written (the panel upper-cases them). */
async function actionLabels(): Promise<string[]> {
	// Label rows are the list's only rows without a keyboard-navigation type.
	const labels = await page
		.getByTestId('node-creator')
		.locator('[data-test-id="item-iterator-item"]:not([data-keyboard-nav-type])')
		.evaluateAll((rows) => rows.map((row) => row.textContent?.trim() ?? ''));
	return labels.filter(Boolean);
}

describe.each(Object.keys(WANTED) as Query[])('typing "%s"', (query) => {
	const { action, label } = WANTED[query];

	test('lists the Integration Platform entry, and none of its actions (n8n searches nodes only)', async () => {
		const names = await step(`"${query}": the search's entries`, async () => {
			await searchAfterStart(query);
			return await namesOnceShown(ENTRY);
		});
		if (query === 'write records') {
			screenshots.push(await screenshot(page, 'nodes-panel-search.png'));
		}
		expect(names).toContain(ENTRY);
		expect(names).not.toContain(action);
		const { top, inView } = await placeOf(ENTRY);
		process.stderr.write(
			`[e2e] nodes panel: "${query}" → ${ENTRY} is entry ${names.indexOf(ENTRY) + 1} of ${names.length}, ${top} px from the top, ${inView ? 'in view' : 'below the fold'}\n`,
		);
		expect(inView).toBe(true);
	});

	test(`choosing the entry shows ${label} first, "${action}" in view without scrolling`, async () => {
		const place = await step(`"${query}": choose the entry, find the action`, async () => {
			await searchAfterStart(query);
			await namesOnceShown(ENTRY);
			await itemNames(page.getByTestId('node-creator'))
				.filter({ hasText: new RegExp(`^${ENTRY}$`) })
				.click();
			await namesOnceShown(action);
			return await placeOf(action);
		});
		const labels = await actionLabels();
		process.stderr.write(
			`[e2e] nodes panel: "${query}" → ${ENTRY} → "${action}" ${place.top} px from the top of the actions, ${place.inView ? 'in view' : 'below the fold'}; groups: ${labels.join(', ')}\n`,
		);
		if (query === 'write records') {
			screenshots.push(await screenshot(page, 'nodes-panel-actions.png'));
		}
		const groups = labels.filter((l) => l.endsWith(' Actions'));
		expect(groups.slice(0, 2)).toEqual(['Record Actions', 'Provider API Actions']);
		expect(place.inView).toBe(true);
	});
});

test('the entry\'s actions come without a search box (n8n 2.41 shows a community node\'s actions as "Node details")', async () => {
	await step("the entry's actions view", async () => {
		await searchAfterStart('write records');
		await namesOnceShown(ENTRY);
		await itemNames(page.getByTestId('node-creator'))
			.filter({ hasText: new RegExp(`^${ENTRY}$`) })
			.click();
		await namesOnceShown('Write records');
	});
	const panel = page.getByTestId('node-creator');
	await expectVisible(panel.getByText('Node details'), 'the Node details view', panel);
	expect(await panel.getByTestId('node-creator-search-bar').count()).toBe(0);
});

test('"Ampersand" lists the Integration Platform entry', async () => {
	await searchAfterStart('Ampersand');
	expect(await namesOnceShown(ENTRY)).toContain(ENTRY);
});

test('the browser console stayed free of errors', () => {
	if (editor.problems.length) {
		throw new Error(
			`${editor.problems.length} browser error(s):\n${describeProblems(editor.problems)}`,
		);
	}
	expect(editor.problems).toEqual([]);
});
