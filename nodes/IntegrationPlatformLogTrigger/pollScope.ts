import type { IDataObject, INodeExecutionData, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type {
	DiscoverResult,
	InstallationListing,
	InstallationState,
	ListedOperation,
} from './discovery';
import {
	discover,
	ListingProgress,
	MAX_AHEAD_KNOWN,
	MAX_INSTALLATIONS,
	readDiscovery,
	scopeFingerprint,
	startState,
} from './discovery';
import type { LogEntry, OperationLogs } from './logCursor';
import {
	advanceCursor,
	latestEntries,
	normalizeEntries,
	readState,
	recordStart,
} from './logCursor';
import { timestampKey } from '../common/timestamps';
import { matchesFilters, toItem } from './output';
import {
	knownProjectId,
	noEntriesError,
	rememberProjectId,
	STATE_KEY,
	TEST_EVENT_ENTRIES,
} from './pollOperations';
import type { Settings } from './settings';
import {
	fetchGroupInstallationId,
	fetchInstallationIds,
	fetchOperation,
	fetchOperationLogs,
	fetchOperationsPage,
	aheadEntriesError,
	aheadOfClockError,
	fetchProjectId,
	overlongIdError,
	pagingLoopError,
	stateTooLargeError,
} from './transport';
import { MAX_STATE_BYTES, stateBytes } from './stateSize';

/*
 * Watching a whole installation or integration (version 2). Each poll, with every request before
 * any decision:
 * 1. the installations (the one chosen, or the integration's list, at most MAX_INSTALLATIONS);
 * 2. each installation's operations list, from where the last poll left off (checked), as far as
 *    needed (discovery.ts, ListingProgress: to the end, to the page cap, oldest first to twice the
 *    room, newest first to the floor);
 * 3. the watched operations the list did not show, one by one (finished? gone?);
 * 4. the logs of every watched operation (at most MAX_WATCHED_OPERATIONS, LOG_READS_AT_ONCE at a
 *    time).
 * Then discovery and the log cursor decide, and both states are written together with no await
 * in between (the project's ID lookup, when needed, comes before and is followed by a second
 * decision, as in pollOperations.ts). A failed request fails the poll with nothing written,
 * except on the very first poll, whose start is recorded so that history stays history.
 */
export const DISCOVERY_KEY = 'discovery';
/** Log requests in flight at once in one poll. */
export const LOG_READS_AT_ONCE = 4;

export function scopeOf(settings: Settings): string {
	return scopeFingerprint([
		settings.watch,
		settings.project,
		settings.integration,
		// a group ref is the group's, not an installation ID: both kinds never share a scope
		settings.watch !== 'installation'
			? ''
			: settings.byGroupRef
				? `groupRef:${settings.installation}`
				: settings.installation,
	]);
}

async function installationsOf(context: IPollFunctions, settings: Settings): Promise<string[]> {
	if (settings.watch === 'installation') {
		if (!settings.byGroupRef) return [settings.installation];
		const { project, integration, installation: groupRef } = settings;
		return [await fetchGroupInstallationId(context, project, integration, groupRef)];
	}
	const ids = await fetchInstallationIds(context, settings.project, settings.integration);
	if (ids.length > MAX_INSTALLATIONS) {
		throw new NodeOperationError(
			context.getNode(),
			`The integration is installed for ${ids.length} groups; the trigger watches at most ${MAX_INSTALLATIONS}`,
			{
				description:
					"Each group's installation costs at least one request per poll. Watch single groups with several triggers instead (Watch → Group).",
			},
		);
	}
	return ids;
}

/**
 * One installation's list as far as this poll reads it (see ListingProgress): from the first page,
 * or from where the last poll left off when that page still starts where it did (discovery.ts,
 * coverageOf); otherwise from the first page again.
 */
async function listInstallation(
	context: IPollFunctions,
	settings: Settings,
	installationId: string,
	state: InstallationState | undefined,
	firstPageOnly = false,
): Promise<InstallationListing> {
	// a new installation is read up to the cap: running operations older than the start count too
	const floor = state ? state.f : '';
	let resume = state?.p !== undefined && !firstPageOnly ? state : undefined;
	let progress = new ListingProgress(floor);
	let operations: ListedOperation[] = [];
	let token = resume?.p;
	// the tokens this listing followed: one handed back again means the paging loops
	let followed = new Set<string | undefined>([token]);
	for (;;) {
		let page;
		try {
			page = await fetchOperationsPage(
				context,
				settings.project,
				settings.integration,
				installationId,
				token,
			);
		} catch (error) {
			// a stored token the API no longer takes: read from the first page instead
			if (
				resume &&
				token === resume.p &&
				error instanceof NodeApiError &&
				error.httpCode === '400'
			) {
				resume = undefined;
				token = undefined;
				followed = new Set([token]);
				continue;
			}
			const failure =
				error instanceof NodeApiError
					? error
					: new NodeApiError(context.getNode(), error as JsonObject);
			throw failure;
		}
		if (
			resume &&
			token === resume.p &&
			progress.pages.length === 0 &&
			!resumesAt(page.results, resume)
		) {
			// the list moved (older operations gone, or another order): start over from the top
			resume = undefined;
			token = undefined;
			progress = new ListingProgress(floor);
			operations = [];
			followed = new Set([token]);
			continue;
		}
		operations.push(...page.results);
		const more = progress.page(page.results, token);
		const listing = (done: boolean): InstallationListing => ({
			installationId,
			operations,
			pages: progress.pages,
			start: resume?.o ?? 'top',
			done,
		});
		if (page.done) return listing(true);
		if (!more || firstPageOnly || progress.capped) return listing(false);
		if (followed.has(page.nextPageToken)) {
			throw pagingLoopError(context, installationId, progress.pages.length);
		}
		token = page.nextPageToken;
		followed.add(token);
	}
}

/** Whether a page fetched with a stored token still starts where it did (see InstallationState). */
function resumesAt(results: readonly ListedOperation[], resume: InstallationState): boolean {
	const first = results.map((o) => timestampKey(o.createTime)).find((k) => k !== undefined);
	if (first === undefined || resume.b === undefined) return false;
	return resume.o === 'a' ? first <= resume.b : first >= resume.b;
}

interface Gathered {
	plan: DiscoverResult;
	logs: OperationLogs[];
}

async function gather(
	context: IPollFunctions,
	settings: Settings,
	scope: string,
	now: number,
): Promise<Gathered> {
	const staticData = context.getWorkflowStaticData('node');
	const prior = readDiscovery(staticData[DISCOVERY_KEY], scope);
	const installations = await installationsOf(context, settings);
	const listings: InstallationListing[] = [];
	for (const id of installations) {
		listings.push(await listInstallation(context, settings, id, prior?.i[id]));
	}
	const lookedUp = new Map<string, ListedOperation | null>();
	for (const listing of listings) {
		const shown = new Set(listing.operations.map((o) => o.id));
		for (const id of Object.keys(prior?.i[listing.installationId]?.t ?? {})) {
			if (!shown.has(id)) lookedUp.set(id, await fetchOperation(context, settings.project, id));
		}
	}
	const plan = discover({
		previous: staticData[DISCOVERY_KEY],
		scope,
		now,
		emitExisting: settings.emitExisting,
		listings,
		lookedUp,
	});
	// up to LOG_READS_AT_ONCE requests at a time: a poll may read up to MAX_WATCHED_OPERATIONS logs
	const logs: OperationLogs[] = new Array(plan.watch.length);
	let nextIndex = 0;
	const reader = async () => {
		while (nextIndex < plan.watch.length) {
			const index = nextIndex++;
			const watched = plan.watch[index];
			const response = await fetchOperationLogs(context, settings.project, watched.operationId);
			logs[index] = {
				operationId: watched.operationId,
				entries: normalizeEntries(watched.operationId, response),
				...(watched.first === 'new' ? { emitExisting: true } : {}),
			};
		}
	};
	await Promise.all(Array.from({ length: LOG_READS_AT_ONCE }, reader));
	return { plan, logs };
}

/** "Fetch Test Event": the latest entries of the newest operations; no state is read or written. */
async function testEvent(
	context: IPollFunctions,
	settings: Settings,
): Promise<INodeExecutionData[][]> {
	const installations = await installationsOf(context, settings);
	const newest: Array<{ operation: ListedOperation; installationId: string }> = [];
	for (const id of installations) {
		const listing = await listInstallation(context, settings, id, undefined, true);
		for (const operation of listing.operations) newest.push({ operation, installationId: id });
	}
	newest.sort((a, b) =>
		String(a.operation.createTime ?? '') < String(b.operation.createTime ?? '') ? 1 : -1,
	);
	const picked = newest.slice(0, TEST_EVENT_ENTRIES);
	const entries: LogEntry[] = [];
	const installationOf = new Map<string, string>();
	for (const { operation, installationId } of picked) {
		installationOf.set(operation.id, installationId);
		const response = await fetchOperationLogs(context, settings.project, operation.id);
		entries.push(...normalizeEntries(operation.id, response));
	}
	const matching = entries.filter((e) => matchesFilters(e, settings.filters));
	if (!matching.length) {
		const what = picked.length
			? `Newest operations: ${picked.map((p) => p.operation.id).join(', ')}`
			: settings.watch === 'installation'
				? 'The group has no operations of this integration yet'
				: 'The integration has no operations yet';
		throw noEntriesError(context, settings, entries.length, what);
	}
	const projectId = settings.projectId ?? (await fetchProjectId(context, settings.project));
	const items = latestEntries(matching, TEST_EVENT_ENTRIES).map(
		(e) =>
			({
				...toItem(e, projectId),
				installationId: installationOf.get(e.operationId) ?? null,
			}) as IDataObject,
	);
	return [context.helpers.returnJsonArray(items)];
}

/** Watching an installation or an integration (version 2). */
export async function pollScope(
	context: IPollFunctions,
	settings: Settings,
): Promise<INodeExecutionData[][] | null> {
	if (context.getMode() === 'manual') return await testEvent(context, settings);
	const now = Date.now();
	const scope = scopeOf(settings);
	let gathered: Gathered | undefined;
	try {
		gathered = await gather(context, settings, scope, now);
	} finally {
		// a failed first poll still records the start (n8n saves static data after an activation)
		const staticData = context.getWorkflowStaticData('node');
		if (gathered === undefined && !readDiscovery(staticData[DISCOVERY_KEY], scope)) {
			staticData[DISCOVERY_KEY] = startState(
				undefined,
				scope,
				now,
				settings.emitExisting,
			) as unknown as IDataObject;
		}
	}
	const { plan, logs } = gathered;
	if (plan.overlong) throw overlongIdError(context, plan.overlong);
	if (plan.aheadKnown > MAX_AHEAD_KNOWN) throw aheadOfClockError(context, plan.aheadKnown);

	const staticData = context.getWorkflowStaticData('node');
	const installationOf = new Map(plan.watch.map((w) => [w.operationId, w.installationId]));
	const decide = () => {
		// operations running when their installation was first watched start at the watch's start
		let previous: unknown = staticData[STATE_KEY];
		const known = readState(previous).ops;
		const starting = plan.watch
			.filter((w) => w.first === 'start' && !known[w.operationId])
			.map((w) => w.operationId);
		if (starting.length) previous = recordStart(previous, starting, plan.startMs) ?? previous;
		const { fresh, next, aheadOverflow } = advanceCursor(previous, logs, {
			emitExisting: settings.emitExisting,
			now,
		});
		for (const w of plan.watch) if (w.retiring) delete next.ops[w.operationId];
		const emitted = fresh.filter((e) => matchesFilters(e, settings.filters));
		return { next, emitted, aheadOverflow };
	};
	let { next, emitted, aheadOverflow } = decide();

	let projectId = knownProjectId(staticData, settings);
	if (projectId === undefined && emitted.length) {
		projectId = await fetchProjectId(context, settings.project);
		({ next, emitted, aheadOverflow } = decide());
	}

	// entries that did not fit are neither emitted nor recorded: fail rather than withhold them
	if (aheadOverflow.length) throw aheadEntriesError(context, aheadOverflow);
	const bytes = stateBytes([plan.next, next]);
	if (bytes > MAX_STATE_BYTES) throw stateTooLargeError(context, bytes);
	if (JSON.stringify(staticData[DISCOVERY_KEY]) !== JSON.stringify(plan.next)) {
		staticData[DISCOVERY_KEY] = plan.next as unknown as IDataObject;
	}
	if (JSON.stringify(staticData[STATE_KEY]) !== JSON.stringify(next)) {
		staticData[STATE_KEY] = next as unknown as IDataObject;
	}
	rememberProjectId(staticData, settings, projectId);

	if (!emitted.length) return null;
	const id = projectId ?? settings.project;
	return [
		context.helpers.returnJsonArray(
			emitted.map(
				(e) =>
					({
						...toItem(e, id),
						installationId: installationOf.get(e.operationId) ?? null,
					}) as IDataObject,
			),
		),
	];
}
