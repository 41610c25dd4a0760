/**
 * Record → Write at the bound of its retry memory (records/writeMemory.ts), and with keys named
 * like an object's prototype members: neither loses a record, writes one twice, nor reports one
 * written that was not.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	DEFAULT_LIMITS,
	sizeOf,
} from '../../../../../nodes/IntegrationPlatform/resources/records/writeMemory';
import { writeMemory } from '../../../../../nodes/IntegrationPlatform/resources/records/writeRetry';
import { rl, run, SEED, startSimulator, type Simulator } from '../../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.reset();
	sim.faults.clear();
});
afterEach(() => (writeMemory.limits = DEFAULT_LIMITS));

const write = {
	resource: 'records',
	operation: 'write',
	writeType: 'create',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	groupRef: rl(SEED.groupRef),
	object: rl('contacts'),
};
const retryOnFail = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };
const writes = () => sim.journal.entries.filter((entry) => entry.routeId === 'writeRecords');

function creations(prefix: string): number[] {
	const records = (sim.state.records as Map<string, Map<string, { fields: IDataObject }>>).get(
		`${SEED.installationId}/contacts`,
	);
	const counts: number[] = [];
	for (const record of records?.values() ?? []) {
		const email = String(record.fields.email ?? '');
		if (!email.startsWith(prefix)) continue;
		const item = Number(email.slice(prefix.length).split('@')[0]);
		counts[item] = (counts[item] ?? 0) + 1;
	}
	return counts;
}

describe('past the memory bound in bytes', () => {
	test('a run too large to remember: the retry sends nothing and says what to do; each record written once', async () => {
		// A bound that the first try's 150 written and 100 possibly written records pass: about
		// 50 records' worth (each outcome carries the record back).
		const oneOutcome = sizeOf({
			item: 0,
			fingerprint: 'x'.repeat(16),
			outcome: {
				kind: 'written',
				json: {
					success: true,
					recordId: '1234',
					operationId: '0b7e1d9c-5a44-4c4e-9a4e-1f2d3c4b5a69',
					data: { email: 'wb-000@example.com', firstname: 'Person 000' },
				},
			},
		});
		writeMemory.limits = { ...DEFAULT_LIMITS, bytes: 50 * oneOutcome };
		const items = Array.from({ length: 250 }, (_, i) => ({
			email: `wb-${i}@example.com`,
			firstname: `Person ${i}`,
		}));
		sim.faults.add({ route: 'writeRecords', processFirst: true, status: 500, skip: 1, times: 1 });
		const result = await run(sim, write, { items, nodeSettings: retryOnFail });

		// One set of requests: the retries sent nothing.
		expect(writes()).toHaveLength(3);
		const counts = creations('wb-');
		expect(counts.filter((n) => n > 1)).toEqual([]);
		expect(counts.reduce((a, b) => a + b, 0)).toBe(250);
		expect(result.error?.message).toBe(
			'Record → Write sent nothing in this try: an earlier try of this node in this execution sent records it no longer remembers',
		);
		expect(result.error?.description).toContain('Sending again could write records twice');
		expect(result.error?.description).toContain('Check which records exist (Record → Search)');
		expect(result.error?.description).toContain('write fewer records per execution');
		expect(result.error?.description).toMatch(/100,000 records and [\d.]+ MB per n8n process/);
	});

	test('without Retry On Fail, the error of a run too large to remember says that a retry would send nothing', async () => {
		writeMemory.limits = { ...DEFAULT_LIMITS, bytes: 1000 };
		const items = [{ email: 'wb-one-0@example.com' }, { email: 'wb-one-1@example.com' }];
		sim.faults.add({ route: 'writeRecords', processFirst: true, status: 500, times: 1 });
		const result = await run(sim, write, { items });
		expect(result.error?.message).toMatch(/^The record may have been written/);
		expect(result.error?.description).toContain(
			'This run sent more than the node can remember for a retry',
		);
		expect(result.error?.description).toContain('Retry On Fail will send nothing and fail');
	});
});

describe('keys named like prototype members (__proto__, constructor, toString)', () => {
	test('fields named __proto__, constructor and prototype reach the service, at any depth (nodes/common/jsonBody.ts)', async () => {
		for (const text of [
			'{"email": "proto-0@example.com", "constructor": "c"}',
			'{"email": "proto-0@example.com", "__proto__": {"polluted": "yes"}}',
			'{"email": "proto-0@example.com", "address": {"prototype": 1}}',
		]) {
			sim.journal.clear();
			const item = JSON.parse(text) as IDataObject;
			const result = await run(sim, { ...write, recordSource: 'input' }, { items: [item] });
			expect(result.error).toBeUndefined();
			expect(JSON.stringify((writes()[0].body as IDataObject).record)).toBe(
				JSON.stringify(JSON.parse(text)),
			);
		}
		expect(({} as IDataObject).polluted).toBeUndefined();
	});

	test('fields named like other members of an object (toString, valueOf, hasOwnProperty) are sent as they are', async () => {
		const item = { email: 'proto-4@example.com', toString: 't', valueOf: 'v', hasOwnProperty: 'h' };
		const result = await run(sim, { ...write, recordSource: 'input' }, { items: [item] });
		expect(result.error).toBeUndefined();
		expect((writes()[0].body as IDataObject).record).toEqual(item);
	});

	test('an Associations Field named "constructor" that the record does not have is no association', async () => {
		const result = await run(
			sim,
			{ ...write, recordSource: 'input', writeOptions: { associationsField: 'constructor' } },
			{ items: [{ email: 'proto-1@example.com' }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([expect.objectContaining({ success: true })]);
		expect((writes()[0].body as IDataObject).associations).toBeUndefined();
	});

	test('a Record ID Field named "toString" that the record does not have: the item is refused, naming it', async () => {
		const result = await run(
			sim,
			{ ...write, writeType: 'update', recordSource: 'input', idField: 'toString' },
			{ items: [{ email: 'proto-2@example.com' }] },
		);
		expect(result.error?.message).toBe(
			'The record has no "toString" (Record ID Field): update needs the provider\'s record ID',
		);
		expect(writes()).toEqual([]);
	});

	test('record IDs "__proto__" and "constructor" are sent as the IDs they are', async () => {
		const result = await run(
			sim,
			{ ...write, writeType: 'delete', recordSource: 'input' },
			{ items: [{ id: '__proto__' }, { id: 'constructor' }], continueOnFail: true },
		);
		expect(writes().map((entry) => (entry.body as { record: IDataObject }).record)).toEqual([
			{ id: '__proto__' },
			{ id: 'constructor' },
		]);
		expect(result.items).toHaveLength(2);
	});

	test('Records From given as "constructor" by an expression: refused, naming Records From', async () => {
		const result = await run(
			sim,
			{ ...write, recordSource: '={{ "constructor" }}', recordJson: '{}' },
			{ items: [{ email: 'proto-3@example.com' }] },
		);
		expect(result.error?.message).toBe(
			'"Records From" must be Each Input Item or JSON, but it is "constructor"',
		);
		expect(writes()).toEqual([]);
	});
});
