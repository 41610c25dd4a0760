/**
 * Version 3 of the event trigger in n8n-core's contexts against the simulator: Destination saved
 * as a resource locator and Object Names as a list register and filter as version 2's typed
 * fields do; the simulator's read command reaches a trigger listening for a test event.
 */
import { resetTriggerMemory } from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import type { Sim } from '../../harness/eventTriggerSim';
import { registrationState, startSim, svix } from '../../harness/eventTriggerSim';
import { LOCAL_DOWNLOADS, SEED, TriggerHarness } from '../../harness/eventTriggerEngine';

const project = { __rl: true, mode: 'list', value: SEED.projectName };

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

async function trigger(parameters: Record<string, unknown>, typeVersion = 3) {
	const h = new TriggerHarness(sim, {
		typeVersion,
		parameters: { project, events: ['read'], options: LOCAL_DOWNLOADS, ...parameters } as never,
	});
	await h.listen();
	harnesses.push(h);
	return h;
}

const destinations = () => registrationState(sim).destinations.map((d) => [d.name, d.url]);

test.each([
	['from the list', { __rl: true, mode: 'list', value: SEED.destinationName }],
	['by name', { __rl: true, mode: 'name', value: SEED.destinationName }],
	[
		'by name, as an expression',
		{ __rl: true, mode: 'name', value: `={{ "${SEED.destinationName}" }}` },
	],
])(
	'Destination %s: listening registers "<name>-test", and the read command reaches it, filtered by Object Names',
	async (_how, destinationName) => {
		const h = await trigger({
			destinationName,
			onExistingDestination: 'takeOver',
			objectNames: ['contacts'],
		});
		await h.activate(true);
		expect(destinations()).toContainEqual([`${SEED.destinationName}-test`, h.url(true)]);
		// Production is untouched: the manifest's destination still sends where it did.
		expect(destinations()).toContainEqual([SEED.destinationName, SEED.webhookUrl]);

		const read = await sim.emitRead({
			objectName: 'contacts',
			records: [{ email: 'jo@example.com' }],
		});
		expect((read as unknown as { testCopy: { state: string } }).testCopy.state).toBe('delivered');
		await sim.emitRead({ objectName: 'companies', records: [{ name: 'Acme' }] });
		const started = h.started();
		expect(started.map((r) => r.test)).toEqual([true]);
		expect(started[0].items).toEqual([
			expect.objectContaining({ action: 'read', objectName: 'contacts' }),
		]);
		await h.deactivate(true);
		expect(destinations().map(([name]) => name)).not.toContain(`${SEED.destinationName}-test`);
	},
);

test('an empty Destination derives its name from the webhook ID, as in version 2', async () => {
	const h = await trigger({ destinationName: { __rl: true, mode: 'list', value: '' } });
	await h.activate();
	const derived = `n8n-${h.webhookId.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}`;
	expect(destinations()).toContainEqual([derived, h.url()]);
	await h.deactivate();
});

test('Object Names from an expression, comma-separated, still filter', async () => {
	const h = await trigger({
		destinationName: { __rl: true, mode: 'name', value: 'n8n-v3' },
		objectNames: '={{ "companies, deals" }}',
	});
	await h.activate();
	const url = h.url();
	expect(destinations()).toContainEqual(['n8n-v3', url]);
	await sim.emitRead({ objectName: 'contacts', records: [{}], destination: 'n8n-v3' });
	await sim.emitRead({ objectName: 'companies', records: [{}], destination: 'n8n-v3' });
	expect(h.started().map((r) => r.items?.[0]?.objectName)).toEqual(['companies']);
	await h.deactivate();
});

test('version 2 keeps its typed Destination Name and comma-separated Object Names', async () => {
	const h = await trigger({ destinationName: 'n8n-v2', objectNames: 'contacts, deals' }, 2);
	await h.activate();
	expect(destinations()).toContainEqual(['n8n-v2', h.url()]);
	await sim.emitRead({ objectName: 'companies', records: [{}], destination: 'n8n-v2' });
	await sim.emitRead({ objectName: 'contacts', records: [{}], destination: 'n8n-v2' });
	expect(h.started().map((r) => r.items?.[0]?.objectName)).toEqual(['contacts']);
	await h.deactivate();
});

test('version 3 without an API credential: Object Names typed, comma-separated, filter the signed messages', async () => {
	const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
	const h = new TriggerHarness(sim, {
		typeVersion: 3,
		authentication: 'none',
		credential: null,
		signingSecret: secret,
		parameters: { events: ['read'], objectNames: 'contacts, deals' } as never,
	});
	await h.listen();
	harnesses.push(h);
	await h.activate();
	const started: unknown[] = [];
	for (const objectName of ['companies', 'contacts']) {
		const raw = Buffer.from(JSON.stringify({ action: 'read', objectName, result: [] }));
		const headers = svix.signedHeaders({ secrets: secret, msgId: svix.newMessageId(), body: raw });
		const answer = await h.call({
			headers: { 'content-type': 'application/json', ...headers },
			raw,
		});
		expect(answer.status).toBe(200);
		if (answer.items) started.push(answer.items[0].objectName);
	}
	expect(started).toEqual(['contacts']);
	await h.deactivate();
});
