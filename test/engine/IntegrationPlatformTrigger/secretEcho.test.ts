/**
 * The event trigger's activation errors never hold the credential's own API key or bearer token
 * when the service echoes it in an answer to the registration requests (nodes/common/api.ts
 * masks error answers before they become errors).
 */
import { resetTriggerMemory } from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import type { Sim } from '../../harness/eventTriggerSim';
import { startSim } from '../../harness/eventTriggerSim';
import { SEED, TriggerHarness } from '../../harness/eventTriggerEngine';
import {
	ECHO_API_KEY,
	ECHO_TOKEN,
	echoAnswers,
	leakedForms,
	serialized,
} from '../../harness/secretEcho';

let sim: Sim;
const harnesses: TriggerHarness[] = [];
beforeAll(async () => (sim = await startSim({ httpsWebhooksOnly: false })));
beforeEach(() => resetTriggerMemory());
afterEach(async () => {
	for (const h of harnesses.splice(0)) await h.close();
	sim.faults.clear();
	sim.reset();
});
afterAll(async () => await sim.close());

describe.each([
	['API key', 'apiKey', { apiKey: ECHO_API_KEY }, ECHO_API_KEY],
	['bearer token', 'bearerToken', { accessToken: ECHO_TOKEN }, ECHO_TOKEN],
] as const)('%s echoed by the service', (_label, authentication, credential, secret) => {
	test.each(echoAnswers(secret).filter((answer) => answer.status >= 400))(
		'in $label: masked in the activation error',
		async (answer) => {
			sim.faults.add({
				route: '*',
				host: 'api',
				status: answer.status,
				body: answer.body,
				...(answer.headers ? { headers: answer.headers } : {}),
			});
			const h = new TriggerHarness(sim, {
				parameters: {
					project: { __rl: true, mode: 'id', value: SEED.projectName },
					destinationName: 'n8n-echo',
					events: ['notification'],
				} as never,
				authentication,
				credential,
			});
			harnesses.push(h);
			await h.listen();
			const error = await h.activate().then(
				() => undefined,
				(failure: unknown) => failure,
			);
			expect(error).toBeDefined();
			expect(leakedForms(error, secret)).toEqual([]);
			expect(serialized(error)).toContain('[redacted]');
			expect(leakedForms(h.staticData, secret)).toEqual([]);
		},
	);
});
