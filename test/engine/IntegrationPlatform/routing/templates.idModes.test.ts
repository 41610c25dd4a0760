/**
 * routing/templates.ts: a locator's value that an expression gives is checked against its mode,
 * as n8n checks a typed one: a name in "By ID" stops the item before any request, with an error
 * that names the field, the value and the mode to use (not the API's 404).
 */
import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

test('an expression giving a name in Integration "By ID": refused before sending, naming the field and the list', async () => {
	const result = await run(sim, {
		resource: 'installation',
		operation: 'get',
		project: rl(SEED.projectName, 'name'),
		integration: rl('={{ "hubspot-sync" }}'),
		installation: rl(SEED.installationId),
	});
	expect(result.requests).toEqual([]);
	expect(result.error?.message).toBe(
		'"Integration" (By ID): "hubspot-sync" is not an integration ID (IDs are UUIDs): pick it from the list ("From List")',
	);
});

test('Integration → Get, which has "By Name": the error sends the name there', async () => {
	const result = await run(sim, {
		resource: 'integration',
		operation: 'get',
		project: rl(SEED.projectName, 'name'),
		integration: rl(`={{ "${SEED.integrationName}" }}`),
	});
	expect(result.requests).toEqual([]);
	expect(result.error?.message).toContain('choose "By Name" or pick it from the list');
	// The same name in "By Name" is what the API takes there.
	const byName = await run(sim, {
		resource: 'integration',
		operation: 'get',
		project: rl(SEED.projectName, 'name'),
		integration: rl(`={{ "${SEED.integrationName}" }}`, 'name'),
	});
	expect(byName.error).toBeUndefined();
	expect(byName.items[0].json).toMatchObject({ id: SEED.integrationId });
});

test('an expression giving an ID, and a value saved as plain text by an older version, are sent', async () => {
	const byExpression = await run(sim, {
		resource: 'installation',
		operation: 'get',
		project: rl(SEED.projectName, 'name'),
		integration: rl(`={{ "${SEED.integrationId}" }}`),
		installation: rl(SEED.installationId),
	});
	expect(byExpression.error).toBeUndefined();
	expect(byExpression.items[0].json).toMatchObject({ id: SEED.installationId });
	const plain = await run(sim, {
		resource: 'installation',
		operation: 'get',
		project: rl(SEED.projectName, 'name'),
		integration: SEED.integrationId,
		installation: SEED.installationId,
	});
	expect(plain.error).toBeUndefined();
});

test('Record → Write: an expression giving a name in Integration "By ID" stops the item before any write', async () => {
	const result = await run(
		sim,
		{
			resource: 'records',
			operation: 'write',
			writeType: 'create',
			project: rl(SEED.projectId),
			integration: rl('={{ $json.integration }}'),
			groupRef: rl(SEED.groupRef),
			object: rl('contacts'),
		},
		{ items: [{ integration: SEED.integrationName, email: 'by-name@example.com' }] },
	);
	expect(result.requests).toEqual([]);
	expect(result.error?.message).toBe(
		'"Integration" (By ID): "hubspot-sync" is not an integration ID (IDs are UUIDs): pick it from the list ("From List")',
	);
	expect(result.error?.description).toMatch(/^No request was sent for this item/);
});

test('Provider API → Send Request: an expression giving a group ref in Group "By ID" sends nothing, naming By Group Ref', async () => {
	const result = await run(sim, {
		resource: 'providerApi',
		operation: 'sendRequest',
		project: rl(SEED.projectId),
		integration: rl(SEED.integrationId),
		installation: rl(`={{ "${SEED.groupRef}" }}`),
		proxyMethod: 'GET',
		proxyPath: '/crm/v3/objects/contacts',
	});
	expect(result.requests).toEqual([]);
	expect(result.error?.message).toBe(
		`"Group" (By ID): "${SEED.groupRef}" is not an installation ID (IDs are UUIDs): choose "By Group Ref" or pick it from the list`,
	);
});
