/**
 * The log trigger's description (n8n conventions for polling triggers) and its pure output
 * helpers (nodes/IntegrationPlatformLogTrigger/output.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { IntegrationPlatformLogTrigger } from '../../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node';
import { normalizeEntries } from '../../../nodes/IntegrationPlatformLogTrigger/logCursor';
import {
	buildFilters,
	COMMON_SEVERITIES,
	matchesFilters,
	parseOperationIds,
	toItem,
} from '../../../nodes/IntegrationPlatformLogTrigger/output';

const ROOT = path.resolve(__dirname, '../../..');
const node = new IntegrationPlatformLogTrigger();
const { description } = node;
const property = (name: string) =>
	description.properties.find((p) => p.name === name) as INodeProperties;

describe('description', () => {
	test('a polling trigger named as the lint rules want, without usableAsTool', () => {
		expect(description).toMatchObject({
			name: 'integrationPlatformLogTrigger',
			displayName: 'Integration Platform Log Trigger',
			polling: true,
			group: ['trigger'],
			inputs: [],
			outputs: ['main'],
			version: [1, 2, 3],
			defaultVersion: 3,
		});
		expect(description.usableAsTool).toBeUndefined();
		expect(description.subtitle).toMatch(/^=/);
	});

	test('light and dark icons exist; the codex file names the node, Development, Ampersand', () => {
		const icon = description.icon as { light: string; dark: string };
		const dir = path.join(ROOT, 'nodes/IntegrationPlatformLogTrigger');
		for (const file of [icon.light, icon.dark])
			expect(fs.existsSync(path.join(dir, file.replace(/^file:/, '')))).toBe(true);
		expect(icon.light).not.toBe(icon.dark);
		const codex = JSON.parse(
			fs.readFileSync(path.join(dir, 'IntegrationPlatformLogTrigger.node.json'), 'utf8'),
		);
		expect(codex).toMatchObject({
			node: 'n8n-nodes-integration-platform.integrationPlatformLogTrigger',
			categories: ['Development'],
			alias: expect.arrayContaining(['Ampersand']),
		});
	});

	test('the same credential choice as the action node', () => {
		const action = new IntegrationPlatform().description;
		expect(description.credentials).toEqual(action.credentials);
		expect(property('authentication')).toEqual(
			action.properties.find((p) => p.name === 'authentication'),
		);
	});

	test('project: resource locator (list via searchProjects, by name, by ID); the search is registered', () => {
		const project = property('project');
		expect(project.type).toBe('resourceLocator');
		expect(project.modes?.map((m) => m.name)).toEqual(['list', 'name', 'id']);
		expect(project.modes?.[0].typeOptions?.searchListMethod).toBe('searchProjects');
		expect(typeof node.methods.listSearch.searchProjects).toBe('function');
	});

	test('operation IDs (text, expressions allowed), severities (the common levels), options', () => {
		expect(property('operationIds')).toMatchObject({ type: 'string', required: true });
		expect(property('operationIds').noDataExpression).toBeUndefined();
		expect(property('severities')).toMatchObject({ type: 'multiOptions', default: [] });
		expect(property('severities').options?.map((o) => (o as { value: string }).value)).toEqual(
			COMMON_SEVERITIES,
		);
		const options = property('options').options as INodeProperties[];
		expect(options.map((o) => [o.name, o.default])).toEqual([
			['customSeverities', ''],
			['emitExisting', false],
			['messageContains', ''],
		]);
	});

	test('registered in package.json after the action node', () => {
		const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
		const nodes: string[] = pkg.n8n.nodes;
		const index = nodes.indexOf(
			'dist/nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node.js',
		);
		expect(index).toBe(
			nodes.indexOf('dist/nodes/IntegrationPlatform/IntegrationPlatform.node.js') + 1,
		);
	});
});

describe('version 2: Watch', () => {
	const all = (name: string) => description.properties.filter((p) => p.name === name);

	test('Watch (Group by default, Integration, Operation IDs) exists from version 2 only', () => {
		const watch = property('watch');
		expect(watch).toMatchObject({ type: 'options', default: 'installation' });
		// The values saved workflows hold stay; the user's word for a group's installation is Group.
		expect(
			watch.options?.map(
				(o) => `${(o as { name: string }).name}=${(o as { value: string }).value}`,
			),
		).toEqual(['Group=installation', 'Integration=integration', 'Operation IDs=operationIds']);
		expect(watch.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 2 } }]);
	});

	test('version 1 keeps Operation IDs as it was; version 2 shows it for Watch: Operation IDs', () => {
		const [v1, v2] = all('operationIds');
		expect(v1.displayOptions?.show).toEqual({ '@version': [1] });
		expect(v2.displayOptions?.show).toMatchObject({ watch: ['operationIds'] });
	});

	test('integration and installation are resource locators with registered searches', () => {
		for (const [name, method, watches] of [
			['integration', 'searchIntegrations', ['installation', 'integration']],
			['installation', 'searchInstallations', ['installation']],
		] as const) {
			const p = property(name);
			expect(p.type).toBe('resourceLocator');
			expect(p.modes?.[0].typeOptions?.searchListMethod).toBe(method);
			expect(p.displayOptions?.show?.watch).toEqual(watches);
			expect(typeof (node.methods.listSearch as Record<string, unknown>)[method]).toBe('function');
		}
	});

	test('the installation is picked as a Group: from the list, by group ref or by installation ID (By ID)', () => {
		const p = property('installation');
		expect(p.displayName).toBe('Group');
		expect(p.modes?.map((m) => `${m.displayName}=${m.name}`)).toEqual([
			'From List=list',
			'By Group Ref=groupRef',
			'By ID=id',
		]);
		expect(p.modes?.[0].placeholder).toBe('Select a group…');
		expect(description.subtitle).toContain('"Logs of a group"');
	});
});

describe("the editor's trigger panel", () => {
	// n8n labels the test button "Fetch Test Event" (header, trigger panel) and "Test this trigger"
	// (empty output panel); the panel's help is the node's to say that both are one action.
	test('its help names both test buttons as the same action, and what it returns', () => {
		const panel = description.triggerPanel as {
			header?: string;
			executionsHelp?: { active: string; inactive: string };
		};
		expect(panel.header).toBe('Fetch the latest log entries');
		for (const help of [panel.executionsHelp?.inactive, panel.executionsHelp?.active]) {
			expect(help).toContain('<b>Fetch Test Event</b>');
			expect(help).toContain("the output panel's <b>Test this trigger</b> does the same");
			expect(help).toContain('the latest 5 log entries');
			expect(help).not.toContain('mock event');
		}
	});
});

describe('filters', () => {
	const entry = (severity: unknown, message: unknown) =>
		normalizeEntries('op', [{ timestamp: '2025-01-01T00:00:00Z', severity, message }])[0];

	test('severities from the list and custom text, any case, deduplicated', () => {
		expect(buildFilters(['ERROR', 'warning'], 'Warn; fatal ,ERROR', '  TimeOut ')).toEqual({
			severities: ['ERROR', 'WARNING', 'WARN', 'FATAL'],
			text: 'timeout',
		});
		expect(buildFilters(undefined, undefined, undefined)).toEqual({ severities: [], text: '' });
	});

	test('severity match ignores case and surrounding space; no severity filter keeps all', () => {
		const f = buildFilters(['ERROR'], 'warn', '');
		expect(matchesFilters(entry(' error ', { msg: 'x' }), f)).toBe(true);
		expect(matchesFilters(entry('Warn', { msg: 'x' }), f)).toBe(true);
		expect(matchesFilters(entry('WARNING', { msg: 'x' }), f)).toBe(false);
		expect(matchesFilters(entry(undefined, { msg: 'x' }), f)).toBe(false);
		expect(matchesFilters(entry('ANY', { msg: 'x' }), buildFilters([], '', ''))).toBe(true);
	});

	test('text: contained in message.msg or message.error, ignoring case; other fields do not count', () => {
		const f = buildFilters([], '', 'Rate Limit');
		expect(matchesFilters(entry('INFO', { msg: 'Provider RATE LIMIT reached' }), f)).toBe(true);
		expect(matchesFilters(entry('ERROR', { msg: 'Failed', error: 'rate limit exceeded' }), f)).toBe(
			true,
		);
		expect(matchesFilters(entry('INFO', { msg: 'ok', details: { note: 'rate limit' } }), f)).toBe(
			false,
		);
		expect(matchesFilters(entry('INFO', 'rate limit as a bare string'), f)).toBe(true);
		expect(matchesFilters(entry('INFO', null), f)).toBe(false);
	});
});

describe('items', () => {
	test('the entry as returned, plus timestampIso, operationId, projectId and entryKey', () => {
		const [e] = normalizeEntries('op-1', [
			{
				timestamp: '2023-07-13T21:34:44.816354Z',
				severity: 'DEBUG',
				message: { msg: 'm' },
				extra: 1,
			},
		]);
		expect(toItem(e, 'project-1')).toEqual({
			timestamp: '2023-07-13T21:34:44.816354Z',
			severity: 'DEBUG',
			message: { msg: 'm' },
			extra: 1,
			timestampIso: '2023-07-13T21:34:44.816354Z',
			operationId: 'op-1',
			projectId: 'project-1',
			entryKey: e.entryKey,
		});
	});

	test('undated or partial entries get nulls rather than missing fields', () => {
		const [e] = normalizeEntries('op-1', ['text only']);
		expect(toItem(e, 'p')).toMatchObject({
			timestamp: null,
			severity: null,
			message: 'text only',
			timestampIso: null,
		});
	});
});

describe('parseOperationIds', () => {
	test('text with commas, semicolons, spaces or lines; lists from expressions; duplicates once', () => {
		expect(parseOperationIds(' a, b;c\n d  a ')).toEqual(['a', 'b', 'c', 'd']);
		expect(parseOperationIds(['a', 'b, c', 7, null, { x: 1 }])).toEqual(['a', 'b', 'c', '7']);
		expect(parseOperationIds(undefined)).toEqual([]);
		expect(parseOperationIds(' , ')).toEqual([]);
	});
});
