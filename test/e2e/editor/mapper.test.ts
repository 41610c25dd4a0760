/**
 * Record → Write's mapper in n8n 2.41.1's editor (headless Chromium, test/harness/browser.ts), as
 * a user changes Write Type back and forth on a new (version 3) node: what was mapped stays on the
 * screen where it still applies, the runs reach the simulator with it, and the words shown are
 * the ones the docs use.
 *
 * - Create: the required Email is mapped and the record created.
 * - Create → Update: Email is still there; Record ID (a parameter of its own, its label whole) and
 *   First Name are added. Update → Create keeps both fields; Create does not take the record ID.
 * - Update → Delete: the Record ID is still there, and the run deletes that record.
 * - Delete → Update: the Record ID is still there; with no field mapped the run says that only
 *   the ID is set.
 */
import type { Locator } from 'playwright-core';

import { SEED } from '../../harness/actionEngine';
import { closePanel, describeProblems, expectVisible } from '../../harness/browser';
import { editorWalk } from '../../harness/editorWalk';
import { setUpE2e, type E2eContext } from '../../harness/e2eContext';
import { until } from '../../harness/wait';

jest.setTimeout(240_000);

let ctx: E2eContext;

const walk = editorWalk(
	'mapper walk',
	async () => {
		ctx = await setUpE2e(`mapper walk ${Date.now().toString(36)}`, { httpsWebhooksOnly: false });
		return ctx.n8n.baseUrl;
	},
	async () => {
		await ctx?.sim.close();
	},
);

const ndv = () => walk.page.getByTestId('ndv');
const fields = () => ndv().getByTestId('mapping-fields-container');

/** Picks the option named `option` in the options parameter `name` of the open panel. */
async function choose(name: string, option: string): Promise<void> {
	await ndv().getByTestId(`parameter-input-${name}`).click();
	await walk.page
		.locator('.el-popper:visible [data-test-id="parameter-input-item"]')
		.filter({ has: walk.page.locator('.option-headline', { hasText: new RegExp(`^${option}$`) }) })
		.first()
		.click();
}

/** The input of the mapped field labelled `label`. */
const field = (label: string): Locator =>
	fields().locator('.parameter-item').filter({ hasText: label }).locator('input').first();

/** The Record ID parameter's input. */
const recordIdInput = (): Locator =>
	ndv().getByTestId('parameter-input-recordId').locator('input, [contenteditable]').first();

async function inputText(locator: Locator): Promise<string> {
	return await locator.evaluate((el) =>
		el.tagName === 'INPUT' ? (el as unknown as { value: string }).value : (el.textContent ?? ''),
	);
}

/** Waits until the input shows `value` (n8n updates the inputs a moment after a change). */
async function shows(locator: Locator, what: string, value: string): Promise<void> {
	await expectVisible(locator, what, ndv());
	await until(
		`${what} showing "${value}"`,
		async () => (await inputText(locator)) === value,
		30_000,
	);
}

/** Adds the field `label` from the mapper's "Add field to send" list. */
async function addField(label: string): Promise<void> {
	await ndv()
		.getByTestId('add-fields-select')
		.getByRole('button', { name: /Add field to send/ })
		.click();
	// The list opens outside the panel (n8n's dropdown menu), one entry per field not shown yet.
	const entry = walk.page.getByRole('menuitem').filter({ hasText: label }).first();
	try {
		await entry.click({ timeout: 10_000 });
	} catch (error) {
		const menus = await walk.page
			.locator('[role="menu"], [data-state="open"]')
			.evaluateAll((els) => els.map((el) => el.outerHTML.slice(0, 1500)));
		throw new Error(`${(error as Error).message.split('\n')[0]}\nMenus:\n${menus.join('\n')}`);
	}
}

function contacts(): Map<string, { fields: Record<string, unknown> }> {
	const records = (
		ctx.sim.state as unknown as {
			records: Map<string, Map<string, { fields: Record<string, unknown> }>>;
		}
	).records.get(`${SEED.installationId}/contacts`);
	return records ?? new Map();
}

const writes = () => ctx.sim.journal.entries.filter((entry) => entry.routeId === 'writeRecords');

/** Runs the node from its panel; returns the output panel's text once `done` holds. */
async function execute(what: string, done: (output: string) => boolean): Promise<string> {
	await ndv().getByTestId('node-execute-button').click();
	const output = walk.page.getByTestId('output-panel');
	let text = '';
	await until(what, async () => done((text = await output.innerText().catch(() => ''))), 60_000);
	return text;
}

test('Write Type changes keep what still applies, on the screen and in the runs', async () => {
	const workflow = await ctx.n8n.createWorkflow(
		{
			name: 'mapper walk: write type',
			nodes: [
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
						resource: 'records',
						operation: 'write',
						project: { __rl: true, mode: 'id', value: SEED.projectId },
						integration: { __rl: true, mode: 'id', value: SEED.integrationId },
						groupRef: { __rl: true, mode: 'id', value: SEED.groupRef },
						object: { __rl: true, mode: 'id', value: 'contacts' },
					},
					id: crypto.randomUUID(),
					name: 'Write contacts',
					type: 'n8n-nodes-integration-platform.integrationPlatform',
					typeVersion: 3,
					position: [240, 0],
					credentials: { integrationPlatformApi: { id: '', name: '' } },
				},
			],
			connections: { Start: { main: [[{ node: 'Write contacts', type: 'main', index: 0 }]] } },
		},
		ctx.credentials,
	);
	await walk.page.goto(`${ctx.n8n.baseUrl}/workflow/${workflow.id}`);
	await expectVisible(walk.page.getByTestId('canvas-node').first(), 'the workflow on the canvas');
	await walk.page.getByTestId('canvas-node').filter({ hasText: 'Write contacts' }).dblclick();
	await expectVisible(ndv(), 'the Write contacts panel');

	let id = '';
	await walk.step('Create: Email mapped, record created', async () => {
		await expectVisible(field('Email (email)'), 'the Email field', ndv());
		// The mapper's mode as n8n names it, which the docs and messages use.
		const mode = ndv().getByTestId('resource-mapper-container').locator('input').first();
		await shows(mode, 'the mapping mode', 'Map Each Column Manually');
		await field('Email (email)').fill('mapper@acme.example');
		await walk.page.keyboard.press('Tab');
		await execute('the record created', () =>
			[...contacts().values()].some((r) => r.fields.email === 'mapper@acme.example'),
		);
		const created = [...contacts()].filter(([, r]) => r.fields.email === 'mapper@acme.example');
		expect(created).toHaveLength(1);
		id = created[0][0];
	});

	await walk.step('Create → Update: Email kept; Record ID and First Name added', async () => {
		await choose('writeType', 'Update');
		await shows(field('Email (email)'), 'Email after Create → Update', 'mapper@acme.example');
		await expectVisible(ndv().getByTestId('parameter-input-recordId'), 'Record ID', ndv());
		await recordIdInput().fill(id);
		await walk.page.keyboard.press('Tab');
		await addField('First Name (firstname)');
		await field('First Name (firstname)').fill('Ada');
		await walk.page.keyboard.press('Tab');
		// The label shows whole at the panel's default width.
		const label = ndv()
			.locator('.parameter-item, [data-test-id="parameter-item"]')
			.filter({ has: walk.page.getByTestId('parameter-input-recordId') })
			.getByText('Record ID', { exact: true })
			.first();
		await expectVisible(label, 'the Record ID label', ndv());
		expect(
			await label.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.clientWidth > 0),
		).toBe(true);
		expect(await ndv().innerText()).not.toContain('(using to match)');
		await walk.screenshot('records-write-type.png');
	});

	await walk.step('Update → Create: both fields kept', async () => {
		await choose('writeType', 'Create');
		await shows(field('Email (email)'), 'Email after Update → Create', 'mapper@acme.example');
		await shows(field('First Name (firstname)'), 'First Name after Update → Create', 'Ada');
		expect(await ndv().getByTestId('parameter-input-recordId').count()).toBe(0);
		await choose('writeType', 'Update');
		await shows(field('First Name (firstname)'), 'First Name back in Update', 'Ada');
		await recordIdInput().fill(id);
		await walk.page.keyboard.press('Tab');
	});

	await walk.step('Update → Delete: Record ID kept; the run deletes that record', async () => {
		await choose('writeType', 'Delete');
		await shows(recordIdInput(), 'Record ID after Update → Delete', id);
		ctx.sim.journal.clear();
		await execute('the delete sent', () => writes().length > 0);
		expect(writes()).toHaveLength(1);
		expect(writes()[0].body).toMatchObject({ type: 'delete', record: { id } });
		expect(contacts().has(id)).toBe(false);
	});

	await walk.step('Delete → Update: Record ID kept; an ID-only update says so', async () => {
		await choose('writeType', 'Update');
		await shows(recordIdInput(), 'Record ID after Delete → Update', id);
		ctx.sim.journal.clear();
		const idOnly = 'only the record ID ("Record ID") is set: no field to change is mapped';
		const output = await execute('the ID-only refusal', (text) => text.includes(idOnly));
		expect(output).toContain(idOnly);
		expect(writes()).toHaveLength(0);
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
