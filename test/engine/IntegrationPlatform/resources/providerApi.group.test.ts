/**
 * Provider API → Send Request's Group field given By Group Ref: the group's installation is looked
 * up in the integration's installations (once per run for each group), and a group without one is
 * refused before anything reaches the proxy.
 */
import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.reset();
	sim.faults.clear();
});

const send = {
	resource: 'providerApi',
	operation: 'sendRequest',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	proxyMethod: 'GET',
	proxyPath: 'crm/v3/objects/contacts',
};

describe('Provider API → Send Request: Group by group ref', () => {
	test("the group's installation is looked up once for all items and sent to the proxy", async () => {
		const result = await run(
			sim,
			{ ...send, installation: rl(SEED.groupRef, 'groupRef') },
			{ items: [{ n: 1 }, { n: 2 }, { n: 3 }] },
		);
		expect(result.error).toBeUndefined();
		const lookups = result.requests.filter((r) => r.routeId === 'listInstallations');
		expect(lookups).toHaveLength(1);
		expect(lookups[0].query).toEqual({ groupRef: SEED.groupRef });
		const proxied = result.requests.filter((r) => (r.host as string) === 'proxy');
		expect(proxied).toHaveLength(3);
		for (const request of proxied) {
			expect(request.headers['x-amp-installation-id']).toBe(SEED.installationId);
		}
	});

	test('a group without an installation of the integration fails the item naming the group', async () => {
		const result = await run(sim, { ...send, installation: rl('no-such-group', 'groupRef') });
		expect(result.error?.message).toBe(
			'Group "no-such-group" has no installation of this integration',
		);
		expect(result.error?.description).toContain('Installation → Create');
		expect(result.requests.filter((r) => (r.host as string) === 'proxy')).toHaveLength(0);
	});

	test('an installation ID (saved workflows, By ID) is sent as it is, without a lookup', async () => {
		const result = await run(sim, { ...send, installation: rl(SEED.installationId) });
		expect(result.error).toBeUndefined();
		expect(result.requests.map((r) => r.routeId ?? r.host)).not.toContain('listInstallations');
		expect(result.requests[0].headers['x-amp-installation-id']).toBe(SEED.installationId);
	});

	test('a Group that an expression leaves empty is refused under its label', async () => {
		const result = await run(sim, { ...send, installation: rl('={{ "" }}', 'groupRef') });
		expect(result.error?.message).toBe('"Group" is empty: the service requires it');
		expect(result.requests).toHaveLength(0);
	});
});
