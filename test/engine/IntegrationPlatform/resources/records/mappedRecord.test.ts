/**
 * Record → Write v2's mapped values run by n8n-core against the simulator (records/mappedRecord.ts,
 * records/mappedValue.ts, records/mapping.ts): a value is sent as given or its item is refused
 * before anything is sent; field names such as `__proto__` reach the request body; metadata with a
 * value type that is not a type name still gives a mapper n8n can run.
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

const v2 = { nodeSettings: { typeVersion: 2 } };
const writes = () => sim.journal.entries.filter((entry) => entry.routeId === 'writeRecords');
const sentRecord = () => (writes()[0].body as { record: IDataObject }).record;

/** The schema the editor loads for an object (as a saved workflow holds it). */
async function schemaFor(object: string): Promise<ResourceMapperField[]> {
	const current = {
		project: SEED.projectId,
		integration: SEED.integrationId,
		groupRef: SEED.groupRef,
		object,
		writeType: 'create',
	};
	return (await getRecordFields.call(searchContext(sim, { current }))).fields;
}

/** A version 2 Create of `object` with the mapper's value (parsed from JSON: keys stay keys). */
async function create(
	object: string,
	valueJson: string | null,
	more: IDataObject = {},
): Promise<INodeParameters> {
	return {
		resource: 'records',
		operation: 'write',
		project: rl(SEED.projectId),
		integration: rl(SEED.integrationId),
		groupRef: rl(SEED.groupRef),
		object: rl(object),
		writeType: 'create',
		columns: {
			mappingMode: 'defineBelow',
			value: valueJson === null ? null : (JSON.parse(valueJson) as IDataObject),
			matchingColumns: [],
			schema: (await schemaFor(object)) as unknown as IDataObject[],
			attemptToConvertTypes: false,
			convertFieldsToString: true,
			...more,
		},
	} as INodeParameters;
}

/** The metadata route answers these fields (raw JSON, so "__proto__" stays a key). */
const metadataFields = (fieldsJson: string) =>
	sim.faults.add({
		route: 'getObjectMetadataForInstallation',
		status: 200,
		body: JSON.parse(`{"name":"contacts","displayName":"Contacts","fields":${fieldsJson}}`),
	});

describe('a value is sent as given, or its item refused before anything is sent', () => {
	test('{{ 1/0 }} for a number field: refused, not sent as null (which clears the field)', async () => {
		const result = await run(
			sim,
			await create('companies', '{"name":"Acme","numberofemployees":"={{ 1/0 }}"}'),
			v2,
		);
		expect(result.error?.message).toBe(
			`Item 0: "Number of Employees (numberofemployees)" expects a finite number but we got 'Infinity'`,
		);
		expect(result.error?.description).toMatch(/^No request was sent for this item/);
		expect(writes()).toHaveLength(0);
	});

	test('"1e400" with Attempt to Convert Types: refused', async () => {
		const result = await run(
			sim,
			await create('companies', '{"name":"Acme","numberofemployees":"1e400"}', {
				attemptToConvertTypes: true,
			}),
			v2,
		);
		expect(result.error?.message).toMatch(/expects a finite number but we got '1e400'$/);
		expect(writes()).toHaveLength(0);
	});

	test.each(['1', '42', '2024-02-30', 'Wed, 01 May 2024 08:30:00 GMT'])(
		'a date field given %j: refused, the error naming the forms it takes',
		async (born) => {
			const result = await run(
				sim,
				await create('contacts', '{"email":"a@example.com","date_of_birth":"={{ $json.born }}"}'),
				{ items: [{ born }], ...v2 },
			);
			expect(result.error?.message).toMatch(/^Item 0: "Date of birth \(date_of_birth\)" is not/);
			expect(result.error?.description).toContain('ISO 8601');
			expect(writes()).toHaveLength(0);
		},
	);

	test('a text field given an object: refused, not sent', async () => {
		const result = await run(
			sim,
			await create('contacts', '{"email":"a@example.com","firstname":"={{ $json.name }}"}'),
			{ items: [{ name: { first: 'Ada' } }], ...v2 },
		);
		expect(result.error?.message).toBe(
			'Item 0: "First Name (firstname)" expects text but we got object',
		);
		expect(writes()).toHaveLength(0);
	});

	test('Map Automatically with conversion: "" for a number field is left out, never 0', async () => {
		const parameters = await create('companies', null, {
			mappingMode: 'autoMapInputData',
			attemptToConvertTypes: true,
		});
		const result = await run(sim, parameters, {
			items: [{ name: 'Acme', numberofemployees: '' }],
			...v2,
		});
		expect(result.error).toBeUndefined();
		expect(sentRecord()).toEqual({ name: 'Acme' });
	});
});

describe('field names that are object properties are ordinary field names', () => {
	const fields = JSON.stringify(
		Object.fromEntries(
			['email', '__proto__', 'constructor'].map((name) => [
				name,
				{ fieldName: name, displayName: name, valueType: 'string', isRequired: true },
			]),
		),
	);

	test('Map Automatically: the input fields "__proto__" and "constructor" are in the request body, as own fields', async () => {
		metadataFields(fields);
		const parameters = await create('contacts', null, { mappingMode: 'autoMapInputData' });
		const item = JSON.parse(
			'{"email":"a@example.com","__proto__":"proto value","constructor":"c"}',
		) as IDataObject;
		const result = await run(sim, parameters, { items: [item], ...v2 });
		expect(result.error).toBeUndefined();
		const record = sentRecord();
		expect(Object.keys(record)).toEqual(['email', '__proto__', 'constructor']);
		expect(Object.getOwnPropertyDescriptor(record, '__proto__')?.value).toBe('proto value');
		expect(record.constructor).toBe('c');
		expect(result.json[0].success).toBe(true);
	});

	test('Map Each Column Manually: n8n drops the value of "__proto__" before the node runs; the item is refused saying so, nothing sent', async () => {
		metadataFields(fields);
		const parameters = await create(
			'contacts',
			'{"email":"a@example.com","__proto__":"={{ $json.p }}","constructor":"c"}',
		);
		const result = await run(sim, parameters, { items: [{ p: 'proto value' }], ...v2 });
		expect(result.error?.message).toBe(
			'Item 0: "__proto__", "constructor": n8n does not pass on a value mapped to a field named __proto__, constructor or prototype (it leaves these names out of a node\'s parameters)',
		);
		expect(result.error?.description).toContain('Map Automatically');
		expect(writes()).toHaveLength(0);
	});

	test('a required field named like an object property ("toString") left empty is refused, nothing sent', async () => {
		metadataFields(
			JSON.stringify({
				email: { fieldName: 'email', displayName: 'email', valueType: 'string' },
				toString: { fieldName: 'toString', displayName: 'toString', isRequired: true },
			}),
		);
		const result = await run(sim, await create('contacts', '{"email":"a@example.com"}'), v2);
		expect(result.error?.message).toBe('Item 0: "toString" is required but empty');
		expect(writes()).toHaveLength(0);
	});
});

test('metadata with the value type "__proto__": the workflow runs, the field sent as text', async () => {
	metadataFields(
		JSON.stringify({
			email: { fieldName: 'email', displayName: 'Email', valueType: 'string' },
			odd: { fieldName: 'odd', displayName: 'Odd', valueType: '__proto__' },
		}),
	);
	const parameters = await create('contacts', '{"email":"a@example.com","odd":"={{ $json.odd }}"}');
	sim.faults.clear();
	const result = await run(sim, parameters, { items: [{ odd: 'as text' }], ...v2 });
	expect(result.error).toBeUndefined();
	expect(sentRecord()).toEqual({ email: 'a@example.com', odd: 'as text' });
});
