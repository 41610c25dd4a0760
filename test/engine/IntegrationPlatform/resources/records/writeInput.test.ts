/**
 * What each item writes: version 2's resource mapper ("Map Each Column Manually" with expressions,
 * "Map Automatically", the record ID to match on for Update and Delete), values checked by their
 * field's type before anything is sent, and items with nothing to write refused in every version
 * (records/writeInput.ts, records/mappedRecord.ts). The schema in the mapper's value is the one
 * the editor loads (getRecordFields against the simulator), as a user's saved workflow holds it.
 */
import type { IDataObject, INodeParameters, ResourceMapperField } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { getRecordFields } from '../../../../../nodes/IntegrationPlatform/resources/records/mapping';
import { runNode } from '../../../../harness/engine';
import {
	credentialsFor,
	rl,
	run,
	SEED,
	startSimulator,
	type Simulator,
} from '../../../../harness/actionEngine';
import { searchContext } from '../../../../harness/listSearch';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.reset();
	sim.faults.clear();
});

const v2 = { nodeSettings: { typeVersion: 2 } };
const target = (object = 'contacts') => ({
	resource: 'records',
	operation: 'write',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	groupRef: rl(SEED.groupRef),
	object: rl(object),
});

/** The mapper's schema as the editor loads it for this object and write type. */
async function schemaFor(object: string, writeType: string): Promise<ResourceMapperField[]> {
	const current = {
		project: SEED.projectId,
		integration: SEED.integrationId,
		groupRef: SEED.groupRef,
		object,
		writeType,
	};
	return (await getRecordFields.call(searchContext(sim, { current }))).fields;
}

async function columns(
	object: string,
	writeType: string,
	value: IDataObject | null,
	more: IDataObject = {},
): Promise<IDataObject> {
	return {
		mappingMode: 'defineBelow',
		value,
		matchingColumns: writeType === 'create' ? [] : ['id'],
		schema: (await schemaFor(object, writeType)) as unknown as IDataObject[],
		attemptToConvertTypes: false,
		convertFieldsToString: false,
		...more,
	};
}

const writes = () => sim.journal.entries.filter((entry) => entry.routeId === 'writeRecords');
/** The records the fake provider holds for an object of the seeded installation, by ID. */
const stored = (object = 'contacts') =>
	(sim.state.records as Map<string, Map<string, { fields: IDataObject }>>).get(
		`${SEED.installationId}/${object}`,
	) ?? new Map<string, { fields: IDataObject }>();

describe('version 2: Records From is the resource mapper by default', () => {
	test('Map Each Column Manually with expressions: each item writes exactly the mapped fields, typed', async () => {
		const parameters = {
			...target(),
			writeType: 'create',
			columns: await columns('contacts', 'create', {
				email: '={{ $json.mail }}',
				firstname: '={{ $json.name.split(" ")[0] }}',
				lifecyclestage: 'lead',
				hs_email_optout: '={{ $json.optOut }}',
				date_of_birth: '={{ $json.born }}',
				// Left empty in the editor: not sent.
				lastname: null,
				phone: '',
			}),
		};
		const items = [
			{ mail: 'ada@example.com', name: 'Ada Lovelace', optOut: true, born: '1815-12-10', x: 1 },
			{ mail: 'alan@example.com', name: 'Alan Turing', optOut: false, born: '1912-06-23', x: 2 },
		];
		const result = await run(sim, parameters as INodeParameters, { items, ...v2 });
		expect(result.error).toBeUndefined();
		expect(writes()).toHaveLength(1);
		expect((writes()[0].body as { batch: IDataObject[] }).batch).toEqual([
			{
				record: {
					email: 'ada@example.com',
					firstname: 'Ada',
					lifecyclestage: 'lead',
					hs_email_optout: true,
					date_of_birth: '1815-12-10',
				},
			},
			{
				record: {
					email: 'alan@example.com',
					firstname: 'Alan',
					lifecyclestage: 'lead',
					hs_email_optout: false,
					date_of_birth: '1912-06-23',
				},
			},
		]);
		expect(result.json.map((json) => json.success)).toEqual([true, true]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const emails = [...stored().values()].map((record) => record.fields.email);
		expect(emails).toEqual(expect.arrayContaining(['ada@example.com', 'alan@example.com']));
	});

	test("a node without a saved Records From uses the mapper (version 2's default), version 1 the item's JSON", async () => {
		const parameters = {
			...target(),
			writeType: 'create',
			columns: await columns('contacts', 'create', { email: 'mapped@example.com' }),
		};
		const items = [{ email: 'input@example.com' }];
		await run(sim, parameters as INodeParameters, { items, ...v2 });
		expect((writes()[0].body as { record: IDataObject }).record).toEqual({
			email: 'mapped@example.com',
		});
		await run(sim, parameters as INodeParameters, { items });
		expect((writes()[0].body as { record: IDataObject }).record).toEqual(items[0]);
	});

	test('Map Automatically: the input fields, known ones checked by type, sent as they are', async () => {
		const parameters = {
			...target('companies'),
			writeType: 'create',
			columns: await columns('companies', 'create', null, { mappingMode: 'autoMapInputData' }),
		};
		const items = [
			{ name: 'Acme', numberofemployees: 40, industry: 'retail', extra: 'kept' },
			{ name: 'Globex', numberofemployees: 'many' },
		];
		const result = await run(sim, parameters as INodeParameters, {
			items,
			continueOnFail: true,
			...v2,
		});
		expect(writes()).toHaveLength(1);
		expect((writes()[0].body as { record: IDataObject }).record).toEqual(items[0]);
		expect(result.json[0].success).toBe(true);
		expect(result.json[1].error).toBe(
			`Item 1: "Number of Employees (numberofemployees)" expects a number but we got 'many'`,
		);
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
	});

	test("Update matches on the record ID; Delete sends only it: the provider's records change", async () => {
		const created = await run(
			sim,
			{
				...target(),
				writeType: 'create',
				columns: await columns('contacts', 'create', { email: '={{ $json.email }}' }),
			} as INodeParameters,
			{ items: [{ email: 'one@example.com' }, { email: 'two@example.com' }], ...v2 },
		);
		const [first, second] = created.json.map((json) => json.recordId as string);

		const updated = await run(
			sim,
			{
				...target(),
				writeType: 'update',
				columns: await columns('contacts', 'update', {
					id: '={{ $json.recordId }}',
					firstname: 'Renamed',
				}),
			} as INodeParameters,
			{ items: [{ recordId: first }], ...v2 },
		);
		expect(updated.error).toBeUndefined();
		expect(writes()[0].body).toMatchObject({
			type: 'update',
			record: { id: first, firstname: 'Renamed' },
		});
		expect(stored().get(first)?.fields).toMatchObject({
			email: 'one@example.com',
			firstname: 'Renamed',
		});

		const deleted = await run(
			sim,
			{
				...target(),
				writeType: 'delete',
				columns: await columns('contacts', 'delete', { id: '={{ $json.recordId }}' }),
			} as INodeParameters,
			{ items: [{ recordId: second }], ...v2 },
		);
		expect(deleted.json[0]).toMatchObject({ success: true, deleted: true, recordId: second });
		expect(writes()[0].body).toMatchObject({ type: 'delete', record: { id: second } });
		expect(stored().has(second)).toBe(false);
		expect(stored().has(first)).toBe(true);
	});

	test('Update without the record ID to match on: refused before sending, naming the item', async () => {
		const result = await run(
			sim,
			{
				...target(),
				writeType: 'update',
				columns: await columns('contacts', 'update', { id: null, firstname: 'X' }),
			} as INodeParameters,
			{ items: [{}], ...v2 },
		);
		expect(result.error?.message).toBe(
			`Item 0 has no record ID ("id", the field to match on): update needs the provider's record ID`,
		);
		expect(writes()).toHaveLength(0);
	});

	describe('values are checked by their field type before anything is sent', () => {
		const companies = async (value: IDataObject, more: IDataObject = {}) =>
			({
				...target('companies'),
				writeType: 'create',
				columns: await columns('companies', 'create', { name: 'Acme', ...value }, more),
			}) as INodeParameters;

		test('text where a number belongs: the item, the field label and the reason; nothing sent', async () => {
			const result = await run(sim, await companies({ numberofemployees: '={{ $json.n }}' }), {
				items: [{ n: 12 }, { n: 'twelve' }],
				...v2,
			});
			expect(result.error?.message).toBe(
				`Item 1: "Number of Employees (numberofemployees)" expects a number but we got 'twelve'`,
			);
			expect(result.error?.description).toMatch(/^No request was sent for this item/);
			// The switch is n8n's, below the mapped fields: not under the node's Options.
			expect(result.error?.description).toContain(
				'Give a number. Or turn on "Attempt To Convert Types", the switch below the mapped fields.',
			);
			expect(writes()).toHaveLength(0);
		});

		test('number text is refused unless Attempt to Convert Types is on, then sent as a number', async () => {
			const refused = await run(sim, await companies({ numberofemployees: '12' }), v2);
			expect(refused.error?.message).toMatch(/expects a number but we got '12'/);
			expect(writes()).toHaveLength(0);

			const converted = await run(
				sim,
				await companies({ numberofemployees: '12' }, { attemptToConvertTypes: true }),
				v2,
			);
			expect(converted.error).toBeUndefined();
			expect((writes()[0].body as { record: IDataObject }).record).toEqual({
				name: 'Acme',
				numberofemployees: 12,
			});
		});

		test("a value outside the allowed values names them (a fixed one n8n's own check refuses)", async () => {
			const result = await run(sim, await companies({ industry: '={{ $json.industry }}' }), {
				items: [{ industry: 'mining' }],
				...v2,
			});
			expect(result.error?.message).toBe(
				`Item 0: "Industry (industry)" expects one of the following values: [software, retail, finance] but we got 'mining'`,
			);
			expect(writes()).toHaveLength(0);
			await expect(run(sim, await companies({ industry: 'mining' }), v2)).rejects.toThrow(
				/'industry' expects one of the following values/,
			);
			expect(writes()).toHaveLength(0);
		});

		test('a required field left empty is named', async () => {
			const result = await run(sim, await companies({ name: null, domain: 'acme.example' }), v2);
			expect(result.error?.message).toBe('Item 0: "Company name (name)" is required but empty');
			expect(writes()).toHaveLength(0);
		});
	});

	test('as an AI tool (routing, item by item): mapped expressions are evaluated per item', async () => {
		const nodeType = new IntegrationPlatform();
		delete (nodeType as { customOperations?: unknown }).customOperations;
		const parameters = {
			...target(),
			writeType: 'create',
			columns: await columns('contacts', 'create', { email: '={{ $json.mail }}' }),
		};
		sim.journal.clear();
		const result = await runNode({
			nodeType,
			parameters: parameters as INodeParameters,
			credentials: credentialsFor(sim) as never,
			items: [{ mail: 'tool-0@example.com' }, { mail: 'tool-1@example.com' }],
			nodeSettings: { typeVersion: 2 },
		});
		expect(writes().map((entry) => (entry.body as { record: IDataObject }).record)).toEqual([
			{ email: 'tool-0@example.com' },
			{ email: 'tool-1@example.com' },
		]);
		expect(result.json.map((json) => json.success)).toEqual([true, true]);
	});
});

describe('an item with nothing to write is refused before anything is sent (every version)', () => {
	test("version 1, an empty input item (a Manual Trigger's): the item is named, nothing sent", async () => {
		const before = stored().size;
		const result = await run(sim, { ...target(), writeType: 'create' }, { items: [{}] });
		expect(result.error?.message).toBe('Item 0 has nothing to write: the input item has no fields');
		expect(result.error?.description).toMatch(/^No request was sent for this item/);
		expect(writes()).toHaveLength(0);
		expect(stored().size).toBe(before);
	});

	test('Continue On Fail: the empty item gets its own error, the others are written', async () => {
		const items = [{ email: 'a@example.com' }, {}, { email: 'c@example.com' }];
		const before = stored().size;
		const result = await run(
			sim,
			{ ...target(), writeType: 'create' },
			{ items, continueOnFail: true },
		);
		expect(result.json.map((json) => json.success ?? false)).toEqual([true, false, true]);
		expect(result.json[1].error).toBe('Item 1 has nothing to write: the input item has no fields');
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
		expect((writes()[0].body as { batch: IDataObject[] }).batch).toEqual([
			{ record: items[0] },
			{ record: items[2] },
		]);
		expect(stored().size).toBe(before + 2);
	});

	test('Update of an item that holds only the ID: nothing to change, nothing sent', async () => {
		const result = await run(sim, { ...target(), writeType: 'update' }, { items: [{ id: '42' }] });
		expect(result.error?.message).toBe('Item 0 has nothing to write: the input item has no fields');
		expect(writes()).toHaveLength(0);
	});

	test('Record (JSON) {}: refused', async () => {
		const result = await run(sim, {
			...target(),
			writeType: 'create',
			recordSource: 'json',
			recordJson: '{}',
		});
		expect(result.error?.message).toBe(
			'Item 0 has nothing to write: "Record (JSON)" has no fields',
		);
		expect(writes()).toHaveLength(0);
	});

	test('version 2, every mapped value empty: refused', async () => {
		// An object none of whose fields is required (the required check would come first).
		const optional = (await schemaFor('contacts', 'create')).map((f) => ({
			...f,
			required: false,
		}));
		const result = await run(
			sim,
			{
				...target(),
				writeType: 'create',
				columns: await columns(
					'contacts',
					'create',
					{ email: '', firstname: null },
					{ schema: optional as unknown as IDataObject[] },
				),
			} as INodeParameters,
			v2,
		);
		expect(result.error?.message).toBe('Item 0 has nothing to write: every mapped value is empty');
		expect(writes()).toHaveLength(0);
	});

	test('version 2, an update whose mapping holds only the record ID: says that only the ID is set, and the fix', async () => {
		const result = await run(
			sim,
			{
				...target(),
				writeType: 'update',
				columns: await columns('contacts', 'update', { id: '7', firstname: '', lastname: null }),
			} as INodeParameters,
			v2,
		);
		expect(result.error?.message).toBe(
			'Item 0 has nothing to write: only the record ID ("Record ID") is set: no field to change is mapped',
		);
		expect(result.error?.description).toBe(
			'No request was sent for this item. Map a value or an expression to at least one field under "Fields to Change" ("Add field to send" lists the others), or set Write Type to Delete to delete the record.',
		);
		expect(writes()).toHaveLength(0);
	});

	test('version 2, Map Automatically with an empty input item: refused', async () => {
		const result = await run(
			sim,
			{
				...target(),
				writeType: 'create',
				columns: await columns('contacts', 'create', null, { mappingMode: 'autoMapInputData' }),
			} as INodeParameters,
			{ items: [{ email: 'a@example.com' }, {}], continueOnFail: true, ...v2 },
		);
		expect(result.json[1].error).toBe('Item 1 has nothing to write: the input item has no fields');
		expect((writes()[0].body as { record: IDataObject }).record).toEqual({
			email: 'a@example.com',
		});
	});

	test('Delete needs only the ID', async () => {
		const created = await run(
			sim,
			{ ...target(), writeType: 'create' },
			{ items: [{ email: 'gone@example.com' }] },
		);
		const id = created.json[0].recordId as string;
		const result = await run(sim, { ...target(), writeType: 'delete' }, { items: [{ id }] });
		expect(result.json[0]).toMatchObject({ success: true, deleted: true });
		expect(stored().has(id)).toBe(false);
	});
});
