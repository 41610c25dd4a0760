import { searchTopicDestinationRoutes } from '../../../../nodes/IntegrationPlatform/listSearch/searches';
import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { searchContext } from '../../../harness/listSearch';

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

describe('Topic Destination Route → Get Many, Delete', () => {
	beforeEach(() => sim.reset());
	const project = rl(SEED.projectName, 'name');

	test('list with filters, delete a route, a second delete is a 404', async () => {
		const listed = await run(sim, {
			resource: 'topicDestinationRoute',
			operation: 'getAll',
			project,
			returnAll: true,
			filters: { destinationId: SEED.kinesisDestinationId },
		});
		expect(listed.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectName}/topic-destination-routes`,
			query: { destinationId: SEED.kinesisDestinationId },
		});
		expect(listed.json).toEqual([
			expect.objectContaining({
				id: SEED.deletableTopicDestinationRouteId,
				topicId: SEED.updatableTopicId,
			}),
		]);

		const deleted = await run(sim, {
			resource: 'topicDestinationRoute',
			operation: 'delete',
			project,
			routeId: rl(SEED.deletableTopicDestinationRouteId),
		});
		expect(deleted.requests[0]).toMatchObject({
			method: 'DELETE',
			pathname: `/v1/projects/${SEED.projectName}/topic-destination-routes/${SEED.deletableTopicDestinationRouteId}`,
			status: 204,
		});
		expect(deleted.json).toEqual([
			{ deleted: true, routeId: SEED.deletableTopicDestinationRouteId },
		]);

		const all = await run(sim, {
			resource: 'topicDestinationRoute',
			operation: 'getAll',
			project,
			returnAll: true,
		});
		expect(all.json.map((r) => r.id)).toEqual([SEED.topicDestinationRouteId]);

		const again = await run(sim, {
			resource: 'topicDestinationRoute',
			operation: 'delete',
			project,
			routeId: rl(SEED.deletableTopicDestinationRouteId),
		});
		expect(again.requests[0].status).toBe(404);
		expect(again.error?.message).toMatch(/404/);
	});

	test('a filter that is not text is refused before sending', async () => {
		const result = await run(sim, {
			resource: 'topicDestinationRoute',
			operation: 'getAll',
			project,
			filters: { topicId: '={{ { a: 1 } }}' },
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toMatch(/Filters → Topic\b/);
	});
});

describe('searchTopicDestinationRoutes (the route locator)', () => {
	beforeEach(() => sim.reset());

	test('routes shown as "topic → destination" by name, filtered', async () => {
		const context = searchContext(sim, { current: { project: SEED.projectName } });
		const all = await searchTopicDestinationRoutes.call(context);
		expect(all.results).toEqual([
			{ name: `${SEED.topicName} → ${SEED.destinationName}`, value: SEED.topicDestinationRouteId },
			{
				name: `${SEED.updatableTopicName} → ${SEED.kinesisDestinationName}`,
				value: SEED.deletableTopicDestinationRouteId,
			},
		]);
		const filtered = await searchTopicDestinationRoutes.call(context, 'events-stream');
		expect(filtered.results.map((r) => r.value)).toEqual([SEED.deletableTopicDestinationRouteId]);
	});
});
