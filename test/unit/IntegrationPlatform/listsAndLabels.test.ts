/**
 * What the newest versions show a user: list fields in n8n's order (Return All, Limit, then
 * Filters and Options), one label per concept across the action node, its filters and the log
 * trigger, lists (resource locators) where a value names something the API can list, and
 * resource names in the singular.
 */
import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { IntegrationPlatformLogTrigger } from '../../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node';

const action = new IntegrationPlatform().description;
const logTrigger = new IntegrationPlatformLogTrigger().description;
const NEWEST = 2;

/** The top-level properties a node of this version shows for these values, in the editor's order. */
function shown(
	description: INodeTypeDescription,
	version: number,
	given: INodeParameters,
): INodeProperties[] {
	const node = { typeVersion: version, parameters: given } as unknown as INode;
	const parameters =
		NodeHelpers.getNodeParameters(description.properties, given, true, false, node, description) ??
		{};
	return description.properties.filter((p) =>
		NodeHelpers.displayParameter(parameters, p, node, description),
	);
}

const resources = (action.properties.find((p) => p.name === 'resource')!.options ??
	[]) as INodePropertyOptions[];

/** Every resource and operation of the newest version, with what it shows. */
const screens = resources.flatMap(({ value: resource }) => {
	const selector = shown(action, NEWEST, { resource } as INodeParameters).find(
		(p) => p.name === 'operation',
	)!;
	return (selector.options as INodePropertyOptions[]).map(({ value: operation }) => ({
		key: `${String(resource)}.${String(operation)}`,
		properties: shown(action, NEWEST, { resource, operation } as INodeParameters),
	}));
});

/** A property and, for collections, each of its options, with where it sits. */
function* walk(
	properties: Array<INodeProperties | INodePropertyCollection>,
	where: string,
): Generator<{ where: string; property: INodeProperties }> {
	for (const property of properties) {
		if (!('type' in property)) {
			yield* walk(property.values, `${where} › ${property.displayName}`);
			continue;
		}
		yield { where, property };
		if (property.type === 'collection' || property.type === 'fixedCollection') {
			yield* walk(
				(property.options ?? []) as Array<INodeProperties | INodePropertyCollection>,
				`${where} › ${property.displayName}`,
			);
		}
	}
}

const everyField = [
	...screens.flatMap(({ key, properties }) => [...walk(properties, key)]),
	...[...walk(shown(logTrigger, NEWEST, {}), 'log trigger')],
	...(['installation', 'integration', 'operationIds'] as const).flatMap((watch) => [
		...walk(shown(logTrigger, NEWEST, { watch }), `log trigger (${watch})`),
	]),
];

describe('list operations show Return All, Limit, then Filters and Options', () => {
	const lists = screens.filter(({ properties }) => properties.some((p) => p.name === 'returnAll'));

	it('finds the list operations', () => {
		expect(lists.length).toBeGreaterThan(15);
	});

	it.each(lists.map(({ key, properties }) => [key, properties]))('%s', (_key, properties) => {
		const names = (properties as INodeProperties[])
			.filter((p) => p.name !== 'requestOptions')
			.map((p) => (p.type === 'collection' ? p.displayName : p.name));
		const order = ['returnAll', 'limit', 'Filters', 'Options'];
		// The list's controls in this order, Return All and Limit first...
		const controls = names.filter((name) => order.includes(name));
		expect(controls.slice(0, 2)).toEqual(['returnAll', 'limit']);
		expect([...controls].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(controls);
		// ...and last: the fields that say what is listed come before them.
		expect(names.slice(names.indexOf('returnAll'))).toEqual(controls);
	});
});

describe('one label per concept', () => {
	const LABELS: Record<string, string> = {
		groupRef: 'Group',
		consumerRef: 'Consumer',
		integration: 'Integration',
		project: 'Project',
		operationId: 'Operation ID',
		topicId: 'Topic',
		destinationId: 'Destination',
		connectionId: 'Connection',
	};

	it.each(Object.entries(LABELS))('every field named %s is labelled "%s"', (name, label) => {
		const fields = everyField.filter(({ property }) => property.name === name);
		expect(fields.length).toBeGreaterThan(0);
		const labels = new Set(fields.map(({ property }) => property.displayName));
		expect([...labels]).toEqual([label]);
	});

	it('the installation field says Group where it picks whose account is used, Installation on installations', () => {
		const fields = everyField.filter(({ property }) => property.name === 'installation');
		// Installation → Get, Update…, and Operation → Get Many (an installation's operations).
		const expected = (where: string) =>
			/^(installation|operation)\./.test(where) ? 'Installation' : 'Group';
		expect(fields.map(({ where, property }) => `${where}: ${property.displayName}`)).toEqual(
			fields.map(({ where }) => `${where}: ${expected(where)}`),
		);
		const groups = fields.filter(({ property }) => property.displayName === 'Group');
		expect(groups.map(({ where }) => where)).toEqual(
			expect.arrayContaining(['providerApi.sendRequest', 'log trigger (installation)']),
		);
	});

	it('"Group" and "Consumer" name only group and consumer refs (and the group\'s installation)', () => {
		const misnamed = everyField
			.filter(({ property }) => ['Group', 'Consumer'].includes(property.displayName))
			.filter(({ property }) => property.name !== 'installation')
			.filter(({ property }) => LABELS[property.name] !== property.displayName)
			.map(({ where, property }) => `${where}: ${property.name}`);
		expect(misnamed).toEqual([]);
	});

	it('no field keeps the old labels "Group Ref" or "Consumer Ref"', () => {
		const old = everyField
			.filter(({ property }) => /\b(Group|Consumer) Ref\b/.test(property.displayName))
			.map(({ where, property }) => `${where}: ${property.displayName}`);
		expect(old).toEqual([]);
	});
});

describe('lists instead of typed names', () => {
	it.each([
		'groupRef',
		'consumerRef',
		'operationId',
		'installation',
		'integration',
		'project',
		'topicId',
		'destinationId',
		'connectionId',
	])('every %s field is a list that also takes a typed value or an expression', (name) => {
		const fields = everyField.filter(({ property }) => property.name === name);
		for (const { where, property } of fields) {
			expect({ where, type: property.type }).toEqual({ where, type: 'resourceLocator' });
			const modes = (property.modes ?? []).map((m) => m.type);
			expect(modes[0]).toBe('list');
			expect(modes).toContain('string');
			expect(property.modes![0].typeOptions?.searchListMethod).toBeTruthy();
		}
	});

	it("Connection's filters are lists", () => {
		const filters = screens
			.find(({ key }) => key === 'connection.getAll')!
			.properties.find((p) => p.name === 'connectionFilters')!;
		expect(
			(filters.options as INodeProperties[]).map((o) => [o.displayName, o.type, o.required]),
		).toEqual([
			['Consumer', 'resourceLocator', undefined],
			['Group', 'resourceLocator', undefined],
			['Provider', 'resourceLocator', undefined],
		]);
	});

	it('each list names a search method the node has', () => {
		const methods = new IntegrationPlatform().methods.listSearch;
		const missing = everyField
			.filter(({ where }) => !where.startsWith('log trigger'))
			.flatMap(({ property }) => property.modes ?? [])
			.map((mode) => mode.typeOptions?.searchListMethod)
			.filter((method): method is string => !!method && !(method in methods));
		expect(missing).toEqual([]);
	});

	it('the Group field shows for exactly the operations that send a group ref', () => {
		const withGroup = screens
			.filter(({ properties }) => properties.some((p) => p.name === 'groupRef'))
			.map(({ key }) => key)
			.filter((key) => !key.startsWith('records.'));
		expect(withGroup.sort()).toEqual([
			'connection.generate',
			'customField.getAll',
			'customField.upsert',
			'customField.upsertForInstallation',
			'installation.create',
			'oauth.getAuthorizationUrl',
			'objectMetadata.getForConnection',
			'objectMetadata.getForInstallation',
		]);
	});
});

describe('resource names', () => {
	it('are singular', () => {
		const plural = resources.map((r) => r.name).filter((name) => /[^s]s$/.test(name));
		expect(plural).toEqual([]);
	});

	it('"Record" keeps the value records, which saved workflows hold', () => {
		expect(resources.find((r) => r.value === 'records')?.name).toBe('Record');
	});
});
