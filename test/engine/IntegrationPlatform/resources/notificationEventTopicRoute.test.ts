import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());

describe('Notification Event Topic Route → Delete', () => {
	test('DELETE …/notification-event-topic-routes/{routeId}; 204 becomes { deleted, routeId }', async () => {
		const result = await run(sim, {
			resource: 'notificationEventTopicRoute',
			operation: 'delete',
			project: rl(SEED.projectId),
			route: rl(SEED.eventTopicRouteId),
		});
		expect(result.requests[0]).toMatchObject({
			method: 'DELETE',
			pathname: `/v1/projects/${SEED.projectId}/notification-event-topic-routes/${SEED.eventTopicRouteId}`,
			status: 204,
		});
		expect(result.json).toEqual([{ deleted: true, routeId: SEED.eventTopicRouteId }]);
	});
});
