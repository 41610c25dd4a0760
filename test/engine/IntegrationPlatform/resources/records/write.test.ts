/**
 * Record → Write writes each record at most once per execution and reports a record written
 * only when the answer says so (docs/architecture.md, "Record → Write: each record at most
 * once"). Creations are counted in the simulator's record store: every contact carries an email
 * unique to its test and item, so a record written twice shows up as two records.
 */
import type { IDataObject } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { runNode } from '../../../../harness/engine';
import { timedOutRequests } from '../../../../harness/hangs';
import {
	credentialsFor,
	rl,
	run,
	SEED,
	startSimulator,
	type OperationRun,
	type Simulator,
} from '../../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.reset();
	sim.faults.clear();
});

const write = {
	resource: 'records',
	operation: 'write',
	writeType: 'create',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	groupRef: rl(SEED.groupRef),
	object: rl('contacts'),
};
/** n8n's Retry On Fail, without waiting between tries. */
const retryOnFail = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };
/** Request Options → Batching: one request at a time, in order (a pause of 1 ms per 100). */
const inOrder = { batching: { batch: { batchSize: 100, batchInterval: 1 } } };

let tag = 0;
/** `count` contacts whose emails name this test and the item: `w<tag>-<item>@example.com`. */
function contacts(count: number): { items: IDataObject[]; prefix: string } {
	const prefix = `w${++tag}-`;
	const items = Array.from({ length: count }, (_, i) => ({
		email: `${prefix}${i}@example.com`,
		firstname: `Person ${i}`,
	}));
	return { items, prefix };
}

/** How often the API created each item's record: item index → creations. */
function creations(prefix: string): Map<number, number> {
	const records = (sim.state.records as Map<string, Map<string, { fields: IDataObject }>>).get(
		`${SEED.installationId}/contacts`,
	);
	const counts = new Map<number, number>();
	for (const record of records?.values() ?? []) {
		const email = String(record.fields.email ?? '');
		if (!email.startsWith(prefix)) continue;
		const item = Number(email.slice(prefix.length).split('@')[0]);
		counts.set(item, (counts.get(item) ?? 0) + 1);
	}
	return counts;
}

const total = (counts: Map<number, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
const twice = (counts: Map<number, number>) => [...counts.values()].filter((n) => n > 1).length;

/** The write requests the simulator received. */
const writes = () => sim.journal.entries.filter((entry) => entry.routeId === 'writeRecords');

/** The input items of the request a fault answered, as "first–last". */
function faultedItems(prefix: string): string {
	const faulted = writes().find((entry) => (entry as { fault?: string }).fault);
	const batch = (faulted?.body as { batch: Array<{ record: { email: string } }> }).batch;
	const items = batch.map(({ record }) => Number(record.email.slice(prefix.length).split('@')[0]));
	return `${Math.min(...items)}–${Math.max(...items)}`;
}

const noRetryAdvice = (text: string | undefined) => {
	expect(text).not.toMatch(/retrying later may help/i);
	expect(text).not.toMatch(/marks this error as retryable/i);
};

describe('a batch whose outcome is unknown: 250 records, the second batch to arrive fails', () => {
	test('answered 500, no Continue On Fail: the other 150 are written once, the error names every range and advises no retry', async () => {
		const { items, prefix } = contacts(250);
		sim.faults.add({ route: 'writeRecords', status: 500, skip: 1, times: 1 });
		const result = await run(sim, write, { items });
		const counts = creations(prefix);
		expect({ total: total(counts), twice: twice(counts) }).toEqual({ total: 150, twice: 0 });

		const unknown = faultedItems(prefix);
		const written = unknown === '100–199' ? '0–99, 200–249' : undefined;
		expect(result.error?.message).toMatch(
			/^The record may have been written: the service answered Internal Server Error/,
		);
		expect(result.error?.description).toContain(
			`The 100 record(s) of this request (input items ${unknown}) may have been written`,
		);
		expect(result.error?.description).toContain(`may have been written: 100 (items ${unknown})`);
		expect(result.error?.description).toMatch(/written: 150 \(items [0-9–, ]+\)/);
		if (written) expect(result.error?.description).toContain(`written: 150 (items ${written})`);
		noRetryAdvice(result.error?.description);
	});

	test('answered 500 with Retry On Fail: no record is sent again, each is created at most once', async () => {
		const { items, prefix } = contacts(250);
		sim.faults.add({ route: 'writeRecords', status: 500, skip: 1, times: 1 });
		const result = await run(sim, write, { items, nodeSettings: retryOnFail });
		const counts = creations(prefix);
		expect({ total: total(counts), twice: twice(counts) }).toEqual({ total: 150, twice: 0 });
		// Three tries, one set of requests: the later tries knew what the first had sent.
		expect(writes()).toHaveLength(3);
		expect(result.error?.message).toMatch(/^The record may have been written/);
		expect(result.error?.description).toContain(
			`may have been written: 100 (items ${faultedItems(prefix)})`,
		);
	});

	test('written, then answered 500, with Retry On Fail: 250 records, each created once', async () => {
		const { items, prefix } = contacts(250);
		sim.faults.add({ route: 'writeRecords', processFirst: true, status: 500, skip: 1, times: 1 });
		const result = await run(sim, write, { items, nodeSettings: retryOnFail });
		const counts = creations(prefix);
		expect({ total: total(counts), twice: twice(counts) }).toEqual({ total: 250, twice: 0 });
		expect(writes()).toHaveLength(3);
		expect(result.error?.message).toMatch(/^The record may have been written/);
	});

	test('written, no answer before the timeout, with Retry On Fail: each created once, reported "may have been written"', async () => {
		const { items, prefix } = contacts(250);
		// The second write is stored and then never answered: the harness ends it at once through
		// the node's 30 s timeout (test/harness/hangs.ts), which the other writes cannot reach.
		sim.faults.add({
			route: 'writeRecords',
			processFirst: true,
			hang: true,
			skip: 1,
			times: 1,
		});
		const hungBefore = timedOutRequests(sim).length;
		const result = await run(
			sim,
			{ ...write, requestOptions: { timeout: 30_000 } },
			{ items, nodeSettings: retryOnFail },
		);
		expect(
			timedOutRequests(sim)
				.slice(hungBefore)
				.map((r) => r.timeoutMs),
		).toEqual([30_000]);
		const counts = creations(prefix);
		expect({ total: total(counts), twice: twice(counts) }).toEqual({ total: 250, twice: 0 });
		expect(writes()).toHaveLength(3);
		expect(result.error?.message).toMatch(
			/^The record may have been written: the Integration Platform API at .* did not answer in time/,
		);
		expect(result.error?.description).toContain(
			`may have been written: 100 (items ${faultedItems(prefix)})`,
		);
		noRetryAdvice(result.error?.description);
	});

	test('written, connection reset before the answer, with Retry On Fail: each created once', async () => {
		const { items, prefix } = contacts(250);
		sim.faults.add({ route: 'writeRecords', processFirst: true, reset: true, skip: 1, times: 1 });
		const result = await run(sim, write, { items, nodeSettings: retryOnFail });
		const counts = creations(prefix);
		expect({ total: total(counts), twice: twice(counts) }).toEqual({ total: 250, twice: 0 });
		expect(writes()).toHaveLength(3);
		expect(result.error?.message).toMatch(
			/^The record may have been written: the Integration Platform API at .* closed the connection before answering/,
		);
		noRetryAdvice(result.error?.description);
	});

	test('Continue On Fail with Retry On Fail (n8n retries when the first item is an error): each created once, each item its own result', async () => {
		const { items, prefix } = contacts(250);
		sim.faults.add({ route: 'writeRecords', processFirst: true, status: 502, times: 1 });
		const result = await run(
			sim,
			{ ...write, requestOptions: inOrder },
			{ items, continueOnFail: true, nodeSettings: retryOnFail },
		);
		const counts = creations(prefix);
		expect({ total: total(counts), twice: twice(counts) }).toEqual({ total: 250, twice: 0 });
		expect(writes()).toHaveLength(3);
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 250 }, (_, item) => ({ item })),
		);
		const unknown = result.json.slice(0, 100);
		expect(
			unknown.every((json) =>
				/^The record may have been written: the service answered Bad Gateway/.test(
					String(json.error),
				),
			),
		).toBe(true);
		expect(result.json.slice(100).every((json) => json.success === true && json.recordId)).toBe(
			true,
		);
	});
});

describe('as an AI tool (routing calls the operation once per item, each seen as item 0)', () => {
	test('with Retry On Fail, a record written then answered 500 is not sent again, and the other item is written once', async () => {
		const nodeType = new IntegrationPlatform();
		delete (nodeType as { customOperations?: unknown }).customOperations;
		const { items, prefix } = contacts(2);
		sim.faults.add({ route: 'writeRecords', processFirst: true, status: 500, times: 1 });
		sim.journal.clear();
		const result = await runNode({
			nodeType,
			parameters: write,
			credentials: credentialsFor(sim) as never,
			items,
			nodeSettings: retryOnFail,
		});
		const counts = creations(prefix);
		expect({ item0: counts.get(0), item1: counts.get(1) }).toEqual({ item0: 1, item1: 1 });
		expect(result.error?.message).toMatch(/^The record may have been written/);
	});
});

describe('what a retry sends again', () => {
	test('a batch refused as a whole (400) is sent again by Retry On Fail; the written ones are not', async () => {
		const { items, prefix } = contacts(250);
		sim.faults.add({
			route: 'writeRecords',
			status: 400,
			body: 'required field not found',
			skip: 1,
			times: 1,
		});
		const result = await run(sim, write, { items, nodeSettings: retryOnFail });
		expect(result.error).toBeUndefined();
		const counts = creations(prefix);
		expect({ total: total(counts), twice: twice(counts) }).toEqual({ total: 250, twice: 0 });
		// Three requests in the first try, then only the refused batch.
		expect(
			writes()
				.map((entry) => entry.status)
				.sort(),
		).toEqual([200, 200, 200, 400]);
		expect(result.json).toHaveLength(250);
		expect(new Set(result.json.map((json) => json.recordId)).size).toBe(250);
	});

	test('a connection never made is "not written", not "may have been written"', async () => {
		const { items } = contacts(2);
		const result = await run(sim, write, {
			items,
			credentials: {
				integrationPlatformApi: {
					apiKey: SEED.apiKey,
					baseUrl: sim.apiUrl,
					writeUrl: 'http://127.0.0.1:1',
				},
			},
		});
		expect(result.error?.message).toMatch(/refused the connection/);
		expect(result.error?.description).toContain('not written (refused): 2 (items 0–1)');
	});
});

describe('a record is reported written only when the answer says so', () => {
	const operationId = '0b7e1d9c-5a44-4c4e-9a4e-1f2d3c4b5a69';

	async function answeredWith(body: IDataObject, count = 3) {
		const { items } = contacts(count);
		sim.faults.add({ route: 'writeRecords', processFirst: true, status: 200, body, times: 1 });
		return await run(sim, write, { items, continueOnFail: true });
	}

	/** Each item is an error item (n8n keeps only the message as its JSON) naming the operation. */
	const everyItemUnknown = (result: OperationRun, reason: RegExp) => {
		expect(result.items).toHaveLength(3);
		result.items.forEach((item, index) => {
			expect(item.json).toEqual({
				error: expect.stringMatching(
					new RegExp(`^The record may have been written \\(operation ${operationId}\\): `),
				),
			});
			expect(item.json.error).toMatch(reason);
			expect(item.error?.context).toMatchObject({ itemIndex: index, operationId });
			expect(item.pairedItem).toEqual({ item: index });
		});
	};

	test('a batch of 3 answered with 1 result and failureCount 0: all 3 "may have been written"', async () => {
		const result = await answeredWith({
			operationId,
			successCount: 1,
			failureCount: 0,
			results: [{ success: true, recordId: '9001' }],
		});
		everyItemUnknown(result, /holds 1 result\(s\) for a batch of 3 records/);
	});

	test('a batch of 3 answered with 4 results: all 3 "may have been written"', async () => {
		const result = await answeredWith({
			operationId,
			successCount: 4,
			failureCount: 0,
			results: ['9001', '9002', '9003', '9004'].map((recordId) => ({ success: true, recordId })),
		});
		everyItemUnknown(result, /holds 4 result\(s\) for a batch of 3 records/);
	});

	test('a synchronous 200 holding only an operation ID: all 3 "may have been written"', async () => {
		const result = await answeredWith({ operationId });
		everyItemUnknown(result, /holds no results for the batch of 3 records/);
	});

	test('counts that contradict the results: all 3 "may have been written"', async () => {
		const result = await answeredWith({
			operationId,
			successCount: 2,
			failureCount: 1,
			results: ['9001', '9002', '9003'].map((recordId) => ({ success: true, recordId })),
		});
		everyItemUnknown(result, /counts 2 written and 1 failed, but its results say 3 and 0/);
	});

	test('one record answered 200 with only an operation ID: "may have been written"', async () => {
		const { items } = contacts(1);
		sim.faults.add({
			route: 'writeRecords',
			processFirst: true,
			status: 200,
			body: { operationId },
			times: 1,
		});
		const result = await run(sim, write, { items, continueOnFail: true });
		expect(result.json).toEqual([
			{
				error: `The record may have been written (operation ${operationId}): the answer holds no result for the record`,
			},
		]);
	});

	test('asynchronous mode: items are "accepted" with the operation ID, and a stopped run counts them as accepted, not written', async () => {
		const { items } = contacts(3);
		sim.faults.add({
			route: 'writeRecords',
			status: 400,
			body: 'required field not found',
			skip: 1,
			times: 1,
		});
		const result = await run(
			sim,
			{
				...write,
				writeMode: 'asynchronous',
				writeOptions: { batchSize: 2 },
				requestOptions: inOrder,
			},
			{ items },
		);
		expect(result.error?.message).toMatch(/required field not found/);
		expect(result.error?.description).toContain('accepted for asynchronous writing: 2 (items 0–1)');
		expect(result.error?.description).not.toMatch(/\bwritten: \d/);

		const accepted = await run(sim, { ...write, writeMode: 'asynchronous' }, { items });
		expect(accepted.json).toEqual(
			items.map(() => ({ accepted: true, mode: 'asynchronous', operationId: expect.any(String) })),
		);
	});
});
