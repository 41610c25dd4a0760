import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

describe('Topic → Delete', () => {
	test('DELETE /projects/{p}/topics/{topicId}; 204 becomes { deleted, topicId }', async () => {
		const result = await run(sim, {
			resource: 'topic',
			operation: 'delete',
			project: rl(SEED.projectId),
			topic: rl(SEED.deletableTopicId),
		});
		expect(result.requests[0]).toMatchObject({
			method: 'DELETE',
			pathname: `/v1/projects/${SEED.projectId}/topics/${SEED.deletableTopicId}`,
			status: 204,
			body: undefined,
		});
		expect(result.json).toEqual([{ deleted: true, topicId: SEED.deletableTopicId }]);
	});
});

const project = rl(SEED.projectName, 'name');

describe('Topic → Create, Get Many, Update, Delete', () => {
	test('create, see it listed, rename it, delete it, and a second delete is a 404', async () => {
		const created = await run(sim, {
			resource: 'topic',
			operation: 'create',
			project,
			name: 'flow-topic',
		});
		expect(created.error).toBeUndefined();
		expect(created.requests[0]).toMatchObject({
			method: 'POST',
			pathname: `/v1/projects/${SEED.projectName}/topics`,
			status: 201,
			body: { name: 'flow-topic' },
		});
		const id = created.json[0].id as string;
		expect(created.json[0]).toMatchObject({ name: 'flow-topic', projectId: SEED.projectId });

		const renamed = await run(sim, {
			resource: 'topic',
			operation: 'update',
			project,
			topic: rl(id),
			name: 'flow-topic-2',
		});
		expect(renamed.requests[0]).toMatchObject({
			method: 'PATCH',
			pathname: `/v1/projects/${SEED.projectName}/topics/${id}`,
			status: 200,
			body: { name: 'flow-topic-2' },
		});
		expect(renamed.json[0]).toMatchObject({ id, name: 'flow-topic-2' });

		const listed = await run(sim, {
			resource: 'topic',
			operation: 'getAll',
			project,
			returnAll: true,
		});
		expect(listed.json).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ id, name: 'flow-topic-2' }),
				expect.objectContaining({ id: SEED.topicId }),
			]),
		);

		const deleted = await run(sim, {
			resource: 'topic',
			operation: 'delete',
			project,
			topic: rl(id),
		});
		expect(deleted.json).toEqual([{ deleted: true, topicId: id }]);
		const again = await run(sim, {
			resource: 'topic',
			operation: 'delete',
			project,
			topic: rl(id),
		});
		expect(again.requests[0].status).toBe(404);
		expect(again.error?.message).toMatch(/404/);
	});

	test('Get Many honours Limit', async () => {
		const result = await run(sim, { resource: 'topic', operation: 'getAll', project, limit: 2 });
		expect(result.json).toHaveLength(2);
	});

	test('an invalid name: the validation problem names the field', async () => {
		const result = await run(sim, {
			resource: 'topic',
			operation: 'create',
			project,
			name: 'no spaces',
		});
		expect(result.requests[0].status).toBeGreaterThanOrEqual(400);
		expect(`${result.error?.message} ${result.error?.description}`).toMatch(/name/);
	});

	test('renaming to a taken name is a 409', async () => {
		const result = await run(sim, {
			resource: 'topic',
			operation: 'update',
			project,
			topic: rl(SEED.updatableTopicId),
			name: SEED.topicName,
		});
		expect(result.requests[0].status).toBe(409);
		expect(result.error?.message).toMatch(/409/);
	});
});
