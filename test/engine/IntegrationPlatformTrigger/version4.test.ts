/**
 * Version 4 of the event trigger in n8n-core's contexts against the simulator: left at its
 * default, "If the Destination Exists" points the destination an integration's manifest delivers
 * to at the workflow (so read results reach it) and puts its URL back on deactivation, and still
 * leaves a destination no manifest names alone. Workflows saved with version 3 keep stopping.
 */
import { resetTriggerMemory } from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import type { Sim } from '../../harness/eventTriggerSim';
import { registrationState, startSim } from '../../harness/eventTriggerSim';
import { LOCAL_DOWNLOADS, SEED, TriggerHarness } from '../../harness/eventTriggerEngine';

const project = { __rl: true, mode: 'list', value: SEED.projectName };
const fromList = (value: string) => ({ __rl: true, mode: 'list', value });

let sim: Sim;
const harnesses: TriggerHarness[] = [];

beforeAll(async () => {
	sim = await startSim({ httpsWebhooksOnly: false, deliveries: { retryDelaysMs: [50, 50, 50] } });
});
beforeEach(() => resetTriggerMemory());
afterEach(async () => {
	for (const h of harnesses.splice(0)) await h.close();
	sim.reset();
});
afterAll(async () => await sim.close());

/** A trigger with "If the Destination Exists" left out, as a workflow saved with its default. */
async function trigger(destination: string, typeVersion: number) {
	const h = new TriggerHarness(sim, {
		typeVersion,
		parameters: {
			project,
			destinationName: fromList(destination),
			events: ['read'],
			options: LOCAL_DOWNLOADS,
		} as never,
	});
	await h.listen();
	harnesses.push(h);
	return h;
}

const urlOf = (name: string) =>
	registrationState(sim).destinations.find((d) => d.name === name)?.url;

test("version 4's default points the destination a manifest delivers to here, read results arrive, deactivation puts its URL back", async () => {
	const h = await trigger(SEED.destinationName, 4);
	await h.activate();
	expect(urlOf(SEED.destinationName)).toBe(h.url());

	await sim.emitRead({ objectName: 'contacts', records: [{ email: 'jo@example.com' }] });
	expect(h.started()).toEqual([
		expect.objectContaining({
			test: false,
			items: [expect.objectContaining({ action: 'read', objectName: 'contacts' })],
		}),
	]);

	await h.deactivate();
	expect(urlOf(SEED.destinationName)).toBe(SEED.webhookUrl);
});

test("version 4's default leaves a destination no manifest names alone: activation stops and says why", async () => {
	const before = urlOf(SEED.updatableDestinationName);
	const h = await trigger(SEED.updatableDestinationName, 4);
	await expect(h.activate()).rejects.toMatchObject({
		message: expect.stringContaining(
			`"${SEED.updatableDestinationName}" already exists and sends to ${before}, and no integration's manifest in this project delivers to it`,
		),
		description: expect.stringContaining('"Point It at This Workflow"'),
	});
	expect(urlOf(SEED.updatableDestinationName)).toBe(before);
});

test('a workflow saved with version 3 and the default keeps stopping on the manifest destination, which stays as it was', async () => {
	const h = await trigger(SEED.destinationName, 3);
	await expect(h.activate()).rejects.toThrow(
		`A webhook destination named "${SEED.destinationName}" already exists and sends to ${SEED.webhookUrl}`,
	);
	expect(urlOf(SEED.destinationName)).toBe(SEED.webhookUrl);
});
