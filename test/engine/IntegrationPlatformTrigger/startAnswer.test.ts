/**
 * A message counts as received only once n8n has answered the attempt that started the workflow
 * with a 2xx (nodes/IntegrationPlatformTrigger/replay.ts, delivery.ts): n8n answers after it has
 * stored the execution, and 500 when it could not. Before, the replay memory took the message as
 * received as soon as webhook() returned, so when n8n then failed to store the execution, the
 * service's next attempt was acknowledged as a redelivery and the message was lost.
 */
import { resetTriggerMemory } from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import type { Sim } from '../../harness/eventTriggerSim';
import { signingSecret, startSim, svix } from '../../harness/eventTriggerSim';
import { SEED, TriggerHarness } from '../../harness/eventTriggerEngine';

const project = { __rl: true, mode: 'id', value: SEED.projectName };
const notificationBody = JSON.stringify({
	notificationType: 'connection.created',
	data: { projectId: SEED.projectId, connectionId: SEED.connectionId },
});
const now = () => Math.floor(Date.now() / 1000);

let sim: Sim;
let h: TriggerHarness;
let secret: string;

beforeAll(async () => {
	sim = await startSim({ httpsWebhooksOnly: false, deliveries: { retryDelaysMs: [50, 50, 50] } });
});
beforeEach(async () => {
	resetTriggerMemory();
	h = new TriggerHarness(sim, {
		parameters: { project, destinationName: 'n8n-engine', events: ['notification'] } as never,
	});
	await h.listen();
	await h.activate();
	secret = await signingSecret(sim, 'n8n-engine');
});
afterEach(async () => {
	await h.deactivate();
	await h.close();
	sim.reset();
});
afterAll(async () => await sim.close());

/** One attempt of message `id`, signed with the attempt's own timestamp, as the service sends it. */
function attempt(id: string, timestamp: number) {
	const raw = Buffer.from(notificationBody);
	const headers = svix.signedHeaders({
		secrets: secret,
		msgId: id,
		timestampSeconds: timestamp,
		body: raw,
	});
	return { headers: { 'content-type': 'application/json', ...headers }, raw };
}

test('n8n answered 500 (the execution was not stored): the next attempt starts the workflow', async () => {
	const id = svix.newMessageId();
	h.startAnswer = 500;
	expect(await h.call(attempt(id, now()))).toMatchObject({ status: 500 });
	h.startAnswer = 200;
	const again = await h.call(attempt(id, now() + 5));
	expect({ status: again.status, started: again.items?.length }).toEqual({
		status: 200,
		started: 1,
	});
	// Once n8n has answered 2xx, a further copy is a redelivery: 200, nothing starts.
	expect(await h.call(attempt(id, now() + 10))).toMatchObject({ status: 200, items: undefined });
});

test('through the simulator: n8n fails once, the retry starts the message, nothing is acknowledged unstarted', async () => {
	h.startAnswer = 500;
	const first = await sim.deliver({
		destination: 'n8n-engine',
		message: JSON.parse(notificationBody),
	});
	h.startAnswer = 200;
	const delivered = await sim.deliveries.waitFor((d) => d.id === first.id && d.state !== 'pending');
	expect(delivered.attempts.map((a) => a.status)).toEqual([500, 200]);
	// Both attempts went through webhook(); only the second was stored by "n8n".
	expect(h.received.map((r) => [r.status, r.items?.length])).toEqual([
		[500, 1],
		[200, 1],
	]);
});

test('n8n has not answered yet: a copy gets 409, and after n8n answers 2xx it is a redelivery', async () => {
	const id = svix.newMessageId();
	h.startAnswer = 'later';
	expect((await h.call(attempt(id, now()))).items).toHaveLength(1);
	h.startAnswer = 200;
	expect(await h.call(attempt(id, now() + 5))).toMatchObject({ status: 409, items: undefined });
	h.answerHeld(200);
	expect(await h.call(attempt(id, now() + 10))).toMatchObject({ status: 200, items: undefined });
});

test('n8n has not answered yet, then answers 500: the next copy starts the workflow', async () => {
	const id = svix.newMessageId();
	h.startAnswer = 'later';
	await h.call(attempt(id, now()));
	h.startAnswer = 200;
	expect((await h.call(attempt(id, now() + 5))).status).toBe(409);
	h.answerHeld(500);
	expect((await h.call(attempt(id, now() + 10))).items).toHaveLength(1);
});
