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
