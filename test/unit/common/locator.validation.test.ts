/**
 * nodes/common/locator.ts: every "By ID" mode checks its value with n8n's locator validation, so
 * a name typed there is refused in the editor (and by n8n before a run) with a message that names
 * the mode to use; `locatorProblem` applies the same check to what an expression gives.
 */
import type { INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ID_FORMATS, byId, locatorProblem } from '../../../nodes/common/locator';
import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { IntegrationPlatformLogTrigger } from '../../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node';
import { IntegrationPlatformTrigger } from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';

const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });
const UUID = '1a8ac63d-79d7-4d0c-aecc-dd8821b00439';

/** Every resource locator of a node, options of collections included. */
function locators(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).filter(
			(option): option is INodeProperties => 'type' in option && 'default' in option,
		);
		return [...(property.type === 'resourceLocator' ? [property] : []), ...locators(nested)];
	});
}

/** n8n's own check of a node's parameters (the editor's issues, and the check before a run). */
function issuesOf(
	description: INodeTypeDescription,
	typeVersion: number,
	parameters: INodeParameters,
): Record<string, string[]> {
	const node: INode = {
		id: '1',
		name: 'Node',
		type: description.name,
		typeVersion,
		position: [0, 0],
		parameters,
	};
	const issues = NodeHelpers.getNodeParametersIssues(description.properties, node, description);
	return (issues?.parameters ?? {}) as Record<string, string[]>;
}

const action = new IntegrationPlatform().description;
const logTrigger = new IntegrationPlatformLogTrigger().description;
const eventTrigger = new IntegrationPlatformTrigger().description;

test('every "By ID" mode of the three nodes checks its value, except the project\'s, which takes names too', () => {
	const all = [action, logTrigger, eventTrigger].flatMap((d) => locators(d.properties));
	const byIdModes = all.flatMap((field) =>
		(field.modes ?? [])
			.filter((mode) => mode.displayName === 'By ID')
			.map((mode) => ({ field: field.displayName, name: field.name, mode })),
	);
	expect(byIdModes.length).toBeGreaterThan(15);
	for (const { field, name, mode } of byIdModes) {
		if (name === 'project') {
			expect(mode.validation).toBeUndefined();
			continue;
		}
		expect({ field, name, rules: mode.validation?.length ?? 0 }).toEqual({ field, name, rules: 1 });
	}
});

describe('n8n refuses a name in "By ID", naming the mode to use', () => {
	test('Integration By ID (Installation → Get): not an ID, pick it from the list', () => {
		const issues = issuesOf(action, 2, {
			resource: 'installation',
			operation: 'get',
			project: rl('demo-project', 'name'),
			integration: rl('hubspot-sync'),
			installation: rl(UUID),
		});
		expect(issues.integration).toEqual([
			'Not an integration ID (IDs are UUIDs): pick it from the list ("From List")',
		]);
		expect(issues.installation).toBeUndefined();
	});

	test('Integration → Get, which has "By Name": the message sends the name there', () => {
		const issues = issuesOf(action, 2, {
			resource: 'integration',
			operation: 'get',
			project: rl('demo-project', 'name'),
			integration: rl('hubspot-sync'),
		});
		expect(issues.integration).toEqual([
			'Not an integration ID (IDs are UUIDs): choose "By Name" or pick it from the list',
		]);
		// The same name "By Name", and an ID "By ID", are fine.
		for (const integration of [rl('hubspot-sync', 'name'), rl(UUID)]) {
			expect(
				issuesOf(action, 2, {
					resource: 'integration',
					operation: 'get',
					project: rl('demo-project', 'name'),
					integration,
				}).integration,
			).toBeUndefined();
		}
	});

	test('the log trigger: Integration and Installation By ID', () => {
		const issues = issuesOf(logTrigger, 2, {
			watch: 'installation',
			project: rl('demo-project', 'name'),
			integration: rl('hubspot-sync'),
			installation: rl('acme-group'),
		});
		expect(issues.integration?.[0]).toMatch(/^Not an integration ID/);
		expect(issues.installation?.[0]).toMatch(/^Not an installation ID/);
	});

	test('an expression is left to the run; an empty value only to the "required" check', () => {
		const issues = issuesOf(action, 2, {
			resource: 'installation',
			operation: 'get',
			project: rl('demo-project', 'name'),
			integration: rl('={{ "hubspot-sync" }}'),
			installation: rl(''),
		});
		expect(issues.integration).toBeUndefined();
		expect(issues.installation).toEqual(['Parameter "Installation" is required.']);
	});
});

describe('the ID formats', () => {
	const matches = (format: keyof typeof ID_FORMATS, value: string) =>
		new RegExp(`^${ID_FORMATS[format].regex}$`).test(value);

	test.each([
		['uuid', UUID, true],
		['uuid', UUID.toUpperCase(), true],
		['uuid', 'hubspot-sync', false],
		// Spaces around an ID are trimmed by the node; spaces alone are the "required" check's.
		['uuid', ` ${UUID} `, true],
		['uuid', '   ', true],
		['uuid', `${UUID}x`, false],
		['uuid', '1234567890abcdef', false],
		['hex', UUID, true],
		['hex', '1234567890abcdef', true],
		['hex', 'n8n-webhook', false],
		['hex', 'alerts', false],
		['hex', 'cafe', false],
	] as const)('%s: %p → %p', (format, value, ok) => {
		expect(matches(format, value)).toBe(ok);
	});
});

describe('locatorProblem: the run checks what an expression gave', () => {
	const field = {
		displayName: 'Integration',
		modes: [byId('1a7e…', { noun: 'integration', format: 'uuid', nameMode: 'By Name' })],
	};

	test('a name in "By ID": the field, the value and the mode to use', () => {
		expect(locatorProblem(field, 'id', 'hubspot-sync')).toBe(
			'"Integration" (By ID): "hubspot-sync" is not an integration ID (IDs are UUIDs): choose "By Name" or pick it from the list',
		);
	});

	test('an ID, another mode, a value saved as plain text (no mode) or nothing: no problem', () => {
		expect(locatorProblem(field, 'id', UUID)).toBeUndefined();
		expect(locatorProblem(field, 'name', 'hubspot-sync')).toBeUndefined();
		expect(locatorProblem(field, '', 'hubspot-sync')).toBeUndefined();
		expect(locatorProblem(field, 'id', '')).toBeUndefined();
	});
});
