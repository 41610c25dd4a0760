import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

describe('API Key → Delete', () => {
	test('DELETE …/api-keys/{apiKey}; the output does not contain the key', async () => {
		const result = await run(sim, {
			resource: 'apiKey',
			operation: 'delete',
			project: rl(SEED.projectName, 'name'),
			apiKey: SEED.deletableApiKey,
		});
		expect(result.requests[0]).toMatchObject({
			method: 'DELETE',
			pathname: `/v1/projects/${SEED.projectName}/api-keys/${SEED.deletableApiKey}`,
			status: 204,
		});
		expect(result.json).toEqual([{ deleted: true, project: SEED.projectName }]);
	});

	test('an unknown key: the 404 message masks the key that travelled in the path', async () => {
		const result = await run(sim, {
			resource: 'apiKey',
			operation: 'delete',
			project: rl(SEED.projectId),
			apiKey: 'amp_sim_unknown_key_9999',
		});
		expect(result.requests[0].status).toBe(404);
		expect(result.error?.message).toMatch(/Not Found/);
		const shown = `${result.error?.message} ${result.error?.description} ${JSON.stringify(result.error?.context ?? {})}`;
		expect(shown).not.toContain('amp_sim_unknown_key_9999');
	});
});

describe('API Key → Create, Get, Get Many, Update', () => {
	const project = rl(SEED.projectName, 'name');

	test('create → get → update → list → delete → 404; only Create outputs the key', async () => {
		const created = await run(sim, {
			resource: 'apiKey',
			operation: 'create',
			project,
			keyLabel: 'engine key',
			additionalFields: { scopes: 'full, frontend' },
		});
		expect(created.error).toBeUndefined();
		expect(created.requests[0]).toMatchObject({
			method: 'POST',
			pathname: `/v1/projects/${SEED.projectName}/api-keys`,
			status: 201,
			body: { label: 'engine key', scopes: ['full', 'frontend'] },
		});
		const key = created.json[0].key as string;
		expect(key).toMatch(/^amp_sim_/);
		expect(created.json[0]).toMatchObject({
			label: 'engine key',
			active: true,
			projectId: SEED.projectId,
		});

		const got = await run(sim, { resource: 'apiKey', operation: 'get', project, apiKey: key });
		expect(got.requests[0]).toMatchObject({
			pathname: `/v1/projects/${SEED.projectName}/api-keys/${key}`,
			status: 200,
		});
		expect(got.json).toEqual([
			{
				label: 'engine key',
				scopes: ['full', 'frontend'],
				projectId: SEED.projectId,
				active: true,
				keyEnding: key.slice(-4),
			},
		]);

		const updated = await run(sim, {
			resource: 'apiKey',
			operation: 'update',
			project,
			apiKey: key,
			updateFields: { active: false, label: 'engine key (off)' },
		});
		expect(updated.requests[0]).toMatchObject({
			method: 'PATCH',
			status: 200,
			body: {
				updateMask: ['active', 'label'],
				apiKey: { active: false, label: 'engine key (off)' },
			},
		});
		expect(updated.json).toEqual([
			expect.objectContaining({ label: 'engine key (off)', active: false }),
		]);
		expect(JSON.stringify(updated.json)).not.toContain(key);

		const all = await run(sim, {
			resource: 'apiKey',
			operation: 'getAll',
			project,
			returnAll: true,
		});
		expect(all.requests[0].query).toEqual({});
		expect(all.json).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ label: 'engine key (off)', active: false }),
			]),
		);
		expect(JSON.stringify(all.json)).not.toMatch(/amp_sim_/);

		const active = await run(sim, {
			resource: 'apiKey',
			operation: 'getAll',
			project,
			returnAll: true,
			options: { activeOnly: true },
		});
		expect(active.requests[0].query).toEqual({ active: 'true' });
		expect(active.json.map((k) => k.label)).not.toContain('engine key (off)');

		await run(sim, { resource: 'apiKey', operation: 'delete', project, apiKey: key });
		const gone = await run(sim, { resource: 'apiKey', operation: 'get', project, apiKey: key });
		expect(gone.requests[0].status).toBe(404);
		expect(JSON.stringify({ m: gone.error?.message, d: gone.error?.description })).not.toContain(
			key,
		);
	});

	test('Include Secrets outputs the keys; Limit slices the list', async () => {
		const all = await run(sim, {
			resource: 'apiKey',
			operation: 'getAll',
			project,
			returnAll: false,
			limit: 1,
			options: { includeSecrets: true },
		});
		expect(all.json).toHaveLength(1);
		expect(all.json[0].key).toEqual(expect.stringMatching(/^amp_sim_/));
	});

	test('update with an empty label: the 400 problem names the field, not the key', async () => {
		const result = await run(sim, {
			resource: 'apiKey',
			operation: 'update',
			project,
			apiKey: SEED.updatableApiKey,
			updateFields: { label: '' },
		});
		expect(result.requests[0].status).toBe(400);
		const shown = `${result.error?.message} ${result.error?.description}`;
		expect(shown).toContain('apiKey.label');
		expect(shown).not.toContain(SEED.updatableApiKey);
	});

	test('create without a label is refused before sending', async () => {
		const result = await run(sim, {
			resource: 'apiKey',
			operation: 'create',
			project,
			keyLabel: ' ',
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toContain('"Label"');
	});
});
