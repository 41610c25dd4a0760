import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

describe('Destination → Get', () => {
	test('by name, without secrets unless asked', async () => {
		const result = await run(sim, {
			resource: 'destination',
			operation: 'get',
			project: rl(SEED.projectName, 'name'),
			destination: rl(SEED.destinationName, 'name'),
		});
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectName}/destinations/${SEED.destinationName}`,
			query: {},
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				id: SEED.destinationId,
				name: SEED.destinationName,
				type: 'webhook',
				metadata: expect.any(Object),
			}),
		]);
		expect(result.json[0].secrets).toBeUndefined();
		expect(JSON.stringify(result.json)).not.toContain(SEED.webhookSigningKey);
	});

	test('Include Secrets sends includeSecrets=true and returns the signing key', async () => {
		const result = await run(sim, {
			resource: 'destination',
			operation: 'get',
			project: rl(SEED.projectId),
			destination: rl(SEED.destinationId),
			options: { includeSecrets: true },
		});
		expect(result.requests[0].query).toEqual({ includeSecrets: 'true' });
		expect(result.json[0].secrets).toEqual({ webhookSigningKey: SEED.webhookSigningKey });
	});
});

describe('Destination → Rotate Signing Secret', () => {
	test('sends rotate=true; the new secret is returned only with Include Secrets', async () => {
		const hidden = await run(sim, {
			resource: 'destination',
			operation: 'rotateSecret',
			project: rl(SEED.projectId),
			destination: rl(SEED.destinationName, 'name'),
		});
		expect(hidden.requests[0].query).toEqual({ rotate: 'true' });
		expect(hidden.json[0].secrets).toBeUndefined();

		const shown = await run(sim, {
			resource: 'destination',
			operation: 'rotateSecret',
			project: rl(SEED.projectId),
			destination: rl(SEED.destinationName, 'name'),
			options: { includeSecrets: true },
		});
		expect(shown.requests[0].query).toEqual({ rotate: 'true', includeSecrets: 'true' });
		const rotated = (shown.json[0].secrets as { webhookSigningKey: string }).webhookSigningKey;
		expect(rotated).toMatch(/^whsec_/);
		expect(rotated).not.toBe(SEED.webhookSigningKey);
	});
});
