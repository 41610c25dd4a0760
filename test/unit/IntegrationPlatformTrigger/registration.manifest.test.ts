/**
 * Registration's manifest rule (`onExisting: 'takeOverIfManifest'`, version 4's default) against
 * the simulator: an existing destination that an integration's manifest names for read,
 * subscribe or schema-watch deliveries is pointed here and given back on removal; one no
 * manifest names, or one whose manifests cannot be read, is left exactly as it was.
 */
import { register, unregister } from '../../../nodes/IntegrationPlatformTrigger/registration';
import type { DesiredRegistration } from '../../../nodes/IntegrationPlatformTrigger/registration';
import { registrationApi, registrationState, SEED, startSim } from '../../harness/eventTriggerSim';
import type { Sim } from '../../harness/eventTriggerSim';

const URL_PROD = 'http://127.0.0.1:5678/webhook/1b6a4c8e-0000-4000-8000-000000000002/webhook';

let sim: Sim;
let seeded: ReturnType<typeof registrationState>;

beforeAll(async () => {
	sim = await startSim({ httpsWebhooksOnly: false });
	seeded = registrationState(sim);
});
afterEach(() => sim.reset());
afterAll(async () => await sim.close());

const desired = (destinationName: string): DesiredRegistration => ({
	project: SEED.projectName,
	destinationName,
	url: URL_PROD,
	onExisting: 'takeOverIfManifest',
	notificationTypes: [],
});

const urlOf = (name: string) =>
	registrationState(sim).destinations.find((d) => d.name === name)?.url;

const integrationRequests = () =>
	sim.journal.entries.filter((e) => e.routeId === 'listIntegrations').length;

/** The seeded integration's manifest, to change what it names. */
function seededManifest(): Record<string, { destination?: string; objects?: unknown[] }> {
	// The Sim type lists the registration's collections; the simulator holds the integrations too.
	const { integrations } = sim.state as unknown as {
		integrations: Map<string, Record<string, unknown>>;
	};
	const integration = integrations.get(SEED.integrationId)!;
	return (integration.latestRevision as { content: never }).content;
}

test('the destination the manifests deliver read results to is pointed here, and its URL put back on removal', async () => {
	const http = registrationApi(sim);
	const registration = await register(http, desired(SEED.destinationName));
	expect(registration).toMatchObject({
		destinationId: SEED.destinationId,
		destinationMode: 'takenOver',
		previousUrl: SEED.webhookUrl,
	});
	expect(urlOf(SEED.destinationName)).toBe(URL_PROD);
	expect(await unregister(http, registration)).toEqual({ problems: [] });
	expect(registrationState(sim)).toEqual(seeded);
});

test('a destination named only for schema watching counts as well', async () => {
	seededManifest().watchSchema!.destination = SEED.updatableDestinationName;
	const registration = await register(registrationApi(sim), desired(SEED.updatableDestinationName));
	expect(registration.destinationMode).toBe('takenOver');
	expect(urlOf(SEED.updatableDestinationName)).toBe(URL_PROD);
});

test('a destination no manifest names is left alone, and the error says why and what to choose', async () => {
	const before = urlOf(SEED.updatableDestinationName);
	await expect(
		register(registrationApi(sim), desired(SEED.updatableDestinationName)),
	).rejects.toMatchObject({
		message: `A webhook destination named "${SEED.updatableDestinationName}" already exists and sends to ${before}, and no integration's manifest in this project delivers to it`,
		description: expect.stringMatching(
			/^The trigger points an existing destination here only when an integration's manifest names it\. .*"Point It at This Workflow"/,
		),
	});
	expect(registrationState(sim)).toEqual(seeded);
});

test('integrations that cannot be listed: nothing is changed, and the error says what could not be checked', async () => {
	sim.faults.add({ route: 'listIntegrations', status: 503 });
	await expect(register(registrationApi(sim), desired(SEED.destinationName))).rejects.toThrow(
		`The destination "${SEED.destinationName}" already sends elsewhere, and whether an integration's manifest delivers to it could not be checked`,
	);
	expect(registrationState(sim)).toEqual(seeded);
});

test('a new destination is created without reading the manifests; one already pointing here is reused', async () => {
	const http = registrationApi(sim);
	const created = await register(http, desired('n8n-fresh'));
	expect(created.destinationMode).toBe('created');
	const again = await register(http, desired('n8n-fresh'), created);
	expect(again.destinationId).toBe(created.destinationId);
	expect(integrationRequests()).toBe(0);
	await unregister(http, again);
	expect(registrationState(sim)).toEqual(seeded);
});
