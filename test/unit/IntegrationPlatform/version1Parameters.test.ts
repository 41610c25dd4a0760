/**
 * Version 1 of the action node and of the log trigger must keep every parameter saved workflows
 * rely on: n8n saves a workflow without the parameters left at their default, and a parameter
 * whose type changes (text → resource locator) changes the shape of its saved value. The snapshot
 * was written from the description at 0ef0b53 (before version 2 got lists) and lists, for each
 * resource and operation, the parameters version 1 shows with their type, default and required
 * flag, and the same of each collection option. Custom Field → Get Many, added with version 2
 * and not yet released, has its Group and Object Name lists in every version.
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

type Shown = Record<string, unknown>;

/** A property as saved workflows see it: its type, default, required flag and its options' own. */
function shape(property: INodeProperties | INodePropertyCollection): Shown {
	if (!('type' in property)) {
		return { values: Object.fromEntries(property.values.map((v) => [v.name, shape(v)])) };
	}
	const nested = (property.options ?? []) as Array<
		INodeProperties | INodePropertyCollection | INodePropertyOptions
	>;
	const children =
		property.type === 'collection' || property.type === 'fixedCollection'
			? Object.fromEntries(
					nested.map((o) => [o.name, shape(o as INodeProperties | INodePropertyCollection)]),
				)
			: undefined;
	return {
		type: property.type,
		default: property.default,
		...(property.required ? { required: true } : {}),
		...(property.type === 'options' || property.type === 'multiOptions'
			? { values: nested.map((o) => (o as INodePropertyOptions).value) }
			: {}),
		...(children ? { options: children } : {}),
	};
}

/** The parameters version 1 shows for these parameter values (defaults filled in as n8n does). */
function shownParameters(description: INodeTypeDescription, given: INodeParameters): Shown {
	const node = { typeVersion: 1, parameters: given } as unknown as INode;
	const parameters =
		NodeHelpers.getNodeParameters(description.properties, given, true, false, node, description) ??
		{};
	return Object.fromEntries(
		description.properties
			.filter((p) => NodeHelpers.displayParameter(parameters, p, node, description))
			.map((p) => [p.name, shape(p)]),
	);
}

describe('version 1 keeps its parameters', () => {
	it('action node: every resource and operation', () => {
		const description = new IntegrationPlatform().description;
		const resources = description.properties.find((p) => p.name === 'resource')!
			.options as INodePropertyOptions[];
		const shown: Record<string, Shown> = {};
		for (const { value: resource } of resources) {
			const selector = description.properties.find(
				(p) =>
					p.name === 'operation' &&
					NodeHelpers.displayParameter(
						{ resource } as INodeParameters,
						p,
						{ typeVersion: 1 } as unknown as INode,
						description,
					),
			)!;
			for (const { value: operation } of selector.options as INodePropertyOptions[]) {
				const key = `${String(resource)}.${String(operation)}`;
				shown[key] = shownParameters(description, { resource, operation } as INodeParameters);
			}
		}
		expect(shown).toMatchSnapshot();
	});

	it('log trigger', () => {
		const description = new IntegrationPlatformLogTrigger().description;
		expect(shownParameters(description, {})).toMatchSnapshot();
	});
});
