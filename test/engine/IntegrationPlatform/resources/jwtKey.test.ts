import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const base = {
	resource: 'jwtKey',
	operation: 'update',
	project: rl(SEED.projectId),
	jwtKey: rl(SEED.jwtKeyId),
};
const path = `/v1/projects/${SEED.projectId}/jwt-keys/${SEED.jwtKeyId}`;

describe('JWT Key → Update', () => {
	test('label: mask "label", the text in jwtKey.label and jwtKey.name (the API contradicts itself)', async () => {
		const result = await run(sim, { ...base, updateFields: { label: 'rotated-2026' } });
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({ method: 'PATCH', pathname: path, status: 200 });
		expect(result.requests[0].body).toEqual({
			updateMask: ['label'],
			jwtKey: { label: 'rotated-2026', name: 'rotated-2026' },
		});
		expect(result.json).toEqual([
			expect.objectContaining({ id: SEED.jwtKeyId, label: 'rotated-2026', algorithm: 'RSA' }),
		]);
	});

	test('active only', async () => {
		const result = await run(sim, { ...base, updateFields: { active: false } });
		expect(result.requests[0].body).toEqual({ updateMask: ['active'], jwtKey: { active: false } });
		expect(result.json[0].active).toBe(false);
	});

	test('nothing to update fails before any request', async () => {
		const result = await run(sim, { ...base, updateFields: {} });
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toBe('Add at least one field to update: Label or Active');
	});
});
