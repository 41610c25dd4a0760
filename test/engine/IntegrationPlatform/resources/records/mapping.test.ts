/**
 * The fields the editor shows for Record → Write (the resource mapper) and Search (the field
 * list), read from the simulator's object metadata for the seeded installation.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ResourceMapperField } from 'n8n-workflow';

import {
	FIELD_TYPES,
	getRecordFields,
} from '../../../../../nodes/IntegrationPlatform/resources/records/mapping';
import { getSearchFields } from '../../../../../nodes/IntegrationPlatform/listSearch/searches';
import { SEED, startSimulator, type Simulator } from '../../../../harness/actionEngine';
import { searchContext } from '../../../../harness/listSearch';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.journal.clear());

const seeded = {
	project: SEED.projectId,
	integration: SEED.integrationId,
	groupRef: SEED.groupRef,
	object: 'contacts',
};
const metadataReads = () => sim.journal.entries.filter((e) => e.pathname.endsWith('/metadata'));

/** The catalog's contacts as the simulator's metadata route answers them (read-only included). */
async function contactsMetadata(): Promise<Record<string, Record<string, unknown>>> {
	const url = `${sim.apiUrl}/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/objects/contacts/metadata?groupRef=${SEED.groupRef}`;
	const response = await fetch(url, { headers: { 'x-api-key': SEED.apiKey } });
	return ((await response.json()) as { fields: Record<string, Record<string, unknown>> }).fields;
}

async function recordFields(writeType: string): Promise<ResourceMapperField[]> {
	const context = searchContext(sim, { current: { ...seeded, writeType } });
	return (await getRecordFields.call(context)).fields;
}

describe('Record → Write: the mapper fields (getRecordFields)', () => {
	test('create: every writable field of the metadata, typed, required as the metadata says; read-only ones left out', async () => {
		const metadata = await contactsMetadata();
		sim.journal.clear();
		const fields = await recordFields('create');

		const writable = Object.values(metadata).filter((f) => f.readOnly !== true);
		const readOnly = Object.values(metadata).filter((f) => f.readOnly === true);
		expect(readOnly.length).toBeGreaterThan(0);
		expect(fields.map((f) => f.id)).toEqual(writable.map((f) => f.fieldName));
		for (const field of readOnly) expect(fields.map((f) => f.id)).not.toContain(field.fieldName);
		// The API's own flag asks for writable fields only.
		expect(metadataReads()).toHaveLength(1);
		expect(metadataReads()[0].query).toEqual({ groupRef: SEED.groupRef, excludeReadOnly: 'true' });

		const byId = Object.fromEntries(fields.map((f) => [f.id, f]));
		expect(byId.email).toMatchObject({
			displayName: 'Email (email)',
			type: 'string',
			required: true,
		});
		expect(byId.firstname).toMatchObject({ type: 'string', required: false });
		expect(byId.lifecyclestage).toMatchObject({
			displayName: 'Lifecycle Stage (lifecyclestage)',
			type: 'options',
			options: (
				metadata.lifecyclestage.values as Array<{ value: string; displayValue: string }>
			).map((v) => ({ name: v.displayValue, value: v.value })),
		});
		expect(byId.hs_email_optout.type).toBe('boolean');
		expect(byId.date_of_birth.type).toBe('dateTime');
		expect(byId.associatedcompanyid.type).toBe('string');
		expect(fields.every((f) => f.display && !f.canBeUsedToMatch)).toBe(true);
	});

	test('update: the record ID first, the only field to match on; no field required', async () => {
		const fields = await recordFields('update');
		expect(fields[0]).toMatchObject({
			id: 'id',
			displayName: 'Record ID',
			canBeUsedToMatch: true,
			defaultMatch: true,
		});
		expect(fields.slice(1).some((f) => f.required || f.canBeUsedToMatch)).toBe(false);
		expect(fields.slice(1).map((f) => f.id)).toEqual(
			(await recordFields('create')).map((f) => f.id),
		);
	});

	test('delete: only the record ID, without reading the metadata', async () => {
		const fields = await recordFields('delete');
		expect(fields.map((f) => f.id)).toEqual(['id']);
		expect(metadataReads()).toHaveLength(0);
	});

	test.each([
		[{ project: '' }, 'Select Project first'],
		[{ integration: '', groupRef: '' }, 'Select Integration and Group first'],
		[{ project: '', groupRef: '', object: '' }, 'Select Project, Group and Object first'],
	])(
		"a missing %j: no fields, n8n's empty-list notice names it, and nothing is sent",
		async (blank, message) => {
			const context = searchContext(sim, {
				current: { ...seeded, ...blank, writeType: 'create' },
			});
			// The editor asks as the panel opens: an error would be a failed request in its console.
			const answer = await getRecordFields.call(context);
			expect(answer.fields).toEqual([]);
			expect(answer.emptyFieldsNotice).toMatch(new RegExp(`^${message}: the fields come from`));
			expect(metadataReads()).toHaveLength(0);
		},
	);

	test("an object the provider does not have: the API's own refusal", async () => {
		const context = searchContext(sim, { current: { ...seeded, object: 'nonesuch' } });
		await expect(getRecordFields.call(context)).rejects.toThrow(/not available in hubspot/);
	});

	test('every value type the API documents has an n8n field type', () => {
		const file = path.join(__dirname, '../../../../../docs/api-responses.json');
		const contract = JSON.parse(fs.readFileSync(file, 'utf8')) as {
			definitions: Record<string, { properties: { valueType: { enum: string[] } } }>;
		};
		const definition = contract.definitions['manifest.FieldMetadata'];
		const documented = definition.properties.valueType.enum;
		expect(documented.filter((type) => !(type in FIELD_TYPES))).toEqual([]);
	});
});

describe('Record → Search: the field list (getSearchFields)', () => {
	test('every field of the metadata, read-only ones too, each with its type; the value is its name', async () => {
		const metadata = await contactsMetadata();
		sim.journal.clear();
		const options = await getSearchFields.call(searchContext(sim, { current: seeded }));
		expect(options.map((o) => o.value).sort()).toEqual(Object.keys(metadata).sort());
		expect(metadataReads()[0].query).toEqual({ groupRef: SEED.groupRef });
		const byValue = Object.fromEntries(options.map((o) => [o.value, o]));
		expect(byValue.email.name).toBe('Email (email) — text');
		expect(byValue.createdate.name).toBe('Create Date (createdate) — date and time');
		expect(byValue.hs_email_optout.description).toBe('Value Type: Boolean');
		expect(byValue.lifecyclestage.description).toBe(
			'Value Type: Text. Values: subscriber, lead, customer',
		);
	});

	test('without an object: says so, nothing sent', async () => {
		const context = searchContext(sim, { current: { ...seeded, object: '' } });
		await expect(getSearchFields.call(context)).rejects.toThrow('Select Object first');
		expect(metadataReads()).toHaveLength(0);
	});
});

describe('metadata the node does not expect: the mapper still offers fields n8n can check', () => {
	afterEach(() => sim.faults.clear());

	/** The metadata route answers these fields (raw JSON, so a key such as "__proto__" stays a key). */
	const answerFields = (fieldsJson: string) =>
		sim.faults.add({
			route: 'getObjectMetadataForInstallation',
			status: 200,
			body: JSON.parse(`{"name":"contacts","displayName":"Contacts","fields":${fieldsJson}}`),
		});

	test('a value type that is not a type name ("__proto__", "constructor", a number, a list) is text', async () => {
		answerFields(
			JSON.stringify({
				a: { fieldName: 'a', displayName: 'A', valueType: '__proto__' },
				b: { fieldName: 'b', displayName: 'B', valueType: 'constructor' },
				c: { fieldName: 'c', displayName: 'C', valueType: 7 },
				d: { fieldName: 'd', displayName: 'D', valueType: ['int'] },
				e: { fieldName: 'e', displayName: 'E', valueType: 'toString' },
			}),
		);
		const fields = await recordFields('create');
		expect(fields.map((f) => [f.id, f.type])).toEqual([
			['a', 'string'],
			['b', 'string'],
			['c', 'string'],
			['d', 'string'],
			['e', 'string'],
		]);
		const options = await getSearchFields.call(searchContext(sim, { current: seeded }));
		expect(options.map((o) => o.name)).toEqual([
			'A (a) — text',
			'B (b) — text',
			'C (c) — text',
			'D (d) — text',
			'E (e) — text',
		]);
	});

	test('one of a list without listed values is text (an empty list would refuse every value)', async () => {
		answerFields(
			JSON.stringify({
				stage: { fieldName: 'stage', displayName: 'Stage', valueType: 'singleSelect', values: [] },
			}),
		);
		const [stage] = await recordFields('create');
		expect(stage).toMatchObject({ id: 'stage', type: 'string' });
		expect(stage.options).toBeUndefined();
	});

	test('a field named "__proto__" is an ordinary mapper field', async () => {
		answerFields(
			'{"__proto__":{"fieldName":"__proto__","displayName":"Proto","valueType":"string","isRequired":true}}',
		);
		const fields = await recordFields('create');
		expect(fields.map((f) => [f.id, f.type, f.required])).toEqual([['__proto__', 'string', true]]);
	});
});

describe("the editor's notice: only when the object has no field to write", () => {
	afterEach(() => sim.faults.clear());

	// n8n's editor shows the notice whenever it does not list the fields, so in "Map
	// Automatically" it showed for every object (docs/architecture.md, "Record → Write: the resource mapper").
	test.each(['create', 'update'])('contacts (%s): fields, and no notice', async (writeType) => {
		const context = searchContext(sim, { current: { ...seeded, writeType } });
		const answer = await getRecordFields.call(context);
		expect(answer.fields.length).toBeGreaterThan(1);
		expect(answer.emptyFieldsNotice).toBeUndefined();
	});

	test.each([
		['only read-only fields', '{"x":{"fieldName":"x","displayName":"X","readOnly":true}}'],
		['no field', '{}'],
		['only a field named id', '{"id":{"fieldName":"id","displayName":"ID"}}'],
	])('an object with %s: the notice', async (_, fieldsJson) => {
		sim.faults.add({
			route: 'getObjectMetadataForInstallation',
			status: 200,
			body: JSON.parse(`{"name":"contacts","fields":${fieldsJson}}`),
		});
		for (const writeType of ['create', 'update']) {
			const answer = await getRecordFields.call(
				searchContext(sim, { current: { ...seeded, writeType } }),
			);
			expect(answer.fields.map((f) => f.id)).toEqual(writeType === 'create' ? [] : ['id']);
			expect(answer.emptyFieldsNotice).toMatch(/^The object has no field that can be written/);
		}
	});
});
