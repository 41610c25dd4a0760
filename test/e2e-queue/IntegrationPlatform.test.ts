/**
 * Queue mode, action node: every example workflow of examples/ that uses the action node runs in
 * the cluster (called through main's webhook, executed on a worker) against the simulator, with
 * the same expectations as the single-process suite; every execution is one a worker's log says
 * it finished, and no process failed to recognise a node type (the package is loaded everywhere).
 *
 * Then a worker killed in the middle of Record → Write: n8n does not run the execution again, no
 * record is written twice, and the worker's log keeps the node's trail (records/writeTrail.ts):
 * which batches were sent and which were answered, with their operation IDs.
 */
import type { IDataObject } from 'n8n-workflow';

import { SEED } from '../harness/actionEngine';
import { actionExamples, expectations } from '../harness/actionExpectations';
import { readExample, type E2eContext } from '../harness/e2eContext';
import {
	finishedByWorker,
	killProcess,
	queueInfo,
	readLog,
	setUpQueueE2e,
	startProcess,
	takeCluster,
	unrecognizedNodeTypes,
	until,
} from '../harness/queueContext';

jest.setTimeout(180_000);

let ctx: E2eContext;
let release: () => Promise<void>;
const ran = new Map<string, string>(); // example → execution id

beforeAll(async () => {
	release = await takeCluster('actionNode');
	ctx = await setUpQueueE2e('action node, queue mode');
});
afterAll(async () => {
	await ctx?.sim.close();
	await release?.();
});

test('there is an expectation for every action-node example', () => {
	expect(actionExamples.length).toBeGreaterThan(0);
	expect([...actionExamples].sort()).toEqual(Object.keys(expectations).sort());
});

describe('every action-node example runs on a worker', () => {
	test.each(actionExamples)('%s', async (name) => {
		ctx.sim.reset();
		const run = await ctx.n8n.runWorkflow(readExample(`${name}.json`), ctx.credentials);
		ran.set(name, run.id);
		expect({ status: run.status, error: run.error?.message }).toEqual({
			status: 'success',
			error: undefined,
		});
		const items = run.output('Integration Platform');
		expect(items.length).toBeGreaterThan(0);
		expectations[name](items);
	});

	test('each of those executions was finished by a worker, and every process knew the node types', async () => {
		expect([...ran.keys()].sort()).toEqual([...actionExamples].sort());
		// A worker logs "Worker finished execution" right after it saved the result, which is
		// what the run above waited for: allow it a moment to land in the log file.
		const byWorker = await until(
			'every execution in a worker log',
			() => {
				const finished = finishedByWorker();
				return [...ran.values()].every((id) => finished.has(id)) ? finished : undefined;
			},
			60_000,
		);
		const perWorker: Record<string, number> = {};
		for (const id of ran.values()) {
			const worker = byWorker.get(id) as string;
			perWorker[worker] = (perWorker[worker] ?? 0) + 1;
		}
		process.stderr.write(
			`\n[e2e-queue] ${ran.size} action-node examples, executions per worker: ${JSON.stringify(perWorker)}\n`,
		);
		expect(unrecognizedNodeTypes()).toEqual([]);
	});
});

/** Input items as the trail names them ("0–99, 150") → item numbers. */
function itemsOf(ranges: string): number[] {
	return ranges.split(', ').flatMap((part) => {
		const [first, last = first] = part.split('–').map(Number);
		return Array.from({ length: last - first + 1 }, (_, i) => first + i);
	});
}

interface TrailLine {
	/** `other`: a trail line of the workflow that is neither (an answer without success, …). */
	kind: 'sending' | 'answered' | 'other';
	batch: number;
	executionId: string;
	items: number[];
	operationId?: string;
	message: string;
}

/** Record → Write's trail lines of one workflow in a process's log (n8n's JSON log format). */
function trailOf(processName: string, workflowId: string): TrailLine[] {
	const sending =
		/^Record → Write: sending batch (\d+)\/\d+ \(execution (\d+), workflow (\S+), node "[^"]*"\): create, synchronous, \d+ record\(s\) of object "contacts" for group "[^"]*" \(project "[^"]*", integration "[^"]*"\), input items ([0-9–, ]+)$/;
	const answered =
		/^Record → Write: batch (\d+)\/\d+ answered HTTP 200, operation (\S+) \(execution (\d+), workflow (\S+), node "[^"]*"\): written \d+ \(input items ([0-9–, ]+)\)$/;
	const lines: TrailLine[] = [];
	for (const text of readLog(processName).split('\n')) {
		if (!text.includes('Record → Write')) continue;
		let message: string;
		try {
			message = String((JSON.parse(text) as { message?: unknown }).message ?? '');
		} catch {
			continue; // a line cut by the kill, or not n8n's JSON
		}
		const sent = sending.exec(message);
		if (sent && sent[3] === workflowId) {
			lines.push({
				kind: 'sending',
				batch: Number(sent[1]),
				executionId: sent[2],
				items: itemsOf(sent[4]),
				message,
			});
			continue;
		}
		const answer = answered.exec(message);
		if (answer && answer[4] === workflowId) {
			lines.push({
				kind: 'answered',
				batch: Number(answer[1]),
				operationId: answer[2],
				executionId: answer[3],
				items: itemsOf(answer[5]),
				message,
			});
			continue;
		}
		if (message.includes(`workflow ${workflowId},`))
			lines.push({ kind: 'other', batch: 0, executionId: '', items: [], message });
	}
	return lines;
}

describe('a worker killed in the middle of Record → Write', () => {
	const RECORDS = 1_000;
	const WEBHOOK = `write-trail-${Date.now()}`;

	/** 1,000 contacts from a webhook call, written in batches of 100, four at a time. */
	const workflow = {
		name: 'Record → Write cut short by a dead worker',
		nodes: [
			{
				parameters: { httpMethod: 'POST', path: WEBHOOK, responseMode: 'onReceived', options: {} },
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: WEBHOOK,
			},
			{
				parameters: {
					jsCode: `return Array.from({ length: ${RECORDS} }, (_, i) => ({ json: { email: 'trail-' + i + '@example.com', firstname: 'Person ' + i } }));`,
				},
				name: 'Contacts',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [240, 0],
			},
			{
				parameters: {
					resource: 'records',
					operation: 'write',
					project: { __rl: true, mode: 'id', value: SEED.projectId },
					integration: { __rl: true, mode: 'id', value: SEED.integrationId },
					groupRef: { __rl: true, mode: 'id', value: SEED.groupRef },
					object: { __rl: true, mode: 'id', value: 'contacts' },
					writeType: 'create',
					recordSource: 'input',
				},
				name: 'Write contacts',
				type: 'n8n-nodes-integration-platform.integrationPlatform',
				typeVersion: 2,
				position: [480, 0],
				credentials: { integrationPlatformApi: { id: '1', name: 'Integration Platform account' } },
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'Contacts', type: 'main', index: 0 }]] },
			Contacts: { main: [[{ node: 'Write contacts', type: 'main', index: 0 }]] },
		},
	};

	/** How often the simulator stored each item's contact: item → creations. */
	function stored(): Map<number, number> {
		const records = (
			ctx.sim.state.records as Map<string, Map<string, { fields: IDataObject }>>
		).get(`${SEED.installationId}/contacts`);
		const counts = new Map<number, number>();
		for (const record of records?.values() ?? []) {
			const match = /^trail-(\d+)@example\.com$/.exec(String(record.fields.email ?? ''));
			if (match) counts.set(Number(match[1]), (counts.get(Number(match[1])) ?? 0) + 1);
		}
		return counts;
	}
	const writeRequests = () =>
		ctx.sim.journal.entries.filter((entry) => entry.routeId === 'writeRecords').length;

	test('n8n does not run it again, nothing is written twice, and the worker log names every batch sent and every answer with its operation ID', async () => {
		ctx.sim.reset();
		// The first four batches are answered; every later one is stored and never answered, as
		// if the provider wrote and the answer was still on its way when the worker died.
		ctx.sim.faults.add({ route: 'writeRecords', processFirst: true, hang: true, skip: 4 });
		const answeredOperations: string[] = [];
		const journal = ctx.sim.journal as unknown as {
			onAnswer(
				listener: (entry: { routeId: string }, answer: { payload: string }) => void,
			): () => void;
		};
		const stopListening = journal.onAnswer((entry, answer) => {
			if (entry.routeId === 'writeRecords')
				answeredOperations.push(String(JSON.parse(answer.payload).operationId));
		});

		const { id: workflowId } = await ctx.n8n.createWorkflow(workflow, ctx.credentials);
		try {
			await ctx.n8n.api('POST', `/workflows/${workflowId}/activate`);
			const res = await ctx.n8n.waitForWebhook(WEBHOOK, {});
			expect(res.status).toBe(200);
			await res.arrayBuffer();

			// Four lanes: four batches answered, then four more sent that hang. Wait until the
			// worker running it has logged them and the simulator has stored all eight.
			const { worker, trail } = await until(
				'eight batches sent, four answered, all eight stored',
				() => {
					for (const name of queueInfo().workers) {
						const lines = trailOf(name, workflowId);
						const sent = lines.filter((l) => l.kind === 'sending').length;
						const answered = lines.filter((l) => l.kind === 'answered').length;
						if (sent === 8 && answered === 4 && stored().size === 800)
							return { worker: name, trail: lines };
					}
					return undefined;
				},
				120_000,
			);
			await killProcess(worker);
			const requestsAtKill = writeRequests();
			expect(requestsAtKill).toBe(8);
			await startProcess(worker);

			const executionId = trail[0].executionId;
			// n8n notices the dead worker's job once its lock expires (a minute by default) and
			// fails the execution for good: it stalled and is not run again.
			const seen: string[] = []; // the statuses the execution went through, for the report
			const execution = await until(
				'the execution failed as stalled',
				async () => {
					const found = await ctx.n8n.api('GET', `/executions/${executionId}?includeData=true`);
					const message = String(found?.data?.resultData?.error?.message ?? '');
					const status = `${found?.status}${message ? `: ${message.slice(0, 60)}` : ''}`;
					if (seen.at(-1) !== status) seen.push(status);
					return /processed too many times/.test(message) ? found : undefined;
				},
				180_000,
			);
			expect(execution.finished).toBe(false);

			// Nothing sent again, by any worker: each record stored at most once.
			expect(writeRequests()).toBe(requestsAtKill);
			const counts = stored();
			expect([...counts.values()].filter((n) => n > 1)).toEqual([]);

			// The trail in the killed worker's log: every line of one execution, one line per
			// batch sent, one per answer, each answer with the operation the simulator gave.
			const finalTrail = trailOf(worker, workflowId);
			expect(finalTrail.filter((l) => l.kind === 'other')).toEqual([]);
			expect(new Set(finalTrail.map((l) => l.executionId))).toEqual(new Set([executionId]));
			const sent = finalTrail.filter((l) => l.kind === 'sending');
			const answered = finalTrail.filter((l) => l.kind === 'answered');
			expect(sent.map((l) => l.batch).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
			expect(answered).toHaveLength(4);
			expect(answered.map((l) => l.operationId).sort()).toEqual([...answeredOperations].sort());
			for (const answer of answered) {
				expect(sent.find((l) => l.batch === answer.batch)?.items).toEqual(answer.items);
			}
			// What the trail says was answered is stored, and what is stored the trail says was sent.
			const sentItems = new Set(sent.flatMap((l) => l.items));
			const answeredItems = answered.flatMap((l) => l.items);
			expect(answeredItems).toHaveLength(400);
			expect(answeredItems.filter((item) => !counts.has(item))).toEqual([]);
			expect([...counts.keys()].filter((item) => !sentItems.has(item))).toEqual([]);
			// No record's values in the worker's log, the node's lines included.
			expect(readLog(worker)).not.toMatch(/trail-\d+@example\.com|Person \d+/);
			// The other worker never ran it.
			for (const other of queueInfo().workers.filter((name) => name !== worker)) {
				expect(trailOf(other, workflowId)).toEqual([]);
			}
			process.stderr.write(
				`\n[e2e-queue] Record → Write killed on ${worker}: ${sent.length} batches sent, ${answered.length} answered, ${counts.size} records stored, execution ${executionId} went through ${JSON.stringify(seen)}\n`,
			);
		} finally {
			stopListening();
			ctx.sim.faults.clear();
			await ctx.n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
		}
	}, 300_000);
});
