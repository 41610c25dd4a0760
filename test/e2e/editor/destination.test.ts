/**
 * The event trigger's Destination as a new user meets it, in headless Chromium
 * (test/harness/browser.ts) against the e2e run's n8n and a simulator of this file (issue 30,
 * point 4):
 *
 * - the Destination list puts the destination the integrations' manifests deliver to first and
 *   says what it receives (screenshot docs/images/event-trigger-destinations.png);
 * - _If the Destination Exists_ is left at its default, which a new node (version 4) shows as
 *   "Point It at This Workflow if a Manifest Delivers to It";
 * - listening for a test event receives the simulator's read delivery;
 * - saved and activated with that default, the manifest's destination is pointed at the workflow,
 *   a read reaches an execution, and deactivation puts the destination's URL back.
 *
 * The browser console must stay free of errors throughout (the harness's short allow-list aside).
 */

import { SEED } from '../../harness/actionEngine';
import { closePanel, describeProblems, expectVisible } from '../../harness/browser';
import { editorWalk } from '../../harness/editorWalk';
import { setUpE2e, type E2eContext } from '../../harness/e2eContext';
import { until } from '../../harness/wait';

jest.setTimeout(180_000);

const TRIGGER = 'Integration Platform Trigger';
const MARKED =
	`${SEED.destinationName} — read results of hubspot-deals (deals), hubspot-sync (companies, contacts), ` +
	'legacy-sync (deals); subscribe events of hubspot-sync (contacts); schema changes of hubspot-sync';
const DEFAULT_CHOICE = 'Point It at This Workflow if a Manifest Delivers to It';

let ctx: E2eContext;
let workflowId: string;
const webhookId = crypto.randomUUID();

const walk = editorWalk(
	'destination walk',
	async () => {
		// n8n is served over plain http on this machine, as npm start serves it.
		ctx = await setUpE2e(`destination ${Date.now().toString(36)}`, { httpsWebhooksOnly: false });
		return ctx.n8n.baseUrl;
	},
	async () => {
		await ctx?.n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
		await ctx?.sim.close();
	},
);

beforeAll(async () => {
	// A new trigger as the nodes panel adds it (version 4, every parameter at its default), with
	// the credential and the project chosen.
	const workflow = await ctx.n8n.createWorkflow(
		{
			name: `destination marks ${Date.now().toString(36)}`,
			nodes: [
				{
					parameters: {
						project: { __rl: true, mode: 'list', value: SEED.projectName },
						events: ['read'],
					},
					id: crypto.randomUUID(),
					name: TRIGGER,
					type: 'n8n-nodes-integration-platform.integrationPlatformTrigger',
					typeVersion: 4,
					position: [0, 0],
					webhookId,
					credentials: { integrationPlatformApi: { id: '1', name: 'placeholder' } },
				},
				{
					parameters: {},
					id: crypto.randomUUID(),
					name: 'Handle event',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [240, 0],
				},
			],
			connections: { [TRIGGER]: { main: [[{ node: 'Handle event', type: 'main', index: 0 }]] } },
			settings: {},
		},
		ctx.credentials,
	);
	workflowId = workflow.id;
});

/** The URL the simulator's destination of that name sends to, if it exists. */
function destinationUrl(name: string): string | undefined {
	const destinations = (
		ctx.sim.state as unknown as {
			destinations: Map<string, { name: string; metadata?: { url?: string } }>;
		}
	).destinations;
	return [...destinations.values()].find((d) => d.name === name)?.metadata?.url;
}

async function emitRead(email: string, testCopy: boolean): Promise<void> {
	const response = await fetch(`${ctx.sim.apiUrl}/__sim/emit/read`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ objectName: 'contacts', records: [{ fields: { email } }], testCopy }),
	});
	expect(response.status).toBe(201);
}

test('the Destination list marks the manifest’s destination; the default receives its read results', async () => {
	const ndv = walk.page.getByTestId('ndv');

	await walk.step('open the workflow and the trigger', async () => {
		await walk.page.goto(`${ctx.n8n.baseUrl}/workflow/${workflowId}`);
		await expectVisible(walk.page.getByTestId('canvas-node').first(), 'the workflow on the canvas');
		await walk.page.getByTestId('canvas-node').filter({ hasText: TRIGGER }).dblclick();
		await expectVisible(ndv.getByTestId('resource-locator-destinationName'), 'Destination', ndv);
	});

	await walk.step('open the Destination list, read it, pick the marked one', async () => {
		await ndv.getByTestId('resource-locator-destinationName').getByTestId('rlc-input').click();
		const items = walk.page.getByTestId('rlc-item');
		await expectVisible(items.first(), 'the Destination list', walk.page.locator('body'));
		const shown = (await items.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
		// What a manifest delivers to first, saying what and from which integration; the rest by name.
		expect(shown).toEqual([MARKED, SEED.updatableDestinationName, SEED.deletableDestinationName]);
		await walk.screenshot('event-trigger-destinations.png');
		await items.first().click();
	});

	await walk.step('keep the default of If the Destination Exists', async () => {
		const field = ndv.getByTestId('parameter-input-onExistingDestination');
		await expectVisible(field, 'If the Destination Exists', ndv);
		await expect(field.locator('input').inputValue()).resolves.toBe(DEFAULT_CHOICE);
	});

	await walk.step('listen, run a read, see the record', async () => {
		await ndv.getByTestId('node-execute-button').click();
		await expectVisible(
			ndv.getByText(/Listening for test event/i).first(),
			'the panel listening',
			ndv,
		);
		const testName = `${SEED.destinationName}-test`;
		await until(
			`the "${testName}" destination`,
			() => destinationUrl(testName) !== undefined,
			30_000,
			200,
		);
		await emitRead('listen@example.com', true);
		const output = walk.page.getByTestId('output-panel');
		await expectVisible(output.getByTestId('ndv-items-count'), 'the received read', ndv);
		await output.getByTestId('radio-button-json').click();
		await expectVisible(
			output.getByTestId('ndv-data-container').getByText('listen@example.com').first(),
			'the delivered record in the output',
			output,
		);
		await closePanel(walk.page);
	});

	await walk.step(
		'save, activate: the manifest’s destination delivers to the workflow',
		async () => {
			// Saved by the shortcut, or already by n8n's autosave: either way the stored workflow shows it.
			await walk.page.keyboard.press('Control+s');
			let parameters: Record<string, unknown> = {};
			await until(
				'the saved Destination',
				async () => {
					const workflow = await ctx.n8n.api('GET', `/workflows/${workflowId}`);
					parameters = workflow.nodes.find((n: { name: string }) => n.name === TRIGGER).parameters;
					return (
						(parameters.destinationName as { value?: string } | undefined)?.value !== undefined
					);
				},
				15_000,
				250,
			);
			expect((parameters.destinationName as { value?: string }).value).toBe(SEED.destinationName);
			// The default is kept: n8n saves no value for a parameter left at its default.
			expect(parameters).not.toHaveProperty('onExistingDestination');

			await ctx.n8n.api('POST', `/workflows/${workflowId}/activate`);
			// n8n registers and serves the production webhook shortly after activation (asynchronous in 2.x).
			const production = `${ctx.n8n.baseUrl}/webhook/${webhookId}/webhook`;
			await until('the manifest destination pointed at the workflow', () =>
				destinationUrl(SEED.destinationName) === production ? true : undefined,
			);
			await until('the production webhook', async () =>
				(await fetch(production, { method: 'POST', body: '{}' })).status === 404 ? undefined : true,
			);
			await emitRead('active@example.com', false);
			let emails: unknown[] = [];
			await until(
				'the execution of the read',
				async () => {
					const executions = await ctx.n8n.executions(workflowId, true);
					emails = JSON.stringify(executions).match(/active@example\.com/g) ?? [];
					return emails.length > 0;
				},
				30_000,
				250,
			);
			await ctx.n8n.api('POST', `/workflows/${workflowId}/deactivate`);
			await until('the destination given back', () =>
				destinationUrl(SEED.destinationName) === SEED.webhookUrl ? true : undefined,
			);
		},
	);

	if (walk.editor.problems.length) throw new Error(describeProblems(walk.editor.problems));
});
