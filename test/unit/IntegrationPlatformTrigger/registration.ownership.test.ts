/**
 * "Deactivation removes exactly what it created": registration against the simulator when other
 * setup is already there (a customer's destination, topic and routes), when another workflow
 * takes a destination over, when the service normalises URLs, and when n8n's webhook URL changed
 * between activation and deactivation. Each test snapshots the service's destinations, topics and
 * routes before activation and compares them after deactivation: equal, plus exactly what
 * others changed in between.
 */
import {
	register,
	registrationExists,
	sameUrl,
	storedRegistrationKey,
	unregister,
} from '../../../nodes/IntegrationPlatformTrigger/registration';
import type {
	DesiredRegistration,
	Registration,
	RegistrationApi,
} from '../../../nodes/IntegrationPlatformTrigger/registration';
import {
	api,
	registrationApi,
	registrationState,
	SEED,
	startSim,
} from '../../harness/eventTriggerSim';
import type { Json, Sim } from '../../harness/eventTriggerSim';

const WEBHOOK_ID = '1b6a4c8e-0000-4000-8000-000000000001';
const URL_A = `https://a.example.com/webhook/${WEBHOOK_ID}/webhook`;
const URL_B = 'https://b.example.com/webhook/2c7b5d9f-0000-4000-8000-000000000002/webhook';
const CUSTOMER_URL = 'https://crm.example.com/hooks/ampersand';
const P = `/projects/${SEED.projectName}`;

let sim: Sim;

beforeAll(async () => {
	sim = await startSim({ httpsWebhooksOnly: false });
});
afterEach(() => sim.reset());
afterAll(async () => await sim.close());

const desired = (overrides: Partial<DesiredRegistration> = {}): DesiredRegistration => ({
	project: SEED.projectName,
	destinationName: 'n8n-events',
	url: URL_A,
	onExisting: 'fail',
	notificationTypes: ['connection.created', 'write.async.done'],
	...overrides,
});

/** The service's destinations, topics and routes, in a stable order. */
function snapshot() {
	const state = registrationState(sim);
	const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
	return {
		destinations: [...state.destinations].sort(byId),
		topics: [...state.topics].sort(byId),
		eventTopicRoutes: [...state.eventTopicRoutes].sort(byId),
		topicDestinationRoutes: [...state.topicDestinationRoutes].sort(byId),
	};
}

async function ok(method: string, path: string, body?: unknown): Promise<Json> {
	const response = await api(sim, method, path, body);
	if (response.status >= 400) {
		throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
	}
	return response.body as Json;
}

/** A topic with event routes, as a customer (or the dashboard) would have set it up. */
async function customerTopic(name: string, eventTypes: string[]): Promise<string> {
	const topic = await ok('POST', `${P}/topics`, { name });
	for (const eventType of eventTypes) {
		await ok('POST', `${P}/notification-event-topic-routes`, { eventType, topicId: topic.id });
	}
	return String(topic.id);
}

/** A customer's webhook destination, its same-named topic, event routes and topic route. */
async function customerSetup(name: string, eventTypes: string[]) {
	const destination = await ok('POST', `${P}/destinations`, {
		name,
		type: 'webhook',
		metadata: { url: CUSTOMER_URL },
	});
	const topicId = await customerTopic(name, eventTypes);
	await ok('POST', `${P}/topic-destination-routes`, { topicId, destinationId: destination.id });
	return { destinationId: String(destination.id), topicId };
}

describe('what the trigger adopted is left as it was', () => {
	const CUSTOMER_TYPES = ['connection.created', 'installation.created', 'write.async.done'];

	test.each([
		['connection.created', 'already routed into the topic'],
		['connection.error', 'not routed into the topic yet'],
	])(
		'"Point It at This Workflow" on a destination with its own topic, three event routes and a ' +
			'topic route, selecting %s (%s): deactivation puts the URL back and leaves the topic and ' +
			'all four routes',
		async (eventType) => {
			const http = registrationApi(sim);
			const customer = await customerSetup('crm', CUSTOMER_TYPES);
			const before = snapshot();

			const registration = await register(
				http,
				desired({ destinationName: 'crm', onExisting: 'takeOver', notificationTypes: [eventType] }),
			);
			const active = snapshot();
			expect(active.destinations.find((d) => d.id === customer.destinationId)?.url).toBe(URL_A);
			// None of the customer's routes is pruned while the trigger is active; the node itself
			// drops the notification types the user did not select.
			expect(active.eventTopicRoutes).toEqual(expect.arrayContaining(before.eventTopicRoutes));
			expect(active.topicDestinationRoutes).toEqual(before.topicDestinationRoutes);
			expect(
				active.eventTopicRoutes
					.filter((r) => r.topicId === customer.topicId)
					.map((r) => r.eventType),
			).toContain(eventType);
			expect(
				await registrationExists(
					http,
					registration,
					desired({
						destinationName: 'crm',
						onExisting: 'takeOver',
						notificationTypes: [eventType],
					}),
				),
			).toBe(true);

			expect(await unregister(http, registration)).toEqual({ problems: [] });
			expect(snapshot()).toEqual(before);
		},
	);

	test('default setting: an unrouted topic of the same name is neither pruned nor deleted', async () => {
		const http = registrationApi(sim);
		await customerTopic('n8n-events', ['installation.deleted', 'connection.created']);
		const before = snapshot();

		const registration = await register(http, desired());
		expect(snapshot().eventTopicRoutes).toEqual(expect.arrayContaining(before.eventTopicRoutes));
		expect(await registrationExists(http, registration, desired())).toBe(true);

		expect(await unregister(http, registration)).toEqual({ problems: [] });
		expect(snapshot()).toEqual(before);
	});

	test('changing the selection on an adopted topic removes only routes the trigger created', async () => {
		const http = registrationApi(sim);
		await customerTopic('n8n-events', ['installation.created']);
		const before = snapshot();

		const first = await register(
			http,
			desired({ notificationTypes: ['connection.created', 'installation.created'] }),
		);
		// installation.created is deselected, but it was the customer's: it stays.
		const second = await register(
			http,
			desired({ notificationTypes: ['write.async.done'] }),
			first,
		);
		const routed = snapshot()
			.eventTopicRoutes.filter((r) => r.topicId === second.topicId)
			.map((r) => r.eventType)
			.sort();
		expect(routed).toEqual(['installation.created', 'write.async.done']);
		// Selected again: the customer's route is still the customer's.
		const selection = desired({ notificationTypes: ['installation.created', 'write.async.done'] });
		const third = await register(http, selection, second);
		expect(third.eventRoutes.find((r) => r.eventType === 'installation.created')?.origin).toBe(
			'adopted',
		);
		expect(await registrationExists(http, third, selection)).toBe(true);

		expect(await unregister(http, third)).toEqual({ problems: [] });
		expect(snapshot()).toEqual(before);
	});

	test('notifications switched off on an adopted topic: only the routes the trigger created go', async () => {
		const http = registrationApi(sim);
		await customerTopic('n8n-events', ['installation.created']);
		const before = snapshot();

		const first = await register(http, desired());
		const second = await register(http, desired({ notificationTypes: [] }), first);
		expect(snapshot().topics).toEqual(before.topics);
		expect(snapshot().eventTopicRoutes).toEqual(before.eventTopicRoutes);
		expect(await unregister(http, second)).toEqual({ problems: [] });
		expect(snapshot()).toEqual(before);
	});

	test('a failed activation on an adopted topic rolls back only what it created', async () => {
		await customerTopic('n8n-events', ['installation.created', 'connection.created']);
		const before = snapshot();
		sim.faults.add({ route: 'createTopicDestinationRoute', status: 500 });
		await expect(register(registrationApi(sim), desired())).rejects.toThrow(
			/Internal Server Error/,
		);
		expect(snapshot()).toEqual(before);
	});
});

describe('what another workflow took over is left to it', () => {
	test('workflow A created the destination, workflow B took it over: deactivating A leaves everything B uses', async () => {
		const http = registrationApi(sim);
		const a = await register(
			http,
			desired({ destinationName: 'crm', notificationTypes: ['connection.created'] }),
		);
		const afterA = snapshot();
		const b = await register(
			http,
			desired({
				destinationName: 'crm',
				url: URL_B,
				onExisting: 'takeOver',
				notificationTypes: ['connection.created', 'write.async.done'],
			}),
		);
		expect(b).toMatchObject({ destinationId: a.destinationId, destinationMode: 'takenOver' });
		const afterB = snapshot();

		expect(await unregister(http, a)).toEqual({ problems: [] });
		expect(snapshot()).toEqual(afterB);
		expect(snapshot().destinations.find((d) => d.id === a.destinationId)?.url).toBe(URL_B);

		// B puts back what it found: A's URL, and A's topic and route.
		expect(await unregister(http, b)).toEqual({ problems: [] });
		expect(snapshot()).toEqual(afterA);
	});

	test('B deactivated first: A then finds its destination again and removes all of it', async () => {
		const http = registrationApi(sim);
		const before = snapshot();
		const a = await register(http, desired({ destinationName: 'crm' }));
		const b = await register(
			http,
			desired({
				destinationName: 'crm',
				url: URL_B,
				onExisting: 'takeOver',
				notificationTypes: ['installation.created'],
			}),
		);
		expect(await unregister(http, b)).toEqual({ problems: [] });
		expect(await unregister(http, a)).toEqual({ problems: [] });
		expect(snapshot()).toEqual(before);
	});

	test('someone repointed the created destination by hand: it is left, with what feeds it', async () => {
		const http = registrationApi(sim);
		const a = await register(http, desired());
		await ok('PATCH', `${P}/destinations/${a.destinationId}`, {
			updateMask: ['metadata.url'],
			destination: { metadata: { url: 'https://elsewhere.example/hook' } },
		});
		const repointed = snapshot();
		expect(await unregister(http, a)).toEqual({ problems: [] });
		expect(snapshot()).toEqual(repointed);
	});

	test('a created topic that someone also routed to their destination stays, with its event routes', async () => {
		const http = registrationApi(sim);
		const a = await register(http, desired());
		const theirs = await ok('POST', `${P}/topic-destination-routes`, {
			topicId: a.topicId,
			destinationId: SEED.destinationId,
		});
		const shared = snapshot();
		expect(await unregister(http, a)).toEqual({ problems: [] });
		expect(snapshot()).toEqual({
			...shared,
			destinations: shared.destinations.filter((d) => d.id !== a.destinationId),
			topicDestinationRoutes: shared.topicDestinationRoutes.filter((r) => r.id !== a.topicRouteId),
		});
		expect(snapshot().topicDestinationRoutes.map((r) => r.id)).toContain(theirs.id);
	});

	test('the created destination is gone: the topic and routes the trigger created still go', async () => {
		const http = registrationApi(sim);
		const before = snapshot();
		const a = await register(http, desired());
		await ok('DELETE', `${P}/destinations/${a.destinationId}`);
		expect(await unregister(http, a)).toEqual({ problems: [] });
		expect(snapshot()).toEqual(before);
	});
});

/**
 * A RegistrationApi to a service that stores webhook URLs in its own normal form (`form`): the
 * URL of the destination just created or updated is rewritten in the simulator's state, as such
 * a service would store it.
 */
function normalisingApi(form: (url: string) => string): RegistrationApi {
	const inner = registrationApi(sim);
	return {
		error: inner.error,
		send: async (method, path, options) => {
			const response = await inner.send(method, path, options);
			const written = /\/destinations(?:\/([^/?]+))?$/.exec(path);
			if ((method === 'POST' || method === 'PATCH') && written && response.status < 400) {
				const id = written[1] ?? String((response.body as Json).id);
				const metadata = sim.state.destinations.get(id)?.metadata as Json | undefined;
				if (typeof metadata?.url === 'string') metadata.url = form(metadata.url);
			}
			return response;
		},
	};
}

describe('URLs the service normalised are still this trigger’s', () => {
	const NODE_URL = `https://N8N.Example.COM:443/webhook/${WEBHOOK_ID}/webhook`;
	const lowerHostNoPort = (url: string) => new URL(url).href;
	const withTrailingSlash = (url: string) => {
		const href = new URL(url).href;
		return href.endsWith('/') ? href : `${href}/`;
	};

	test.each([
		['host case and default port', lowerHostNoPort],
		['host case, default port and a trailing slash', withTrailingSlash],
	])(
		'created destination (%s): checkExists holds, re-registration reuses it, removal deletes it',
		async (_label, form) => {
			const http = normalisingApi(form);
			const before = snapshot();
			const first = await register(http, desired({ url: NODE_URL }));
			expect(snapshot().destinations.find((d) => d.id === first.destinationId)?.url).not.toBe(
				NODE_URL,
			);
			expect(await registrationExists(http, first, desired({ url: NODE_URL }))).toBe(true);
			const again = await register(
				http,
				desired({ url: NODE_URL, notificationTypes: ['connection.created'] }),
				first,
			);
			expect(again).toMatchObject({
				destinationId: first.destinationId,
				destinationMode: 'created',
			});
			expect(await unregister(http, again)).toEqual({ problems: [] });
			expect(snapshot()).toEqual(before);
		},
	);

	test('taken-over destination: its URL is put back on removal', async () => {
		const http = normalisingApi(lowerHostNoPort);
		const before = snapshot();
		const registration = await register(
			http,
			desired({
				url: NODE_URL,
				destinationName: SEED.destinationName,
				onExisting: 'takeOver',
				notificationTypes: [],
			}),
		);
		expect(await unregister(http, registration)).toEqual({ problems: [] });
		expect(snapshot()).toEqual(before);
	});
});

describe('n8n’s webhook URL changed between activation and deactivation', () => {
	const URL_OLD = `http://127.0.0.1:5678/webhook/${WEBHOOK_ID}/webhook`;
	const URL_OLD_TEST = `http://127.0.0.1:5678/webhook-test/${WEBHOOK_ID}/webhook`;
	const URL_NEW = `https://n8n.example.com/base/webhook/${WEBHOOK_ID}/webhook`;
	const URL_NEW_TEST = `https://n8n.example.com/base/webhook-test/${WEBHOOK_ID}/webhook`;
	const key = storedRegistrationKey;

	test('deactivation finds each stored registration from the URL alone; removal needs only what was stored', async () => {
		const http = registrationApi(sim);
		const before = snapshot();
		// The node's static data after activating production and test listening under the old URL.
		const registrations: Record<string, Registration> = {
			[URL_OLD]: await register(http, desired({ url: URL_OLD })),
			[URL_OLD_TEST]: await register(
				http,
				desired({ url: URL_OLD_TEST, destinationName: 'n8n-events-test' }),
			),
		};
		// Deactivation knows only the current URL (n8n removes test and production webhooks in
		// the same mode, so the destination name is no guide).
		expect(key(registrations, URL_NEW)).toBe(URL_OLD);
		expect(key(registrations, URL_NEW_TEST)).toBe(URL_OLD_TEST);
		expect(key(registrations, URL_OLD_TEST)).toBe(URL_OLD_TEST);
		expect(key(registrations, 'https://n8n.example.com/webhook/another/webhook')).toBeUndefined();

		for (const url of [URL_NEW, URL_NEW_TEST]) {
			expect(await unregister(http, registrations[key(registrations, url)!])).toEqual({
				problems: [],
			});
		}
		expect(snapshot()).toEqual(before);
	});

	test('activation also finds the entry by project and destination name', () => {
		const project = SEED.projectName;
		const old = 'https://old.example/x';
		const registrations = {
			[old]: { url: old, project, destinationName: 'n8n-events' } as Registration,
		};
		expect(key(registrations, URL_NEW, { project, destinationName: 'n8n-events' })).toBe(old);
		expect(key(registrations, URL_NEW, { project, destinationName: 'other' })).toBeUndefined();
		expect(key(registrations, URL_NEW)).toBeUndefined();
	});
});

describe('URL comparison', () => {
	const HOOK = 'https://n8n.example.com/webhook/x/webhook';

	test.each([
		['https://N8N.example.com/webhook/x/webhook', HOOK, true],
		['https://n8n.example.com:443/webhook/x/webhook', HOOK, true],
		[
			'http://n8n.example.com:80/webhook/x/webhook',
			'http://n8n.example.com/webhook/x/webhook',
			true,
		],
		['https://n8n.example.com/webhook/x/webhook/', HOOK, true],
		['https://n8n.example.com/webhook/x/webhook#f', HOOK, true],
		[
			'https://n8n.example.com/webhook/a%2fb/webhook',
			'https://n8n.example.com/webhook/a%2Fb/webhook',
			true,
		],
		['http://n8n.example.com/webhook/x/webhook', HOOK, false],
		['https://n8n.example.com:8443/webhook/x/webhook', HOOK, false],
		['https://n8n.example.com/webhook/X/webhook', HOOK, false],
		['https://n8n.example.com/webhook/x/webhook?a=1', HOOK, false],
		['https://n8n.example.com/webhook-test/x/webhook', HOOK, false],
		[undefined, undefined, false],
	])('%s and %s: %s', (a, b, same) => {
		expect(sameUrl(a, b)).toBe(same);
	});
});

describe('request paths', () => {
	test('a "." or ".." project or id never becomes a path segment: refused before any request', async () => {
		const http = registrationApi(sim);
		const before = snapshot();
		sim.journal.clear();
		await expect(register(http, desired({ project: '..' }))).rejects.toThrow(/cannot be "\.\."/);
		expect(sim.journal.entries).toEqual([]);

		const registration = await register(http, desired());
		const active = snapshot();
		sim.journal.clear();
		await expect(
			registrationExists(http, { ...registration, project: '.' }, desired({ project: '.' })),
		).rejects.toThrow(/cannot be "\."/);
		const removal = await unregister(http, { ...registration, destinationId: '..' });
		expect(removal.problems).toEqual([
			expect.stringMatching(/^destination n8n-events: .*cannot be "\.\."/),
		]);
		expect(removal.remaining).toMatchObject({ destinationId: '..' });
		expect(sim.journal.entries).toEqual([]);
		expect(snapshot()).toEqual(active);
		expect(await unregister(http, registration)).toEqual({ problems: [] });
		expect(snapshot()).toEqual(before);
	});
});

describe('static data', () => {
	test('the stored registration is small, holds no secret, and says what was created and what adopted', async () => {
		const http = registrationApi(sim);
		await customerSetup('crm', ['connection.created', 'installation.created']);
		const registration = await register(
			http,
			desired({
				destinationName: 'crm',
				onExisting: 'takeOver',
				notificationTypes: ['connection.created', 'write.async.done'],
			}),
		);
		const text = JSON.stringify(registration);
		expect(text).not.toMatch(/whsec_/);
		expect(text.length).toBeLessThan(1500);
		expect(registration).toMatchObject({
			destinationMode: 'takenOver',
			topicOrigin: 'adopted',
			topicRouteOrigin: 'adopted',
		});
		expect(
			Object.fromEntries(registration.eventRoutes.map((r) => [r.eventType, r.origin])),
		).toEqual({
			'connection.created': 'adopted',
			'write.async.done': 'created',
		});
		await unregister(http, registration);
	});
});
