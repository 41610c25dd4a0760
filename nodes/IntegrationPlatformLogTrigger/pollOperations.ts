import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { LogEntry, OperationLogs } from './logCursor';
import { advanceCursor, latestEntries, normalizeEntries, recordStart } from './logCursor';
import { matchesFilters, toItem } from './output';
import type { Settings } from './settings';
import { describeFilters } from './settings';
import { MAX_STATE_BYTES, stateBytes } from './stateSize';
import {
	aheadEntriesError,
	fetchOperationLogs,
	fetchProjectId,
	stateTooLargeError,
} from './transport';

/** How many entries "Fetch Test Event" shows. */
export const TEST_EVENT_ENTRIES = 5;

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
export const STATE_KEY = 'logCursor';
export const PROJECT_KEY = 'projectIdOf';

/** The project's ID for the items: given, remembered from an earlier poll, or undefined. */
export function knownProjectId(staticData: IDataObject, settings: Settings): string | undefined {
	if (settings.projectId !== undefined) return settings.projectId;
	const known = staticData[PROJECT_KEY] as { project?: string; id?: string } | undefined;
	return known?.project === settings.project ? known.id : undefined;
}

/** Remembers the project's ID when it was looked up by name (a top-level write, when it changed). */
export function rememberProjectId(
	staticData: IDataObject,
	settings: Settings,
	projectId: string | undefined,
): void {
	if (projectId === undefined || settings.projectId !== undefined) return;
	const known = staticData[PROJECT_KEY] as { project?: string; id?: string } | undefined;
	if (known?.project === settings.project && known?.id === projectId) return;
	staticData[PROJECT_KEY] = { project: settings.project, id: projectId };
}

export function noEntriesError(
	context: IPollFunctions,
	settings: Settings,
	all: number,
	what: string,
): NodeOperationError {
	const filters = describeFilters(settings.filters);
	return new NodeOperationError(
		context.getNode(),
		all && filters
			? `No log entry matches the filters (${filters}) among ${all} entries`
			: `The operations have no log entries yet`,
		{ description: `${what}. The active workflow will emit entries as they appear.` },
	);
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

/** Watching operation IDs (version 1, and version 2 with Watch: Operation IDs). */
export async function pollOperationIds(
	context: IPollFunctions,
	settings: Settings,
): Promise<INodeExecutionData[][] | null> {
	const manual = context.getMode() === 'manual';
	// Where "start from now" begins when an operation's first poll sees no dated entry or fails.
	const now = Date.now();
	let logs: OperationLogs[] | undefined;
	try {
		logs = await fetchAll(context, settings);
	} finally {
		// a failed request: operations without a cursor still start now (the error goes on)
		if (logs === undefined && !manual && !settings.emitExisting) {
			const staticData = context.getWorkflowStaticData('node');
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
			throw noEntriesError(
				context,
				settings,
				all.length,
				`Operations: ${settings.operationIds.join(', ')}`,
			);
		}
		const projectId = settings.projectId ?? (await fetchProjectId(context, settings.project));
		const items = latestEntries(matching, TEST_EVENT_ENTRIES).map(
			(e) => toItem(e, projectId) as IDataObject,
		);
		return [context.helpers.returnJsonArray(items)];
	}

	// Everything below is computed aside; static data changes only once every request succeeded.
	const staticData = context.getWorkflowStaticData('node');
	const decide = () => {
		const { fresh, next, aheadOverflow } = advanceCursor(staticData[STATE_KEY], logs, {
			emitExisting: settings.emitExisting,
			now,
		});
		const emitted: LogEntry[] = fresh.filter((e) => matchesFilters(e, settings.filters));
		return { next, emitted, aheadOverflow };
	};
	let { next, emitted, aheadOverflow } = decide();

	let projectId = knownProjectId(staticData, settings);
	if (projectId === undefined && emitted.length) {
		projectId = await fetchProjectId(context, settings.project);
		// An overlapping poll may have emitted meanwhile: decide again against the cursor as it is
		// now (the hashes are kept, so this costs little), with no await before the write.
		({ next, emitted, aheadOverflow } = decide());
	}

	// entries that did not fit are neither emitted nor recorded: fail rather than withhold them
	if (aheadOverflow.length) throw aheadEntriesError(context, aheadOverflow);
	const bytes = stateBytes([next]);
	if (bytes > MAX_STATE_BYTES) throw stateTooLargeError(context, bytes);
	if (JSON.stringify(staticData[STATE_KEY]) !== JSON.stringify(next)) {
		staticData[STATE_KEY] = next as unknown as IDataObject;
	}
	rememberProjectId(staticData, settings, projectId);

	if (!emitted.length) return null;
	const id = projectId ?? settings.project;
	return [context.helpers.returnJsonArray(emitted.map((e) => toItem(e, id) as IDataObject))];
}
