import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { projectLocator, searchProjects } from '../common/project';
import { authenticationParameter, nodeCredentials } from '../common/api';
import type { LogEntry, OperationLogs } from './logCursor';
import { advanceCursor, latestEntries, normalizeEntries, recordStart } from './logCursor';
import type { LogFilters } from './output';
import {
	buildFilters,
	COMMON_SEVERITIES,
	matchesFilters,
	parseOperationIds,
	toItem,
} from './output';
import { fetchOperationLogs, fetchProjectId } from './transport';

/** How many entries "Fetch Test Event" shows. */
const TEST_EVENT_ENTRIES = 5;
/** Each operation costs one request per poll. */
const MAX_OPERATIONS = 20;

/*
 * Where the cursor lives (n8n 2.41.1; docs/n8n-notes.md, "Polling triggers"):
 * - The node's static data. n8n writes it to the database when a poll emits (just before the
 *   execution starts), and after the immediate poll that every activation runs. A scheduled poll
 *   that returns null writes nothing; deactivation writes nothing either (it rebuilds the
 *   workflow from the database).
 * - So the "start from now" record made by the activation poll is persisted, a restart resumes
 *   from the last emission or activation, and the polls re-read since then re-emit nothing:
 *   every entry that passed the filters was emitted, and emitting persisted the state.
 * - The state is replaced as a whole (a top-level assignment), which is what marks n8n's
 *   observable static data as changed; nested edits would go unnoticed.
 * - A first poll that fails still records its start time for the operations that have no cursor
 *   yet (recordStart), and n8n saves static data after an activation even when its poll failed:
 *   the history stays history, and what is stamped after the activation is emitted.
 * - n8n does not keep polls of one trigger from overlapping (a slow poll may still run when the
 *   next one starts). Reading the cursor, deciding and writing it happen without an await in
 *   between, so an overlapping poll sees the other's result; after the one await there (the
 *   project's ID, looked up once when the project is given by name) the poll decides again.
 */
const STATE_KEY = 'logCursor';
const PROJECT_KEY = 'projectIdOf';

const projectParameter: INodeProperties = {
	...projectLocator,
	description: 'The project of the operations, chosen from the list or given by name or ID',
};

const properties: INodeProperties[] = [
	authenticationParameter,
	projectParameter,
	{
		displayName: 'Operation IDs',
		name: 'operationIds',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. c2a119dc-a2d7-4ae8-ae63-253ae241f5e9, e9e11e31-8a3d-4636-99f7-3259e3be055b',
		description:
			'One or more operation IDs (read, write or subscribe operations), separated by commas or new lines. An expression may also return a list.',
	},
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
					'Whether the first poll of an operation emits the entries it already has. Off: the trigger starts from now and emits only entries that appear later.',
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

interface Settings {
	project: string;
	/** Set when the project is given by ID; otherwise looked up by name when needed. */
	projectId?: string;
	operationIds: string[];
	filters: LogFilters;
	emitExisting: boolean;
}

function readSettings(context: IPollFunctions): Settings {
	const node = context.getNode();
	const locator = context.getNodeParameter('project', undefined, { extractValue: false }) as
		| { mode?: string; value?: unknown }
		| string
		| undefined;
	const value = context.getNodeParameter('project', '', { extractValue: true });
	const project =
		typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (!project) {
		throw new NodeOperationError(node, 'Select a project', {
			description: 'The project is required: choose it from the list or give its name or ID.',
		});
	}
	const operationIds = parseOperationIds(context.getNodeParameter('operationIds', ''));
	if (!operationIds.length) {
		throw new NodeOperationError(node, 'Enter at least one operation ID', {
			description:
				'Operation IDs are found in read results (operationId) or in the dashboard; separate several with commas.',
		});
	}
	if (operationIds.length > MAX_OPERATIONS) {
		throw new NodeOperationError(node, `Too many operation IDs: ${operationIds.length}`, {
			description: `One trigger watches at most ${MAX_OPERATIONS} operations (each costs a request per poll). Split them over several triggers.`,
		});
	}
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return {
		project,
		projectId: typeof locator === 'object' && locator?.mode === 'id' ? project : undefined,
		operationIds,
		filters: buildFilters(
			context.getNodeParameter('severities', []),
			options.customSeverities,
			options.messageContains,
		),
		emitExisting: options.emitExisting === true,
	};
}

async function fetchAll(context: IPollFunctions, settings: Settings): Promise<OperationLogs[]> {
	// One operation after the other: gentle on the API, and the first failure ends the poll.
	const logs: OperationLogs[] = [];
	for (const operationId of settings.operationIds) {
		const response = await fetchOperationLogs(context, settings.project, operationId);
		logs.push({ operationId, entries: normalizeEntries(operationId, response) });
	}
	return logs;
}

function describeFilters(filters: LogFilters): string {
	const parts = [];
	if (filters.severities.length) parts.push(`severity ${filters.severities.join(', ')}`);
	if (filters.text) parts.push(`message containing "${filters.text}"`);
	return parts.join(' and ');
}

export class IntegrationPlatformLogTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Integration Platform Log Trigger',
		name: 'integrationPlatformLogTrigger',
		icon: {
			light: 'file:../../icons/integrationPlatform.svg',
			dark: 'file:../../icons/integrationPlatform.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{ "Logs of " + ($parameter["operationIds"] || "operations") }}',
		description:
			'Starts the workflow when new log entries appear on Integration Platform (Ampersand) operations',
		defaults: { name: 'Integration Platform Log Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: nodeCredentials,
		properties,
	};

	methods = {
		listSearch: { searchProjects },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const settings = readSettings(this);
		const manual = this.getMode() === 'manual';
		// Where "start from now" begins when an operation's first poll sees no dated entry or fails.
		const now = Date.now();
		let logs: OperationLogs[] | undefined;
		try {
			logs = await fetchAll(this, settings);
		} finally {
			// a failed request: operations without a cursor still start now (the error goes on)
			if (logs === undefined && !manual && !settings.emitExisting) {
				const staticData = this.getWorkflowStaticData('node');
				const started = recordStart(staticData[STATE_KEY], settings.operationIds, now);
				if (started) staticData[STATE_KEY] = started as unknown as IDataObject;
			}
		}

		if (manual) {
			// "Fetch Test Event": the latest entries, whatever the cursor says; the cursor is not read
			// or written (docs/n8n-notes.md, "Polling triggers").
			const all = logs.flatMap((l) => l.entries);
			const matching = all.filter((e) => matchesFilters(e, settings.filters));
			if (!matching.length) {
				const filters = describeFilters(settings.filters);
				throw new NodeOperationError(
					this.getNode(),
					all.length && filters
						? `No log entry matches the filters (${filters}) among ${all.length} entries`
						: `The operations have no log entries yet`,
					{
						description: `Operations: ${settings.operationIds.join(', ')}. The active workflow will emit entries as they appear.`,
					},
				);
			}
			const projectId = settings.projectId ?? (await fetchProjectId(this, settings.project));
			const items = latestEntries(matching, TEST_EVENT_ENTRIES).map(
				(e) => toItem(e, projectId) as IDataObject,
			);
			return [this.helpers.returnJsonArray(items)];
		}

		// Everything below is computed aside; static data changes only once every request succeeded.
		const staticData = this.getWorkflowStaticData('node');
		const decide = () => {
			const { fresh, next } = advanceCursor(staticData[STATE_KEY], logs, {
				emitExisting: settings.emitExisting,
				now,
			});
			const emitted: LogEntry[] = fresh.filter((e) => matchesFilters(e, settings.filters));
			return { next, emitted };
		};
		let { next, emitted } = decide();

		const known = staticData[PROJECT_KEY] as { project?: string; id?: string } | undefined;
		let projectId = settings.projectId;
		if (projectId === undefined && known?.project === settings.project) projectId = known.id;
		if (projectId === undefined && emitted.length) {
			projectId = await fetchProjectId(this, settings.project);
			// An overlapping poll may have emitted meanwhile: decide again against the cursor as it is
			// now (the hashes are kept, so this costs little), with no await before the write.
			({ next, emitted } = decide());
		}

		if (JSON.stringify(staticData[STATE_KEY]) !== JSON.stringify(next)) {
			staticData[STATE_KEY] = next as unknown as IDataObject;
		}
		const knownIsCurrent = known?.project === settings.project && known?.id === projectId;
		if (projectId !== undefined && settings.projectId === undefined && !knownIsCurrent) {
			staticData[PROJECT_KEY] = { project: settings.project, id: projectId };
		}

		if (!emitted.length) return null;
		const id = projectId ?? settings.project;
		return [this.helpers.returnJsonArray(emitted.map((e) => toItem(e, id) as IDataObject))];
	}
}
