/**
 * Registration against the simulator (nodes/IntegrationPlatformTrigger/registration/):
 * create or reuse, take over, checkExists, reconcile, roll back, remove, and the https rule.
 */
import {
	register,
	RegistrationError,
	registrationExists,
	unregister,
} from '../../../nodes/IntegrationPlatformTrigger/registration';
import type { DesiredRegistration } from '../../../nodes/IntegrationPlatformTrigger/registration';
import {
	api,
	registrationApi,
	registrationState,
	SEED,
	startSim,
} from '../../harness/eventTriggerSim';
import type { Sim } from '../../harness/eventTriggerSim';

const URL_PROD = 'http://127.0.0.1:5678/webhook/1b6a4c8e-0000-4000-8000-000000000001/webhook';
const URL_TEST = 'http://127.0.0.1:5678/webhook-test/1b6a4c8e-0000-4000-8000-000000000001/webhook';

let sim: Sim;
let seeded: ReturnType<typeof registrationState>;

beforeAll(async () => {
	sim = await startSim({ httpsWebhooksOnly: false });
	seeded = registrationState(sim);
});
afterEach(() => sim.reset());
afterAll(async () => await sim.close());

const desired = (overrides: Partial<DesiredRegistration> = {}): DesiredRegistration => ({
	project: SEED.projectName,
	destinationName: 'n8n-events',
	url: URL_PROD,
	onExisting: 'fail',
	notificationTypes: ['connection.created', 'write.async.done'],
	...overrides,
});

describe('register', () => {
	test('creates destination, topic, event routes and topic route; checkExists confirms; removal leaves the seed', async () => {
		const http = registrationApi(sim);
		const registration = await register(http, desired());
		const state = registrationState(sim);
		const destination = state.destinations.find((d) => d.name === 'n8n-events');
		expect(destination).toEqual({
			id: registration.destinationId,
			name: 'n8n-events',
			url: URL_PROD,
		});
		const topic = state.topics.find((t) => t.name === 'n8n-events');
		expect(topic?.id).toBe(registration.topicId);
		expect(
			state.eventTopicRoutes
				.filter((r) => r.topicId === topic?.id)
				.map((r) => r.eventType)
				.sort(),
		).toEqual(['connection.created', 'write.async.done']);
		expect(state.topicDestinationRoutes).toContainEqual({
			id: registration.topicRouteId,
			topicId: topic?.id,
			destinationId: destination?.id,
		});
		expect(registration).toMatchObject({
			url: URL_PROD,
			project: SEED.projectName,
			destinationMode: 'created',
			notificationTypes: ['connection.created', 'write.async.done'],
		});
		expect(JSON.stringify(registration)).not.toMatch(/whsec_/);

		expect(await registrationExists(http, registration, desired())).toBe(true);
		const removal = await unregister(http, registration);
		expect(removal).toEqual({ problems: [] });
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('without notifications only the destination is created', async () => {
		const http = registrationApi(sim);
		const registration = await register(http, desired({ notificationTypes: [] }));
		expect(registration.topicId).toBeUndefined();
		expect(registrationState(sim).topics).toEqual(seeded.topics);
		expect(await registrationExists(http, registration, desired({ notificationTypes: [] }))).toBe(
			true,
		);
		await unregister(http, registration);
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('a destination of that name pointing elsewhere: stop with an explanation, change nothing', async () => {
		const attempt = register(
			registrationApi(sim),
			desired({ destinationName: SEED.destinationName }),
		);
		await expect(attempt).rejects.toBeInstanceOf(RegistrationError);
		await expect(
			register(registrationApi(sim), desired({ destinationName: SEED.destinationName })),
		).rejects.toThrow(/already exists and sends to https:\/\/hooks\.example\.com\/ampersand/);
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('take over: the URL is replaced, and put back on removal', async () => {
		const http = registrationApi(sim);
		const registration = await register(
			http,
			desired({ destinationName: SEED.destinationName, onExisting: 'takeOver' }),
		);
		expect(registration).toMatchObject({
			destinationId: SEED.destinationId,
			destinationMode: 'takenOver',
			previousUrl: SEED.webhookUrl,
		});
		expect(registrationState(sim).destinations.find((d) => d.id === SEED.destinationId)?.url).toBe(
			URL_PROD,
		);
		await unregister(http, registration);
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('take over, then someone repoints the destination: removal leaves it alone', async () => {
		const http = registrationApi(sim);
		const registration = await register(
			http,
			desired({
				destinationName: SEED.destinationName,
				onExisting: 'takeOver',
				notificationTypes: [],
			}),
		);
		await api(sim, 'PATCH', `/projects/${SEED.projectName}/destinations/${SEED.destinationId}`, {
			updateMask: ['metadata.url'],
			destination: { metadata: { url: 'https://other.example/hook' } },
		});
		expect(await unregister(http, registration)).toEqual({ problems: [] });
		expect(registrationState(sim).destinations.find((d) => d.id === SEED.destinationId)?.url).toBe(
			'https://other.example/hook',
		);
	});

	test('a destination already pointing here is reused, and what was recorded is kept', async () => {
		const http = registrationApi(sim);
		const first = await register(
			http,
			desired({ destinationName: SEED.destinationName, onExisting: 'takeOver' }),
		);
		// The registration is lost from n8n's side but still there: reuse, still a takeover.
		const again = await register(
			http,
			desired({ destinationName: SEED.destinationName, onExisting: 'fail' }),
			first,
		);
		expect(again).toMatchObject({
			destinationMode: 'takenOver',
			previousUrl: SEED.webhookUrl,
			topicId: first.topicId,
		});
		expect(registrationState(sim).eventTopicRoutes).toHaveLength(
			seeded.eventTopicRoutes.length + 2,
		);
		// Found without any record (static data lost): it points at this node's URL, so it is adopted.
		const adopted = await register(http, desired({ destinationName: SEED.destinationName }));
		expect(adopted.destinationMode).toBe('created');
		await unregister(http, again);
	});

	test('a non-webhook destination, or a topic feeding other destinations, of that name: refused', async () => {
		await expect(
			register(registrationApi(sim), desired({ destinationName: SEED.kinesisDestinationName })),
		).rejects.toThrow(/is a kinesis destination, not a webhook/);
		// The seeded topic "alerts" routes to the seeded destination.
		await expect(
			register(registrationApi(sim), desired({ destinationName: SEED.topicName })),
		).rejects.toThrow(
			/topic named "alerts" already exists and routes notifications to other destinations/,
		);
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('invalid names are refused before any request', async () => {
		await expect(
			register(registrationApi(sim), desired({ destinationName: 'has space' })),
		).rejects.toThrow(/not a valid destination name/);
	});
});

describe('checkExists', () => {
	test('test and production registrations never satisfy each other', async () => {
		const http = registrationApi(sim);
		const prod = await register(http, desired());
		const test = await register(
			http,
			desired({ url: URL_TEST, destinationName: 'n8n-events-test' }),
		);
		expect(await registrationExists(http, prod, desired())).toBe(true);
		expect(await registrationExists(http, test, desired())).toBe(false);
		expect(
			await registrationExists(
				http,
				prod,
				desired({ url: URL_TEST, destinationName: 'n8n-events-test' }),
			),
		).toBe(false);
		expect(await registrationExists(http, undefined, desired())).toBe(false);
		await unregister(http, test);
		expect(await registrationExists(http, prod, desired())).toBe(true);
		await unregister(http, prod);
	});

	test('false when something was removed on the service, repointed, or the selection changed', async () => {
		const http = registrationApi(sim);
		const registration = await register(http, desired());
		expect(
			await registrationExists(
				http,
				registration,
				desired({ notificationTypes: ['connection.created'] }),
			),
		).toBe(false);
		await api(
			sim,
			'DELETE',
			`/projects/${SEED.projectName}/notification-event-topic-routes/${registration.eventRoutes[0].id}`,
		);
		expect(await registrationExists(http, registration, desired())).toBe(false);

		const again = await register(http, desired(), registration);
		expect(await registrationExists(http, again, desired())).toBe(true);
		await api(sim, 'PATCH', `/projects/${SEED.projectName}/destinations/${again.destinationId}`, {
			updateMask: ['metadata.url'],
			destination: { metadata: { url: 'https://elsewhere.example/x' } },
		});
		expect(await registrationExists(http, again, desired())).toBe(false);
		await api(sim, 'DELETE', `/projects/${SEED.projectName}/destinations/${again.destinationId}`);
		expect(await registrationExists(http, again, desired())).toBe(false);
		await unregister(http, again);
		expect(registrationState(sim)).toEqual(seeded);
	});
});

describe('reconcile', () => {
	test('changed notification types: routes added and removed on the same topic', async () => {
		const http = registrationApi(sim);
		const first = await register(http, desired());
		const second = await register(
			http,
			desired({ notificationTypes: ['write.async.done', 'installation.created'] }),
			first,
		);
		expect(second.topicId).toBe(first.topicId);
		const routes = registrationState(sim).eventTopicRoutes.filter(
			(r) => r.topicId === first.topicId,
		);
		expect(routes.map((r) => r.eventType).sort()).toEqual([
			'installation.created',
			'write.async.done',
		]);
		await unregister(http, second);
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('notifications switched off: the topic and its routes go', async () => {
		const http = registrationApi(sim);
		const first = await register(http, desired());
		const second = await register(http, desired({ notificationTypes: [] }), first);
		expect(second.topicId).toBeUndefined();
		expect(registrationState(sim).topics).toEqual(seeded.topics);
		await unregister(http, second);
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('n8n moved (new webhook URL, same destination): the destination follows, nothing else changes', async () => {
		const http = registrationApi(sim);
		const first = await register(http, desired());
		const moved = 'https://n8n.example.com/webhook/1b6a4c8e-0000-4000-8000-000000000001/webhook';
		const second = await register(http, desired({ url: moved }), first);
		expect(second).toMatchObject({
			destinationId: first.destinationId,
			destinationMode: 'created',
			topicId: first.topicId,
			topicRouteId: first.topicRouteId,
		});
		expect(registrationState(sim).destinations.find((d) => d.id === first.destinationId)?.url).toBe(
			moved,
		);
		await unregister(http, second);
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('renamed: the old destination goes, the new one comes', async () => {
		const http = registrationApi(sim);
		const first = await register(http, desired());
		const second = await register(http, desired({ destinationName: 'renamed' }), first);
		const names = registrationState(sim).destinations.map((d) => d.name);
		expect(names).toContain('renamed');
		expect(names).not.toContain('n8n-events');
		await unregister(http, second);
		expect(registrationState(sim)).toEqual(seeded);
	});
});

describe('failures', () => {
	test('a failure half-way is rolled back: nothing is left', async () => {
		sim.faults.add({ route: 'createTopicDestinationRoute', status: 500 });
		await expect(register(registrationApi(sim), desired())).rejects.toThrow(
			/Internal Server Error/,
		);
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('a failed takeover step puts the old URL back', async () => {
		sim.faults.add({ route: 'createTopic', status: 503 });
		await expect(
			register(
				registrationApi(sim),
				desired({ destinationName: SEED.destinationName, onExisting: 'takeOver' }),
			),
		).rejects.toThrow();
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('removal: already-deleted parts count as removed; failing parts are reported and kept', async () => {
		const http = registrationApi(sim);
		const registration = await register(http, desired());
		await api(
			sim,
			'DELETE',
			`/projects/${SEED.projectName}/topic-destination-routes/${registration.topicRouteId}`,
		);
		sim.faults.add({ route: 'deleteDestination', status: 500, times: 1 });
		const first = await unregister(http, registration);
		expect(first.problems).toEqual([expect.stringMatching(/^destination n8n-events: /)]);
		expect(first.remaining).toMatchObject({
			destinationId: registration.destinationId,
			eventRoutes: [],
		});
		expect(first.remaining?.topicId).toBeUndefined();
		expect(first.remaining?.topicRouteId).toBeUndefined();
		const second = await unregister(http, first.remaining!);
		expect(second).toEqual({ problems: [] });
		expect(registrationState(sim)).toEqual(seeded);
	});
});

describe('https', () => {
	test('an http URL refused by the service becomes an explanation; nothing is left', async () => {
		const strict = await startSim(); // httpsWebhooksOnly: true, like the real API
		try {
			const before = registrationState(strict);
			const attempt = register(registrationApi(strict), desired());
			await expect(attempt).rejects.toBeInstanceOf(RegistrationError);
			const error = (await register(registrationApi(strict), desired()).catch(
				(e: unknown) => e,
			)) as RegistrationError;
			expect(error.message).toMatch(
				/accepts only https webhook URLs.*http:\/\/127\.0\.0\.1:5678\/webhook\//,
			);
			expect(error.description).toMatch(/WEBHOOK_URL/);
			expect(error.description).toMatch(/must use https/);
			expect(registrationState(strict)).toEqual(before);
			// The same for a takeover.
			await expect(
				register(
					registrationApi(strict),
					desired({ destinationName: SEED.destinationName, onExisting: 'takeOver' }),
				),
			).rejects.toThrow(/accepts only https/);
			// An https URL is fine.
			const ok = await register(
				registrationApi(strict),
				desired({ url: 'https://n8n.example/webhook/x/webhook' }),
			);
			expect(ok.destinationMode).toBe('created');
		} finally {
			await strict.close();
		}
	});
});
