/**
 * The credential's own API key or bearer token, echoed back by the service (or a provider behind
 * the proxy) in an answer, never reaches run data: not the node's error, not the error items of
 * Continue On Fail, not the items. Each answer below repeats the secret in the forms a service
 * might: as sent, percent-encoded as in a URL, JSON-escaped, as a header written out, and as a
 * hyphenated JSON field. Fault rules answer before the simulator checks the key, so the
 * credentials hold secrets with characters that encode differently.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	credentialsFor,
	rl,
	run,
	SEED,
	startSimulator,
	type Simulator,
} from '../../harness/actionEngine';
import {
	ECHO_API_KEY as API_KEY,
	ECHO_TOKEN as TOKEN,
	echoAnswers as answers,
	echoProblem,
	leakedForms,
	serialized,
} from '../../harness/secretEcho';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.reset();
	sim.faults.clear();
});

function expectNoSecret(stored: unknown, secret: string) {
	expect(leakedForms(stored, secret)).toEqual([]);
}

const records = {
	resource: 'records',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	groupRef: rl(SEED.groupRef),
	object: rl('contacts'),
};

const cases: Array<{
	label: string;
	route: string;
	parameters: INodeParameters;
	items?: IDataObject[];
	secret: string;
}> = [
	{
		label: 'Project → Get (routed), API key',
		route: 'getProject',
		parameters: { resource: 'project', operation: 'get', project: rl(SEED.projectId) },
		secret: API_KEY,
	},
	{
		label: 'Project → Get (routed), bearer token',
		route: 'getProject',
		parameters: {
			authentication: 'bearerToken',
			resource: 'project',
			operation: 'get',
			project: rl(SEED.projectId),
		},
		secret: TOKEN,
	},
	{
		label: 'Record → Trigger Read',
		route: 'triggerRead',
		parameters: { ...records, operation: 'triggerRead' },
		secret: API_KEY,
	},
	{
		label: 'Record → Search',
		route: 'searchRecords',
		parameters: {
			...records,
			operation: 'search',
			fieldFilters: { filter: [{ fieldName: 'email', value: 'a@example.com' }] },
		},
		secret: API_KEY,
	},
	{
		label: 'Record → Write',
		route: 'writeRecords',
		parameters: { ...records, operation: 'write', writeType: 'create' },
		items: [{ email: 'a@example.com' }, { email: 'b@example.com' }],
		secret: API_KEY,
	},
];

const credentials = () => credentialsFor(sim, {}) as unknown as Record<string, IDataObject>;

function withSecrets(): IDataObject {
	const all = credentials();
	return {
		integrationPlatformApi: { ...all.integrationPlatformApi, apiKey: API_KEY },
		integrationPlatformTokenApi: { ...all.integrationPlatformTokenApi, accessToken: TOKEN },
	};
}

describe.each(cases)(
	'$label: an echoed secret is masked',
	({ route, parameters, items, secret }) => {
		test.each(answers(secret))('in $label', async ({ status, body, headers }) => {
			sim.faults.add({ route, status, body, ...(headers ? { headers } : {}) });
			const failed = await run(sim, parameters, { items, credentials: withSecrets() });
			expect(failed.error).toBeDefined();
			expectNoSecret(failed.error, secret);
			expectNoSecret(failed.run, secret);
			// The error still says what the service answered.
			expect(serialized(failed.error)).toContain('[redacted]');

			const kept = await run(sim, parameters, {
				items,
				credentials: withSecrets(),
				continueOnFail: true,
			});
			expect(kept.items.length).toBeGreaterThan(0);
			expect(kept.items.every((item) => item.error !== undefined)).toBe(true);
			expectNoSecret(kept.items, secret);
			expectNoSecret(kept.run, secret);
		});
	},
);

describe('Provider API → Send Request: an echoed API key is masked', () => {
	const send = {
		resource: 'providerApi',
		operation: 'sendRequest',
		project: rl(SEED.projectId),
		integration: rl(SEED.integrationId),
		installation: rl(SEED.installationId),
		proxyMethod: 'GET',
		proxyPath: 'crm/v3/objects/contacts',
	};

	test.each([
		...answers(API_KEY),
		{
			label: 'a problem document of the platform (401)',
			status: 401,
			body: { ...echoProblem(API_KEY), status: 401 },
			headers: { 'content-type': 'application/problem+json' },
		},
		{
			label: 'a JSON answer that says it is JSON but is cut off',
			status: 502,
			body: `{"echo": {"x-api-key": "${API_KEY}", "more": "`,
			headers: { 'content-type': 'application/json' },
		},
	])('in $label: the error, and the item with Never Error', async ({ status, body, headers }) => {
		sim.faults.add({ route: 'proxy', status, body, ...(headers ? { headers } : {}) });
		const failed = await run(sim, send, { credentials: withSecrets() });
		if (status >= 400) {
			expect(failed.error).toBeDefined();
			expectNoSecret(failed.error, API_KEY);
		}
		expectNoSecret(failed.run, API_KEY);

		const kept = await run(
			sim,
			{ ...send, proxyOptions: { neverError: true, fullResponse: true } },
			{ credentials: withSecrets() },
		);
		expect(kept.error).toBeUndefined();
		expectNoSecret(kept.items, API_KEY);
		expectNoSecret(kept.run, API_KEY);
		expect(serialized(kept.items)).toContain('[redacted]');
	});

	test('in a successful JSON answer echoing the request headers (a debugging endpoint)', async () => {
		sim.faults.add({
			route: 'proxy',
			status: 200,
			body: { headers: { 'x-api-key': API_KEY }, url: `/x?key=${encodeURIComponent(API_KEY)}` },
			headers: { 'x-echo-key': API_KEY },
		});
		const result = await run(
			sim,
			{ ...send, proxyOptions: { fullResponse: true } },
			{ credentials: withSecrets() },
		);
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			statusCode: 200,
			body: { headers: { 'x-api-key': '[redacted]' }, url: '/x?key=[redacted]' },
			headers: expect.objectContaining({ 'x-echo-key': '[redacted]' }),
		});
		expectNoSecret(result.run, API_KEY);
	});
});
