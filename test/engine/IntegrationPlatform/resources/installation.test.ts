import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { fieldLabel } from '../../../harness/fieldLabel';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const base = {
	resource: 'installation',
	operation: 'unpauseReads',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	installation: rl(SEED.installationId),
};
const unpausePath = `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/installations/${SEED.installationId}:unpause`;

describe('Installation → Unpause Reads', () => {
	test('POST to the READ host with X-Api-Key; objects and note in the body', async () => {
		const result = await run(sim, {
			...base,
			unpauseFields: { objects: 'contacts', note: 'back on' },
		});
		expect(result.error).toBeUndefined();
		expect(result.requests).toHaveLength(1);
		expect(result.requests[0]).toMatchObject({
			host: 'read',
			method: 'POST',
			pathname: unpausePath,
			status: 204,
			body: { objects: ['contacts'], note: 'back on' },
		});
		expect(result.requests[0].headers['x-api-key']).toBe(SEED.apiKey);
		expect(result.json).toEqual([
			{ unpaused: true, installationId: SEED.installationId, objects: ['contacts'] },
		]);
	});

	test('without objects every object resumes and no body fields are sent', async () => {
		const result = await run(sim, base);
		expect(result.requests[0]).toMatchObject({ host: 'read', status: 204 });
		expect(result.requests[0].body ?? {}).toEqual({});
		expect(result.json).toEqual([
			{ unpaused: true, installationId: SEED.installationId, objects: 'all' },
		]);
	});

	test('with a bearer token the node refuses before sending, naming the credential it needs', async () => {
		const result = await run(sim, { ...base, authentication: 'bearerToken' });
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toBe(
			'Installation → Unpause Reads needs an Integration Platform API credential (API key)',
		);
	});

	test('a read URL that points at the management host fails: the management host has no unpause route', async () => {
		const result = await run(sim, base, {
			credentials: {
				integrationPlatformApi: { apiKey: SEED.apiKey, baseUrl: sim.apiUrl, readUrl: sim.apiUrl },
			},
		});
		expect(result.requests[0]).toMatchObject({ host: 'api', status: 404 });
		expect(result.error?.message).toMatch(/Not Found/);
	});
});

/** Everything an error shows the user: message, description and context. */
const shown = (result: {
	error?: { message?: string; description?: string | null; context?: unknown };
}) =>
	`${result.error?.message} ${result.error?.description} ${JSON.stringify(result.error?.context ?? {})}`;

describe('Installation → Create, Get, Get Many, Update, Delete', () => {
	const project = rl(SEED.projectId);
	const integration = rl(SEED.integrationId);
	const list = `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/installations`;
	const content = {
		provider: 'hubspot',
		read: {
			objects: {
				companies: {
					objectName: 'companies',
					schedule: '0 * * * *',
					destination: SEED.destinationName,
					// Required by the API's ReadConfigObject (docs/api-requests.json).
					selectedFields: { name: true },
					selectedFieldMappings: {},
				},
			},
		},
	};

	test('create → get → list → update → delete → get is a 404', async () => {
		const created = await run(sim, {
			resource: 'installation',
			operation: 'create',
			project,
			integration,
			groupRef: SEED.apiKeyGroupRef,
			configContent: JSON.stringify(content),
			createFields: { createdBy: 'api:test', skipSampling: true },
		});
		expect(created.error).toBeUndefined();
		expect(created.requests[0]).toMatchObject({
			method: 'POST',
			pathname: list,
			query: { skipSampling: 'true' },
			status: 201,
			body: { groupRef: SEED.apiKeyGroupRef, config: { createdBy: 'api:test', content } },
		});
		const id = created.json[0].id as string;
		expect((created.json[0] as Record<string, any>).connection.id).toBe(SEED.apiKeyConnectionId);

		const got = await run(sim, {
			resource: 'installation',
			operation: 'get',
			project,
			integration,
			installation: rl(id),
		});
		expect(got.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `${list}/${id}`,
			status: 200,
		});
		expect(got.json).toEqual([expect.objectContaining({ id, createdBy: 'api:test' })]);

		const listed = await run(sim, {
			resource: 'installation',
			operation: 'getAll',
			project,
			integration,
			returnAll: true,
			installationFilters: { groupRef: SEED.apiKeyGroupRef },
		});
		expect(listed.requests[0]).toMatchObject({
			pathname: list,
			query: { groupRef: SEED.apiKeyGroupRef },
		});
		expect(listed.json.map((i) => i.id)).toEqual([id]);

		const updated = await run(sim, {
			resource: 'installation',
			operation: 'update',
			project,
			integration,
			installation: rl(id),
			installationUpdate: {
				createdBy: 'api:renamed',
				proxyEnabled: true,
				readObjects: JSON.stringify({
					companies: {
						objectName: 'companies',
						schedule: '*/5 * * * *',
						selectedFields: { name: true },
					},
				}),
				writeObjects: '{"contacts": {"objectName": "contacts"}}',
			},
		});
		expect(updated.error).toBeUndefined();
		expect(updated.requests[0].body).toEqual({
			updateMask: [
				'config.createdBy',
				'config.content.proxy.enabled',
				'config.content.read.objects.companies',
				'config.content.write.objects',
			],
			installation: {
				config: {
					createdBy: 'api:renamed',
					content: {
						proxy: { enabled: true },
						// The object is replaced whole: the map left out goes empty (docs/api-notes.md, "Installations").
						read: {
							objects: {
								companies: {
									objectName: 'companies',
									schedule: '*/5 * * * *',
									selectedFields: { name: true },
									selectedFieldMappings: {},
								},
							},
						},
						write: { objects: { contacts: { objectName: 'contacts' } } },
					},
				},
			},
		});
		expect(
			(updated.json[0] as Record<string, any>).config.content.read.objects.companies.schedule,
		).toBe('*/5 * * * *');

		const inProject = await run(sim, {
			resource: 'installation',
			operation: 'getAllInProject',
			project,
			limit: 10,
			installationFilters: { groupRef: SEED.apiKeyGroupRef },
		});
		expect(inProject.requests[0].pathname).toBe(`/v1/projects/${SEED.projectId}/installations`);
		expect(inProject.json).toEqual([
			expect.objectContaining({
				id,
				config: expect.objectContaining({ createdBy: 'api:renamed' }),
			}),
		]);

		const deleted = await run(sim, {
			resource: 'installation',
			operation: 'delete',
			project,
			integration,
			installation: rl(id),
		});
		expect(deleted.requests[0]).toMatchObject({ method: 'DELETE', status: 204 });
		expect(deleted.json).toEqual([{ deleted: true, installationId: id }]);

		const gone = await run(sim, {
			resource: 'installation',
			operation: 'get',
			project,
			integration,
			installation: rl(id),
		});
		expect(gone.requests[0].status).toBe(404);
		expect(shown(gone)).toContain('Installation not found');
		// The connection went with its last installation (docs/api-notes.md, "Installations").
		expect((sim.state as Record<string, any>).connections.has(SEED.apiKeyConnectionId)).toBe(false);
	});

	test('a group without a connection is a 422 naming groupRef', async () => {
		const result = await run(sim, {
			resource: 'installation',
			operation: 'create',
			project,
			integration,
			groupRef: 'nobody-group',
			configContent: JSON.stringify(content),
		});
		expect(result.requests[0].status).toBe(422);
		// Named by the field's label.
		expect(shown(result)).toContain(`"${fieldLabel('installation', 'create', 'groupRef')}"`);
		expect(shown(result)).toContain('has no hubspot connection');
	});

	test('invalid config JSON, or Update without fields, fails before sending', async () => {
		const bad = await run(sim, {
			resource: 'installation',
			operation: 'create',
			project,
			integration,
			groupRef: SEED.apiKeyGroupRef,
			configContent: '{nope',
		});
		expect(bad.requests).toHaveLength(0);
		expect(bad.error?.message).toContain('"Config Content (JSON)" is not valid JSON');
		const empty = await run(sim, {
			resource: 'installation',
			operation: 'update',
			project,
			integration,
			installation: rl(SEED.installationId),
		});
		expect(empty.requests).toHaveLength(0);
		expect(empty.error?.message).toBe(
			'Nothing to update: add at least one field under Update Fields',
		);
	});

	test('Get Many of an unknown integration is a 404', async () => {
		const result = await run(sim, {
			resource: 'installation',
			operation: 'getAll',
			project,
			integration: rl('00000000-0000-4000-8000-0000000000aa'),
			returnAll: true,
		});
		expect(result.requests[0].status).toBe(404);
		expect(shown(result)).toContain('Integration not found');
	});
});

describe('Installation → Create and Update: read objects as the API requires them', () => {
	const project = rl(SEED.projectId);
	const integration = rl(SEED.integrationId);
	const create = (configContent: unknown) =>
		run(sim, {
			resource: 'installation',
			operation: 'create',
			project,
			integration,
			groupRef: SEED.apiKeyGroupRef,
			...(configContent === undefined ? {} : { configContent: JSON.stringify(configContent) }),
		});
	const update = (readObjects: unknown) =>
		run(sim, {
			resource: 'installation',
			operation: 'update',
			project,
			integration,
			installation: rl(SEED.installationId),
			installationUpdate: { readObjects: JSON.stringify(readObjects) },
		});
	const sentObjects = (result: { requests: Array<{ body: unknown }> }) =>
		(result.requests[0].body as Record<string, any>).config?.content.read.objects ??
		(result.requests[0].body as Record<string, any>).installation.config.content.read.objects;
	const object = {
		objectName: 'contacts',
		destination: SEED.destinationName,
		schedule: '0 * * * *',
	};

	test("the node's default config (every field) goes with both maps empty, and the service takes it", async () => {
		const result = await create(undefined);
		expect(result.error).toBeUndefined();
		expect(result.requests[0].status).toBe(201);
		expect(sentObjects(result)).toEqual({
			contacts: {
				objectName: 'contacts',
				schedule: '*/30 * * * *',
				destination: 'n8n-webhook',
				selectedFieldsAuto: 'all',
				selectedFields: {},
				selectedFieldMappings: {},
			},
		});
	});

	test.each([
		[
			'fields only: the mappings go empty',
			{ selectedFields: { email: true } },
			{ selectedFields: { email: true }, selectedFieldMappings: {} },
		],
		[
			'mappings only: the fields go empty (mapped fields are read)',
			{ selectedFieldMappings: { mail: 'email' } },
			{ selectedFields: {}, selectedFieldMappings: { mail: 'email' } },
		],
		[
			'both given: sent as given, with every other setting',
			{
				selectedFieldsAuto: 'all',
				selectedFields: { phone: false },
				selectedFieldMappings: { mail: 'email' },
				disabled: true,
			},
			{
				selectedFieldsAuto: 'all',
				selectedFields: { phone: false },
				selectedFieldMappings: { mail: 'email' },
				disabled: true,
			},
		],
	])('%s (Create and Update)', async (_name, choice, sent) => {
		const created = await create({
			provider: 'hubspot',
			read: { objects: { contacts: { ...object, ...choice } } },
		});
		expect(created.requests[0].status).toBe(201);
		expect(sentObjects(created)).toEqual({ contacts: { ...object, ...sent } });
		const updated = await update({ contacts: { ...object, ...choice } });
		expect(updated.requests[0].status).toBe(200);
		expect(sentObjects(updated)).toEqual({ contacts: { ...object, ...sent } });
	});

	test('write, subscribe and proxy parts go as given', async () => {
		const content = {
			provider: 'hubspot',
			write: { objects: { contacts: { objectName: 'contacts' } } },
			subscribe: {
				objects: {
					contacts: {
						objectName: 'contacts',
						destination: SEED.destinationName,
						inheritFieldsAndMappings: true,
					},
				},
			},
			proxy: { enabled: true },
		};
		const result = await create(content);
		expect(result.requests[0]).toMatchObject({ status: 201, body: { config: { content } } });
	});

	test('a read object that chooses no field, or is not an object, is refused before sending', async () => {
		const none = await create({ provider: 'hubspot', read: { objects: { contacts: object } } });
		expect(none.requests).toHaveLength(0);
		expect(none.error?.message).toBe(
			'"Config Content (JSON)": read object "contacts" does not say which fields to read',
		);
		expect(none.error?.description).toContain('"selectedFieldsAuto": "all"');
		const emptyMaps = await update({
			contacts: { ...object, selectedFields: {}, selectedFieldMappings: {} },
		});
		expect(emptyMaps.requests).toHaveLength(0);
		expect(emptyMaps.error?.message).toBe(
			'"Read Objects (JSON)": read object "contacts" does not say which fields to read',
		);
		const notObject = await create({ provider: 'hubspot', read: { objects: { contacts: 'all' } } });
		expect(notObject.requests).toHaveLength(0);
		expect(notObject.error?.message).toBe(
			'"Config Content (JSON)": read object "contacts" must be a JSON object',
		);
		const notMap = await create({ provider: 'hubspot', read: { objects: ['contacts'] } });
		expect(notMap.requests).toHaveLength(0);
		expect(notMap.error?.message).toBe(
			'"Config Content (JSON)": the read objects must be a JSON object keyed by object name',
		);
	});
});

describe('Installation → Pause Reads, Get Backfill Progress', () => {
	test('Pause Reads posts to the read host and pauses the objects named', async () => {
		const result = await run(sim, {
			...base,
			operation: 'pauseReads',
			unpauseFields: { objects: 'companies' },
		});
		expect(result.requests[0]).toMatchObject({
			host: 'read',
			method: 'POST',
			pathname: unpausePath.replace(':unpause', ':pause'),
			status: 204,
			body: { objects: ['companies'] },
		});
		expect(result.json).toEqual([
			{ paused: true, installationId: SEED.installationId, objects: ['companies'] },
		]);
		const installation = (sim.state as Record<string, any>).installations.get(SEED.installationId);
		expect(installation.config.content.read.objects.companies.disabled).toBe(true);
	});

	test('Pause Reads with a bearer token is refused before sending', async () => {
		const result = await run(sim, {
			...base,
			operation: 'pauseReads',
			authentication: 'bearerToken',
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toContain(
			'Installation → Pause Reads needs an Integration Platform API credential',
		);
	});

	test('Get Backfill Progress returns the progress of the object; an object without one is a 404', async () => {
		const result = await run(sim, {
			...base,
			operation: 'getBackfillProgress',
			objectName: 'companies',
		});
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/installations/${SEED.installationId}/objects/companies/backfill-progress`,
			status: 200,
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				objectName: 'companies',
				operationId: SEED.secondOperationId,
				recordsProcessed: 37,
			}),
		]);
		const none = await run(sim, { ...base, operation: 'getBackfillProgress', objectName: 'deals' });
		expect(none.requests[0].status).toBe(404);
		expect(shown(none)).toContain("No backfill operation found for object 'deals'");
	});
});

describe('Installation → Update Object Config', () => {
	const patch = {
		...base,
		operation: 'updateObjectConfig',
		objectName: 'companies',
		configAction: 'read',
		changes: {
			change: [
				{ op: 'replace', path: '/schedule', value: '*/15 * * * *' },
				{ op: 'remove', path: '/selectedFields/industry', value: 'ignored' },
				{ op: 'add', path: '/selectedFields/annualrevenue', value: 'true' },
			],
		},
	};

	test('PATCH …/objects/{objectName}/config-content with installationId, action and the changes', async () => {
		const result = await run(sim, patch);
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			method: 'PATCH',
			pathname: `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/objects/companies/config-content`,
			status: 200,
			body: {
				installationId: SEED.installationId,
				action: 'read',
				changes: [
					{ op: 'replace', path: '/schedule', value: '*/15 * * * *' },
					{ op: 'remove', path: '/selectedFields/industry' },
					{ op: 'add', path: '/selectedFields/annualrevenue', value: true },
				],
			},
		});
		const companies = (result.json[0] as Record<string, any>).config.content.read.objects.companies;
		expect(companies.schedule).toBe('*/15 * * * *');
		expect(companies.selectedFields).toEqual({ name: true, domain: true, annualrevenue: true });
	});

	test('a change to a path that does not exist is a 422 naming the change; nothing changes', async () => {
		const result = await run(sim, {
			...patch,
			changes: {
				change: [
					{ op: 'replace', path: '/schedule', value: 'x' },
					{ op: 'remove', path: '/nope' },
				],
			},
		});
		expect(result.requests[0].status).toBe(422);
		expect(shown(result)).toContain('changes[1]');
		const installation = (sim.state as Record<string, any>).installations.get(SEED.installationId);
		expect(installation.config.content.read.objects.companies.schedule).toBe('0 */6 * * *');
	});

	test('no changes, or a path that is not a JSON Pointer, fails before sending', async () => {
		const none = await run(sim, { ...patch, changes: {} });
		expect(none.requests).toHaveLength(0);
		expect(none.error?.message).toBe('"Changes" is empty: add at least one change');
		const relative = await run(sim, {
			...patch,
			changes: { change: [{ op: 'remove', path: 'schedule' }] },
		});
		expect(relative.requests).toHaveLength(0);
		expect(relative.error?.message).toBe('Change 1: "Path" must be a JSON Pointer starting with /');
	});
});
