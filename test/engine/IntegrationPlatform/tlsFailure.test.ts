/**
 * A failure the node does not recognise (here TLS: https spoken to a plain-HTTP port) must not
 * carry the request's headers into the execution: n8n's NodeApiError keeps an AxiosError as its
 * `cause`, and the AxiosError's config holds the X-Api-Key header. n8n's request helper drops
 * the config before the error reaches the node; these tests keep it that way, and check that the
 * failure names the host like the other network failures.
 */
import { rl, run, SEED, startSimulator, type Simulator } from '../../harness/actionEngine';

/** Every string reachable from a value, own non-enumerable properties (cause, config) included. */
function strings(value: unknown, seen = new Set<unknown>()): string[] {
	if (typeof value === 'string') return [value];
	if (typeof value !== 'object' || value === null || seen.has(value)) return [];
	seen.add(value);
	return Object.getOwnPropertyNames(value).flatMap((key) => {
		let child: unknown;
		try {
			child = (value as Record<string, unknown>)[key];
		} catch {
			return [];
		}
		return strings(child, seen);
	});
}

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => await sim.close());

const tls = () => ({
	integrationPlatformApi: {
		apiKey: SEED.apiKey,
		baseUrl: sim.apiUrl.replace('http://', 'https://'),
		readUrl: sim.readUrl.replace('http://', 'https://'),
	},
});

describe('a TLS failure', () => {
	test('fails the item with the host named and no secret anywhere in the error', async () => {
		const result = await run(
			sim,
			{ resource: 'project', operation: 'getAll', returnAll: true },
			{
				credentials: tls(),
			},
		);
		expect(result.error!.message).toBe(
			`The Integration Platform API at ${new URL(sim.apiUrl).host} could not be reached over TLS (the handshake failed: check http or https in the URL)`,
		);
		expect(strings(result.error).join('\n')).not.toContain(SEED.apiKey);
		expect(strings(result.run).join('\n')).not.toContain(SEED.apiKey);
	});

	test('a lookup made in code (the latest revision) keeps the secret out too', async () => {
		const result = await run(
			sim,
			{
				resource: 'revision',
				operation: 'getHydrated',
				project: rl(SEED.projectName, 'name'),
				integration: rl(SEED.integrationId),
				connectionId: rl(SEED.connectionId),
				revision: '',
			},
			{ credentials: tls() },
		);
		expect(result.error).toBeDefined();
		expect(strings(result.run).join('\n')).not.toContain(SEED.apiKey);
	});
});
