import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

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
			'Installation → Unpause Reads needs the API Key (Integration Platform API credential)',
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
