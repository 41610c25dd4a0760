/**
 * The example workflows (examples/) set every resource locator in a mode that matches its value,
 * as the editor shows it: "By ID" holds an ID, "By Name" a name, and a mode's own validation
 * passes. A project "By ID" holding its name works against the API (it takes either) but shows
 * the user the wrong thing.
 */
import fs from 'node:fs';
import path from 'node:path';

import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyMode,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { IntegrationPlatform } from '../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { IntegrationPlatformLogTrigger } from '../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node';
import { IntegrationPlatformTrigger } from '../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const PACKAGE = 'n8n-nodes-integration-platform';

/** The package's node types by the type name examples use (the Tool is the action node as a tool). */
const descriptions: Record<string, INodeTypeDescription> = {
	[`${PACKAGE}.integrationPlatform`]: new IntegrationPlatform().description,
	[`${PACKAGE}.integrationPlatformTool`]: new IntegrationPlatform().description,
	[`${PACKAGE}.integrationPlatformLogTrigger`]: new IntegrationPlatformLogTrigger().description,
	[`${PACKAGE}.integrationPlatformTrigger`]: new IntegrationPlatformTrigger().description,
};

/** The API's IDs are UUIDs (the simulator's too); names are not. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Property = INodeProperties | INodePropertyCollection | INodePropertyOptions;

function allProperties(properties: readonly Property[]): INodeProperties[] {
	return properties.flatMap((p) => {
		const nested = 'options' in p && Array.isArray(p.options) ? allProperties(p.options) : [];
		const values = 'values' in p && Array.isArray(p.values) ? allProperties(p.values) : [];
		return 'type' in p ? [p as INodeProperties, ...nested, ...values] : [...nested, ...values];
	});
}

interface Locator {
	where: string;
	parameter: string;
	mode: string;
	value: unknown;
	modes: INodePropertyMode[];
}

/** Every resource locator of every package node in the examples, with the modes its node defines. */
function locators(): Locator[] {
	return fs
		.readdirSync(EXAMPLES)
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => {
			const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8')) as {
				nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
			};
			return workflow.nodes
				.filter((node) => node.type in descriptions)
				.flatMap((node) => {
					const properties = allProperties(descriptions[node.type].properties);
					return Object.entries(node.parameters)
						.filter(
							([, value]) =>
								typeof value === 'object' && value !== null && '__rl' in (value as object),
						)
						.map(([parameter, value]) => {
							const rl = value as { mode: string; value: unknown };
							return {
								where: `${file} → ${node.name} → ${parameter}`,
								parameter,
								mode: rl.mode,
								value: rl.value,
								modes: properties
									.filter((p) => p.name === parameter && p.type === 'resourceLocator')
									.flatMap((p) => p.modes ?? []),
							};
						});
				});
		});
}

/** What is wrong with one locator's mode for its value, or undefined. */
function modeProblem(locator: Locator): string | undefined {
	const modes = locator.modes.filter((m) => m.name === locator.mode);
	if (modes.length === 0) return `mode "${locator.mode}" is not one of the parameter's modes`;
	const value = locator.value;
	// Expressions ($fromAI in the MCP example) are whatever they evaluate to.
	if (typeof value !== 'string' || value.startsWith('=')) return undefined;
	const labels = new Set(modes.map((m) => m.displayName));
	if (labels.size === 1 && labels.has('By ID') && !UUID.test(value)) {
		return `"By ID" holds "${value}", which is not an ID`;
	}
	if (labels.size === 1 && labels.has('By Name') && UUID.test(value)) {
		return `"By Name" holds "${value}", an ID`;
	}
	for (const mode of modes) {
		for (const rule of Array.isArray(mode.validation) ? mode.validation : []) {
			if (typeof rule === 'object' && rule.type === 'regex') {
				const { regex, errorMessage } = rule.properties as { regex: string; errorMessage: string };
				if (!new RegExp(regex).test(value)) return `"${value}": ${errorMessage}`;
			}
		}
	}
	return undefined;
}

const found = locators();

test('the examples have resource locators of every package node type to check', () => {
	expect(found.length).toBeGreaterThan(50);
	const types = new Set(found.map((l) => l.where.split(' → ')[0]));
	expect(types).toContain('event-trigger.json');
	expect(types).toContain('log-trigger.json');
});

test('every resource locator in examples/ uses the mode that matches its value', () => {
	const problems = found.flatMap((l) => {
		const problem = modeProblem(l);
		return problem ? [`${l.where}: ${problem}`] : [];
	});
	expect(problems).toEqual([]);
});

describe('the check itself fails on a mismatch', () => {
	const project = found.find((l) => l.parameter === 'project' && l.mode === 'name')!;

	test.each([
		['a name "By ID"', { mode: 'id', value: 'demo-project' }, /not an ID/],
		['an ID "By Name"', { mode: 'name', value: '8247df9c-e563-4e96-9173-550b9f0e8a95' }, /an ID/],
		['a mode the parameter lacks', { mode: 'url', value: 'x' }, /not one of the parameter's modes/],
	])('%s', (_what, change, problem) => {
		expect(modeProblem({ ...project, ...change })).toMatch(problem);
	});

	test("a mode's own validation (the event trigger's Destination, version 3)", () => {
		const properties = allProperties(
			descriptions[`${PACKAGE}.integrationPlatformTrigger`].properties,
		).filter((p) => p.name === 'destinationName' && p.type === 'resourceLocator');
		const destination: Locator = {
			where: 'a version-3 event trigger',
			parameter: 'destinationName',
			mode: 'name',
			value: 'n8n-webhook',
			modes: properties.flatMap((p) => p.modes ?? []),
		};
		expect(modeProblem(destination)).toBeUndefined();
		expect(modeProblem({ ...destination, value: 'n8n webhook' })).toMatch(
			/letters, digits and dashes/,
		);
	});
});
