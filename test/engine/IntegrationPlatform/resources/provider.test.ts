import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { searchProviders } from '../../../../nodes/IntegrationPlatform/listSearch/searches';
import { searchContext } from '../../../harness/listSearch';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

describe('Provider → Get Many, Get', () => {
	test('the catalog object becomes one item per provider, in name order, honouring Limit', async () => {
		const all = await run(sim, { resource: 'provider', operation: 'getAll', returnAll: true });
		expect(all.error).toBeUndefined();
		expect(all.requests[0]).toMatchObject({
			method: 'GET',
			pathname: '/v1/providers',
			status: 200,
		});
		const names = all.json.map((p) => p.name);
		expect(names).toEqual([...names].sort());
		expect(names).toEqual(expect.arrayContaining(['hubspot', 'salesforce']));
		expect(all.json.find((p) => p.name === 'hubspot')).toMatchObject({ displayName: 'HubSpot' });

		const limited = await run(sim, { resource: 'provider', operation: 'getAll', limit: 3 });
		expect(limited.json).toHaveLength(3);
	});

	test('get by name, with either credential (the catalog needs none)', async () => {
		for (const authentication of ['apiKey', 'bearerToken']) {
			const got = await run(sim, {
				authentication,
				resource: 'provider',
				operation: 'get',
				providerName: rl('salesforce', 'name'),
			});
			expect(got.error).toBeUndefined();
			expect(got.requests[0]).toMatchObject({ pathname: '/v1/providers/salesforce', status: 200 });
			expect(got.json).toEqual([
				expect.objectContaining({ name: 'salesforce', displayName: 'Salesforce' }),
			]);
		}
	});

	test('an unknown provider: 404 naming it', async () => {
		const result = await run(sim, {
			resource: 'provider',
			operation: 'get',
			providerName: rl('nope', 'name'),
		});
		expect(result.requests[0].status).toBe(404);
		expect(result.error?.message).toMatch(/nope/);
		expect(JSON.stringify(result.error)).not.toContain(SEED.apiKey);
	});
});

describe('searchProviders (the provider locator)', () => {
	test('lists the catalog by display name, filtered', async () => {
		const all = await searchProviders.call(searchContext(sim));
		expect(all.results).toEqual(
			expect.arrayContaining([
				{ name: 'HubSpot', value: 'hubspot' },
				{ name: 'Salesforce', value: 'salesforce' },
			]),
		);
		const some = await searchProviders.call(searchContext(sim), 'sales');
		expect(some.results).toEqual([{ name: 'Salesforce', value: 'salesforce' }]);
	});
});
