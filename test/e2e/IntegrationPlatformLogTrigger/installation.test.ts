/**
 * Version 2 of the log trigger in a real n8n 2.41.1, with examples/log-trigger-installation.json:
 * watching a whole installation. Activation polls at once and persists the start; an operation
 * created while the workflow was inactive is found in the operations list on the next activation
 * and its entries come out once, oldest first, routed by severity; reactivating emits nothing
 * again. Polls are forced by deactivating and activating (docs/n8n-notes.md, "Polling triggers").
 */
import * as fs from 'node:fs';

import { SEED, startSimulator, type LogSimulator } from '../../harness/logTriggerEngine';
import { n8nClient, readExample, type N8nClient } from '../../harness/e2eContext';
import { sleep, until } from '../../harness/wait';

jest.setTimeout(180_000);

const TRIGGER = 'Integration Platform Log Trigger';

let n8n: N8nClient;
let sim: LogSimulator;
let workflowId: string;

/** Finished requests of the operations list: one per poll of the trigger (one installation). */
const polls = () =>
	sim.journal.find({ routeId: 'listOperations' }).filter((e) => e.status !== null).length;

const activate = async () => await n8n.api('POST', `/workflows/${workflowId}/activate`);
const deactivate = async () => await n8n.api('POST', `/workflows/${workflowId}/deactivate`);

async function pollByActivation() {
	const before = polls();
	await activate();
	await until(`a poll (after ${before})`, () => polls() > before || undefined);
}

async function staticData(): Promise<any> {
	const workflow = await n8n.api('GET', `/workflows/${workflowId}`);
	return workflow.staticData?.[`node:${TRIGGER}`];
}

type Item = Record<string, any>;

async function triggerRuns(): Promise<Array<{ items: Item[]; alerts: Item[] }>> {
	const executions = await n8n.executions(workflowId, true);
	return executions
		.filter((e) => e.mode === 'trigger' && e.stoppedAt)
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((e) => {
			const runData = e.data?.resultData?.runData ?? {};
			const out = (node: string) =>
				(runData[node]?.[0]?.data?.main?.[0] ?? []).map((i: { json: Item }) => i.json);
			return { items: out(TRIGGER), alerts: out('Alert on error') };
		});
}

beforeAll(async () => {
	n8n = n8nClient();
	expect(fs.existsSync(process.env.N8N_E2E_INFO as string)).toBe(true);
	sim = await startSimulator();
	const credential = await n8n.createCredential({
		type: 'integrationPlatformApi',
		name: `Simulator API key (log trigger installation ${Date.now()})`,
		data: { apiKey: SEED.apiKey, baseUrl: sim.apiUrl, readUrl: sim.readUrl },
	});
	const example = readExample('log-trigger-installation.json');
	example.name = `log trigger installation e2e ${Date.now()}`;
	workflowId = (await n8n.createWorkflow(example, { integrationPlatformApi: credential })).id;
});

afterAll(async () => {
	if (workflowId) {
		await deactivate().catch(() => undefined);
		await n8n.api('DELETE', `/workflows/${workflowId}`).catch(() => undefined);
	}
	await sim.close();
});

test('activation lists the installation, persists the start and watches its running operation; no execution', async () => {
	await pollByActivation();
	const data = await until(
		'the persisted discovery state',
		async () => (await staticData())?.discovery,
		60_000,
	);
	expect(data).toMatchObject({ v: 1, s: expect.any(String) });
	expect(Object.keys(data.i[SEED.installationId].t)).toEqual([SEED.secondOperationId]);
	await sleep(1500);
	expect(await triggerRuns()).toEqual([]);
});

test('an operation created while inactive is found and its entries come out once, oldest first', async () => {
	await deactivate();
	const created = sim.addOperation();
	const written = [
		sim.appendLog(created.id, { severity: 'INFO', message: { msg: 'Read started' } }),
		sim.appendLog(created.id, {
			severity: 'ERROR',
			message: { msg: 'Failed to fetch contacts', error: 'hubspot: 502' },
		}),
	];
	await pollByActivation();
	const [run] = await until('the execution of the new operation', async () => {
		const runs = await triggerRuns();
		return runs.length ? runs : undefined;
	});
	expect(run.items.map((i) => i.message.msg)).toEqual(written.map((w) => w.message.msg));
	expect(run.items[1]).toMatchObject({
		operationId: created.id,
		installationId: SEED.installationId,
		projectId: SEED.projectId,
		severity: 'ERROR',
	});
	expect(run.alerts.map((i) => i.message.msg)).toEqual(['Failed to fetch contacts']);

	await deactivate();
	await pollByActivation();
	await sleep(1500);
	expect(await triggerRuns()).toHaveLength(1);
	const stored = await staticData();
	expect(JSON.stringify(stored)).not.toContain(SEED.apiKey);
});
