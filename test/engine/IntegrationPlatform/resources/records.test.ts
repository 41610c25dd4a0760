import type { IDataObject } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import {
	credentialsFor,
	rl,
	run,
	SEED,
	startSimulator,
	type Simulator,
} from '../../../harness/actionEngine';
import { runNode } from '../../../harness/engine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.reset();
	sim.faults.clear();
});

const target = {
	resource: 'records',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	groupRef: rl(SEED.groupRef),
	object: rl('contacts'),
};
const writePath = `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/objects/contacts`;
const contacts = (count: number, bad: number[] = []) =>
	Array.from({ length: count }, (_, i) => ({
		email: bad.includes(i) ? `person-${i}-at-example` : `person-${i}@example.com`,
		firstname: `Person ${i}`,
	}));

describe('Record → Write', () => {
	test('250 items are sent as batches of 100, 100 and 50, each result paired with its item', async () => {
		const result = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'create' },
			{ items: contacts(250) },
		);
		expect(result.error).toBeUndefined();
		const writes = result.requests.filter((r) => r.routeId === 'writeRecords');
		expect(writes.map((r) => (r.body as { batch: unknown[] }).batch.length).sort()).toEqual([
			100, 100, 50,
		]);
		expect(writes[0]).toMatchObject({ method: 'POST', pathname: writePath, host: 'write' });
		expect(writes[0].body).toMatchObject({
			groupRef: SEED.groupRef,
			type: 'create',
			mode: 'synchronous',
		});
		expect(writes[0].headers['x-api-key']).toBe(SEED.apiKey);
		expect(result.json).toHaveLength(250);
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 250 }, (_, item) => ({ item })),
		);
		expect(new Set(result.json.map((json) => json.recordId)).size).toBe(250);

		// Each record is where search finds it, with the fields of its own item.
		const found = await run(sim, {
			...target,
			operation: 'search',
			fieldFilters: { filter: [{ fieldName: 'email', value: 'person-137@example.com' }] },
		});
		expect(found.json).toHaveLength(1);
		expect(found.json[0]).toMatchObject({
			fields: expect.objectContaining({ id: result.json[137].recordId }),
		});
	});

	test('a batch with one bad record: only that item fails (Continue On Fail), naming the reason', async () => {
		const result = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'create' },
			{ items: contacts(5, [2]), continueOnFail: true },
		);
		expect(result.requests.filter((r) => r.routeId === 'writeRecords')).toHaveLength(1);
		expect(result.json.map((json) => json.success ?? false)).toEqual([
			true,
			true,
			false,
			true,
			true,
		]);
		expect(result.json[2].error).toMatch(/^The record was not written: .*person-2-at-example/);
		expect(result.items[2].pairedItem).toEqual({ item: 2 });
	});

	test('without Continue On Fail the node stops on the bad record and says what was written', async () => {
		const result = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'create' },
			{ items: contacts(3, [1]) },
		);
		expect(result.error?.message).toMatch(/^The record was not written/);
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(result.error?.description).toContain('written: 2 (items 0, 2)');
		expect(result.error?.description).toContain('not written (refused): 1 (item 1)');
	});

	test('All or None: the batch is refused as a whole and every item says so', async () => {
		const result = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'create', writeOptions: { allOrNone: true } },
			{ items: contacts(3, [1]), continueOnFail: true },
		);
		expect(result.requests[0].body).toMatchObject({ batchPolicy: { allOrNone: true } });
		expect(result.json.every((json) => typeof json.error === 'string')).toBe(true);
		const found = await run(sim, {
			...target,
			operation: 'search',
			fieldFilters: { filter: [{ fieldName: 'email', value: 'person-0@example.com' }] },
		});
		expect(found.json).toEqual([]);
	});

	test('a 429 on one batch is waited out and retried; no record is lost or written twice', async () => {
		sim.faults.add({ route: 'writeRecords', status: 429, retryAfterSeconds: 0, times: 1, skip: 1 });
		const result = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'create' },
			{ items: contacts(300) },
		);
		expect(result.error).toBeUndefined();
		expect(result.requests.map((r) => r.status).sort()).toEqual([200, 200, 200, 429]);
		expect(new Set(result.json.map((json) => json.recordId)).size).toBe(300);
	});

	test('Batch Size 1 sends the single-record form, one request per item', async () => {
		const result = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'create', writeOptions: { batchSize: 1 } },
			{ items: contacts(3) },
		);
		expect(result.requests).toHaveLength(3);
		expect(result.requests[0].body).toEqual({
			groupRef: SEED.groupRef,
			type: 'create',
			mode: 'synchronous',
			record: contacts(3)[0],
		});
		expect(result.json.every((json) => json.success === true)).toBe(true);
	});

	test('update and delete take the ID from the Record ID Field; deletes go one by one', async () => {
		const created = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'create' },
			{ items: contacts(2) },
		);
		const ids = created.json.map((json) => json.recordId as string);
		const updated = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'update', idField: 'contactId' },
			{ items: ids.map((contactId) => ({ contactId, firstname: 'Renamed' })) },
		);
		expect(updated.error).toBeUndefined();
		expect(updated.requests[0].body).toMatchObject({
			type: 'update',
			batch: ids.map((id) => ({ record: { id, firstname: 'Renamed' } })),
		});
		const deleted = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'delete' },
			{ items: ids.map((id) => ({ id, email: 'ignored@example.com' })) },
		);
		expect(deleted.requests.map((r) => r.body)).toEqual(
			ids.map((id) => ({ groupRef: SEED.groupRef, type: 'delete', record: { id } })),
		);
		expect(deleted.json).toEqual(
			ids.map((id) => expect.objectContaining({ success: true, deleted: true, recordId: id })),
		);
	});

	test('an item without the record ID fails alone, before anything is sent', async () => {
		const result = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'update' },
			{ items: [{ firstname: 'No ID' }] },
		);
		expect(result.error?.message).toBe(
			`The record has no "id" (Record ID Field): update needs the provider's record ID`,
		);
		expect(result.requests).toHaveLength(0);
	});

	test('Records From JSON: the JSON parameter is the record; Fields to Ignore drops fields', async () => {
		const result = await run(
			sim,
			{
				...target,
				operation: 'write',
				writeType: 'create',
				recordSource: 'json',
				recordJson: '={{ { email: $json.mail, firstname: $json.name, row: 7 } }}',
				writeOptions: { fieldsToIgnore: 'row' },
			},
			{ items: [{ mail: 'json@example.com', name: 'Jay' }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.requests[0].body).toMatchObject({
			record: { email: 'json@example.com', firstname: 'Jay' },
		});
		expect((result.requests[0].body as IDataObject).record).not.toHaveProperty('row');
	});

	test('asynchronous mode answers with the operation ID for each item', async () => {
		const result = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'create', writeMode: 'asynchronous' },
			{ items: contacts(2) },
		);
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{ accepted: true, mode: 'asynchronous', operationId: expect.any(String) },
			{ accepted: true, mode: 'asynchronous', operationId: expect.any(String) },
		]);
	});

	test('a bearer token is refused before sending: the write API takes only API keys', async () => {
		const result = await run(
			sim,
			{ ...target, authentication: 'bearerToken', operation: 'write', writeType: 'create' },
			{ items: contacts(1) },
		);
		expect(result.error?.message).toBe(
			'Record → Write needs an Integration Platform API credential (API key)',
		);
		expect(result.requests).toHaveLength(0);
	});
});

describe('Record → Trigger Read, Deliver Results, Search', () => {
	test('Trigger Read posts { groupRef, mode: async, since } to the read host and returns the operation', async () => {
		const result = await run(sim, {
			...target,
			operation: 'triggerRead',
			readOptions: { since: '2025-01-01T00:00:00.000Z' },
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			host: 'read',
			method: 'POST',
			pathname: writePath,
			status: 201,
			body: { groupRef: SEED.groupRef, mode: 'async', sinceTimestamp: '2025-01-01T00:00:00.000Z' },
		});
		expect(result.json).toEqual([{ operationId: expect.any(String) }]);
	});

	test('Deliver Results posts { groupRef, pages } and says what was asked', async () => {
		const result = await run(sim, { ...target, operation: 'deliverResults', pages: 3 });
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			host: 'read',
			pathname: `${writePath}:deliverResults`,
			status: 204,
			body: { groupRef: SEED.groupRef, pages: 3 },
		});
		expect(result.json).toEqual([
			{ requested: true, object: 'contacts', groupRef: SEED.groupRef, pages: 3 },
		]);
	});

	test('Search sends typed filters with groupRef in the query, one item per record, with a token too', async () => {
		const result = await run(sim, {
			...target,
			authentication: 'bearerToken',
			operation: 'search',
			fieldFilters: {
				filter: [
					{ fieldName: 'email', value: 'ada@acme.example' },
					{ fieldName: 'archived', value: 'false', valueType: 'boolean' },
				],
			},
		});
		expect(result.requests[0]).toMatchObject({
			host: 'search',
			pathname: `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}`,
			query: { groupRef: SEED.groupRef },
			body: {
				objectName: 'contacts',
				fieldFilters: [
					{ fieldName: 'email', operator: 'eq', value: 'ada@acme.example' },
					{ fieldName: 'archived', operator: 'eq', value: false },
				],
			},
		});
		expect(result.requests[0].headers.authorization).toBe(`Bearer ${SEED.bearerToken}`);
	});

	test('a filter value that is not of its type is refused before sending, naming the filter', async () => {
		const result = await run(sim, {
			...target,
			operation: 'search',
			fieldFilters: { filter: [{ fieldName: 'age', value: 'forty', valueType: 'number' }] },
		});
		expect(result.error?.message).toBe('Field Filters → filter 1 ("age"): "forty" is not a number');
		expect(result.requests).toHaveLength(0);
	});
});

describe('Record → Write as an AI tool (n8n routes every operation there)', () => {
	test('without customOperations the routing hook writes each item alone, paired and checked', async () => {
		// What n8n 2.41 does for a tool call: routing, item by item, no customOperations.
		const nodeType = new IntegrationPlatform();
		delete (nodeType as { customOperations?: unknown }).customOperations;
		sim.journal.clear();
		const result = await runNode({
			nodeType,
			parameters: { ...target, operation: 'write', writeType: 'create' },
			credentials: credentialsFor(sim) as never,
			items: contacts(3, [1]),
			continueOnFail: true,
		});
		const writes = sim.journal.entries.filter((r) => r.routeId === 'writeRecords');
		expect(writes.map((r) => (r.body as IDataObject).record)).toEqual(contacts(3, [1]));
		expect(result.json[0]).toMatchObject({ success: true, recordId: expect.any(String) });
		expect(result.json[1].error).toMatch(/^The record was not written: .*person-1-at-example/);
		expect((result.items[1].error as { context?: IDataObject }).context?.itemIndex).toBe(1);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});
});
