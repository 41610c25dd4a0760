/**
 * Queue mode, action node: every example workflow of examples/ that uses the action node runs in
 * the cluster (called through main's webhook, executed on a worker) against the simulator, with
 * the same expectations as the single-process suite; every execution is one a worker's log says
 * it finished, and no process failed to recognise a node type (the package is loaded everywhere).
 */
import { actionExamples, expectations } from '../harness/actionExpectations';
import { readExample, type E2eContext } from '../harness/e2eContext';
import {
	finishedByWorker,
	setUpQueueE2e,
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
