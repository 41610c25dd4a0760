/**
 * Version 2's lists through n8n's routing engine: a Group, Consumer, Operation ID or filter picked
 * from a list, typed, or set by an expression sends the same value as version 1's text fields
 * (whose runs the resource tests and the examples cover).
 */
import { rl, run, SEED, startSimulator, type Simulator } from '../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const version2 = { nodeSettings: { typeVersion: 2 } };
const project = rl(SEED.projectId);
const fromList = (value: string) => rl(value, 'list');

describe('version 2: lists send what the text fields sent', () => {
	test('Connection → Get Many: Group, Consumer and Provider filters from lists', async () => {
		const result = await run(
			sim,
			{
				resource: 'connection',
				operation: 'getAll',
				project,
				returnAll: true,
				connectionFilters: {
					groupRef: fromList(SEED.groupRef),
					consumerRef: rl(SEED.consumerRef),
					provider: fromList('hubspot'),
				},
			},
			version2,
		);
		expect(result.error).toBeUndefined();
		expect(result.requests[0].query).toEqual({
			groupRef: SEED.groupRef,
			consumerRef: SEED.consumerRef,
			provider: 'hubspot',
		});
		expect(result.json.map((c) => c.id)).toContain(SEED.connectionId);
	});

	test('Connection → Generate: Group and Consumer, one typed, one set by an expression', async () => {
		const result = await run(
			sim,
			{
				resource: 'connection',
				operation: 'generate',
				project,
				provider: 'hubspot',
				groupRef: rl('new-group'),
				consumerRef: rl('={{ $json.user }}'),
				providerCredentials: 'apiKey',
				providerApiKey: 'pk_live_1',
			},
			{ ...version2, items: [{ user: 'user-9' }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.requests[0].body).toMatchObject({
			groupRef: 'new-group',
			consumerRef: 'user-9',
			provider: 'hubspot',
		});
	});

	test('OAuth → Get Authorization URL: Group and Consumer from lists', async () => {
		const result = await run(
			sim,
			{
				resource: 'oauth',
				operation: 'getAuthorizationUrl',
				project,
				provider: 'hubspot',
				groupRef: fromList(SEED.groupRef),
				consumerRef: fromList(SEED.consumerRef),
			},
			version2,
		);
		expect(result.error).toBeUndefined();
		expect(result.requests[0].body).toMatchObject({
			groupRef: SEED.groupRef,
			consumerRef: SEED.consumerRef,
		});
	});

	test('Installation → Get Many: the Group filter from a list', async () => {
		const result = await run(
			sim,
			{
				resource: 'installation',
				operation: 'getAll',
				project,
				integration: rl(SEED.integrationId),
				returnAll: true,
				installationFilters: { groupRef: fromList(SEED.groupRef) },
			},
			version2,
		);
		expect(result.error).toBeUndefined();
		expect(result.requests[0].query).toEqual({ groupRef: SEED.groupRef });
		expect(result.json.map((i) => i.id)).toEqual([SEED.installationId]);
	});

	test('Object Metadata → Get via Installation and Custom Field → Create or Update: Group from a list', async () => {
		const metadata = await run(
			sim,
			{
				resource: 'objectMetadata',
				operation: 'getForInstallation',
				project,
				integration: rl(SEED.integrationId),
				objectName: 'contacts',
				groupRef: fromList(SEED.groupRef),
			},
			version2,
		);
		expect(metadata.error).toBeUndefined();
		expect(metadata.requests[0].query).toMatchObject({ groupRef: SEED.groupRef });
		const upsert = await run(
			sim,
			{
				resource: 'customField',
				operation: 'upsert',
				project,
				provider: 'hubspot',
				groupRef: fromList(SEED.groupRef),
				definedWith: 'fields',
				objectName: 'contacts',
				fieldDefinitions: {
					field: [{ fieldName: 'tier', displayName: 'Tier', valueType: 'string' }],
				},
			},
			version2,
		);
		expect(upsert.error).toBeUndefined();
		expect(upsert.requests[0].body).toMatchObject({ groupRef: SEED.groupRef });
	});

	test('Object Metadata: the object from a list or by name, sent as version 1 sends its text', async () => {
		const sent = [];
		for (const [objectName, version] of [
			['contacts', {}],
			[fromList('contacts'), version2],
			[rl('contacts', 'id'), version2],
		] as const) {
			const result = await run(
				sim,
				{
					resource: 'objectMetadata',
					operation: 'getForConnection',
					project,
					provider: 'hubspot',
					objectName,
					groupRef: version === version2 ? fromList(SEED.groupRef) : SEED.groupRef,
				},
				version,
			);
			expect(result.error).toBeUndefined();
			sent.push(
				`${result.requests[0].pathname}?${new URLSearchParams(result.requests[0].query as Record<string, string>)}`,
			);
		}
		expect(new Set(sent).size).toBe(1);
		expect(sent[0]).toContain('/providers/hubspot/objects/contacts/metadata');
	});

	test('a Group an expression leaves empty is refused before sending, by its label', async () => {
		const result = await run(
			sim,
			{
				resource: 'oauth',
				operation: 'getAuthorizationUrl',
				project,
				provider: 'hubspot',
				groupRef: rl('={{ "" }}'),
				consumerRef: fromList(SEED.consumerRef),
			},
			version2,
		);
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toBe('"Group" is empty: the service requires it');
	});

	test('Operation → Get and Get Logs: the operation from the list', async () => {
		const get = await run(
			sim,
			{ resource: 'operation', operation: 'get', project, operationId: fromList(SEED.operationId) },
			version2,
		);
		expect(get.error).toBeUndefined();
		expect(get.requests[0].pathname).toBe(
			`/v1/projects/${SEED.projectId}/operations/${SEED.operationId}`,
		);
		const logs = await run(
			sim,
			{
				resource: 'operation',
				operation: 'getLogs',
				project,
				operationId: rl(SEED.operationId),
				returnAll: true,
			},
			version2,
		);
		expect(logs.error).toBeUndefined();
		expect(logs.requests[0].pathname).toBe(
			`/v1/projects/${SEED.projectId}/operations/${SEED.operationId}/logs`,
		);
		expect(logs.json.length).toBeGreaterThan(0);
	});

	test('Topic Destination Route and Notification Event Topic Route → Get Many: Topic and Destination filters from lists', async () => {
		const routes = await run(
			sim,
			{
				resource: 'topicDestinationRoute',
				operation: 'getAll',
				project,
				returnAll: true,
				filters: { topicId: fromList(SEED.topicId), destinationId: rl(SEED.destinationId) },
			},
			version2,
		);
		expect(routes.error).toBeUndefined();
		expect(routes.requests[0].query).toEqual({
			topicId: SEED.topicId,
			destinationId: SEED.destinationId,
		});
		expect(routes.json.map((r) => r.id)).toEqual([SEED.topicDestinationRouteId]);
		const eventRoutes = await run(
			sim,
			{
				resource: 'notificationEventTopicRoute',
				operation: 'getAll',
				project,
				returnAll: true,
				filters: { topicId: fromList(SEED.topicId) },
			},
			version2,
		);
		expect(eventRoutes.error).toBeUndefined();
		expect(eventRoutes.requests[0].query).toEqual({ topicId: SEED.topicId });
	});

	test('Installation → Update: the Connection from a list (version 2) or as an ID (version 1)', async () => {
		const parameters = (connectionId: string | ReturnType<typeof rl>) => ({
			resource: 'installation',
			operation: 'update',
			project,
			integration: rl(SEED.integrationId),
			installation: rl(SEED.installationId),
			installationUpdate: { connectionId },
		});
		const picked = await run(sim, parameters(fromList(SEED.connectionId)), version2);
		const typed = await run(sim, parameters(SEED.connectionId));
		for (const result of [picked, typed]) {
			expect(result.error).toBeUndefined();
			expect(result.requests[0].body).toEqual({
				updateMask: ['connectionId'],
				installation: { connectionId: SEED.connectionId },
			});
		}
	});
});
