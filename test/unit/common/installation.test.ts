/**
 * The group's installation in an answer of the integration's installations list (By Group Ref),
 * and the Group picker's modes.
 */
import type { INodePropertyRegexValidation } from 'n8n-workflow';

import {
	groupInstallationLocator,
	installationLocator,
	installationOfGroup,
	noInstallationOfGroup,
} from '../../../nodes/common/installation';

describe('installationOfGroup', () => {
	const acme = { id: 'inst-acme', group: { groupRef: 'acme', groupName: 'Acme' } };
	const other = { id: 'inst-other', group: { groupRef: 'other' } };

	test("finds the group's installation, and only the group's", () => {
		expect(installationOfGroup([other, acme], 'acme')).toBe('inst-acme');
		// A service that ignored ?groupRef= hands over other groups' installations.
		expect(installationOfGroup([other], 'acme')).toBeUndefined();
	});

	test.each([
		['not a list', { id: 'inst-acme', group: { groupRef: 'acme' } }],
		['an entry without an ID', [{ group: { groupRef: 'acme' } }]],
		['an ID that is not text', [{ id: 7, group: { groupRef: 'acme' } }]],
		['no group', [{ id: 'inst-acme' }, null, 'acme']],
	])('%s: no installation', (_what, answer) => {
		expect(installationOfGroup(answer, 'acme')).toBeUndefined();
	});

	test('the refusal names the group and where to fix it', () => {
		const { message, description } = noInstallationOfGroup('acme');
		expect(message).toBe('Group "acme" has no installation of this integration');
		expect(description).toContain('Installation → Create');
	});
});

describe('the Group picker', () => {
	test('same parameter and list as the Installation picker, under the word Group', () => {
		expect(groupInstallationLocator.name).toBe(installationLocator.name);
		expect(groupInstallationLocator.displayName).toBe('Group');
		expect(installationLocator.displayName).toBe('Installation');
		expect(groupInstallationLocator.modes?.[0].typeOptions).toEqual(
			installationLocator.modes?.[0].typeOptions,
		);
	});

	test("By ID checks an installation ID as the Installation picker's does; its placeholder names the installation ID and its message By Group Ref", () => {
		const byId = installationLocator.modes?.find((m) => m.name === 'id');
		const groupById = groupInstallationLocator.modes?.find((m) => m.name === 'id');
		expect(groupById?.placeholder).toBe('e.g. 9b3f0e1a-… (the installation ID)');
		const rule = (mode: typeof byId) =>
			(mode?.validation?.[0] as INodePropertyRegexValidation | undefined)?.properties;
		expect(rule(groupById)?.regex).toBe(rule(byId)?.regex);
		expect(rule(groupById)?.errorMessage).toBe(
			'Not an installation ID (IDs are UUIDs): choose "By Group Ref" or pick it from the list',
		);
	});
});
