/**
 * listSearch/apiKeys.ts against the simulator: API Key → Get, Update and Delete pick the key from
 * a list that shows each key by label and last four characters, never the key itself; the key is
 * the entry's value, which the operations send. A key typed "By Key", or saved as plain text by
 * the earlier text field, still works.
 */
import { searchApiKeys } from '../../../../nodes/IntegrationPlatform/listSearch/searches';
import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { searchContext } from '../../../harness/listSearch';

const version2 = { nodeSettings: { typeVersion: 2 } };

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const context = () =>
	searchContext(sim, {
		current: { resource: 'apiKey', operation: 'get', project: SEED.projectId },
	});

test("the project's keys by label and last four characters; the value is the key", async () => {
	const { results } = await searchApiKeys.call(context());
	const demo = results.find((entry) => entry.value === SEED.apiKey);
	expect(demo?.name).toBe(`demo key (…${SEED.apiKey.slice(-4)})`);
	expect(results.map((entry) => entry.value)).toEqual(
		expect.arrayContaining([SEED.apiKey, SEED.deletableApiKey, SEED.updatableApiKey]),
	);
	// Another project's key is not listed.
	expect(results.map((entry) => entry.value)).not.toContain(SEED.secondProjectApiKey);
	for (const entry of results) {
		expect(entry.name).not.toContain(String(entry.value));
		expect(entry.name).not.toContain(String(entry.value).slice(0, 8));
	}
});

test('the search matches labels and endings, not the middle of a key', async () => {
	const byLabel = await searchApiKeys.call(context(), 'spare');
	expect(byLabel.results.map((entry) => entry.value)).toEqual([SEED.deletableApiKey]);
	const byMiddle = await searchApiKeys.call(context(), SEED.apiKey.slice(0, 10));
	expect(byMiddle.results).toEqual([]);
});

test('version 2: Get with a key from the list, and Delete with a key saved as plain text, reach the key', async () => {
	const get = await run(
		sim,
		{
			resource: 'apiKey',
			operation: 'get',
			project: rl(SEED.projectName, 'name'),
			apiKey: rl(SEED.updatableApiKey, 'list'),
		},
		version2,
	);
	expect(get.error).toBeUndefined();
	expect(get.items[0].json).toMatchObject({ keyEnding: SEED.updatableApiKey.slice(-4) });
	const remove = await run(
		sim,
		{
			resource: 'apiKey',
			operation: 'delete',
			project: rl(SEED.projectName, 'name'),
			apiKey: SEED.deletableApiKey,
		},
		version2,
	);
	expect(remove.error).toBeUndefined();
	expect(remove.requests.map((r) => r.status)).toEqual([204]);
});

test('a key typed "By Key" that the service does not know: the error does not show it', async () => {
	const unknown = 'amp_unknown_key_9999';
	const result = await run(
		sim,
		{
			resource: 'apiKey',
			operation: 'get',
			project: rl(SEED.projectName, 'name'),
			apiKey: rl(unknown, 'id'),
		},
		version2,
	);
	expect(result.error).toBeDefined();
	expect(JSON.stringify(result.error, Object.getOwnPropertyNames(result.error))).not.toContain(
		unknown,
	);
});

test('version 1 keeps its text field: a locator value is not what it holds', async () => {
	const typed = await run(sim, {
		resource: 'apiKey',
		operation: 'get',
		project: rl(SEED.projectName, 'name'),
		apiKey: SEED.updatableApiKey,
	});
	expect(typed.error).toBeUndefined();
	expect(typed.items[0].json).toMatchObject({ keyEnding: SEED.updatableApiKey.slice(-4) });
});
