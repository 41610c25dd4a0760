/**
 * Which operations a whole installation or integration is watched through: new operations found
 * in the paginated operations list, existing ones at the start, finished ones retired. Pure: no n8n
 * imports (test/unit/IntegrationPlatformLogTrigger/discovery.test.ts).
 *
 * What the API gives (docs/api-notes.md, "Operations of an installation"): listOperations per
 * installation, pages of `pageSize` with a `pageToken`, in no documented order; each operation has
 * `id`, `status` and `createTime` (microseconds). So nothing here depends on the order, except a
 * shortcut: while the list has shown itself newest first, paging stops below the floor.
 *
 * State per installation (bounded; no secrets, only IDs, keys and times):
 * - `f`, the floor: operations created at or before it are never new. The watch's start at first
 *   (now, or 24 hours back with "emit existing"); it rises to SLACK_MS below the newest operation
 *   taken, but never above what the poll did not verify nor above an operation that waits for room.
 * - `n`, the newest creation time taken, leaving out times ahead of the clock (more than
 *   CLOCK_TOLERANCE_MS past the poll's time); `k`, keys (48 bits of the ID's hash) of the retired
 *   operations above the floor, with their creation time (milliseconds below `n`, or below `f`
 *   without it; negative above), so that they are not new again; at most knownShare(installations)
 *   of them (the floor rises past the oldest beyond that), plus those created ahead of the clock
 *   (at most MAX_AHEAD_KNOWN over the scope, kept while the list may still show them).
 * - `t`, the watched operations: ID → how many successful polls saw it finished.
 * - `p`, `b`, `o`: where the next poll resumes paging (a page token), the creation time of that
 *   page's first operation when it was read (checked on resuming: a page that now starts past it
 *   means the list shifted, and paging starts over from the first page), and the list's order
 *   ('a' oldest first, 'd' newest first). See coverageOf.
 * A new operation is one created after the floor that is neither watched nor known.
 *
 * The floor rises only over what this poll has verified: the span of creation times whose every
 * operation the poll listed (coverageOf), and never past the oldest new operation left waiting.
 * So an operation that the poll did not read (a page cap, no room) is taken by a later poll.
 */
import { timestampKey } from '../common/timestamps';
import { dict } from './dict';
import type { DiscoveryState, InstallationState, ListedOperation } from './discoveryState';
import {
	DISCOVERY_VERSION,
	isObject,
	isRunning,
	keyToNs,
	knownShare,
	MAX_OPERATION_ID_LENGTH,
	MAX_WATCHED_OPERATIONS,
	NS_PER_MS,
	nsToKey,
	operationKey,
	readDiscovery,
	RETIRE_AFTER_FINISHED_POLLS,
	SLACK_MS,
	startState,
	MAX_TOKEN_LENGTH,
	WATCHED_ID_BUDGET,
} from './discoveryState';
import type { InstallationListing } from './listing';
import { coverageOf, resumePoint } from './listing';
import { CLOCK_TOLERANCE_MS } from './cursor/time';

export * from './discoveryState';
export * from './listing';

export interface DiscoverInput {
	previous: unknown;
	scope: string;
	/** This poll's time, ms since the epoch. */
	now: number;
	emitExisting: boolean;
	listings: InstallationListing[];
	/** Watched operations that the listings did not show: their record, or null when gone (404). */
	lookedUp?: ReadonlyMap<string, ListedOperation | null>;
}

export interface WatchedOperation {
	operationId: string;
	installationId: string;
	/**
	 * 'new': taken this poll as new (all its entries are emitted); 'start': running when its
	 * installation was first watched (entries stamped after the start are emitted); undefined:
	 * watched before.
	 */
	first?: 'new' | 'start';
	/** Read one last time in this poll, then retired. */
	retiring: boolean;
}

export interface DiscoverResult {
	/** Operations whose logs this poll reads, oldest first. */
	watch: WatchedOperation[];
	next: DiscoveryState;
	/** The watch's start as ms since the epoch. */
	startMs: number;
	/** New operations left for a later poll (no room). */
	waiting: number;
	/** Retired operations created ahead of the clock that the next state keeps, over the scope. */
	aheadKnown: number;
	/** A new operation whose ID is longer than MAX_OPERATION_ID_LENGTH: it cannot be watched. */
	overlong?: { id: string; installationId: string };
}

interface Known {
	key: string;
	ns: bigint;
}

/** Where known keys count their creation time from: the newest operation taken, or the floor. */
const knownBase = (state: InstallationState): bigint => keyToNs(state.n ?? state.f);

function readKnown(state: InstallationState): Known[] {
	if (!state.k) return [];
	const base = knownBase(state);
	return state.k.map((text) => {
		const [key, below] = text.split(':');
		return { key, ns: base - BigInt(parseInt(below, 36)) * NS_PER_MS };
	});
}

/**
 * A known key as stored: milliseconds below the base, base36, negative for a creation time above
 * it (ahead of the clock, or listed again later). Rounded so that the time read back is never
 * earlier than the real one (a key is kept at least as long as it should be).
 */
function knownText(known: Known, base: bigint): string {
	const below = base - known.ns;
	const ms = below >= 0n ? below / NS_PER_MS : -((-below + NS_PER_MS - 1n) / NS_PER_MS);
	return `${known.key}:${ms.toString(36)}`;
}

interface Candidate {
	operation: ListedOperation;
	installationId: string;
	createKey: string;
}

/** One installation as this poll works on it. */
interface Work {
	installationId: string;
	state: InstallationState;
	known: Known[];
	knownKeys: Map<string, Known>;
	watched: Record<string, number>;
	newest?: string;
	/** Oldest creation key of a new operation left waiting. */
	hold?: string;
	listing: InstallationListing;
	coverage: ReturnType<typeof coverageOf>;
}

/** What the phases of one poll's discovery share. */
interface Poll {
	input: DiscoverInput;
	/** The watch's start (the first floor of an installation seen for the first time). */
	start: string;
	/**
	 * Creation times past this (the poll's clock and its tolerance) are ahead of the clock: such an
	 * operation is taken and remembered, but raises no floor (docs/architecture.md, "The log
	 * trigger").
	 */
	horizon: bigint;
	/** The operations whose logs this poll reads. */
	watch: WatchedOperation[];
	/** New operations (and, at first sight, running ones) that want room to be watched. */
	candidates: Candidate[];
	/** Watched operations over the scope, and the characters of their IDs. */
	watchedCount: { n: number; chars: number };
}

/**
 * One poll's discovery: the operations whose logs this poll reads, and the next state (to be
 * stored only when every request of the poll succeeded). Pure: `previous` is not modified. Three
 * phases: each installation's listing is read (watched operations counted on, new ones become
 * candidates), the candidates get room oldest first, and each installation's next state is
 * written (its floor risen, its known keys bounded).
 */
export function discover(input: DiscoverInput): DiscoverResult {
	const prior = readDiscovery(input.previous, input.scope);
	const start = prior?.s ?? startState(undefined, input.scope, input.now, input.emitExisting).s;
	const poll: Poll = {
		input,
		start,
		horizon: BigInt(Math.floor(input.now + CLOCK_TOLERANCE_MS)) * NS_PER_MS,
		watch: [],
		candidates: [],
		watchedCount: { n: 0, chars: 0 },
	};
	const works: Work[] = [];
	const seen = new Set<string>();
	for (const listing of input.listings) {
		if (seen.has(listing.installationId)) continue;
		seen.add(listing.installationId);
		works.push(readListing(poll, listing, prior?.i[listing.installationId]));
	}
	const { waiting, overlong } = giveRoom(poll, works);
	const share = knownShare(input.listings.length);
	const nextInstallations = dict<InstallationState>();
	let aheadKnown = 0;
	for (const work of works) {
		const { next, keptAhead } = nextState(work, poll.horizon, share);
		nextInstallations[work.installationId] = next;
		aheadKnown += keptAhead;
	}
	const { watch } = poll;
	watch.sort((a, b) => (a.operationId < b.operationId ? -1 : 1));
	return {
		watch,
		next: { v: DISCOVERY_VERSION, w: input.scope, s: start, i: nextInstallations },
		startMs: Number(keyToNs(start) / NS_PER_MS),
		waiting,
		aheadKnown,
		...(overlong ? { overlong } : {}),
	};
}

const isAhead = (poll: Poll, key: string) => keyToNs(key) > poll.horizon;

/**
 * Phase 1, per installation: its watched operations (still there? finished? retired after
 * RETIRE_AFTER_FINISHED_POLLS polls that saw them finished) go into the watch, and the operations
 * the listing shows above the floor, neither watched nor known, become candidates.
 */
function readListing(
	poll: Poll,
	listing: InstallationListing,
	before: InstallationState | undefined,
): Work {
	const { input, watch, candidates, watchedCount } = poll;
	const firstSight = before === undefined;
	const state: InstallationState = before ?? { f: poll.start };
	const known = readKnown(state);
	const coverage = coverageOf(listing, state.f);
	const work: Work = {
		installationId: listing.installationId,
		state,
		known,
		knownKeys: new Map(known.map((k) => [k.key, k])),
		watched: dict(Object.entries(state.t ?? {})),
		// a newest time ahead of the clock (a state written before that was checked) is ignored
		newest: state.n !== undefined && !isAhead(poll, state.n) ? state.n : undefined,
		listing,
		coverage,
	};

	const listed = new Map<string, ListedOperation>();
	for (const operation of listing.operations) {
		if (isObject(operation) && typeof operation.id === 'string' && operation.id) {
			listed.set(operation.id, operation);
		}
	}
	// the watched operations: still there? finished?
	for (const [id, finishedPolls] of Object.entries(work.watched)) {
		const record = listed.get(id) ?? input.lookedUp?.get(id);
		if (record === null) {
			delete work.watched[id]; // gone (404): nothing more to read
			continue;
		}
		const finished = record !== undefined && !isRunning(record.status);
		const polls = finished ? finishedPolls + 1 : 0;
		work.watched[id] = polls;
		watch.push({
			operationId: id,
			installationId: listing.installationId,
			retiring: polls >= RETIRE_AFTER_FINISHED_POLLS,
		});
		if (polls >= RETIRE_AFTER_FINISHED_POLLS) {
			const createKey = record ? timestampKey(record.createTime) : undefined;
			const retired = { key: operationKey(id), ns: keyToNs(createKey ?? work.newest ?? state.f) };
			work.known.push(retired);
			work.knownKeys.set(retired.key, retired);
		}
	}
	for (const id of Object.keys(work.watched)) {
		watchedCount.n++;
		watchedCount.chars += id.length;
	}

	for (const operation of listed.values()) {
		if (work.watched[operation.id] !== undefined) continue;
		const createKey = timestampKey(operation.createTime);
		if (createKey === undefined) continue; // undated: cannot be placed, never taken
		if (createKey > state.f) {
			// only what this poll verified: the rest is found again by a later poll
			const covered =
				coverage.through === null ||
				(coverage.through !== undefined && createKey <= coverage.through);
			const knownKey = work.knownKeys.get(operationKey(operation.id));
			if (knownKey) {
				// listed again with a later creation time: remembered as long as that is above the floor
				const ns = keyToNs(createKey);
				if (ns > knownKey.ns) knownKey.ns = ns;
			} else if (covered) {
				candidates.push({ operation, installationId: listing.installationId, createKey });
			}
		} else if (firstSight && isRunning(operation.status)) {
			// running when the installation is first watched: from the start on
			candidates.push({ operation, installationId: listing.installationId, createKey: '' });
		}
	}
	return work;
}

/**
 * Phase 2, over the scope: the candidates are watched oldest first (history that is still running
 * before anything new) while there is room by count and by the characters of the watched IDs; a
 * new operation without room waits, and holds its installation's floor below it.
 */
function giveRoom(
	poll: Poll,
	works: Work[],
): { waiting: number; overlong: DiscoverResult['overlong'] } {
	const { input, watch, candidates, watchedCount } = poll;
	candidates.sort((a, b) =>
		a.createKey < b.createKey
			? -1
			: a.createKey > b.createKey
				? 1
				: a.operation.id < b.operation.id
					? -1
					: 1,
	);
	const byInstallation = new Map(works.map((w) => [w.installationId, w]));
	let waiting = 0;
	let overlong: DiscoverResult['overlong'];
	for (const candidate of candidates) {
		const work = byInstallation.get(candidate.installationId)!;
		const history = candidate.createKey === '';
		const id = candidate.operation.id;
		if (id.length > MAX_OPERATION_ID_LENGTH) {
			overlong ??= { id, installationId: candidate.installationId };
			continue;
		}
		// room by count and by the characters of the watched IDs (the state stores each twice)
		if (
			watchedCount.n >= MAX_WATCHED_OPERATIONS ||
			watchedCount.chars + id.length > WATCHED_ID_BUDGET
		) {
			if (!history) {
				waiting++;
				if (work.hold === undefined || candidate.createKey < work.hold)
					work.hold = candidate.createKey;
			}
			continue;
		}
		watchedCount.n++;
		watchedCount.chars += id.length;
		// listed as finished before its log is read: this poll counts as one that saw it finished
		work.watched[candidate.operation.id] = isRunning(candidate.operation.status) ? 0 : 1;
		watch.push({
			operationId: candidate.operation.id,
			installationId: candidate.installationId,
			first: history ? (input.emitExisting ? 'new' : 'start') : 'new',
			retiring: false,
		});
		const raises = !history && !isAhead(poll, candidate.createKey);
		if (raises && (work.newest === undefined || candidate.createKey > work.newest)) {
			work.newest = candidate.createKey;
		}
	}
	return { waiting, overlong };
}

/**
 * Phase 3, per installation: its next state. Retired operations leave `t`; the floor rises; known
 * keys are bounded by `share`. `keptAhead` counts the retired operations ahead of the clock it
 * keeps.
 */
function nextState(
	work: Work,
	horizon: bigint,
	share: number,
): { next: InstallationState; keptAhead: number } {
	const watched = dict<number>();
	for (const [id, polls] of Object.entries(work.watched)) {
		if (polls < RETIRE_AFTER_FINISHED_POLLS) watched[id] = polls;
	}
	// The floor rises to SLACK_MS below the newest operation taken, but never past what this poll
	// did not verify, nor past the oldest operation left waiting.
	const through = work.coverage.through;
	let cap = through === null ? undefined : keyToNs(through ?? work.state.f);
	if (work.hold !== undefined) {
		const below = keyToNs(work.hold) - 1n;
		if (cap === undefined || below < cap) cap = below;
	}
	let floor = keyToNs(work.state.f);
	if (work.newest !== undefined) {
		let risen = keyToNs(work.newest) - BigInt(SLACK_MS) * NS_PER_MS;
		if (cap !== undefined && risen > cap) risen = cap;
		if (risen > floor) floor = risen;
	}
	// Retired operations ahead of the clock stay known apart from the share (dropping one would
	// make it new again), until a poll that read the whole list no longer shows them.
	let keptAhead = work.known.filter((k) => k.ns > horizon);
	if (keptAhead.length && through === null) {
		const shown = new Set(
			work.listing.operations
				.filter((o) => isObject(o) && typeof o.id === 'string')
				.map((o) => operationKey(o.id)),
		);
		keptAhead = keptAhead.filter((k) => shown.has(k.key));
	}
	let known = work.known.filter((k) => k.ns > floor && k.ns <= horizon);
	if (known.length > share) {
		// the oldest retired keys go, the floor rising past them, as far as it may rise; keys
		// above that stay (at most the watched operations' worth more than the share)
		known.sort((a, b) => (a.ns > b.ns ? -1 : a.ns < b.ns ? 1 : 0));
		let dropped = known[share].ns;
		if (cap !== undefined && dropped > cap) dropped = cap;
		if (dropped > floor) floor = dropped;
		known = known.filter((k) => k.ns > floor);
	}
	known.push(...keptAhead);
	const next: InstallationState = { f: nsToKey(floor) };
	if (work.newest !== undefined) next.n = work.newest;
	const base = knownBase(next);
	if (known.length) next.k = known.map((k) => knownText(k, base));
	if (Object.keys(watched).length) next.t = watched;
	const resume = resumePoint(work);
	if (resume?.p && resume.p.length <= MAX_TOKEN_LENGTH) Object.assign(next, resume);
	return { next, keptAhead: keptAhead.length };
}
