import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { compareTimestamps } from '../../../common/timestamps';
import { byId, listLocator } from '../../../common/locator';
import {
	fromVersion2,
	installationField,
	integrationField,
	inVersion1,
	returnAllAndLimit,
} from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { entriesUpToLimit } from '../../routing/results';
import { pagedList } from '../../routing/pagedList';

const resource = 'operation';
const showFor = (...operation: string[]) => ({ show: { resource: [resource], operation } });
const showForLogs = showFor('getLogs');

/**
 * The API returns an operation's logs as one bare array in no promised order (docs/api-notes.md, "Operation logs"), so
 * filtering, ordering (by the full microsecond timestamp) and the limit are applied here.
 */
async function logEntries(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('logOptions', {}) as { severity?: unknown; order?: string };
	let entries = Array.isArray(response.body) ? (response.body as IDataObject[]) : [];
	// Text, but an expression may give a list (["ERROR", "WARNING"] reads as "ERROR,WARNING").
	const wanted = String(options.severity ?? '')
		.split(',')
		.map((s) => s.trim().toUpperCase())
		.filter(Boolean);
	if (wanted.length) {
		entries = entries.filter((entry) =>
			wanted.includes(String(entry.severity ?? '').toUpperCase()),
		);
	}
	const order = options.order ?? 'oldestFirst';
	if (order !== 'asReturned') {
		const sign = order === 'newestFirst' ? -1 : 1;
		entries = [...entries].sort((a, b) => sign * compareTimestamps(a.timestamp, b.timestamp));
	}
	return entriesUpToLimit(this, entries);
}

export const operationOperations: OperationDefinition[] = [
	// GET /projects/{projectIdOrName}/operations/{operationId} — docs/api-notes.md, "Operations of
	// an installation".
	{
		name: 'Get',
		value: 'get',
		action: 'Get an operation',
		description:
			'Get a read, write or subscribe operation by ID. Returns its status, result and progress.',
		method: 'GET',
		path: '/projects/{project}/operations/{operationId}',
	},
	// GET …/installations/{installationId}/operations — docs/api-notes.md, "Operations of an
	// installation": paged with pageSize and pageToken (routing/pagedList.ts).
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many operations of an installation',
		description:
			'List the read, write and subscribe operations of an installation. Returns one item per operation: ID, type, status and times (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/projects/{project}/integrations/{integration}/installations/{installation}/operations',
		outputShape: 'pagedResults',
		pagination: pagedList,
	},
	// GET /projects/{projectIdOrName}/operations/{operationId}/logs — docs/api-notes.md, "listOperationLogs".
	{
		name: 'Get Logs',
		value: 'getLogs',
		action: 'Get the logs of an operation',
		description:
			'Get the log entries of a read, write or subscribe operation, oldest first by default, optionally of some severities only. Returns one item per entry: timestamp, severity and message (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/projects/{project}/operations/{operationId}/logs',
		outputShape: 'listEntry',
		output: [logEntries],
	},
];

export const operationFields: INodeProperties[] = [
	// Version 1 keeps its text field; version 2 picks the operation from a list (a resource
	// locator's saved value has another shape than text, docs/architecture.md "Node versions").
	{
		displayName: 'Operation ID',
		name: 'operationId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0b6e…',
		description: 'ID of the operation, as found in read results (operationId) or in the dashboard',
		displayOptions: { show: { ...showFor('get', 'getLogs').show, ...inVersion1 } },
	},
	listLocator({
		displayName: 'Operation ID',
		name: 'operationId',
		description:
			"A read, write or subscribe operation: from the list (the project's recent operations, newest first) or by its ID, as found in read results (operationId)",
		search: 'searchOperations',
		select: 'Select an operation…',
		typed: [byId('0b6e…', { noun: 'operation', format: 'hex' })],
		displayOptions: { show: { ...showFor('get', 'getLogs').show, ...fromVersion2 } },
	}),
	// The shared locators, shown here for the list of an installation's operations.
	{ ...integrationField, displayOptions: showFor('getAll') },
	{ ...installationField, displayOptions: showFor('getAll') },
	...returnAllAndLimit(showFor('getAll', 'getLogs')),
	{
		displayName: 'Options',
		name: 'logOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showForLogs,
		options: [
			{
				displayName: 'Order',
				name: 'order',
				type: 'options',
				default: 'oldestFirst',
				options: [
					{ name: 'Oldest First', value: 'oldestFirst' },
					{ name: 'Newest First', value: 'newestFirst' },
					{ name: 'As Returned', value: 'asReturned' },
				],
				description:
					'The API promises no order; entries are sorted by their full-precision timestamp',
			},
			{
				displayName: 'Severities',
				name: 'severity',
				type: 'string',
				default: '',
				placeholder: 'e.g. ERROR, WARNING',
				description:
					'Keep only entries with these severities (comma-separated, any case). Leave empty for all.',
			},
		],
	},
];
