/**
 * What every queue-mode test file needs: the cluster started by test/harness/queueGlobalSetup.js,
 * reached through N8N_E2E_QUEUE_INFO, the e2e helpers of test/e2e/e2eContext.ts pointed at it,
 * the processes' logs (to prove where things ran) and the control server (restart main, and take
 * the cluster for one file at a time).
 */
import * as fs from 'node:fs';

import { n8nClient, setUpE2e, type E2eContext, type N8nClient } from './e2eContext';

export interface QueueInfo {
	baseUrl: string;
	apiKey: string;
	webhookBaseUrl: string;
	controlUrl: string;
	logFiles: Record<string, string>;
	workers: string[];
}

export function queueInfo(): QueueInfo {
	const file = process.env.N8N_E2E_QUEUE_INFO;
	if (!file)
		throw new Error(
			'N8N_E2E_QUEUE_INFO is not set: run queue-mode tests through the jest "e2e-queue" project',
		);
	return JSON.parse(fs.readFileSync(file, 'utf8')) as QueueInfo;
}

/**
 * e2eContext reads the n8n to talk to from N8N_E2E_INFO; in this file's copy of process.env (Jest
 * gives every test file its own) that is the cluster's main.
 */
function pointE2eContextAtCluster(): void {
	queueInfo();
	process.env.N8N_E2E_INFO = process.env.N8N_E2E_QUEUE_INFO;
}

export function queueClient(): N8nClient {
	pointE2eContextAtCluster();
	return n8nClient();
}

/** setUpE2e of the single-process suite (a simulator, both credentials), against the cluster. */
export async function setUpQueueE2e(
	label: string,
	simulatorOptions: Record<string, string | number | boolean> = {},
): Promise<E2eContext> {
	pointE2eContextAtCluster();
	return await setUpE2e(label, simulatorOptions);
}

async function control(method: string, path: string): Promise<any> {
	const res = await fetch(`${queueInfo().controlUrl}${path}`, { method });
	const body = await res.json();
	if (!res.ok)
		throw Object.assign(new Error(`control ${path}: ${res.status} ${JSON.stringify(body)}`), {
			status: res.status,
		});
	return body;
}

/**
 * Takes the cluster for this test file until `release()`: a file that restarts main must not run
 * beside one that sends it work (Jest may run files in parallel on machines with more cores).
 */
export async function takeCluster(owner: string): Promise<() => Promise<void>> {
	for (;;) {
		try {
			await control('POST', `/lock?owner=${encodeURIComponent(owner)}`);
			break;
		} catch (error) {
			if ((error as { status?: number }).status !== 409) throw error;
		}
	}
	return async () => {
		await control('POST', `/unlock?owner=${encodeURIComponent(owner)}`);
	};
}

export const stopMain = async (): Promise<{ stoppedMs: number }> =>
	await control('POST', '/main/stop');
export const startMain = async (): Promise<{ readyMs: number; pid: number }> =>
	await control('POST', '/main/start');

/**
 * Kills one process of the cluster (main, worker1…, webhook) with `signal` (SIGKILL by default)
 * and waits until it is gone. For a kill timed to the millisecond, send the signal yourself to
 * `processPid(name)` and then call this to reap it.
 */
export const killProcess = async (
	name: string,
	signal: NodeJS.Signals = 'SIGKILL',
): Promise<{ exitedMs: number }> =>
	await control(
		'POST',
		`/process/kill?name=${encodeURIComponent(name)}&signal=${encodeURIComponent(signal)}`,
	);
/** Starts a killed or stopped process again (same ports, log appended); resolves once it is ready. */
export const startProcess = async (name: string): Promise<{ readyMs: number; pid: number }> =>
	await control('POST', `/process/start?name=${encodeURIComponent(name)}`);
/** The PID of a running process of the cluster. */
export async function processPid(name: string): Promise<number> {
	const found = (
		(await control('GET', '/processes')) as Array<{ name: string; pid?: number }>
	).find((p) => p.name === name);
	if (!found?.pid) throw new Error(`no running process ${name}`);
	return found.pid;
}

/** The whole log of one process so far: main, worker1…, webhook, redis. */
export function readLog(name: string): string {
	const file = queueInfo().logFiles[name];
	if (!file) throw new Error(`no process ${name}`);
	return fs.readFileSync(file, 'utf8');
}

/** Ids of the executions that a log line `<prefix> <id> (job …)` names, e.g. "Worker finished execution". */
function executionIds(log: string, prefix: string): string[] {
	const pattern = new RegExp(`"message":"${prefix} (\\d+) \\(job \\d+\\)`, 'g');
	return [...log.matchAll(pattern)].map((m) => m[1]);
}

/** Execution id → the worker whose log says "Worker finished execution <id>". */
export function finishedByWorker(): Map<string, string> {
	const byId = new Map<string, string>();
	for (const worker of queueInfo().workers) {
		for (const id of executionIds(readLog(worker), 'Worker finished execution')) {
			if (byId.has(id)) throw new Error(`execution ${id} finished on two workers`);
			byId.set(id, worker);
		}
	}
	return byId;
}

/** Ids of the executions a process put on the queue ("Enqueued execution <id>"). */
export function enqueuedBy(processName: 'main' | 'webhook'): Set<string> {
	return new Set(executionIds(readLog(processName), 'Enqueued execution'));
}

/** Log lines of any process saying a node type was not recognised (the package not loaded there). */
export function unrecognizedNodeTypes(): string[] {
	return Object.keys(queueInfo().logFiles).flatMap((name) =>
		readLog(name)
			.split('\n')
			.filter((line) => /Unrecognized node type/i.test(line))
			.map((line) => `${name}: ${line.slice(0, 300)}`),
	);
}

/**
 * Every execution of a workflow, with the ids of those the list left out. n8n's public API leaves
 * out executions that main's in-memory list of active executions says are running, and under load
 * n8n 2.41 in queue mode sometimes keeps a finished execution in that list (it then also waits for
 * it on shutdown). Such an execution did run and is in the database: each id the listing skips,
 * from 1 (the oldest ones may be the hidden ones: seen twice under load, 518 of 520 listed) to
 * the highest listed plus `beyond`, is asked for one by one. Ids found to belong to another
 * workflow are remembered, so that polling asks for each of them once.
 */
export async function allExecutions(
	n8n: N8nClient,
	workflowId: string,
	includeData = false,
	beyond = 5,
	/** the lowest id to ask for (a workflow created after others' executions has none below) */
	fromId = 1,
): Promise<{ executions: any[]; hidden: string[] }> {
	const executions = await n8n.executions(workflowId, includeData);
	const listed = new Set(executions.map((e) => Number(e.id)));
	const hidden: string[] = [];
	if (!listed.size) return { executions, hidden };
	const foreign = foreignExecutions.get(workflowId) ?? new Set<number>();
	foreignExecutions.set(workflowId, foreign);
	const high = Math.max(...listed) + beyond;
	for (let id = fromId; id <= high; id++) {
		if (listed.has(id) || foreign.has(id)) continue;
		const found = await n8n
			.api('GET', `/executions/${id}?includeData=${includeData}`)
			.catch(() => undefined); // 404: not there (yet), or deleted
		if (!found) continue;
		if (String(found.workflowId) === String(workflowId)) {
			executions.push(found);
			hidden.push(String(id));
		} else {
			foreign.add(id);
		}
	}
	return { executions, hidden };
}

/** Per workflow, the execution ids that turned out to be another workflow's (they stay so). */
const foreignExecutions = new Map<string, Set<number>>();

export { sleep, until } from './wait';

/** Runs `task` over `inputs` with at most `concurrency` at a time; results in input order. */
export async function pool<I, O>(
	inputs: I[],
	concurrency: number,
	task: (input: I, index: number) => Promise<O>,
): Promise<O[]> {
	const results: O[] = new Array(inputs.length);
	let next = 0;
	const lane = async () => {
		while (next < inputs.length) {
			const index = next++;
			results[index] = await task(inputs[index], index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, lane));
	return results;
}
