import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const base = {
	resource: 'customField',
	operation: 'upsert',
	project: rl(SEED.projectId),
	provider: 'hubspot',
	groupRef: SEED.groupRef,
};

describe('Custom Field → Create or Update', () => {
	test('field list: string, numeric and association options, only those set', async () => {
		const result = await run(sim, {
			...base,
			definedWith: 'fields',
			objectName: 'contacts',
			fieldDefinitions: {
				field: [
					{
						fieldName: 'tier',
						displayName: 'Tier',
						valueType: 'singleSelect',
						fieldOptions: {
							allowedValues: 'gold, silver',
							valuesRestricted: true,
							stringDefault: 'silver',
							required: true,
						},
					},
					{
						fieldName: 'score',
						displayName: 'Score',
						valueType: 'float',
						fieldOptions: { precision: 10, scale: 2, min: 0, max: 100 },
					},
					{
						fieldName: 'account',
						displayName: 'Account',
						valueType: 'reference',
						fieldOptions: {
							associationType: 'lookup',
							targetObject: 'companies',
							cardinality: 'many-to-one',
							singularLabel: 'Account',
							pluralLabel: 'Accounts',
						},
					},
					{ fieldName: 'note', displayName: 'Note', valueType: 'string' },
				],
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			method: 'PUT',
			pathname: `/v1/projects/${SEED.projectId}/providers/hubspot/object-metadata`,
			status: 200,
		});
		expect(result.requests[0].body).toEqual({
			groupRef: SEED.groupRef,
			fields: {
				contacts: [
					{
						fieldName: 'tier',
						displayName: 'Tier',
						valueType: 'singleSelect',
						required: true,
						stringOptions: {
							values: ['gold', 'silver'],
							valuesRestricted: true,
							defaultValue: 'silver',
						},
					},
					{
						fieldName: 'score',
						displayName: 'Score',
						valueType: 'float',
						numericOptions: { precision: 10, scale: 2, min: 0, max: 100 },
					},
					{
						fieldName: 'account',
						displayName: 'Account',
						valueType: 'reference',
						association: {
							associationType: 'lookup',
							targetObject: 'companies',
							cardinality: 'many-to-one',
							labels: { singular: 'Account', plural: 'Accounts' },
						},
					},
					{ fieldName: 'note', displayName: 'Note', valueType: 'string' },
				],
			},
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				success: true,
				objectName: 'contacts',
				fieldName: 'tier',
				action: 'create',
			}),
			expect.objectContaining({ objectName: 'contacts', fieldName: 'score' }),
			expect.objectContaining({ objectName: 'contacts', fieldName: 'account' }),
			expect.objectContaining({ objectName: 'contacts', fieldName: 'note' }),
		]);
	});

	test('JSON: several objects at once; a second upsert reports update', async () => {
		const fields = {
			contacts: [{ fieldName: 'tier', displayName: 'Tier', valueType: 'string' }],
			companies: [{ fieldName: 'size', displayName: 'Size', valueType: 'int' }],
		};
		const first = await run(sim, {
			...base,
			definedWith: 'json',
			fieldsJson: JSON.stringify(fields),
		});
		expect(first.requests[0].body).toEqual({ groupRef: SEED.groupRef, fields });
		expect(first.json.map((i) => `${i.objectName}.${i.fieldName}:${i.action}`).sort()).toEqual([
			'companies.size:create',
			'contacts.tier:create',
		]);
		const second = await run(sim, {
			...base,
			definedWith: 'json',
			fieldsJson: JSON.stringify(fields),
		});
		expect(second.json.map((i) => i.action)).toEqual(['update', 'update']);
	});

	test('JSON that is not an object fails before any request', async () => {
		const result = await run(sim, { ...base, definedWith: 'json', fieldsJson: '[]' });
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toContain('"Fields (JSON)" must be a JSON object');
	});
});

describe('Custom Field → Create or Update via Installation', () => {
	const viaInstallation = {
		resource: 'customField',
		operation: 'upsertForInstallation',
		project: rl(SEED.projectId),
		integration: rl(SEED.integrationId),
		groupRef: SEED.groupRef,
		objectName: 'companies',
		fieldDefinitions: {
			field: [{ fieldName: 'account_tier', displayName: 'Account Tier', valueType: 'string' }],
		},
	};

	test('PUT …/integrations/{integrationId}/object-metadata; create, then update on the second call', async () => {
		const first = await run(sim, viaInstallation);
		expect(first.requests[0]).toMatchObject({
			method: 'PUT',
			pathname: `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/object-metadata`,
			status: 200,
			body: {
				groupRef: SEED.groupRef,
				fields: {
					companies: [
						{ fieldName: 'account_tier', displayName: 'Account Tier', valueType: 'string' },
					],
				},
			},
		});
		expect(first.json).toEqual([
			expect.objectContaining({
				objectName: 'companies',
				fieldName: 'account_tier',
				action: 'create',
			}),
		]);
		const second = await run(sim, viaInstallation);
		expect(second.json).toEqual([expect.objectContaining({ action: 'update' })]);
	});

	test('a group without an installation of the integration is a 404', async () => {
		const result = await run(sim, { ...viaInstallation, groupRef: SEED.apiKeyGroupRef });
		expect(result.requests[0].status).toBe(404);
		expect(`${result.error?.message} ${result.error?.description}`).toContain(
			'No installation of this integration',
		);
	});
});

describe('Custom Field → Get Many', () => {
	const getMany = {
		resource: 'customField',
		operation: 'getAll',
		project: rl(SEED.projectId),
		provider: 'hubspot',
		groupRef: rl(SEED.groupRef),
		objectName: rl('contacts'),
	};

	test("lists only the object's custom fields, one item each", async () => {
		const created = await run(sim, {
			...base,
			definedWith: 'fields',
			objectName: 'contacts',
			fieldDefinitions: {
				field: [{ fieldName: 'tier', displayName: 'Tier', valueType: 'string' }],
			},
		});
		expect(created.error).toBeUndefined();

		const result = await run(sim, getMany);
		expect(result.error).toBeUndefined();
		expect(result.requests).toHaveLength(1);
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectId}/providers/hubspot/objects/contacts/metadata`,
			status: 200,
		});
		expect(result.requests[0].query).toEqual({ groupRef: SEED.groupRef });
		expect(result.items.map((item) => item.json)).toEqual([
			expect.objectContaining({
				objectName: 'contacts',
				fieldName: 'tier',
				displayName: 'Tier',
				isCustom: true,
			}),
		]);
	});

	test('an object without custom fields gives no items', async () => {
		const result = await run(sim, getMany);
		expect(result.error).toBeUndefined();
		expect(result.requests).toHaveLength(1);
		expect(result.items).toEqual([]);
	});
});
