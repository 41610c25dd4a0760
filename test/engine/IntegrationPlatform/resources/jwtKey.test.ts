import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { fieldLabel } from '../../../harness/fieldLabel';

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

describe('JWT Key → Create, Get, Get Many, Delete', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { PUBLIC_KEY_PEM } = require('../../../simulator/seed') as { PUBLIC_KEY_PEM: string };
	const project = rl(SEED.projectId);

	test('create → get → list → delete → 404', async () => {
		const created = await run(sim, {
			resource: 'jwtKey',
			operation: 'create',
			project,
			jwtKeyLabel: 'engine-key',
			algorithm: 'RS256',
			publicKeyPem: PUBLIC_KEY_PEM,
		});
		expect(created.error).toBeUndefined();
		expect(created.requests[0]).toMatchObject({
			method: 'POST',
			pathname: `/v1/projects/${SEED.projectId}/jwt-keys`,
			status: 201,
			body: { label: 'engine-key', algorithm: 'RS256', publicKeyPem: PUBLIC_KEY_PEM },
		});
		const kid = created.json[0].kid as string;
		expect(created.json).toEqual([{ kid: expect.any(String) }]);

		const got = await run(sim, { resource: 'jwtKey', operation: 'get', project, jwtKey: rl(kid) });
		expect(got.requests[0]).toMatchObject({
			pathname: `${path.replace(SEED.jwtKeyId, kid)}`,
			status: 200,
		});
		expect(got.json).toEqual([
			expect.objectContaining({ id: kid, label: 'engine-key', algorithm: 'RSA', active: true }),
		]);

		const all = await run(sim, {
			resource: 'jwtKey',
			operation: 'getAll',
			project,
			returnAll: true,
		});
		expect(all.json.map((k) => k.id)).toEqual(expect.arrayContaining([kid, SEED.jwtKeyId]));
		const active = await run(sim, {
			resource: 'jwtKey',
			operation: 'getAll',
			project,
			returnAll: true,
			options: { activeOnly: true },
		});
		expect(active.requests[0].query).toEqual({ active: 'true' });
		expect(active.json.map((k) => k.id)).not.toContain(SEED.deletableJwtKeyId);

		const deleted = await run(sim, {
			resource: 'jwtKey',
			operation: 'delete',
			project,
			jwtKey: rl(kid),
		});
		expect(deleted.requests[0]).toMatchObject({ method: 'DELETE', status: 204 });
		expect(deleted.json).toEqual([{ deleted: true, jwtKeyId: kid }]);

		const gone = await run(sim, { resource: 'jwtKey', operation: 'get', project, jwtKey: rl(kid) });
		expect(gone.requests[0].status).toBe(404);
		expect(gone.error?.message).toMatch(/JWT key not found/);
	});

	test('an invalid public key: the 400 validationIssues name the field', async () => {
		const result = await run(sim, {
			resource: 'jwtKey',
			operation: 'create',
			project,
			jwtKeyLabel: 'engine-key',
			algorithm: 'RS256',
			publicKeyPem: '-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----',
		});
		expect(result.requests[0].status).toBe(400);
		expect(result.error?.message).toContain(
			`"${fieldLabel('jwtKey', 'create', 'publicKeyPem')}": invalid RSA public key`,
		);
	});

	test('Limit slices the list', async () => {
		const result = await run(sim, { resource: 'jwtKey', operation: 'getAll', project, limit: 1 });
		expect(result.json).toHaveLength(1);
	});
});
