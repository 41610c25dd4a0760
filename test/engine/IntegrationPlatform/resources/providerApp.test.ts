import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { searchProviderApps } from '../../../../nodes/IntegrationPlatform/listSearch/searches';
import { searchContext } from '../../../harness/listSearch';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const project = rl(SEED.projectName, 'name');
const base = `/v1/projects/${SEED.projectName}/provider-apps`;
const SECRET = 'engine-client-secret-1234';

describe('Provider App → Create, Get Many, Update, Delete', () => {
	test('create → list → update → delete → 404; the secret is never returned', async () => {
		const created = await run(sim, {
			resource: 'providerApp',
			operation: 'create',
			project,
			appProvider: 'attio',
			appClientId: 'attio-client',
			appClientSecret: SECRET,
			additionalFields: {
				externalRef: 'attio-app-1',
				scopes: 'record_permission:read, object_configuration:read',
				metadata: '{ "providerParams": { "region": "eu" } }',
			},
		});
		expect(created.error).toBeUndefined();
		expect(created.requests[0]).toMatchObject({
			method: 'POST',
			pathname: base,
			status: 200,
			body: {
				provider: 'attio',
				clientId: 'attio-client',
				clientSecret: SECRET,
				externalRef: 'attio-app-1',
				scopes: ['record_permission:read', 'object_configuration:read'],
				metadata: { providerParams: { region: 'eu' } },
			},
		});
		const id = created.json[0].id as string;
		expect(created.json[0]).toMatchObject({
			provider: 'attio',
			clientId: 'attio-client',
			projectId: SEED.projectId,
		});
		expect(JSON.stringify(created.json)).not.toContain(SECRET);

		const listed = await run(sim, {
			resource: 'providerApp',
			operation: 'getAll',
			project,
			returnAll: true,
		});
		expect(listed.json.map((a) => a.id)).toEqual(expect.arrayContaining([id, SEED.providerAppId]));
		expect(JSON.stringify(listed.json)).not.toMatch(/secret/i);

		const updated = await run(sim, {
			resource: 'providerApp',
			operation: 'update',
			project,
			providerApp: rl(id),
			updateFields: { clientId: 'attio-client-2', clientSecret: 'engine-client-secret-5678' },
		});
		expect(updated.requests[0]).toMatchObject({
			method: 'PATCH',
			pathname: `${base}/${id}`,
			status: 200,
			body: {
				updateMask: ['clientId', 'clientSecret'],
				providerApp: { clientId: 'attio-client-2', clientSecret: 'engine-client-secret-5678' },
			},
		});
		expect(updated.json).toEqual([expect.objectContaining({ id, clientId: 'attio-client-2' })]);
		expect(JSON.stringify(updated.json)).not.toContain('engine-client-secret');

		const deleted = await run(sim, {
			resource: 'providerApp',
			operation: 'delete',
			project,
			providerApp: rl(id),
		});
		expect(deleted.requests[0]).toMatchObject({ method: 'DELETE', status: 204 });
		expect(deleted.json).toEqual([{ deleted: true, providerAppId: id }]);

		const again = await run(sim, {
			resource: 'providerApp',
			operation: 'delete',
			project,
			providerApp: rl(id),
		});
		expect(again.requests[0].status).toBe(404);
		expect(again.error?.message).toMatch(/Provider app not found/);
	});

	test('a validation problem names the field and never shows the client secret', async () => {
		const result = await run(sim, {
			resource: 'providerApp',
			operation: 'create',
			project,
			appProvider: 'no-such-provider',
			appClientId: 'c',
			appClientSecret: SECRET,
		});
		expect(result.requests[0].status).toBe(400);
		const shown = JSON.stringify({
			message: result.error?.message,
			description: result.error?.description,
			context: (result.error as { context?: unknown } | undefined)?.context,
		});
		expect(shown).toContain('provider');
		expect(shown).not.toContain(SECRET);
	});

	test('an update the service refuses: the error never shows the client secret', async () => {
		const result = await run(sim, {
			resource: 'providerApp',
			operation: 'update',
			project,
			providerApp: rl(SEED.providerAppId),
			updateFields: { clientSecret: SECRET, provider: 'no-such-provider' },
		});
		expect(result.requests[0].status).toBe(400);
		expect(`${result.error?.message} ${result.error?.description}`).toContain(
			'providerApp.provider',
		);
		expect(JSON.stringify(result.error, Object.getOwnPropertyNames(result.error))).not.toContain(
			SECRET,
		);
	});

	test.each([
		[
			'create',
			{ operation: 'create', appProvider: 'attio', appClientId: 'c', appClientSecret: SECRET },
			'createProviderApp',
		],
		[
			'update',
			{
				operation: 'update',
				providerApp: rl(SEED.providerAppId),
				updateFields: { clientSecret: SECRET },
			},
			'updateProviderApp',
		],
	])('%s: a problem that echoes the secret is shown masked', async (_name, parameters, route) => {
		sim.faults.add({
			route,
			status: 400,
			body: { title: 'Bad Request', status: 400, detail: `clientSecret ${SECRET} was refused` },
		});
		const result = await run(sim, { resource: 'providerApp', project, ...parameters });
		expect(result.requests[0].status).toBe(400);
		expect(result.error?.message).toContain('was refused');
		expect(JSON.stringify(result.error, Object.getOwnPropertyNames(result.error))).not.toContain(
			SECRET,
		);
	});

	test('invalid metadata JSON is refused before sending, naming the parameter', async () => {
		const result = await run(sim, {
			resource: 'providerApp',
			operation: 'update',
			project,
			providerApp: rl(SEED.providerAppId),
			updateFields: { metadata: '{ nope' },
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toContain('"Metadata (JSON)"');
	});
});

describe('searchProviderApps (the provider-app locator)', () => {
	test("lists the selected project's apps as provider (client ID)", async () => {
		const context = searchContext(sim, { current: { project: SEED.projectName } });
		const all = await searchProviderApps.call(context);
		expect(all.results).toEqual([
			{ name: 'hubspot (hs-client-0001)', value: SEED.deletableProviderAppId },
			{ name: `salesforce (${SEED.providerAppClientId})`, value: SEED.providerAppId },
		]);
		expect((await searchProviderApps.call(context, 'sales')).results).toHaveLength(1);
	});
});
