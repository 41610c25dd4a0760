import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const project = rl(SEED.projectId);
const shown = (result: { error?: { message?: string; description?: string | null } }) =>
	`${result.error?.message} ${result.error?.description}`;

describe('Object Metadata → Get via Connection', () => {
	const base = {
		resource: 'objectMetadata',
		operation: 'getForConnection',
		project,
		provider: 'hubspot',
		objectName: 'contacts',
		groupRef: SEED.groupRef,
	};

	test('GET …/providers/{provider}/objects/{objectName}/metadata?groupRef=; fields keyed by name', async () => {
		const result = await run(sim, base);
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectId}/providers/hubspot/objects/contacts/metadata`,
			query: { groupRef: SEED.groupRef },
			status: 200,
		});
		expect(result.json).toEqual([
			expect.objectContaining({ name: 'contacts', displayName: 'Contacts' }),
		]);
		const fields = (result.json[0] as Record<string, any>).fields;
		expect(fields.hs_object_id.readOnly).toBe(true);
	});

	test('Exclude Read-Only Fields sends excludeReadOnly=true and the read-only fields are gone', async () => {
		const result = await run(sim, { ...base, metadataOptions: { excludeReadOnly: true } });
		expect(result.requests[0].query).toEqual({ groupRef: SEED.groupRef, excludeReadOnly: 'true' });
		expect((result.json[0] as Record<string, any>).fields.hs_object_id).toBeUndefined();
	});

	test('custom fields upserted for the group show up, with isCustom', async () => {
		await run(sim, {
			resource: 'customField',
			operation: 'upsert',
			project,
			provider: 'hubspot',
			groupRef: SEED.groupRef,
			objectName: 'contacts',
			fieldDefinitions: {
				field: [{ fieldName: 'loyalty_tier', displayName: 'Loyalty Tier', valueType: 'string' }],
			},
		});
		const result = await run(sim, base);
		expect((result.json[0] as Record<string, any>).fields.loyalty_tier).toEqual(
			expect.objectContaining({ isCustom: true, displayName: 'Loyalty Tier' }),
		);
	});

	test('a group without a connection is a 404; an empty Group is refused before sending', async () => {
		const missing = await run(sim, { ...base, groupRef: 'nobody-group' });
		expect(missing.requests[0].status).toBe(404);
		expect(shown(missing)).toContain("No hubspot connection found for group 'nobody-group'");
		const empty = await run(sim, { ...base, groupRef: '={{ "" }}' });
		expect(empty.requests).toHaveLength(0);
		expect(empty.error?.message).toBe('"Group" is empty: the service requires it');
	});
});

describe('Object Metadata → Get via Installation', () => {
	const base = {
		resource: 'objectMetadata',
		operation: 'getForInstallation',
		project,
		integration: rl(SEED.integrationId),
		objectName: 'companies',
		groupRef: SEED.groupRef,
	};

	test('GET …/integrations/{integrationId}/objects/{objectName}/metadata?groupRef=', async () => {
		const result = await run(sim, base);
		expect(result.requests[0]).toMatchObject({
			pathname: `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/objects/companies/metadata`,
			query: { groupRef: SEED.groupRef },
			status: 200,
		});
		expect(result.json).toEqual([
			expect.objectContaining({ name: 'companies', displayName: 'Companies' }),
		]);
	});

	test('a group without an installation, or an unknown object, is a 404', async () => {
		const noInstallation = await run(sim, { ...base, groupRef: SEED.apiKeyGroupRef });
		expect(noInstallation.requests[0].status).toBe(404);
		expect(shown(noInstallation)).toContain('No installation of this integration');
		const unknown = await run(sim, { ...base, objectName: 'tickets' });
		expect(unknown.requests[0].status).toBe(404);
		expect(shown(unknown)).toContain("Object 'tickets' is not available in hubspot");
	});
});
