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
