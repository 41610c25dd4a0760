import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());

describe('Topic Destination Route → Create', () => {
	test('POST {topicId, destinationId}; 201 route as the item', async () => {
		const result = await run(sim, {
			resource: 'topicDestinationRoute',
			operation: 'create',
			project: rl(SEED.projectId),
			topicId: rl(SEED.deletableTopicId),
			destinationId: rl(SEED.destinationId),
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0]).toMatchObject({
			method: 'POST',
			pathname: `/v1/projects/${SEED.projectId}/topic-destination-routes`,
			status: 201,
			body: { topicId: SEED.deletableTopicId, destinationId: SEED.destinationId },
		});
		expect(result.json).toEqual([
			{
				id: expect.any(String),
				topicId: SEED.deletableTopicId,
				destinationId: SEED.destinationId,
				projectId: SEED.projectId,
				createTime: expect.stringMatching(/\.\d{6}Z$/),
			},
		]);
	});

	test('an empty topic from an expression fails before any request, naming the parameter', async () => {
		const result = await run(sim, {
			resource: 'topicDestinationRoute',
			operation: 'create',
			project: rl(SEED.projectId),
			topicId: rl('={{ "  " }}'),
			destinationId: rl(SEED.destinationId),
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toBe('"Topic" is empty: the service requires it');
	});
});
