/**
 * Record → Write's trail in n8n's log (nodes/IntegrationPlatform/resources/records/writeTrail.ts):
 * one line before each batch is sent and one for its answer, through n8n-core's own logger, so
 * that an execution cut short by a dead process still says which records may have been written.
 * The lines name the batch, its input items, the write, the object, the group and the operation,
 * and never a record's values nor the provider's reasons, which quote them.
 */
import type { IDataObject } from 'n8n-workflow';

import { rl, run, SEED, startSimulator, type Simulator } from '../../../../harness/actionEngine';

/** n8n-core's own copies of the DI container and logger (its contexts log through them). */
const fromCore = (name: string) =>
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	require(require.resolve(name, { paths: [require.resolve('n8n-core')] })) as unknown;
const { Container } = fromCore('@n8n/di') as {
	Container: { get<T>(type: new (...args: never[]) => T): T };
};
type LogMethod = (message: string, metadata?: IDataObject) => void;
const { Logger } = fromCore('@n8n/backend-common') as {
	Logger: new (...args: never[]) => { info: LogMethod; warn: LogMethod };
};

interface Line {
	level: 'info' | 'warn';
	message: string;
	metadata: IDataObject;
}

let sim: Simulator;
let lines: Line[] = [];
const restores: Array<() => void> = [];
beforeAll(async () => {
	sim = await startSimulator();
	const logger = Container.get(Logger);
	for (const level of ['info', 'warn'] as const) {
		const spy = jest
			.spyOn(logger, level)
			.mockImplementation((message: string, metadata: IDataObject = {}) => {
				if (message.startsWith('Record → Write')) lines.push({ level, message, metadata });
			});
		restores.push(() => spy.mockRestore());
	}
});
afterAll(async () => {
	restores.forEach((restore) => restore());
	await sim.close();
});
beforeEach(() => {
	sim.reset();
	sim.faults.clear();
	lines = [];
});

const write = {
	resource: 'records',
	operation: 'write',
	writeType: 'create',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	groupRef: rl(SEED.groupRef),
	object: rl('contacts'),
	// Request Options → Batching: one request at a time, in order, so batch n is request n.
	requestOptions: { batching: { batch: { batchSize: 100, batchInterval: 1 } } },
};

/** 250 contacts whose values are easy to look for in the log; item 150's email is refused. */
function contacts(): IDataObject[] {
	return Array.from({ length: 250 }, (_, i) => ({
		email: i === 150 ? 'trail-secret-150-at-nowhere' : `trail-secret-${i}@example.com`,
		firstname: `TrailName${i}`,
	}));
}

/** Nothing of the records, nor the provider's reason quoting one, nor the API key, in any line. */
function expectNoValues(items: IDataObject[]) {
	const logged = JSON.stringify(lines);
	expect(logged).not.toContain('trail-secret');
	expect(logged).not.toContain('TrailName');
	expect(logged).not.toMatch(/is invalid/i);
	expect(logged).not.toContain(SEED.apiKey);
	expect(items.length).toBeGreaterThan(0);
}

const where = (executionPattern = 'execution execution-\\d+') =>
	`\\(${executionPattern}, workflow engine-test, node "Integration Platform"\\)`;
const sending = (batch: string, count: number, items: string) =>
	new RegExp(
		`^Record → Write: sending batch ${batch} ${where()}: create, synchronous, ${count} record\\(s\\) of object "contacts" for group "${SEED.groupRef}" \\(project "${SEED.projectId}", integration "${SEED.integrationId}"\\), input items ${items}$`,
	);

test('one line before each batch and one for its answer: items, write, object, group, operation ID, outcome counts; no record values', async () => {
	const items = contacts();
	// The third batch is stored, then its connection dropped: no answer.
	sim.faults.add({ route: 'writeRecords', processFirst: true, reset: true, skip: 2, times: 1 });
	const result = await run(sim, write, { items, continueOnFail: true });

	const operation = (item: number) => String(result.json[item].operationId);
	expect(operation(0)).toMatch(/\S/);
	expect(operation(100)).toMatch(/\S/);
	expect(operation(100)).not.toBe(operation(0));
	expect(lines.map((line) => line.level)).toEqual(['info', 'info', 'info', 'info', 'info', 'warn']);
	const messages = lines.map((line) => line.message);
	expect(messages[0]).toMatch(sending('1/3', 100, '0–99'));
	expect(messages[1]).toMatch(
		new RegExp(
			`^Record → Write: batch 1/3 answered HTTP 200, operation ${operation(0)} ${where()}: written 100 \\(input items 0–99\\)$`,
		),
	);
	expect(messages[2]).toMatch(sending('2/3', 100, '100–199'));
	expect(messages[3]).toMatch(
		new RegExp(
			`^Record → Write: batch 2/3 answered HTTP 200, operation ${operation(100)} ${where()}: written 99 \\(input items 100–149, 151–199\\), not written \\(refused\\) 1 \\(input items 150\\)$`,
		),
	);
	expect(messages[4]).toMatch(sending('3/3', 50, '200–249'));
	expect(messages[5]).toMatch(
		new RegExp(
			`^Record → Write: batch 3/3 got no answer \\(ECONNRESET: .+\\) ${where()}: may have been written 50 \\(input items 200–249\\)$`,
		),
	);
	// Every line of one run names the same execution.
	expect(new Set(lines.map((line) => line.metadata.executionId)).size).toBe(1);
	// The metadata, which n8n's JSON log format and log file add, carries the same facts.
	expect(lines[3].metadata).toMatchObject({
		workflowId: 'engine-test',
		nodeName: 'Integration Platform',
		batch: 2,
		batches: 3,
		status: 200,
		operationId: operation(100),
		written: 99,
		refused: 1,
		unknown: 0,
		accepted: 0,
	});
	expect(lines[4].metadata).toMatchObject({
		batch: 3,
		items: '200–249',
		records: 50,
		writeType: 'create',
		mode: 'synchronous',
		object: 'contacts',
		groupRef: SEED.groupRef,
	});
	expectNoValues(items);
});

test("a batch's line is logged before its request reaches the service, and its answer line only after the answer", async () => {
	const items = contacts().filter((_, i) => i !== 150);
	// The second batch is stored and never answered (the harness times it out at once).
	sim.faults.add({ route: 'writeRecords', processFirst: true, hang: true, skip: 1, times: 1 });
	let atHang: string[] | undefined;
	const journal = sim.journal as unknown as { onHang(listener: () => void): () => void };
	const stop = journal.onHang(() => (atHang ??= lines.map((line) => line.message)));
	try {
		await run(
			sim,
			{ ...write, requestOptions: { ...write.requestOptions, timeout: 30_000 } },
			{
				items,
				continueOnFail: true,
			},
		);
	} finally {
		stop();
	}
	// What a process killed while the request hung would have left in its log.
	expect(atHang).toHaveLength(3);
	expect(atHang?.[2]).toMatch(sending('2/3', 100, '100–199'));
	expect(atHang?.some((message) => /batch 2\/3 (answered|got no answer)/.test(message))).toBe(
		false,
	);
	expect(lines[3].message).toMatch(
		/^Record → Write: batch 2\/3 got no answer \((ECONNABORTED|ETIMEDOUT): .+\) .*: may have been written 100 \(input items 100–199\)$/,
	);
	expectNoValues(items);
});

test('without Continue On Fail, batches the node does not send leave no line', async () => {
	const items = contacts().filter((_, i) => i !== 150);
	sim.faults.add({ route: 'writeRecords', status: 500, times: 1 });
	const result = await run(sim, write, { items });
	expect(result.error?.message).toMatch(/^The record may have been written/);
	expect(
		lines.map((line) => [line.level, line.message.replace(/ \(execution [^)]*\)/, '')]),
	).toEqual([
		[
			'info',
			`Record → Write: sending batch 1/3: create, synchronous, 100 record(s) of object "contacts" for group "${SEED.groupRef}" (project "${SEED.projectId}", integration "${SEED.integrationId}"), input items 0–99`,
		],
		[
			'warn',
			expect.stringMatching(
				/^Record → Write: batch 1\/3 answered HTTP 500, (operation \S+|no operation ID): may have been written 100 \(input items 0–99\)$/,
			),
		],
	]);
	expectNoValues(items);
});
