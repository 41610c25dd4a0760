/**
 * The list searches behind version 2's lists (Group, Consumer, Operation ID, the Connection and
 * Installation filters) against the simulator, and the reason an empty list gives.
 */
import { IntegrationPlatform } from '../../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { rl, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { searchContext } from '../../../harness/listSearch';
import {
	searchConsumers,
	searchGroupRefs,
	searchGroups,
	searchMetadataObjects,
	searchOperations,
	searchTopics,
} from '../../../../nodes/IntegrationPlatform/listSearch/searches';
import { searchInstallations, searchIntegrations } from '../../../../nodes/common/installation';
import { searchProjects } from '../../../../nodes/common/project';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const project = SEED.projectId;
const context = (current: Record<string, string>) =>
	searchContext(sim, { current: { project, ...current } });
const values = (result: { results: Array<{ value: unknown }> }) =>
	result.results.map((r) => r.value);

describe('searchGroupRefs: the groups that fit the operation', () => {
	test('through an installation: the groups with an installation of the integration', async () => {
		for (const [resource, operation] of [
			['objectMetadata', 'getForInstallation'],
			['customField', 'upsertForInstallation'],
			['installation', 'getAll'],
		]) {
			const result = await searchGroupRefs.call(
				context({ resource, operation, integration: SEED.integrationId }),
			);
			expect(values(result)).toContain(SEED.groupRef);
			// The API key connection's group has no installation of this integration.
			expect(values(result)).not.toContain(SEED.apiKeyGroupRef);
			expect(result.results.find((r) => r.value === SEED.groupRef)?.name).toBe(
				`${SEED.groupName} (${SEED.groupRef})`,
			);
		}
	});

	test("through a connection: the groups with a connection to the chosen provider; Connection's filter: every group with one", async () => {
		const viaConnection = await searchGroupRefs.call(
			context({ resource: 'objectMetadata', operation: 'getForConnection', provider: 'hubspot' }),
		);
		expect(values(viaConnection)).toEqual(expect.arrayContaining([SEED.groupRef]));
		const none = searchGroupRefs.call(
			context({ resource: 'customField', operation: 'upsert', provider: 'salesforce' }),
		);
		await expect(none).rejects.toThrow(
			'No group has a connection to salesforce yet: connect the customer first (Connection → Generate, or OAuth → Get Authorization URL)',
		);
		const filter = await searchGroupRefs.call(
			context({ resource: 'connection', operation: 'getAll' }),
		);
		expect(values(filter)).toEqual(expect.arrayContaining([SEED.groupRef, SEED.apiKeyGroupRef]));
		// Each group once, however many connections it has.
		expect(new Set(values(filter)).size).toBe(filter.results.length);
	});

	test("a new installation: the groups with a connection to the integration's provider", async () => {
		const result = await searchGroupRefs.call(
			context({ resource: 'installation', operation: 'create', integration: SEED.integrationId }),
		);
		expect(values(result)).toEqual(expect.arrayContaining([SEED.groupRef, SEED.apiKeyGroupRef]));
	});

	test('Get Many in Project: the groups of the project’s installations', async () => {
		const result = await searchGroupRefs.call(
			context({ resource: 'installation', operation: 'getAllInProject' }),
		);
		expect(values(result)).toContain(SEED.groupRef);
		expect(values(result)).not.toContain(SEED.apiKeyGroupRef);
	});

	test('a search term filters by name or group ref; nothing matching is an empty list, not an error', async () => {
		const current = { resource: 'connection', operation: 'generate' };
		const byName = await searchGroupRefs.call(context(current), SEED.groupName.slice(0, 4));
		expect(values(byName)).toEqual([SEED.groupRef]);
		const nothing = await searchGroupRefs.call(context(current), 'no-such-group');
		expect(nothing.results).toEqual([]);
	});
});

describe('empty lists say why', () => {
	test('a list that needs another field first asks for it', async () => {
		await expect(
			searchGroupRefs.call(context({ resource: 'installation', operation: 'create' })),
		).rejects.toThrow('Select an integration first');
		await expect(searchOperations.call(searchContext(sim, { current: {} }))).rejects.toThrow(
			'Select a project first',
		);
	});

	test('an integration without installations', async () => {
		const current = { integration: SEED.deletableIntegrationId };
		const reason =
			'No installations yet for this integration: create one (Installation → Create) or pick another integration';
		await expect(
			searchGroupRefs.call(
				context({ ...current, resource: 'objectMetadata', operation: 'getForInstallation' }),
			),
		).rejects.toThrow(reason);
		await expect(searchGroups.call(context(current))).rejects.toThrow(reason);
		await expect(searchInstallations.call(context(current))).rejects.toThrow(reason);
		// With a search term the list is only empty: nothing matches it.
		await expect(searchInstallations.call(context(current), 'acme')).resolves.toEqual({
			results: [],
		});
	});

	test('no reason text holds a dash, which the editor would split the message at', async () => {
		await expect(
			searchGroups.call(context({ integration: SEED.deletableIntegrationId })),
		).rejects.toThrow(/^[^-–—]+$/);
	});

	test('a credential that reaches no project', async () => {
		(sim.state.projects as unknown as Map<string, unknown>).clear();
		await expect(searchProjects.call(context({}))).rejects.toThrow(
			'This credential reaches no project yet: create one in the dashboard, or with Project → Create and a token credential',
		);
		await expect(searchProjects.call(context({}), 'acme')).resolves.toEqual({ results: [] });
	});

	test('a project without topics', async () => {
		(sim.state.topics as unknown as Map<string, unknown>).clear();
		await expect(searchTopics.call(context({}))).rejects.toThrow(
			'No topics yet in this project: create one (Topic → Create)',
		);
	});
});

describe('searchConsumers', () => {
	test("the consumers of the project's connections, of the chosen group when there is one", async () => {
		const all = await searchConsumers.call(context({}));
		expect(all.results).toEqual(
			expect.arrayContaining([
				{ name: `${SEED.consumerName} (${SEED.consumerRef})`, value: SEED.consumerRef },
			]),
		);
		const ofGroup = await searchConsumers.call(context({ groupRef: SEED.groupRef }));
		expect(values(ofGroup)).toContain(SEED.consumerRef);
		await expect(searchConsumers.call(context({ groupRef: 'nobody-group' }))).rejects.toThrow(
			'No consumer of this group has a connection yet. For a new user choose By Consumer Ref and enter your ID of them.',
		);
	});
});

describe('lists inside a collection read the parameters beside them (n8n resolves `&name`)', () => {
	const { properties } = new IntegrationPlatform().description;
	const inFilters = (connectionFilters: Record<string, unknown>) =>
		searchContext(sim, {
			current: {
				resource: 'connection',
				operation: 'getAll',
				project: rl(SEED.projectId),
				connectionFilters,
			},
			path: 'parameters.connectionFilters.consumerRef',
			properties,
			typeVersion: 2,
		});

	test("Connection → Get Many's Consumer filter: every consumer, or the Group filter's group's", async () => {
		const all = await searchConsumers.call(inFilters({}));
		expect(values(all)).toEqual(expect.arrayContaining([SEED.consumerRef, 'user-77']));
		const ofGroup = await searchConsumers.call(inFilters({ groupRef: rl(SEED.groupRef) }));
		expect(values(ofGroup)).toContain(SEED.consumerRef);
		expect(values(ofGroup)).not.toContain('user-77');
	});
});

describe('searchOperations', () => {
	test("the project's recent operations, newest first, by type, integration, group and status", async () => {
		const result = await searchOperations.call(context({}));
		expect(values(result)).toEqual(
			expect.arrayContaining([SEED.operationId, SEED.secondOperationId]),
		);
		const first = result.results.find((r) => r.value === SEED.operationId)!;
		expect(first.name).toContain(SEED.integrationName);
		expect(first.name).toContain(SEED.groupName);
		const times = result.results.map((r) => r.name.split(' · ').pop()!);
		expect([...times].sort().reverse()).toEqual(times);
		const filtered = await searchOperations.call(context({}), SEED.operationId.slice(0, 8));
		expect(values(filtered)).toEqual([SEED.operationId]);
	});
});

describe('searchIntegrations', () => {
	test('lists the integrations; filtered by name', async () => {
		const result = await searchIntegrations.call(context({}), SEED.integrationName);
		expect(values(result)).toContain(SEED.integrationId);
	});
});

describe('searchMetadataObjects: Object Metadata’s objects', () => {
	test('via an installation: the objects its integration reads or writes', async () => {
		const result = await searchMetadataObjects.call(
			context({ operation: 'getForInstallation', integration: SEED.integrationId }),
		);
		expect(values(result)).toEqual(expect.arrayContaining(['contacts', 'companies']));
	});

	test("via a connection: the objects the project's integrations of the provider read or write", async () => {
		const result = await searchMetadataObjects.call(
			context({ operation: 'getForConnection', provider: 'hubspot' }),
		);
		expect(values(result)).toEqual(expect.arrayContaining(['contacts', 'companies']));
		expect(new Set(values(result)).size).toBe(result.results.length);
		const filtered = await searchMetadataObjects.call(
			context({ operation: 'getForConnection', provider: 'hubspot' }),
			'comp',
		);
		expect(values(filtered)).toEqual(['companies']);
	});

	test('no integration of the provider, or no provider yet: the list says why', async () => {
		await expect(
			searchMetadataObjects.call(
				context({ operation: 'getForConnection', provider: 'salesforce' }),
			),
		).rejects.toThrow(
			'No integration of this project reads or writes salesforce objects: give the object By Name',
		);
		await expect(
			searchMetadataObjects.call(context({ operation: 'getForConnection' })),
		).rejects.toThrow('Select a provider first');
	});
});

test('Custom Field → Get Many: the same Object list as Object Metadata via a connection', async () => {
	const result = await searchMetadataObjects.call(
		context({ resource: 'customField', operation: 'getAll', provider: 'hubspot' }),
	);
	expect(values(result)).toEqual(expect.arrayContaining(['contacts', 'companies']));
});
