/**
 * Queue mode, log trigger, main killed (docs/triggers.md, "When main dies"): main is
 * SIGKILLed the moment PostgreSQL logs the poll's static-data write (n8n saves it before it creates
 * the execution), and in the middle of a poll; entries keep arriving while main is down. Watching operation IDs and watching a whole
 * installation (new operations appear during the run). Every entry written after activation must
 * be emitted at least once; an entry emitted more than once is marked `redelivered` from its
 * second emission on, so a workflow can tell it apart by `entryKey`.
 *
 * Polls: every start of main polls its active triggers at once (docs/n8n-notes.md, "Polling
 * triggers"), so each restart is the next poll to kill.
 */
import * as fs from 'node:fs';

import { SEED, startSimulator, type LogSimulator } from '../../harness/logTriggerEngine';
import { readExample, type N8nClient } from '../../harness/e2eContext';
import {
	allExecutions,
	killProcess,
	processPid,
	queueClient,
	queueInfo,
	sleep,
	startProcess,
	takeCluster,
	unrecognizedNodeTypes,
	until,
} from '../../harness/queueContext';

jest.setTimeout(600_000);

const TRIGGER = 'Integration Platform Log Trigger';
/**
 * Kills per scope: the moment PostgreSQL logs the poll's static-data write (n8n saves it 5 to 60
 * ms before it creates the execution: the window), or `ms` after a poll's last log read was
 * answered (E2E_KILL_AFTER_MS, comma-separated, adds such kills), and mid-poll.
 */
type Kill = 'at the static-data write' | number | 'during a poll';
const KILLS: Kill[] = [
	'at the static-data write',
	...(process.env.E2E_KILL_AFTER_MS ?? '').split(',').filter(Boolean).map(Number),
	'during a poll',
];

let n8n: N8nClient;
let sim: LogSimulator;
let release: () => Promise<void>;
let credential: { id: string; name: string };

beforeAll(async () => {
	release = await takeCluster('logTriggerMainKilled');
	n8n = queueClient();
	sim = await startSimulator();
	credential = await n8n.createCredential({
		type: 'integrationPlatformApi',
		name: `Simulator API key (log trigger, main killed ${Date.now()})`,
		data: { apiKey: SEED.apiKey, baseUrl: sim.apiUrl, readUrl: sim.readUrl },
	});
});

afterAll(async () => {
	await sim?.close();
	await release?.();
});

type Item = Record<string, any>;

/** Log reads of the simulator not answered yet (a poll under way reads up to four at a time). */
const readsInFlight = () =>
	sim.journal.entries.filter((e) => e.routeId === 'listOperationLogs' && e.status === null).length;
const readsAnswered = () =>
	sim.journal.entries.filter((e) => e.routeId === 'listOperationLogs' && e.status !== null).length;

/**
 * SIGKILLs main `when` ms after a poll's last log read was answered (no read in flight then, and
 * none answered since), or while a poll's reads are held back by a one-second delay on the logs
 * route. Resolves once main is gone.
 */
async function killMain(when: Kill): Promise<void> {
	const pid = await processPid('main');
	if (when === 'at the static-data write') {
		// the first write of static data once a log read was answered: the poll's, not activation's
		const answered = readsAnswered();
		const writes = statementLog();
		await until(
			"main's write of the poll's static data",
			() => {
				const text = writes();
				return (readsAnswered() > answered && STATIC_DATA_WRITE.test(text)) || undefined;
			},
			120_000,
			1,
		);
		process.kill(pid, 'SIGKILL');
	} else if (when === 'during a poll') {
		sim.faults.add({ route: 'listOperationLogs', latencyMs: 1000 });
		await until('a poll reading logs', () => readsInFlight() > 0 || undefined, 120_000, 5);
		process.kill(pid, 'SIGKILL');
		sim.faults.clear();
	} else {
		await new Promise<void>((resolve) => {
			let timer: NodeJS.Timeout | undefined;
			const stop = sim.journal.onAnswer((entry) => {
				if (entry.routeId !== 'listOperationLogs') return;
				clearTimeout(timer);
				const answered = readsAnswered();
				timer = setTimeout(() => {
					if (readsInFlight() > 0 || readsAnswered() !== answered) return; // not the last read
					stop();
					process.kill(pid, 'SIGKILL');
					resolve();
				}, when);
			});
		});
	}
	await killProcess('main'); // reaps it (and its task runner)
}

/**
 * n8n's saveStaticData as PostgreSQL logs it, or with durable poll cursors the cursor's update (in
 * the transaction that also inserts the execution).
 */
const STATIC_DATA_WRITE =
	/UPDATE "(?:public"\.")?workflow_entity" SET "staticData"|UPDATE "(?:public"\.")?poller_state" SET "cursor"/;

/**
 * What PostgreSQL logs from now on (every write statement: test/harness/n8n/queueServers.js):
 * each call returns the text logged since the previous one.
 */
function statementLog(): () => string {
	const fd = fs.openSync(queueInfo().logFiles.postgres, 'r');
	let offset = fs.fstatSync(fd).size;
	return () => {
		const size = fs.fstatSync(fd).size;
		if (size <= offset) return '';
		const buffer = Buffer.alloc(size - offset);
		offset += fs.readSync(fd, buffer, 0, buffer.length, offset);
		return buffer.toString('utf8');
	};
}

/** What the workflow's failed executions say (a failed poll is one), for a timeout's message. */
async function failures(workflowId: string): Promise<string> {
	const { executions } = await allExecutions(n8n, workflowId, true);
	const failed = executions.filter((e) => e.status !== 'success');
	const messages = failed.map((e) => e.data?.resultData?.error?.message ?? e.status);
	return `${failed.length} of ${executions.length} executions not successful: ${[...new Set(messages)].join(' | ')}`;
}

/** The trigger's output items of every finished execution, oldest first. */
/** The newest execution's ID before the triggers ran: older ones belong to other test files. */
let firstExecutionId = 0;
async function newestExecutionId(): Promise<number> {
	const page = (await n8n.api('GET', '/executions?limit=1')) as { data?: Array<{ id: string }> };
	return Number(page.data?.[0]?.id ?? 0);
}

async function emittedItems(workflowId: string): Promise<Item[]> {
	const { executions } = await allExecutions(n8n, workflowId, true, 5, firstExecutionId + 1);
	return executions
		.filter((e) => e.mode === 'trigger' && e.stoppedAt)
		.sort((a, b) => Number(a.id) - Number(b.id))
		.flatMap((e) =>
			(e.data?.resultData?.runData?.[TRIGGER]?.[0]?.data?.main?.[0] ?? []).map(
				(i: { json: Item }) => i.json,
			),
		);
}

type Scope = 'operation IDs' | 'an installation';

/** One trigger: its workflow, the operations it watches and what was written to them. */
interface Watched {
	scope: Scope;
	workflowId: string;
	operations: string[];
	written: Set<string>; // message texts of the entries written after activation
}
const watched: Watched[] = [];
let writer: NodeJS.Timeout | undefined;
let count = 0;

function writeOne() {
	count++;
	for (const w of watched) {
		if (w.scope === 'an installation' && count % 15 === 0) w.operations.push(sim.addOperation().id);
		const msg = `${w.scope} entry ${count}`;
		sim.appendLog(w.operations[count % w.operations.length], { message: { msg } });
		w.written.add(msg);
	}
}

/** Deactivates and activates every trigger: each activation polls at once. */
async function reactivateAll(): Promise<void> {
	for (const { workflowId } of watched) {
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`);
		await n8n.api('POST', `/workflows/${workflowId}/activate`);
	}
}

/**
 * Both scopes at once: each kill of main hits both triggers (their polls, or between them). All
 * operations belong to the seeded installation, so the installation's trigger also emits the
 * entries of the other trigger's operations; each trigger is checked against what it must emit.
 */
beforeAll(async () => {
	for (const scope of ['operation IDs', 'an installation'] as const) {
		const operations = Array.from({ length: 3 }, () => sim.addOperation().id);
		for (const id of operations) sim.appendLog(id, { message: { msg: `history of ${id}` } });
		const example = readExample(
			scope === 'operation IDs' ? 'log-trigger.json' : 'log-trigger-installation.json',
		);
		example.name = `log trigger, main killed, ${scope} ${Date.now()}`;
		const trigger = example.nodes.find((n: { name: string }) => n.name === TRIGGER);
		if (scope === 'operation IDs') trigger.parameters.operationIds = operations.join(',');
		const { id } = await n8n.createWorkflow(example, { integrationPlatformApi: credential });
		watched.push({ scope, workflowId: id, operations, written: new Set() });
	}
	const answered = readsAnswered();
	for (const { workflowId } of watched) {
		await n8n.api('POST', `/workflows/${workflowId}/activate`);
	}
	await until('the activation polls', () => readsAnswered() > answered || undefined, 120_000);
	firstExecutionId = await newestExecutionId();
	writer = setInterval(writeOne, 300);
});

afterAll(async () => {
	clearInterval(writer);
	for (const { workflowId } of watched) {
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
	}
});

test.each(KILLS.map((when) => [typeof when === 'number' ? `${when} ms after a poll` : when, when]))(
	'main SIGKILLed %s',
	async (_, when) => {
		await sleep(2000); // entries for the next polls (the writer runs every 300 ms)
		const killed = killMain(when);
		await reactivateAll().catch(() => undefined); // main may be killed under the calls
		await killed;
		await sleep(1000); // entries written while main is down
		await startProcess('main'); // its start-up polls the active triggers again
	},
);

test.each(['operation IDs', 'an installation'] as const)(
	'watching %s: every entry written after activation emitted at least once; repeats are marked',
	async (scope) => {
		clearInterval(writer);
		writer = undefined;
		const { workflowId, written } = watched.find((w) => w.scope === scope)!;
		if (scope === 'operation IDs') {
			// one more poll of each, by reactivation, reads what the last start-up poll left
			const answered = readsAnswered();
			await reactivateAll();
			await until('a poll', () => readsAnswered() > answered || undefined, 150_000).catch(
				async (error) => {
					throw new Error(`${(error as Error).message}; ${await failures(workflowId)}`);
				},
			);
		}
		const items = await until(
			`every one of ${written.size} entries emitted`,
			async () => {
				const emitted = await emittedItems(workflowId);
				const seen = new Set(emitted.map((i) => i.message?.msg));
				return [...written].every((msg) => seen.has(msg)) ? emitted : undefined;
			},
			180_000,
			1000,
		).catch(async (error) => {
			const seen = new Set((await emittedItems(workflowId)).map((i) => i.message?.msg));
			const missing = [...written].filter((msg) => !seen.has(msg));
			throw new Error(`${(error as Error).message}: ${missing.length} never emitted`);
		});
		const byKey = new Map<string, Item[]>();
		for (const item of items) byKey.set(item.entryKey, [...(byKey.get(item.entryKey) ?? []), item]);
		const repeats = [...byKey.values()].filter((list) => list.length > 1);
		process.stderr.write(
			`\n[e2e-queue] log trigger watching ${scope}, main SIGKILLed ${KILLS.length} times: ${written.size} entries written, ${items.length} items emitted, ${byKey.size} distinct, ${repeats.length} emitted more than once, ${items.filter((i) => i.redelivered === true).length} marked redelivered\n`,
		);
		expect(items.some((i) => String(i.message?.msg).startsWith('history'))).toBe(false);
		// the first emission of an entry is not marked; every later one is
		expect(repeats.filter((list) => list.slice(1).some((i) => i.redelivered !== true))).toEqual([]);
		expect(unrecognizedNodeTypes()).toEqual([]);
	},
);
