/**
 * The log trigger's errors never hold the credential's own API key or bearer token when the
 * service echoes it in an answer (nodes/common/api.ts masks error answers before they become
 * errors). The poll's error is what n8n stores and shows.
 */
import {
	credentialsFor,
	rl,
	runner,
	SEED,
	startSimulator,
	type LogSimulator,
} from '../../harness/logTriggerEngine';
import {
	ECHO_API_KEY,
	ECHO_TOKEN,
	echoAnswers,
	leakedForms,
	serialized,
} from '../../harness/secretEcho';

let sim: LogSimulator;
beforeAll(async () => (sim = await startSimulator()));
afterEach(() => sim.reset());
afterAll(async () => await sim.close());

describe.each([
	['API key', 'apiKey', ECHO_API_KEY],
	['bearer token', 'bearerToken', ECHO_TOKEN],
] as const)('%s echoed by the service', (_label, authentication, secret) => {
	const credentials = () => {
		const all = credentialsFor(sim);
		return {
			integrationPlatformApi: { ...all.integrationPlatformApi, apiKey: ECHO_API_KEY },
			integrationPlatformTokenApi: { ...all.integrationPlatformTokenApi, accessToken: ECHO_TOKEN },
		};
	};

	test.each(echoAnswers(secret))('in $label: masked in the poll error', async (answer) => {
		// Every request of the poll (the project lookup, the logs) answers with the echo.
		sim.faults.add({
			route: '*',
			host: 'api',
			status: answer.status,
			body: answer.body,
			...(answer.headers ? { headers: answer.headers } : {}),
		});
		const r = runner(
			sim,
			{ authentication, project: rl(SEED.projectId, 'id') },
			{ credentials: credentials() },
		);
		const failed = await r.poll();
		expect(failed.error).toBeDefined();
		expect(leakedForms(failed.error, secret)).toEqual([]);
		expect(serialized(failed.error)).toContain('[redacted]');
		expect(leakedForms(r.staticData, secret)).toEqual([]);
	});
});
