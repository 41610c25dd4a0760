/**
 * What the editor shows for each version, resource and operation, in the order it shows it: n8n
 * lists a node's fields in the order of its properties, whichever definition of a name is shown.
 * The snapshot pins that order, so that defining a shared field once (docs/n8n-notes.md, "Per-item
 * cost of routing") cannot move a field in the editor unnoticed. Besides the defaults, each
 * options field of an operation is tried with each of its values, and each boolean with `true`.
 */
import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';

const description = new IntegrationPlatform().description;

function shown(version: number, given: INodeParameters): string[] {
	const node = { typeVersion: version, parameters: given } as unknown as INode;
	const parameters =
		NodeHelpers.getNodeParameters(description.properties, given, true, false, node, description) ??
		{};
	return description.properties
		.filter((p) => NodeHelpers.displayParameter(parameters, p, node, description))
		.map((p) => `${p.name} (${p.displayName})`);
}

/** The parameter values to try: the defaults, then one changed options or boolean field at a time. */
function variants(version: number, base: INodeParameters): INodeParameters[] {
	const tried: INodeParameters[] = [base];
	const shownHere = shown(version, base);
	const fields = description.properties.filter(
		(p): p is INodeProperties =>
			(p.type === 'options' || p.type === 'boolean') &&
			!['resource', 'operation', 'authentication'].includes(p.name) &&
			shownHere.includes(`${p.name} (${p.displayName})`),
	);
	for (const field of fields) {
		const values =
			field.type === 'boolean'
				? [true]
				: ((field.options ?? []) as INodePropertyOptions[])
						.map((o) => o.value)
						.filter((v) => v !== field.default);
		for (const value of values) tried.push({ ...base, [field.name]: value });
	}
	return tried;
}

function operationsOf(version: number, resource: string): string[] {
	const node = { typeVersion: version } as unknown as INode;
	const selector = description.properties.find(
		(p) =>
			p.name === 'operation' &&
			NodeHelpers.displayParameter(
				{ resource } as INodeParameters,
				p,
				node,
				description as INodeTypeDescription,
			),
	)!;
	return (selector.options as INodePropertyOptions[]).map((o) => String(o.value));
}

describe('fields in the editor, in order', () => {
	const resources = (
		description.properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]
	).map((o) => String(o.value));

	it.each([1, 2, 3])('version %i', (version) => {
		const listed: Record<string, string[]> = {};
		for (const resource of resources) {
			for (const operation of operationsOf(version, resource)) {
				for (const given of variants(version, { resource, operation })) {
					const changed = Object.entries(given)
						.filter(([name]) => name !== 'resource' && name !== 'operation')
						.map(([name, value]) => `${name}=${String(value)}`);
					const key = [`${resource}.${operation}`, ...changed].join(' ');
					listed[key] = shown(version, given);
				}
			}
		}
		expect(listed).toMatchSnapshot();
	});
});
