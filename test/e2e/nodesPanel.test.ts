/**
 * The nodes panel of n8n 2.41 in headless Chromium (test/harness/browser.ts): what users type
 * finds the action node. n8n searches display names and codex aliases, not action names
 * (docs/n8n-notes.md, "The nodes panel and the Docs link"); the action node and the event trigger
 * share one "Integration Platform" entry.
 */
import type { Page } from 'playwright-core';

import { openEditor, signIn, type EditorSession } from '../harness/browser';
import { n8nClient } from '../harness/e2eContext';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OWNER } = require('../harness/n8n/bootstrap') as {
	OWNER: { email: string; password: string };
};

jest.setTimeout(120_000);

let editor: EditorSession;
let page: Page;
let n8nUrl: string;

beforeAll(async () => {
	n8nUrl = n8nClient().baseUrl;
	editor = await openEditor(n8nUrl);
	page = editor.page;
	page.on('dialog', (dialog) => void dialog.accept());
	await signIn(page, n8nUrl, OWNER);
});

afterAll(async () => await editor?.close());

/**
 * The names of the entries the panel lists for `query` on a new workflow's first step, once they
 * include `wanted` (the list filters as one types) or after 10 s.
 */
async function entriesFor(query: string, wanted: string): Promise<string[]> {
	await page.goto(`${n8nUrl}/workflow/new`);
	await page.getByTestId('canvas-plus-button').click();
	await page.getByTestId('node-creator-search-bar').fill(query);
	const names = page
		.locator('[data-test-id="node-creator-node-item"], [data-test-id="node-creator-action-item"]')
		.getByTestId('node-creator-item-name');
	let shown: string[] = [];
	for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
		shown = (await names.allInnerTexts()).map((name) => name.trim());
		if (shown.includes(wanted)) break;
		await page.waitForTimeout(250);
	}
	return shown;
}

test.each(['write records', 'search records', 'proxy', 'Ampersand'])(
	'searching "%s" lists the Integration Platform entry',
	async (query) => {
		expect(await entriesFor(query, 'Integration Platform')).toContain('Integration Platform');
	},
);
