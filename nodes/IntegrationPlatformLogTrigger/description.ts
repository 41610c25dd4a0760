import type { INodeProperties } from 'n8n-workflow';

import { authenticationParameter } from '../common/api';
import { groupInstallationLocator, integrationLocator } from '../common/installation';
import { byId, listLocator } from '../common/locator';
import { projectLocator } from '../common/project';
import { COMMON_SEVERITIES } from './output';

/**
 * The log trigger's parameters. Version 1 watches operation IDs only; version 2 adds "Watch"
 * (a group's installation, an integration, or operation IDs as before); version 3 picks the
 * operations from a list. Older versions keep their parameters and behaviour: an existing workflow
 * has no "Watch" value, and the new default (Group, value `installation`) must not change what it
 * does.
 */
export type Watch = 'installation' | 'integration' | 'operationIds';

const fromVersion2 = { '@version': [{ _cnd: { gte: 2 } }] };
const fromVersion3 = { '@version': [{ _cnd: { gte: 3 } }] };

const projectParameter: INodeProperties = {
	...projectLocator,
	description: 'The project of the operations, chosen from the list or given by name or ID',
};

const operationIdsV1: INodeProperties = {
	displayName: 'Operation IDs',
	name: 'operationIds',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. c2a119dc-a2d7-4ae8-ae63-253ae241f5e9, e9e11e31-8a3d-4636-99f7-3259e3be055b',
	description:
		'One or more operation IDs (read, write or subscribe operations), separated by commas or new lines. An expression may also return a list.',
	displayOptions: { show: { '@version': [1] } },
};

/**
 * Version 3's operations: one row per operation, each picked from the project's recent operations
 * (listSearch.ts) or given by ID; an expression in a row may give a list of IDs. Versions 1 and 2
 * keep the text field their saved workflows hold (a fixed collection's saved value has another
 * shape than text).
 */
export const operationsParameter: INodeProperties = {
	displayName: 'Operations',
	name: 'operations',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Operation',
	default: { operation: [{ operationId: { mode: 'list', value: '' } }] },
	description: 'The operations whose logs are watched (read, write or subscribe operations)',
	displayOptions: { show: { ...fromVersion3, watch: ['operationIds'] } },
	options: [
		{
			displayName: 'Operation',
			name: 'operation',
			values: [
				listLocator({
					displayName: 'Operation',
					name: 'operationId',
					description:
						'An operation of the project: from the list (type, integration, group, status, start) or by ID, as read results (operationId) and the dashboard show it',
					search: 'searchOperations',
					select: 'Select an operation…',
					typed: [byId('c2a119dc-a2d7-4ae8-…', { noun: 'operation', format: 'hex' })],
				}),
			],
		},
	],
};

const watchParameter: INodeProperties = {
	displayName: 'Watch',
	name: 'watch',
	type: 'options',
	noDataExpression: true,
	default: 'installation',
	options: [
		{
			name: 'Group',
			value: 'installation',
			description:
				"Every operation of one group's installation of the integration (reads, writes, subscribes), including those started later",
		},
		{
			name: 'Integration',
			value: 'integration',
			description: 'Every operation of the integration, for every group that has it installed',
		},
		{
			name: 'Operation IDs',
			value: 'operationIds',
			description: 'Only the operations whose IDs you enter',
		},
	],
	displayOptions: { show: fromVersion2 },
};

const filterParameters: INodeProperties[] = [
	{
		displayName: 'Severities',
		name: 'severities',
		type: 'multiOptions',
		default: [],
		options: COMMON_SEVERITIES.map((s) => ({ name: s, value: s })),
		description:
			'Emit only entries with these severities (any case). Leave empty for every severity. The API does not list its severities; add others under Options → Custom Severities.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Custom Severities',
				name: 'customSeverities',
				type: 'string',
				default: '',
				placeholder: 'e.g. WARN, FATAL',
				description:
					'More severities to emit, separated by commas (any case); combined with Severities',
			},
			{
				displayName: 'Emit Existing Entries on First Poll',
				name: 'emitExisting',
				type: 'boolean',
				default: false,
				description:
					'Whether the first poll emits entries that already exist (for a group or an integration: of the operations created in the last 24 hours and of those still running). Off: the trigger starts from now and emits only entries that appear later.',
			},
			{
				displayName: 'Message Contains',
				name: 'messageContains',
				type: 'string',
				default: '',
				placeholder: 'e.g. rate limit',
				description:
					'Emit only entries whose message text (msg) or error contains this text, ignoring case',
			},
		],
	},
];

export const properties: INodeProperties[] = [
	authenticationParameter,
	watchParameter,
	projectParameter,
	{
		...integrationLocator,
		description:
			"The integration whose groups' operations are watched, chosen from the list or given by ID",
		displayOptions: { show: { ...fromVersion2, watch: ['installation', 'integration'] } },
	},
	{
		...groupInstallationLocator,
		displayOptions: { show: { ...fromVersion2, watch: ['installation'] } },
	},
	operationIdsV1,
	{
		...operationIdsV1,
		description:
			'One or more operation IDs (read, write or subscribe operations), separated by commas or new lines. An expression may also return a list.',
		displayOptions: { show: { '@version': [2], watch: ['operationIds'] } },
	},
	operationsParameter,
	...filterParameters,
];
