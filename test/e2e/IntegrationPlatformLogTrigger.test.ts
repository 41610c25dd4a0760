/**
 * The log trigger in a real n8n 2.41.1, with examples/log-trigger.json: activation polls once at
 * once and persists the "start from now" record; entries written while the workflow was inactive
 * come out on the next activation, once, oldest first (so the cursor survived deactivation);
 * "Fetch Test Event" (the editor's POST /rest/workflows/:id/run with the trigger as start and
 * destination) shows the latest entries and leaves the cursor alone.
 *
 * One-minute polls are n8n's minimum, so polls are forced by deactivating and activating (every
 * activation polls immediately; docs/n8n-notes.md, "Polling triggers"). The simulator's journal shows each poll.
 */
import { CURSOR_VERSION } from '../../nodes/IntegrationPlatformLogTrigger/logCursor';
import * as fs from 'node:fs';

import { SEED, startSimulator, type LogSimulator } from '../harness/logTriggerEngine';
import { n8nClient, readExample, type N8nClient } from '../harness/e2eContext';
import { sleep, until } from '../harness/wait';

jest.setTimeout(180_000);

const TRIGGER = 'Integration Platform Log Trigger';
const OP = SEED.operationId;
const NEWEST_SEEDED = '2025-06-02T08:15:46.000001Z';

let n8n: N8nClient;
let sim: LogSimulator;
let credential: { id: string; name: string };
let workflowId: string;
let cookie: string;

/** Finished requests of the logs route: one per poll of the trigger (one operation). */
const polls = () =>
	sim.journal.find({ routeId: 'listOperationLogs' }).filter((e) => e.status !== null).length;

async function waitForPoll(after: number) {
	await until(`a poll of the logs (after ${after})`, () => polls() > after || undefined);
}

const activate = async () => await n8n.api('POST', `/workflows/${workflowId}/activate`);
const deactivate = async () => await n8n.api('POST', `/workflows/${workflowId}/deactivate`);

/** Deactivate and activate again: forces a poll, from the cursor n8n persisted. */
async function reactivate() {
	await deactivate();
	const before = polls();
	await activate();
	await waitForPoll(before);
}

async function storedCursor(): Promise<any> {
	const workflow = await n8n.api('GET', `/workflows/${workflowId}`);
	return workflow.staticData?.[`node:${TRIGGER}`]?.logCursor;
}

type Item = Record<string, any>;

async function triggerRuns(): Promise<
	Array<{ id: string; items: Item[]; alerts: Item[]; others: Item[] }>
> {
	const executions = await n8n.executions(workflowId, true);
	return executions
		.filter((e) => e.mode === 'trigger' && e.stoppedAt)
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((e) => {
			const runData = e.data?.resultData?.runData ?? {};
			const out = (node: string) =>
				(runData[node]?.[0]?.data?.main?.[0] ?? []).map((i: { json: Item }) => i.json);
			return {
				id: e.id,
				items: out(TRIGGER),
				alerts: out('Alert on error'),
				others: out('Other entries'),
			};
		});
}

beforeAll(async () => {
	n8n = n8nClient();
	cookie = JSON.parse(fs.readFileSync(process.env.N8N_E2E_INFO as string, 'utf8')).cookie;
	sim = await startSimulator();
	credential = await n8n.createCredential({
		type: 'integrationPlatformApi',
		name: `Simulator API key (log trigger ${Date.now()})`,
		data: { apiKey: SEED.apiKey, baseUrl: sim.apiUrl, readUrl: sim.readUrl },
	});
	const example = readExample('log-trigger.json');
	example.name = `log trigger e2e ${Date.now()}`;
	workflowId = (await n8n.createWorkflow(example, { integrationPlatformApi: credential })).id;
});

afterAll(async () => {
	if (workflowId) {
		await deactivate().catch(() => undefined);
		await n8n.api('DELETE', `/workflows/${workflowId}`).catch(() => undefined);
	}
	await sim.close();
});

test('activation polls at once, records the history as seen ("start from now"), persists it, and starts no execution', async () => {
	await activate();
	await waitForPoll(0);
	const cursor = await until('the persisted cursor', storedCursor, 60_000);
	expect(cursor).toMatchObject({
		v: CURSOR_VERSION,
		ops: { [OP]: { m: '2025-06-02T08:15:46.000001999Z' } },
	});
	await sleep(1500);
	expect(await triggerRuns()).toEqual([]);
});

test('entries written while the workflow was inactive come out on the next activation: once, oldest first, routed by severity', async () => {
	await deactivate();
	const written = [
		sim.appendLog(OP, {
			severity: 'ERROR',
			message: { msg: 'Failed to fetch associations', error: 'hubspot: 502' },
		}),
		sim.appendLog(OP, { severity: 'INFO', message: { msg: 'Retry succeeded' } }),
		sim.appendLog(OP, { severity: 'WARNING', message: { msg: 'Provider rate limit reached' } }),
	];
	const before = polls();
	await activate();
	await waitForPoll(before);
	const [run] = await until('the execution of the new entries', async () => {
		const runs = await triggerRuns();
		return runs.length ? runs : undefined;
	});
	expect(run.items.map((i) => i.message.msg)).toEqual(written.map((w) => w.message.msg));
	expect(run.items[0]).toEqual({
		timestamp: written[0].timestamp,
		severity: 'ERROR',
		message: { msg: 'Failed to fetch associations', error: 'hubspot: 502', operation_id: OP },
		timestampIso: written[0].timestamp,
		operationId: OP,
		projectId: SEED.projectId,
		entryKey: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
	});
	expect(run.alerts.map((i) => i.severity)).toEqual(['ERROR']);
	expect(run.others.map((i) => i.severity)).toEqual(['INFO', 'WARNING']);
});

test('reactivating emits nothing new; the next entry comes out once; no entry is ever emitted twice or from the history', async () => {
	await reactivate();
	await sleep(1500);
	expect(await triggerRuns()).toHaveLength(1);

	const next = sim.appendLog(OP, { severity: 'CRITICAL', message: { msg: 'Read failed' } });
	await reactivate();
	const runs = await until('the second execution', async () => {
		const all = await triggerRuns();
		return all.length >= 2 ? all : undefined;
	});
	const emitted = runs.flatMap((r) => r.items);
	expect(emitted.map((i) => i.message.msg)).toEqual([
		'Failed to fetch associations',
		'Retry succeeded',
		'Provider rate limit reached',
		'Read failed',
	]);
	expect(new Set(emitted.map((i) => i.entryKey)).size).toBe(4);
	expect(emitted.every((i) => i.timestamp > NEWEST_SEEDED)).toBe(true);
	expect(runs[runs.length - 1].items[0].timestamp).toBe(next.timestamp);
	expect(runs[runs.length - 1].alerts).toHaveLength(1); // CRITICAL counts as an error in the example
});

test('Fetch Test Event (manual run from the trigger): the latest 5 entries, oldest first; the cursor is not touched', async () => {
	const cursorBefore = await storedCursor();
	const logRequestsBefore = polls();
	const res = await fetch(`${n8n.baseUrl}/rest/workflows/${workflowId}/run`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({
			triggerToStartFrom: { name: TRIGGER },
			destinationNode: { nodeName: TRIGGER, mode: 'inclusive' },
		}),
	});
	const body = (await res.json()) as { data?: { executionId?: string } };
	expect(res.status).toBe(200);
	const executionId = body.data?.executionId;
	expect(executionId).toBeDefined();
	const execution = await until('the manual execution', async () => {
		const e = await n8n.api('GET', `/executions/${executionId}?includeData=true`);
		return e.stoppedAt ? e : undefined;
	});
	expect(execution.mode).toBe('manual');
	expect(execution.status).toBe('success');
	const items: Item[] = execution.data.resultData.runData[TRIGGER][0].data.main[0].map(
		(i: { json: Item }) => i.json,
	);
	expect(items.map((i) => i.message.msg)).toEqual([
		'Operation complete',
		'Failed to fetch associations',
		'Retry succeeded',
		'Provider rate limit reached',
		'Read failed',
	]);
	expect(items[0].timestamp).toBe(NEWEST_SEEDED);
	expect(items.every((i) => i.projectId === SEED.projectId && i.operationId === OP)).toBe(true);
	expect(polls()).toBeGreaterThan(logRequestsBefore);
	expect(await storedCursor()).toEqual(cursorBefore);
	// and production polling is unaffected: nothing new to emit
	await reactivate();
	await sleep(1000);
	expect((await triggerRuns()).flatMap((r) => r.items)).toHaveLength(4);
});
