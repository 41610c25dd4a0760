/**
 * Record → Write, version 3 (records/writeInput.ts, records/writeMapper.ts): the record ID is a
 * parameter of its own and the mapper's fields are the same for every write type, so the values
 * a user mapped for one write type are the ones the next one runs with. The mapper's value is
 * the one the editor saves: its schema loaded by getRecordFields against the simulator.
 */
import type { IDataObject, INodeParameters, ResourceMapperField } from 'n8n-workflow';

import { getRecordFields } from '../../../../../nodes/IntegrationPlatform/resources/records/mapping';
import { rl, run, SEED, startSimulator, type Simulator } from '../../../../harness/actionEngine';
import { searchContext } from '../../../../harness/listSearch';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.reset();
	sim.faults.clear();
});

const v3 = { nodeSettings: { typeVersion: 3 } };
const target = {
	resource: 'records',
	operation: 'write',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	groupRef: rl(SEED.groupRef),
	object: rl('contacts'),
};

/** The schema the editor loads for a version 3 node, with Write Type set to `writeType`. */
async function schema(writeType: string): Promise<ResourceMapperField[]> {
	const current = {
		project: SEED.projectId,
		integration: SEED.integrationId,
		groupRef: SEED.groupRef,
		object: 'contacts',
		writeType,
	};
	return (await getRecordFields.call(searchContext(sim, { current, typeVersion: 3 }))).fields;
}

/** The mapper's value as saved while Write Type was Create. */
async function mappedInCreate(value: IDataObject): Promise<IDataObject> {
	return {
		mappingMode: 'defineBelow',
		value,
		matchingColumns: [],
		schema: (await schema('create')) as unknown as IDataObject[],
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	};
}

const writes = () => sim.journal.entries.filter((entry) => entry.routeId === 'writeRecords');
/** The records a write request carries: one record alone, or a batch. */
const sentRecords = (index = 0) => {
	const body = writes()[index].body as {
		record?: IDataObject;
		batch?: Array<{ record: IDataObject }>;
	};
	return body.batch ? body.batch.map((entry) => entry.record) : [body.record];
};
const stored = () =>
	(sim.state.records as Map<string, Map<string, { fields: IDataObject }>>).get(
		`${SEED.installationId}/contacts`,
	) ?? new Map<string, { fields: IDataObject }>();

async function createOne(email: string): Promise<string> {
	const created = await run(
		sim,
		{ ...target, writeType: 'create', columns: await mappedInCreate({ email }) } as INodeParameters,
		v3,
	);
	expect(created.error).toBeUndefined();
	return String(created.json[0].recordId);
}

test('the editor loads the same fields for Create, Update and Delete, none of them the record ID', async () => {
	const create = await schema('create');
	expect(create.length).toBeGreaterThan(3);
	expect(create.map((f) => f.id)).not.toContain('id');
	expect(await schema('update')).toEqual(create);
	expect(await schema('delete')).toEqual(create);
	// The provider's required fields keep their mark for Create (n8n checks them only there).
	expect(create.find((f) => f.id === 'email')?.required).toBe(true);
});

test('Create → Update: the fields mapped for Create update the record whose ID Record ID gives', async () => {
	const id = await createOne('ada@example.com');
	sim.journal.clear();
	const columns = await mappedInCreate({
		email: 'ada@example.com',
		firstname: '={{ $json.name }}',
	});
	const updated = await run(
		sim,
		{ ...target, writeType: 'update', recordId: '={{ $json.id }}', columns } as INodeParameters,
		{ items: [{ id, name: 'Ada' }], ...v3 },
	);
	expect(updated.error).toBeUndefined();
	expect(writes()).toHaveLength(1);
	expect(sentRecords()).toEqual([{ email: 'ada@example.com', firstname: 'Ada', id }]);
	expect(stored().get(id)?.fields).toMatchObject({ email: 'ada@example.com', firstname: 'Ada' });
});

test('Update changes only the fields mapped: a field the provider requires to create may stay empty', async () => {
	const id = await createOne('grace@example.com');
	sim.journal.clear();
	const updated = await run(
		sim,
		{
			...target,
			writeType: 'update',
			recordId: id,
			columns: await mappedInCreate({ email: null, lastname: 'Hopper' }),
		} as INodeParameters,
		v3,
	);
	expect(updated.error).toBeUndefined();
	expect(sentRecords()).toEqual([{ lastname: 'Hopper', id }]);
});

test('Update → Delete: the Record ID carries the delete; the fields still saved are not sent', async () => {
	const id = await createOne('alan@example.com');
	sim.journal.clear();
	const deleted = await run(
		sim,
		{
			...target,
			writeType: 'delete',
			recordId: '={{ $json.id }}',
			columns: await mappedInCreate({ email: 'alan@example.com' }),
		} as INodeParameters,
		{ items: [{ id }], ...v3 },
	);
	expect(deleted.error).toBeUndefined();
	expect(deleted.json[0]).toMatchObject({ success: true, deleted: true, recordId: id });
	expect(writes()[0].body).toMatchObject({ type: 'delete', record: { id } });
	expect(sentRecords()).toEqual([{ id }]);
	expect(stored().has(id)).toBe(false);
});

test.each(['update', 'delete'])(
	'%s without a Record ID: refused naming the item, the parameter and the fix; nothing sent',
	async (writeType) => {
		const result = await run(
			sim,
			{
				...target,
				writeType,
				recordId: '={{ $json.id }}',
				columns: await mappedInCreate({ firstname: 'X' }),
			} as INodeParameters,
			{ items: [{}], ...v3 },
		);
		expect(result.error?.message).toBe(
			`Item 0 has no record ID ("Record ID" is empty): ${writeType} needs the provider's record ID`,
		);
		expect(result.error?.description).toBe(
			"No request was sent for this item. Set Record ID to the record's ID, e.g. the expression {{ $json.id }}.",
		);
		expect(writes()).toHaveLength(0);
	},
);

test('a Record ID that is not text or a number (an expression giving an object): refused saying so', async () => {
	const result = await run(
		sim,
		{
			...target,
			writeType: 'delete',
			recordId: '={{ $json.id }}',
		} as INodeParameters,
		{ items: [{ id: { value: 7 } }], ...v3 },
	);
	expect(result.error?.message).toBe(
		`Item 0 has no record ID ("Record ID" is an object, not text or a number): delete needs the provider's record ID`,
	);
	expect(writes()).toHaveLength(0);
});

test('an update with only the Record ID set: says that nothing but the ID is there, and the fix', async () => {
	const result = await run(
		sim,
		{
			...target,
			writeType: 'update',
			recordId: '7',
			columns: await mappedInCreate({ email: null, firstname: '' }),
		} as INodeParameters,
		v3,
	);
	expect(result.error?.message).toBe(
		'Item 0 has nothing to write: only the record ID ("Record ID") is set: no field to change is mapped',
	);
	expect(result.error?.description).toBe(
		'No request was sent for this item. Map a value or an expression to at least one field under "Fields to Write" ("Add field to send" lists the others), or set Write Type to Delete to delete the record.',
	);
	expect(writes()).toHaveLength(0);
});

test('Map Automatically with Update: the input item is the record, Record ID its ID', async () => {
	const id = await createOne('kat@example.com');
	sim.journal.clear();
	const result = await run(
		sim,
		{
			...target,
			writeType: 'update',
			recordId: '={{ $json.id }}',
			columns: { ...(await mappedInCreate({})), mappingMode: 'autoMapInputData' },
		} as INodeParameters,
		{ items: [{ id, firstname: 'Katherine' }], ...v3 },
	);
	expect(result.error).toBeUndefined();
	expect(sentRecords()).toEqual([{ firstname: 'Katherine', id }]);
});
