/**
 * Queue mode, log trigger: the trigger polls in main (the leader; docs/n8n-notes.md, "Queue mode") and the
 * executions its polls start run on the workers. Its cursor lives in the workflow's static data,
 * which main persists to the shared database, so it must survive main being stopped and started
 * again while the workers keep running.
 *
 * One operation, activated with "start from now" (the entries already there are history), then
 * rounds: the simulator writes entries (single ones and bursts sharing one timestamp), and a poll
 * is forced, either by deactivating and activating (every activation polls at once) or by
 * restarting main, with the round's entries written while main is down (no process polls then,
 * workers included). n8n's minimum poll interval is a minute, so its own scheduled polls may run
 * in between too; they must not change the outcome. Every entry written after activation must be
 * emitted once; a restart of main emits the last batch before it again, marked `redelivered`
 * (docs/triggers.md, "When main dies"), and nothing else comes out twice.
 */
import { CURSOR_VERSION } from '../../nodes/IntegrationPlatformLogTrigger/logCursor';
import { readExample, type N8nClient } from '../harness/e2eContext';
import { SEED, startSimulator, type LogSimulator } from '../harness/logTriggerEngine';
import {
	allExecutions,
	enqueuedBy,
	finishedByWorker,
	queueClient,
	sleep,
	startMain,
	stopMain,
	takeCluster,
	unrecognizedNodeTypes,
	until,
} from '../harness/queueContext';

jest.setTimeout(300_000);

const TRIGGER = 'Integration Platform Log Trigger';
const SEVERITIES = ['INFO', 'WARNING', 'ERROR', 'DEBUG', 'CRITICAL'];
/** 510 entries over five polls, two of them after a restart of main. */
const ROUNDS: Array<{ single: number; burst: number; poll: 'reactivate' | 'restart main' }> = [
	{ single: 80, burst: 20, poll: 'reactivate' },
	{ single: 70, burst: 30, poll: 'restart main' },
	{ single: 90, burst: 10, poll: 'reactivate' },
	{ single: 75, burst: 25, poll: 'restart main' },
	{ single: 70, burst: 40, poll: 'reactivate' },
];

let n8n: N8nClient;
let sim: LogSimulator;
let release: () => Promise<void>;
let workflowId: string;
let operationId: string;
const written: string[] = []; // message texts of the entries written after activation
const history: string[] = [];
let restarts = 0;

beforeAll(async () => {
	release = await takeCluster('logTrigger');
	n8n = queueClient();
	sim = await startSimulator();
	operationId = sim.addOperation().id;
	for (let i = 0; i < 3; i++) {
		history.push(sim.appendLog(operationId, { message: { msg: `history ${i}` } }).message.msg);
	}
	const credential = await n8n.createCredential({
		type: 'integrationPlatformApi',
		name: `Simulator API key (log trigger, queue ${Date.now()})`,
		data: {
			apiKey: SEED.apiKey,
			baseUrl: sim.apiUrl,
			readUrl: sim.readUrl,
			writeUrl: sim.writeUrl,
			searchUrl: sim.searchUrl,
			proxyUrl: sim.proxyUrl,
		},
	});
	const example = readExample('log-trigger.json');
	example.name = `log trigger queue e2e ${Date.now()}`;
	const trigger = example.nodes.find((n: { name: string }) => n.name === TRIGGER);
	trigger.parameters.operationIds = operationId;
	workflowId = (await n8n.createWorkflow(example, { integrationPlatformApi: credential })).id;
});

afterAll(async () => {
	if (workflowId)
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
	await sim?.close();
	await release?.();
});

/** Finished requests for this operation's logs: one per poll. */
const polls = () =>
	sim.journal
		.find({ routeId: 'listOperationLogs' })
		.filter((e) => e.status !== null && e.pathname.includes(operationId)).length;

const waitForPoll = async (after: number, timeoutMs = 60_000) =>
	await until(`a poll of the logs (after ${after})`, () => polls() > after || undefined, timeoutMs);

type Item = Record<string, any>;

/** The trigger's output items of every finished execution the polls started, oldest first. */
async function triggerRuns(): Promise<Array<{ id: string; status: string; items: Item[] }>> {
	const { executions } = await allExecutions(n8n, workflowId, true);
	return executions
		.filter((e) => e.mode === 'trigger' && e.stoppedAt)
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((e) => ({
			id: String(e.id),
			status: String(e.status),
			items: (e.data?.resultData?.runData?.[TRIGGER]?.[0]?.data?.main?.[0] ?? []).map(
				(i: { json: Item }) => i.json,
			),
		}));
}

/** Waits until `count` distinct entries came out. */
async function waitForEmitted(count: number) {
	return await until(
		`${count} entries emitted`,
		async () => {
			const runs = await triggerRuns();
			const keys = new Set(runs.flatMap((r) => r.items).map((i) => i.entryKey));
			return keys.size >= count ? runs : undefined;
		},
		90_000,
		500,
	);
}

function write(round: number, single: number, burst: number) {
	for (let i = 0; i < single; i++) {
		const entry = sim.appendLog(operationId, {
			severity: SEVERITIES[i % SEVERITIES.length],
			message: { msg: `round ${round} entry ${i}` },
		});
		written.push(entry.message.msg);
	}
	// One timestamp shared by the whole burst (docs/api-notes.md, "Operation logs"); told apart by their messages.
	const entries = sim.appendLogBurst(operationId, burst, { message: { round } });
	for (const e of entries) written.push(`${e.message.msg} (round ${round})`);
}

/** Each entry's first emission; the later ones must be marked `redelivered` (handOff.ts). */
function firstEmissions(items: Item[]): Item[] {
	const seen = new Set<string>();
	const firsts = items.filter((i) => !seen.has(i.entryKey) && seen.add(i.entryKey));
	const unmarkedRepeats = items.filter((i) => !firsts.includes(i) && i.redelivered !== true);
	expect(unmarkedRepeats).toEqual([]);
	return firsts;
}

const label = (item: Item) =>
	item.message.round === undefined
		? item.message.msg
		: `${item.message.msg} (round ${item.message.round})`;

test('activation polls in main, records the history as seen ("start from now") and starts nothing', async () => {
	await n8n.api('POST', `/workflows/${workflowId}/activate`);
	await waitForPoll(0);
	const cursor = await until('the persisted cursor', async () => {
		const workflow = await n8n.api('GET', `/workflows/${workflowId}`);
		return workflow.staticData?.[`node:${TRIGGER}`]?.logCursor;
	});
	expect(cursor).toMatchObject({ v: CURSOR_VERSION, ops: { [operationId]: expect.any(Object) } });
	await sleep(1500);
	expect(await triggerRuns()).toEqual([]);
});

test.each(ROUNDS.map((r, i) => [i + 1, r.single + r.burst, r.poll, r] as const))(
	'round %i: %i entries, then %s',
	async (round, total, poll, { single, burst }) => {
		if (poll === 'reactivate') {
			write(round, single, burst);
			await n8n.api('POST', `/workflows/${workflowId}/deactivate`);
			const before = polls();
			await n8n.api('POST', `/workflows/${workflowId}/activate`);
			await waitForPoll(before);
		} else {
			const { stoppedMs } = await stopMain();
			const before = polls();
			write(round, single, burst);
			// Workers keep running, but nothing polls while main is down.
			await sleep(3000);
			expect(polls()).toBe(before);
			const { readyMs } = await startMain();
			restarts++;
			process.stderr.write(
				`\n[e2e-queue] main stopped in ${(stoppedMs / 1000).toFixed(1)} s, ready again in ${(readyMs / 1000).toFixed(1)} s\n`,
			);
			await waitForPoll(before); // the activation poll of main's start-up
		}
		const runs = await waitForEmitted(written.length);
		const emitted = firstEmissions(runs.flatMap((r) => r.items));
		// Emission order is timestamp, then entry key: a burst (one timestamp) comes out in key
		// order, so compare as sorted lists.
		expect(emitted.map(label).sort()).toEqual([...written].sort());
		expect(total).toBe(single + burst);
	},
);

test('over all rounds: every entry written after activation emitted exactly once, by executions on workers that main enqueued', async () => {
	const pollsBefore = polls();
	await n8n.api('POST', `/workflows/${workflowId}/deactivate`);
	await n8n.api('POST', `/workflows/${workflowId}/activate`);
	await waitForPoll(pollsBefore);
	await sleep(3000); // nothing new must come out of one more poll
	const runs = await triggerRuns();
	const all = runs.flatMap((r) => r.items);
	const emitted = firstEmissions(all);
	const keys = emitted.map((i) => i.entryKey as string);
	const finished = finishedByWorker();
	const enqueuedByMain = enqueuedBy('main');
	const enqueuedByWebhook = enqueuedBy('webhook');
	process.stderr.write(
		`[e2e-queue] log trigger: ${written.length} entries written after activation, ${all.length} emitted (${new Set(keys).size} distinct keys, ${all.length - emitted.length} again after a restart) in ${runs.length} executions, ${restarts} restarts of main, ${polls()} polls\n`,
	);
	expect(written.length).toBeGreaterThanOrEqual(500);
	expect(restarts).toBeGreaterThanOrEqual(1);
	expect(emitted).toHaveLength(written.length);
	expect(new Set(keys).size).toBe(written.length);
	expect(emitted.map(label).sort()).toEqual([...written].sort());
	expect(emitted.some((i) => history.includes(i.message.msg))).toBe(false);
	expect(
		emitted.every((i) => i.operationId === operationId && i.projectId === SEED.projectId),
	).toBe(true);
	expect(runs.map((r) => r.status)).toEqual(runs.map(() => 'success'));
	expect(runs.filter((r) => !finished.has(r.id)).map((r) => r.id)).toEqual([]);
	expect(runs.filter((r) => !enqueuedByMain.has(r.id)).map((r) => r.id)).toEqual([]);
	expect(runs.filter((r) => enqueuedByWebhook.has(r.id)).map((r) => r.id)).toEqual([]);
	expect(unrecognizedNodeTypes()).toEqual([]);
});
