/**
 * The editor in a real browser (test/e2e/browser.test.ts): headless Chromium driven by
 * playwright-core, pointed at the e2e run's n8n. Everything n8n-specific a browser test needs lives
 * here: finding Chromium, the browser's view of the network (only n8n itself is reachable), the
 * console watch with its short allow-list, signing in, and screenshots for docs/images/.
 *
 * Selectors are n8n 2.41's own `data-test-id` attributes (the ones n8n's Playwright suite uses);
 * visible texts are used only where n8n sets no test id (a button's label, a node's name).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import {
	chromium,
	type Browser,
	type BrowserContext,
	type ConsoleMessage,
	type Locator,
	type Page,
	selectors,
} from 'playwright-core';

/** Where Debian's (and Ubuntu's apt) Chromium lives; CHROMIUM_PATH overrides. scripts/test.mjs
 * looks in the same places to decide whether the browser test can run on this machine. */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export function findChromium(): string | undefined {
	const wanted = process.env.CHROMIUM_PATH;
	if (wanted) return fs.existsSync(wanted) ? wanted : undefined;
	return CHROMIUM_CANDIDATES.find((candidate) => fs.existsSync(candidate));
}

const ROOT = path.resolve(__dirname, '..', '..');
export const IMAGES_DIR = path.join(ROOT, 'docs', 'images');

/** A console error or uncaught page error, with where it came from. */
export interface BrowserProblem {
	kind: 'console' | 'pageerror';
	text: string;
	url: string;
	page: string;
}

/**
 * Console errors n8n 2.41's editor produces on its own, whatever nodes are installed. Each entry
 * says why it is not about this package; everything else fails the test.
 */
const ALLOWED: Array<{ why: string; matches(problem: BrowserProblem, n8nUrl: string): boolean }> = [
	{
		// The sign-in page first asks who is logged in (GET /rest/login); before signing in the
		// answer is 401, which Chromium logs as a failed resource.
		why: 'who-am-I check before signing in',
		matches: (p, n8nUrl) =>
			p.kind === 'console' &&
			p.url === `${n8nUrl}/rest/login` &&
			p.text.includes('status of 401') &&
			p.page.startsWith(`${n8nUrl}/signin`),
	},
	{
		// The browser reaches only n8n (see blockTheInternet): the editor's look-ups of community
		// package details on registry.npmjs.org and api.npmjs.org fail here, as they would for any
		// user whose browser is offline. The package is not published, so an online browser would
		// get a 404 there instead.
		why: 'npm registry look-up blocked offline',
		matches: (p, n8nUrl) =>
			p.kind === 'console' &&
			p.text.startsWith('Failed to load resource: net::ERR_INTERNET_DISCONNECTED') &&
			!p.url.startsWith(n8nUrl),
	},
	{
		// n8n 2.41's editor logs this whenever a workflow is opened from the workflow list, also a
		// workflow of core nodes only (Manual Trigger + No Operation); it is n8n's own store wiring.
		why: "n8n 2.41's own store warning when a workflow opens from the list",
		matches: (p) =>
			p.kind === 'console' &&
			p.text.startsWith(
				'Error: injectNDVStore() was accessed without an active workflow document store.',
			),
	},
];

export interface EditorSession {
	browser: Browser;
	context: BrowserContext;
	page: Page;
	/** Every page (path and query) the browser navigated to, in order, without repeats in a row. */
	visited: string[];
	/** Requests the browser tried to send outside n8n (blocked). */
	blocked: string[];
	/** Console errors and page errors not on the allow-list. */
	problems: BrowserProblem[];
	/** Allowed ones, counted by reason, for the report. */
	allowed: Record<string, number>;
	close(): Promise<void>;
}

/** Starts headless Chromium on a fresh profile, with only `n8nUrl` reachable. */
export async function openEditor(n8nUrl: string): Promise<EditorSession> {
	const executablePath = findChromium();
	if (!executablePath) {
		throw new Error(
			`Chromium not found (looked for ${process.env.CHROMIUM_PATH ?? CHROMIUM_CANDIDATES.join(', ')}). ` +
				'Install it with: apt-get install chromium (with sudo unless root), or set CHROMIUM_PATH.',
		);
	}
	// page.getByTestId() then reads n8n's attribute.
	selectors.setTestIdAttribute('data-test-id');
	const browser = await chromium.launch({ executablePath, headless: true });
	const context = await browser.newContext({
		viewport: { width: 1400, height: 900 },
		deviceScaleFactor: 1,
		locale: 'en-US',
		timezoneId: 'UTC',
		reducedMotion: 'reduce',
	});
	context.setDefaultTimeout(30_000);
	const session: EditorSession = {
		browser,
		context,
		page: undefined as unknown as Page,
		visited: [],
		blocked: [],
		problems: [],
		allowed: {},
		close: () => browser.close(),
	};
	await context.route(
		(url) => url.origin !== n8nUrl,
		(route) => {
			session.blocked.push(route.request().url());
			return route.abort('internetdisconnected');
		},
	);
	const page = await context.newPage();
	session.page = page;
	const record = (problem: BrowserProblem) => {
		const rule = ALLOWED.find((r) => r.matches(problem, n8nUrl));
		if (rule) session.allowed[rule.why] = (session.allowed[rule.why] ?? 0) + 1;
		else session.problems.push(problem);
	};
	page.on('console', (message: ConsoleMessage) => {
		if (message.type() !== 'error') return;
		record({
			kind: 'console',
			text: message.text(),
			url: message.location().url,
			page: page.url(),
		});
	});
	page.on('pageerror', (error) => {
		record({
			kind: 'pageerror',
			text: `${error.name}: ${error.message}\n${error.stack ?? ''}`,
			url: '',
			page: page.url(),
		});
	});
	page.on('framenavigated', (frame) => {
		if (frame !== page.mainFrame()) return;
		const url = new URL(frame.url());
		const where = `${url.pathname}${url.search}`;
		if (session.visited.at(-1) !== where) session.visited.push(where);
	});
	return session;
}

/** Signs in through n8n's sign-in page as `owner` and waits until the editor leaves it. */
export async function signIn(
	page: Page,
	n8nUrl: string,
	owner: { email: string; password: string },
): Promise<void> {
	await page.goto(`${n8nUrl}/signin`);
	const form = page.getByTestId('auth-form');
	await form.getByTestId('emailOrLdapLoginId').locator('input').fill(owner.email);
	await form.getByTestId('password').locator('input').fill(owner.password);
	await form.getByTestId('form-submit-button').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}

/** Closes n8n's toasts ("Workflow executed successfully" …), so screenshots show the editor only. */
export async function dismissToasts(page: Page): Promise<void> {
	const close = page.locator('.el-notification .el-notification__closeBtn');
	for (let i = (await close.count()) - 1; i >= 0; i--) {
		await close
			.nth(i)
			.click({ timeout: 2_000 })
			.catch(() => undefined);
	}
	await page
		.locator('.el-notification')
		.first()
		.waitFor({ state: 'detached', timeout: 5_000 })
		.catch(() => undefined);
}

/** Writes a PNG of the viewport to docs/images/<name> and returns its path from the repository. */
export async function screenshot(page: Page, name: string): Promise<string> {
	fs.mkdirSync(IMAGES_DIR, { recursive: true });
	await dismissToasts(page);
	const file = path.join(IMAGES_DIR, name);
	await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
	return path.relative(path.resolve(IMAGES_DIR, '..', '..'), file);
}

export function describeProblems(problems: BrowserProblem[]): string {
	return problems
		.map(
			(p) =>
				`${p.kind} on ${p.page}${p.url ? ` (from ${p.url})` : ''}:\n  ${p.text.slice(0, 1500)}`,
		)
		.join('\n');
}

/** Waits for `locator`; on a timeout, fails with what `context` shows instead. */
export async function expectVisible(
	locator: Locator,
	what: string,
	context?: Locator,
): Promise<void> {
	try {
		await locator.waitFor({ state: 'visible' });
	} catch (error) {
		const shown = context ? await context.innerText().catch(() => '(not shown either)') : '';
		throw new Error(
			`${what}: not shown (${(error as Error).message.split('\n')[0]})${shown ? `\nShown instead:\n${shown.slice(0, 2000)}` : ''}`,
		);
	}
}

/** Closes the open node panel (NDV) and waits until it is gone. */
export async function closePanel(page: Page): Promise<void> {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}
