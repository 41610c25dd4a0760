import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { byGroupRef, byId, listLocator } from '../../../common/locator';
import { fromVersion2, inVersion1, objectLocator, returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { deletedOutput, listOutput } from '../outputs';
import { buildConfigChanges, buildCreateBody, buildUpdateBody, groupRefFilter } from './body';
import { buildUnpauseBody, readsResult } from './reads';

const resource = 'installation';
const showFor = (...operation: string[]) => ({ show: { resource: [resource], operation } });
const showForUnpause = showFor('unpauseReads', 'pauseReads');

const installationPath =
	'/projects/{project}/integrations/{integration}/installations/{installation}';

export const installationOperations: OperationDefinition[] = [
	// POST …/integrations/{integrationId}/installations — docs/api-notes.md, "Installations": 201 Installation.
	{
		name: 'Create',
		value: 'create',
		action: 'Create an installation',
		description:
			"Install an integration for a group, with its config; the group's connection to the provider is used. Returns the new installation with its config and connection.",
		method: 'POST',
		path: '/projects/{project}/integrations/{integration}/installations',
		body: { groupRef: '{groupRef}' },
		preSend: [buildCreateBody],
	},
	// DELETE …/installations/{installationId} — docs/api-notes.md, "Installations": 204; the service
	// also deletes the connection when no other installation uses it.
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete an installation',
		description:
			'Delete an installation (and its connection, when no other installation uses it). Returns deleted: true and the installation ID.',
		method: 'DELETE',
		path: installationPath,
		...deletedOutput('installationId', 'installation'),
	},
	// GET …/installations/{installationId} — docs/api-notes.md, "Installations".
	{
		name: 'Get',
		value: 'get',
		action: 'Get an installation',
		description:
			'Get an installation by ID. Returns it with its group, connection, config and health status.',
		method: 'GET',
		path: installationPath,
	},
	// GET …/objects/{objectName}/backfill-progress — docs/api-notes.md, "Installations".
	{
		name: 'Get Backfill Progress',
		value: 'getBackfillProgress',
		action: 'Get the backfill progress of an object',
		description:
			"Get how many records the initial read of an object has processed so far. Returns the object, the read's operation ID and the records processed.",
		method: 'GET',
		path: `${installationPath}/objects/{objectName}/backfill-progress`,
	},
	// GET …/integrations/{integrationId}/installations — docs/api-notes.md, "Installations": a bare array.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many installations of an integration',
		description:
			'List the installations of an integration, optionally of one group. Returns one item per installation: ID, group, connection, config and health (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/projects/{project}/integrations/{integration}/installations',
		preSend: [groupRefFilter],
		...listOutput,
	},
	// GET /projects/{projectIdOrName}/installations — docs/api-notes.md, "Installations": every
	// integration's installations, a bare array.
	{
		name: 'Get Many in Project',
		value: 'getAllInProject',
		action: 'Get many installations of a project',
		description:
			'List the installations of every integration of the project, optionally of one group. Returns one item per installation: ID, integration, group, connection, config and health (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/projects/{project}/installations',
		preSend: [groupRefFilter],
		...listOutput,
	},
	// POST {read_url}/v1/…/installations/{installationId}:pause — docs/api-notes.md, "unpauseReads"
	// and "Installations": the read host, X-Api-Key only; 204.
	{
		name: 'Pause Reads',
		value: 'pauseReads',
		action: 'Pause the reads of an installation',
		description:
			'Stop the scheduled reads of some or all objects until they are unpaused. Uses the read API host. Returns paused: true, the installation ID and the objects.',
		method: 'POST',
		path: `${installationPath}:pause`,
		host: 'read',
		requires: 'apiKey',
		preSend: [buildUnpauseBody],
		outputShape: { reads: 'paused' },
		output: [readsResult('paused')],
	},
	// POST {read_url}/v1/…/installations/{installationId}:unpause — docs/api-notes.md, "unpauseReads": the read
	// host, which accepts only X-Api-Key; 204.
	{
		name: 'Unpause Reads',
		value: 'unpauseReads',
		action: 'Unpause the reads of an installation',
		description:
			'Resume scheduled reads that were paused (by hand or after repeated failures). Uses the read API host. Returns unpaused: true, the installation ID and the objects.',
		method: 'POST',
		path: `${installationPath}:unpause`,
		host: 'read',
		requires: 'apiKey',
		preSend: [buildUnpauseBody],
		outputShape: { reads: 'unpaused' },
		output: [readsResult('unpaused')],
	},
	// PATCH …/integrations/{integrationId}/objects/{objectName}/config-content — docs/api-notes.md,
	// "Installations": JSON Patch operations on one object's config; 200 Installation.
	{
		name: 'Update Object Config',
		value: 'updateObjectConfig',
		action: "Update an object's config in an installation",
		description:
			"Change one object's read, write or subscribe config with JSON Patch operations (add, remove, replace). Returns the updated installation.",
		method: 'PATCH',
		path: '/projects/{project}/integrations/{integration}/objects/{objectName}/config-content',
		body: { installationId: '{installation}', action: '{configAction}' },
		preSend: [buildConfigChanges],
	},
	// PATCH …/installations/{installationId} — docs/api-notes.md, "Installations": `{ updateMask,
	// installation }`; the mask is built from the fields given.
	{
		name: 'Update',
		value: 'update',
		action: 'Update an installation',
		description:
			'Change the connection, or replace the config of some objects (field masks built for you). Returns the updated installation.',
		method: 'PATCH',
		path: installationPath,
		preSend: [buildUpdateBody],
	},
];

/** Version 2's Connection option: a connection of the project, from the list or by ID. */
const connectionOption = (description: string): INodeProperties =>
	listLocator({
		displayName: 'Connection',
		name: 'connectionId',
		description,
		search: 'searchConnections',
		select: 'Select a connection…',
		typed: [byId('4c0d…', { noun: 'connection', format: 'hex' })],
		required: false,
	});

const objectsJson = (action: string, what: string): INodeProperties => ({
	displayName: `${action} Objects (JSON)`,
	name: `${action.toLowerCase()}Objects`,
	type: 'json',
	default: '{}',
	description: what,
});

/** Version 1's Connection option: the connection's ID, typed. */
const connectionText = (description: string): INodeProperties => ({
	displayName: 'Connection ID',
	name: 'connectionId',
	type: 'string',
	default: '',
	description,
});

/** Create's Additional Fields in one version span, with that span's Connection option. */
const createFields = (
	version: IDataObject,
	connection: (description: string) => INodeProperties,
): INodeProperties => ({
	displayName: 'Additional Fields',
	name: 'createFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	displayOptions: { show: { ...showFor('create').show, ...version } },
	options: [
		connection("The group's connection to use; leave out for the group's default connection"),
		{
			displayName: 'Created By',
			name: 'createdBy',
			type: 'string',
			default: '',
			placeholder: 'e.g. api:n8n',
			description: 'Who created the config: consumer:{ID}, builder:{ID} or api:{caller}',
		},
		{
			displayName: 'Skip Sampling',
			name: 'skipSampling',
			type: 'boolean',
			default: false,
			description:
				'Whether to skip the sample read that checks the read config against the provider before saving',
		},
	],
});

/** Update's Update Fields in one version span, with that span's Connection option. */
const updateFields = (
	version: IDataObject,
	connection: (description: string) => INodeProperties,
): INodeProperties => ({
	displayName: 'Update Fields',
	name: 'installationUpdate',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	displayOptions: { show: { ...showFor('update').show, ...version } },
	options: [
		connection('Switch the installation to this connection'),
		{
			displayName: 'Created By',
			name: 'createdBy',
			type: 'string',
			default: '',
			description: 'Who the config is attributed to: consumer:{ID}, builder:{ID} or api:{caller}',
		},
		{
			displayName: 'Proxy Enabled',
			name: 'proxyEnabled',
			type: 'boolean',
			default: true,
			description: 'Whether the proxy is enabled for the installation',
		},
		objectsJson(
			'Read',
			'Object name → its read config; each object given is replaced, the others are kept',
		),
		{
			displayName: 'Skip Sampling',
			name: 'skipSampling',
			type: 'boolean',
			default: false,
			description: 'Whether to skip the sample read that checks a changed read config',
		},
		objectsJson('Subscribe', 'Object name → subscribe config; replaces the whole subscribe map'),
		objectsJson('Write', 'Object name → write config; replaces the whole write map'),
	],
});

export const installationFields: INodeProperties[] = [
	...returnAllAndLimit(showFor('getAll', 'getAllInProject')),
	// Version 1 keeps its text filter; version 2 picks the group from a list (a resource locator's
	// saved value has another shape than text, docs/architecture.md "Node versions").
	{
		displayName: 'Filters',
		name: 'installationFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { ...showFor('getAll', 'getAllInProject').show, ...inVersion1 } },
		options: [
			{
				displayName: 'Group',
				name: 'groupRef',
				type: 'string',
				default: '',
				placeholder: 'e.g. acme-inc',
				description: 'Only installations of this group (your ID of the customer account)',
			},
		],
	},
	{
		displayName: 'Filters',
		name: 'installationFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { ...showFor('getAll', 'getAllInProject').show, ...fromVersion2 } },
		options: [
			listLocator({
				displayName: 'Group',
				name: 'groupRef',
				description:
					'Only installations of this group (your ID of the customer account, its group ref)',
				search: 'searchGroupRefs',
				select: 'Select a group…',
				typed: [byGroupRef],
				required: false,
			}),
		],
	},
	{
		displayName: 'Config Content (JSON)',
		name: 'configContent',
		type: 'json',
		required: true,
		default:
			'{\n  "provider": "hubspot",\n  "read": {\n    "objects": {\n      "contacts": { "objectName": "contacts", "schedule": "*/30 * * * *", "destination": "n8n-webhook", "selectedFieldsAuto": "all" }\n    }\n  }\n}',
		description:
			'The installation config: provider, and read, write, subscribe and proxy sections keyed by object',
		displayOptions: showFor('create'),
	},
	// Version 1 keeps its text Connection ID; version 2 picks the connection from a list (a resource
	// locator's saved value has another shape than text, docs/architecture.md "Node versions").
	...[inVersion1, fromVersion2].flatMap((version) => [
		createFields(version, version === inVersion1 ? connectionText : connectionOption),
		updateFields(version, version === inVersion1 ? connectionText : connectionOption),
	]),
	{
		// A locator under the name of the former text field: a plain name stored by an older
		// workflow still passes (n8n's extractValue hands plain strings back unchanged).
		...objectLocator,
		name: 'objectName',
		description:
			'The object (its provider name) whose backfill is tracked or whose config changes, from the integration or by name',
		displayOptions: showFor('getBackfillProgress', 'updateObjectConfig'),
	},
	{
		displayName: 'Config Of',
		name: 'configAction',
		type: 'options',
		default: 'read',
		options: [
			{ name: 'Read', value: 'read' },
			{ name: 'Subscribe', value: 'subscribe' },
			{ name: 'Write', value: 'write' },
		],
		description: "Which of the object's configs changes",
		displayOptions: showFor('updateObjectConfig'),
	},
	{
		displayName: 'Changes',
		name: 'changes',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		required: true,
		default: {},
		placeholder: 'Add Change',
		description: "JSON Patch operations on the object's config, applied in order",
		displayOptions: showFor('updateObjectConfig'),
		options: [
			{
				displayName: 'Change',
				name: 'change',
				values: [
					{
						displayName: 'Operation',
						name: 'op',
						type: 'options',
						default: 'replace',
						options: [
							{ name: 'Add', value: 'add' },
							{ name: 'Remove', value: 'remove' },
							{ name: 'Replace', value: 'replace' },
						],
					},
					{
						displayName: 'Path',
						name: 'path',
						type: 'string',
						default: '',
						placeholder: 'e.g. /schedule or /selectedFields/phone',
						description: "JSON Pointer into the object's config, starting with /",
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. */10 * * * * or true',
						description:
							'Read as JSON when it is JSON (true, 5, {"a": 1}, "quoted text"), otherwise sent as text. Not used by Remove.',
						displayOptions: { hide: { op: ['remove'] } },
					},
				],
			},
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'unpauseFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showForUnpause,
		options: [
			{
				displayName: 'Note',
				name: 'note',
				type: 'string',
				default: '',
				description: 'A note recorded with the change, e.g. why reads pause or resume',
			},
			{
				displayName: 'Objects',
				name: 'objects',
				type: 'string',
				default: '',
				placeholder: 'e.g. contacts, companies',
				description:
					'Objects whose reads pause or resume (comma-separated, mapped or provider names). Leave out for all.',
			},
		],
	},
];
