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

describe('Notification Event Topic Route → Create, Get Many', () => {
	beforeEach(() => sim.reset());
	const project = rl(SEED.projectName, 'name');

	test('create a route, find it with the filters, delete it', async () => {
		const created = await run(sim, {
			resource: 'notificationEventTopicRoute',
			operation: 'create',
			project,
			eventType: 'installation.created',
			topicId: rl(SEED.topicId),
		});
		expect(created.error).toBeUndefined();
		expect(created.requests[0]).toMatchObject({
			method: 'POST',
			pathname: `/v1/projects/${SEED.projectName}/notification-event-topic-routes`,
			status: 201,
			body: { eventType: 'installation.created', topicId: SEED.topicId },
		});
		const id = created.json[0].id as string;

		const listed = await run(sim, {
			resource: 'notificationEventTopicRoute',
			operation: 'getAll',
			project,
			returnAll: true,
			filters: { eventType: 'installation.created', topicId: SEED.topicId },
		});
		expect(listed.requests[0].query).toEqual({
			eventType: 'installation.created',
			topicId: SEED.topicId,
		});
		expect(listed.json).toEqual([
			expect.objectContaining({ id, eventType: 'installation.created' }),
		]);

		await run(sim, {
			resource: 'notificationEventTopicRoute',
			operation: 'delete',
			project,
			route: rl(id),
		});
		const after = await run(sim, {
			resource: 'notificationEventTopicRoute',
			operation: 'getAll',
			project,
			returnAll: true,
		});
		expect(after.requests[0].query).toEqual({});
		expect(after.json.map((r) => r.id)).not.toContain(id);
		expect(after.json.map((r) => r.id)).toContain(SEED.eventTopicRouteId);
	});

	test('a route to an unknown topic is a 404', async () => {
		const result = await run(sim, {
			resource: 'notificationEventTopicRoute',
			operation: 'create',
			project,
			eventType: 'installation.created',
			topicId: rl('00000000-0000-4000-8000-0000000000aa'),
		});
		expect(result.requests[0].status).toBe(404);
		expect(result.error?.message).toMatch(/404/);
	});

	test('an unknown event type from an expression: the validation problem names eventType', async () => {
		const result = await run(sim, {
			resource: 'notificationEventTopicRoute',
			operation: 'create',
			project,
			eventType: 'installation.exploded',
			topicId: rl(SEED.topicId),
		});
		expect(result.requests[0].status).toBe(400);
		expect(`${result.error?.message} ${result.error?.description}`).toContain('eventType');
	});
});
