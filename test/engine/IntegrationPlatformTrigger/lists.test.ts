/**
 * The event trigger's lists (version 3 on) against the simulator: Destination lists the project's
 * webhook destinations, those the integrations' manifests deliver to first and marked with what
 * they receive; Object Names the objects its integrations read or subscribe to; an empty list says
 * why it is empty.
 */
import {
	EMPTY_DESTINATIONS,
	EMPTY_OBJECTS,
	getObjectNames,
	searchWebhookDestinations,
} from '../../../nodes/IntegrationPlatformTrigger/lists';
import { SEED, startSimulator, type Simulator } from '../../harness/actionEngine';
import { searchContext } from '../../harness/listSearch';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator({ httpsWebhooksOnly: false })));
afterEach(() => sim.reset());
afterAll(async () => await sim.close());

const inProject = () => searchContext(sim, { current: { project: SEED.projectName } });

async function addDestination(name: string, type = 'webhook') {
	const response = await fetch(`${sim.apiUrl}/v1/projects/${SEED.projectName}/destinations`, {
		method: 'POST',
		headers: { 'x-api-key': SEED.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({
			name,
			type,
			metadata: { url: `http://127.0.0.1:9/${name}` },
		}),
	});
	expect(response.status).toBe(201);
}

/** Empties one of the simulator's collections for the seeded project. */
function removeAll(collection: 'destinations' | 'integrations') {
	const map = sim.state[collection] as Map<string, Record<string, unknown>>;
	for (const [id, item] of map) {
		if (item._projectId === SEED.projectId || item.projectId === SEED.projectId) map.delete(id);
	}
}

describe('Destination: searchWebhookDestinations', () => {
	test("the project's webhook destinations by name; other types are left out", async () => {
		const { results } = await searchWebhookDestinations.call(inProject());
		const names = results.map((r) => r.value);
		expect(names).toContain(SEED.destinationName);
		expect(names).not.toContain(SEED.kinesisDestinationName);
		const unmarked = names.slice(1);
		expect(unmarked).toEqual([...unmarked].sort((a, b) => String(a).localeCompare(String(b))));
		expect(results.slice(1).every((r) => r.name === r.value)).toBe(true);
	});

	test('the destination the manifests deliver to comes first and says what it receives from which integration', async () => {
		const { results } = await searchWebhookDestinations.call(inProject());
		expect(results).toEqual([
			{
				name:
					`${SEED.destinationName} — read results of hubspot-deals (deals), hubspot-sync (companies, contacts), ` +
					'legacy-sync (deals); subscribe events of hubspot-sync (contacts); schema changes of hubspot-sync',
				value: SEED.destinationName,
			},
			{ name: SEED.updatableDestinationName, value: SEED.updatableDestinationName },
			{ name: SEED.deletableDestinationName, value: SEED.deletableDestinationName },
		]);
	});

	test('a name a manifest gives that no destination has yet is offered as new (activation creates it); the filter reads the marks', async () => {
		const integrations = sim.state.integrations as Map<string, Record<string, unknown>>;
		const content = (
			integrations.get(SEED.integrationId)!.latestRevision as {
				content: { watchSchema: { destination: string } };
			}
		).content;
		content.watchSchema.destination = 'n8n-schema';
		const { results } = await searchWebhookDestinations.call(inProject(), 'schema changes');
		expect(results).toEqual([
			{ name: 'n8n-schema (new) — schema changes of hubspot-sync', value: 'n8n-schema' },
		]);
	});

	test('integrations that cannot be listed: the destinations are still listed, unmarked', async () => {
		sim.faults.add({ route: 'listIntegrations', status: 500 });
		const { results } = await searchWebhookDestinations.call(inProject());
		expect(results.map((r) => r.name)).toEqual([
			SEED.updatableDestinationName,
			SEED.deletableDestinationName,
			SEED.destinationName,
		]);
	});

	test('the -test twin a listening trigger registers is left out; a lone "-test" name is not', async () => {
		await addDestination(`${SEED.destinationName}-test`);
		await addDestination('staging-test');
		const names = (await searchWebhookDestinations.call(inProject())).results.map((r) => r.value);
		expect(names).not.toContain(`${SEED.destinationName}-test`);
		expect(names).toContain('staging-test');
	});

	test('the filter narrows by name, case-insensitively', async () => {
		const { results } = await searchWebhookDestinations.call(inProject(), 'N8N-WEB');
		expect(results.map((r) => r.value)).toEqual([SEED.destinationName]);
	});

	test('no webhook destination and no manifest naming one: the error says so and what to do', async () => {
		removeAll('destinations');
		removeAll('integrations');
		await expect(searchWebhookDestinations.call(inProject())).rejects.toMatchObject({
			message: EMPTY_DESTINATIONS,
			description: `Project ${SEED.projectName} has no webhook destination.`,
		});
		expect(EMPTY_DESTINATIONS).toMatch(/^No webhook destinations .*Choose By Name and type one/);
	});

	test('without a project the list asks for one', async () => {
		await expect(searchWebhookDestinations.call(searchContext(sim))).rejects.toThrow(
			'Choose a Project first',
		);
	});
});

describe('Object Names: getObjectNames', () => {
	test('without a project (a new node, whose panel loads the options at once) the list is empty', async () => {
		await expect(getObjectNames.call(searchContext(sim))).resolves.toEqual([]);
		expect(sim.journal.entries).toEqual([]);
	});

	test('the objects the integrations read or subscribe to, each with the integrations using it', async () => {
		const options = await getObjectNames.call(inProject());
		expect(options.map((o) => o.value)).toEqual(['companies', 'contacts', 'deals']);
		expect(options.find((o) => o.value === 'contacts')).toEqual({
			name: 'contacts',
			value: 'contacts',
			description: `In ${SEED.integrationName}`,
		});
	});

	test('a mapped object name is offered too, as messages may carry it', async () => {
		const integrations = sim.state.integrations as Map<string, Record<string, unknown>>;
		const integration = integrations.get(SEED.integrationId)!;
		(
			integration.latestRevision as {
				content: { read: { objects: Array<Record<string, string>> } };
			}
		).content.read.objects[0].mapToName = 'people';
		const values = (await getObjectNames.call(inProject())).map((o) => o.value);
		expect(values).toContain('people');
		expect(values).toContain('contacts');
	});

	test('no integration with objects: the error says so and offers an expression', async () => {
		removeAll('integrations');
		await expect(getObjectNames.call(inProject())).rejects.toMatchObject({
			message: EMPTY_OBJECTS,
			description: `Project ${SEED.projectName} has no integration that reads or subscribes to an object.`,
		});
		expect(EMPTY_OBJECTS).toMatch(/^No objects yet: .*Give names in an expression instead/);
	});
});
