/**
 * One browser check's session in n8n's editor (headless Chromium, browser.ts): before the file's
 * tests, Chromium opens signed in as the e2e n8n's owner; after them it closes, the check's own
 * servers stop, and the walk's time, each step's time, the console errors and the screenshots
 * taken are printed (docs/testing.md asks every browser check to report them).
 */
import type { Page } from 'playwright-core';

import { openEditor, screenshot, signIn, type EditorSession } from './browser';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OWNER } = require('./n8n/bootstrap') as {
	OWNER: { email: string; password: string };
};

export interface EditorWalk {
	/** The editor's page, once the file's tests run. */
	readonly page: Page;
	/** The session, with the console problems seen so far. */
	readonly editor: EditorSession;
	/** n8n's address. */
	readonly n8nUrl: string;
	/** Runs one step of the walk and records how long it took. */
	step<T>(name: string, body: () => Promise<T>): Promise<T>;
	/** Writes docs/images/<name>.png from the page and lists it in the report. */
	screenshot(name: string): Promise<void>;
}

/**
 * Registers the file's beforeAll and afterAll. `setUp` prepares what the check needs (simulator,
 * credentials) and gives n8n's address; `tearDown` stops what it started, whatever ended the run.
 */
export function editorWalk(
	label: string,
	setUp: () => Promise<string>,
	tearDown?: () => Promise<unknown>,
): EditorWalk {
	const started = Date.now();
	const steps: Array<{ step: string; seconds: number }> = [];
	const screenshots: string[] = [];
	let session: EditorSession | undefined;
	let url = '';
	const walk: EditorWalk = {
		get page() {
			if (!session) throw new Error(`${label}: the editor is not open yet`);
			return session.page;
		},
		get editor() {
			if (!session) throw new Error(`${label}: the editor is not open yet`);
			return session;
		},
		get n8nUrl() {
			return url;
		},
		async step(name, body) {
			const at = Date.now();
			try {
				return await body();
			} finally {
				steps.push({ step: name, seconds: (Date.now() - at) / 1000 });
			}
		},
		async screenshot(name) {
			screenshots.push(await screenshot(walk.page, name));
		},
	};
	beforeAll(async () => {
		url = await setUp();
		session = await openEditor(url);
		session.page.on('dialog', (dialog) => void dialog.accept());
		await signIn(session.page, url, OWNER);
	});
	afterAll(async () => {
		await session?.close();
		await tearDown?.();
		process.stderr.write(
			[
				`[e2e] ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s in headless Chromium`,
				...steps.map((s) => `  ${s.step}: ${s.seconds.toFixed(1)} s`),
				`  console errors: ${session?.problems.length} (allowed n8n noise: ${JSON.stringify(session?.allowed)})`,
				`  screenshots: ${screenshots.join(', ')}`,
			].join('\n') + '\n',
		);
	});
	return walk;
}
