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
 * - `n`, the newest creation time taken; `k`, keys (48 bits of the ID's hash) of the retired
 *   operations above the floor, with their creation time, so that they are not new again; at most
 *   knownShare(installations) of them (the floor rises past the oldest beyond that).
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
import { createHash } from 'node:crypto';

import { timestampKey } from '../common/timestamps';
import { dict } from './dict';

export const DISCOVERY_VERSION = 1;
/**
 * Operations watched at once over the whole scope (each costs one log request per poll). Each
 * operation is read in two or three polls, so this allows about 40 new operations per poll.
 */
export const MAX_WATCHED_OPERATIONS = 100;
/** Installations an integration may have for the trigger to watch it. */
export const MAX_INSTALLATIONS = 25;
/** Operations asked for per page of the list. */
export const PAGE_SIZE = 200;
/** Pages read per installation and poll; the next poll continues where this one stopped. */
export const MAX_PAGES_PER_POLL = 10;
/** Keys of retired operations kept over all installations (at least MIN_KNOWN_PER_INSTALLATION each). */
export const KNOWN_BUDGET = 64;
export const MIN_KNOWN_PER_INSTALLATION = 4;
/** An operation listed this much later than newer ones may be missed (the floor rises). */
export const SLACK_MS = 10 * 60 * 1000;
/** "Emit existing": operations created this long before the first poll count as new. */
export const EXISTING_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A finished operation is read in this many successful polls after it was seen finished, then retired. */
export const RETIRE_AFTER_FINISHED_POLLS = 2;
/** Longest page token kept (tokens are opaque; a longer one is not stored, paging restarts). */
export const MAX_TOKEN_LENGTH = 512;

/** Statuses of an operation that is still running (compared without case); any other is finished. */
const RUNNING = new Set([
	'in_progress',
	'inprogress',
	'running',
	'pending',
	'queued',
	'scheduled',
	'started',
	'created',
	'processing',
]);

const TS_KEY_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;
const KNOWN_PATTERN = /^[A-Za-z0-9_-]{8}:[0-9a-z]+$/;
const NS_PER_MS = 1_000_000n;

export interface ListedOperation {
	id: string;
	createTime?: unknown;
	status?: unknown;
}

export interface InstallationState {
	f: string;
	n?: string;
	k?: string[];
	t?: Record<string, number>;
	p?: string;
	b?: string;
	o?: 'a' | 'd';
}

export interface DiscoveryState {
	v: number;
	/** Fingerprint of the scope (watch, project, integration, installation): another scope starts over. */
	w: string;
	/** The watch's start (timestamp key): what was created before it is history. */
	s: string;
	i: Record<string, InstallationState>;
}

/** One page of a listing as read: the token that fetched it and its first and last creation keys. */
export interface ListedPage {
	token?: string;
	first?: string;
	last?: string;
}

export interface InstallationListing {
	installationId: string;
	/** Operations read from the list in this poll (any order, duplicates allowed). */
	operations: ListedOperation[];
	/**
	 * The pages read, in order. Absent: the whole list was read from its first page (everything is
	 * verified).
	 */
	pages?: ListedPage[];
	/** Where reading began: the first page ('top') or a stored resume point of that order. */
	start?: 'top' | 'a' | 'd';
	/** Whether the last page read was the list's last. */
	done?: boolean;
}

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
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const keyToNs = (key: string): bigint =>
	BigInt(Date.parse(`${key.slice(0, 19)}Z`)) * NS_PER_MS + BigInt(key.slice(20, 29));

function nsToKey(ns: bigint): string {
	const ms = ns / NS_PER_MS;
	const sub = ns % NS_PER_MS;
	const iso = new Date(Number(ms)).toISOString();
	return `${iso.slice(0, 19)}.${iso.slice(20, 23)}${sub.toString().padStart(6, '0')}Z`;
}

const msToKey = (ms: number): string => nsToKey(BigInt(Math.floor(ms)) * NS_PER_MS);

/** 48 bits of the ID's hash, base64url: what the state keeps of a retired operation. */
export function operationKey(id: string): string {
	return createHash('sha256').update(id).digest().toString('base64url', 0, 6);
}

/** Fingerprint of a scope: the state of another scope is not reused. */
export function scopeFingerprint(parts: readonly string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest().toString('base64url', 0, 9);
}

export function isRunning(status: unknown): boolean {
	return typeof status !== 'string' || RUNNING.has(status.trim().toLowerCase());
}

/** Each installation's share of KNOWN_BUDGET. */
export function knownShare(installations: number): number {
	return Math.max(
		MIN_KNOWN_PER_INSTALLATION,
		Math.floor(KNOWN_BUDGET / Math.max(1, installations)),
	);
}

function readInstallation(value: unknown): InstallationState | undefined {
	if (!isObject(value)) return undefined;
	const { f, n, k, t, p, b, o } = value;
	if (typeof f !== 'string' || !TS_KEY_PATTERN.test(f)) return undefined;
	const out: InstallationState = { f };
	if (typeof n === 'string' && TS_KEY_PATTERN.test(n)) out.n = n;
	if (Array.isArray(k)) {
		const known = k.filter((x): x is string => typeof x === 'string' && KNOWN_PATTERN.test(x));
		if (known.length) out.k = known;
	}
	if (isObject(t)) {
		const watched = dict<number>();
		for (const [id, d] of Object.entries(t)) {
			if (id && typeof d === 'number' && Number.isInteger(d) && d >= 0) watched[id] = d;
		}
		if (Object.keys(watched).length) out.t = watched;
	}
	// a token is kept only with the check that makes resuming from it safe (older states: from the top)
	if (
		typeof p === 'string' &&
		p &&
		p.length <= MAX_TOKEN_LENGTH &&
		typeof b === 'string' &&
		TS_KEY_PATTERN.test(b) &&
		(o === 'a' || o === 'd')
	) {
		out.p = p;
		out.b = b;
		out.o = o;
	}
	return out;
}

/** The stored discovery state when it is of this scope; otherwise undefined (start over). */
export function readDiscovery(value: unknown, scope: string): DiscoveryState | undefined {
	if (!isObject(value) || value.v !== DISCOVERY_VERSION || value.w !== scope) return undefined;
	if (typeof value.s !== 'string' || !TS_KEY_PATTERN.test(value.s)) return undefined;
	const i = dict<InstallationState>();
	if (isObject(value.i)) {
		for (const [id, raw] of Object.entries(value.i)) {
			const parsed = readInstallation(raw);
			if (parsed) i[id] = parsed;
		}
	}
	return { v: DISCOVERY_VERSION, w: scope, s: value.s, i };
}

/** The state a first poll records even when it fails, so that its start stays the start. */
export function startState(previous: unknown, scope: string, now: number, emitExisting: boolean) {
	return (
		readDiscovery(previous, scope) ?? {
			v: DISCOVERY_VERSION,
			w: scope,
			s: msToKey(emitExisting ? now - EXISTING_WINDOW_MS : now),
			i: dict<InstallationState>(),
		}
	);
}

/**
 * The order a run of pages shows: 'a' (creation times never fall), 'd' (never rise; a run with
 * one creation time counts as 'a'), or 'u' (neither).
 */
export function orderOf(keys: readonly string[]): 'a' | 'd' | 'u' {
	let rises = false;
	let falls = false;
	for (let i = 1; i < keys.length; i++) {
		if (keys[i] > keys[i - 1]) rises = true;
		else if (keys[i] < keys[i - 1]) falls = true;
	}
	return rises && falls ? 'u' : falls ? 'd' : 'a';
}

/**
 * One poll's reading of an installation's list: the pages, and whether paging goes on. It stops
 * at the end, at the page cap, while the run is newest first at the page that reaches the floor
 * (all that follows is older still), and while it is oldest first once it holds twice the room
 * above the floor (a poll takes the oldest new operations only; the rest is read again later).
 */
export class ListingProgress {
	readonly pages: ListedPage[] = [];

	readonly keys: string[] = [];

	private reachedFloor = false;

	/** Operations read above the floor (watched ones included). */
	private above = 0;

	constructor(private readonly floor: string) {}

	/** Records one page (fetched with `token`); returns whether the next page is worth reading. */
	page(operations: readonly ListedOperation[], token?: string): boolean {
		const record: ListedPage = token === undefined ? {} : { token };
		for (const operation of operations) {
			const key = timestampKey(operation.createTime);
			if (key === undefined) continue;
			record.first ??= key;
			record.last = key;
			this.keys.push(key);
			if (key <= this.floor) this.reachedFloor = true;
			else this.above++;
		}
		this.pages.push(record);
		const order = orderOf(this.keys);
		// oldest first, a poll takes the oldest new operations only: twice the room is enough
		if (order === 'a' && this.above >= 2 * MAX_WATCHED_OPERATIONS) return false;
		return !(this.reachedFloor && order === 'd');
	}

	get capped(): boolean {
		return this.pages.length >= MAX_PAGES_PER_POLL;
	}
}

/**
 * What a listing verified, and where the next poll resumes. `through`: every operation created
 * after the floor and at or before it was listed (null: no upper end; undefined: nothing
 * verified). Oldest first, the pages read from the first page or from a checked resume point cover
 * everything up to the last creation time read (its ties may go on over the next page). Newest
 * first, a run that reaches the floor covers everything below the run's first creation time (all
 * of it when it began on the first page); a run stopped by the page cap leaves a gap below it and
 * verifies nothing: the next poll resumes at the last page read until it reaches the floor. In no
 * order, only a listing read whole from its first page verifies anything.
 */
export function coverageOf(
	listing: InstallationListing,
	floor: string,
): {
	through: string | null | undefined;
	order: 'a' | 'd' | 'u';
	/** Newest first, capped: the resume point for the gap. */
	gap?: { p: string; b: string };
} {
	if (!listing.pages) return { through: null, order: 'a' };
	const runKeys = listing.operations
		.map((o) => timestampKey(o.createTime))
		.filter((k): k is string => k !== undefined);
	const order = orderOf(runKeys);
	const start = listing.start ?? 'top';
	const first = runKeys[0];
	const last = runKeys[runKeys.length - 1];
	const below = (key: string) => nsToKey(keyToNs(key) - 1n);
	if (order === 'a' && start !== 'd') {
		const through = listing.done ? null : last === undefined ? undefined : below(last);
		return { through, order };
	}
	// one creation time only reads as either order
	if ((order === 'd' || (order === 'a' && first === last)) && start !== 'a') {
		const reached = listing.done || runKeys.some((k) => k <= floor);
		if (reached) {
			const through = start === 'top' || first === undefined ? null : below(first);
			return { through, order: 'd' };
		}
		const lastPage = listing.pages[listing.pages.length - 1];
		const gap =
			lastPage.token !== undefined && lastPage.first !== undefined
				? { p: lastPage.token, b: lastPage.first }
				: undefined;
		return { through: undefined, order: 'd', ...(gap ? { gap } : {}) };
	}
	return { through: start === 'top' && listing.done ? null : undefined, order: 'u' };
}

interface Known {
	key: string;
	ns: bigint;
}

function readKnown(state: InstallationState): Known[] {
	if (!state.k || !state.n) return [];
	const top = keyToNs(state.n);
	return state.k.map((text) => {
		const [key, below] = text.split(':');
		return { key, ns: top - BigInt(parseInt(below, 36)) * NS_PER_MS };
	});
}

interface ResumeWork {
	listing: InstallationListing;
	coverage: ReturnType<typeof coverageOf>;
	state: InstallationState;
	hold?: string;
}

/**
 * Where the next poll starts reading this installation's list (undefined: the first page).
 * Oldest first: the page holding the oldest operation left waiting, or else the last page read
 * (it is read again, for what was added to it). Newest first: the last page read while a gap
 * below it is unread, or the same gap again while operations in it wait for room.
 */
function resumePoint(work: ResumeWork): Pick<InstallationState, 'p' | 'b' | 'o'> | undefined {
	const { listing, coverage } = work;
	const pages = listing.pages;
	if (!pages?.length) return undefined;
	if (coverage.order === 'a' && coverage.through !== undefined && listing.start !== 'd') {
		// the oldest operation not settled: the one left waiting, or the ties of the last creation
		// time read when the list goes on (some of them may be on the next page)
		let pending = work.hold;
		if (coverage.through !== null) {
			const last = pages.reduce<string | undefined>((at, p) => p.last ?? at, undefined);
			if (last !== undefined && (pending === undefined || last < pending)) pending = last;
		}
		let page = pages[pages.length - 1];
		if (pending !== undefined) {
			page = pages.find((p) => p.last !== undefined && p.last >= pending!) ?? page;
		}
		if (page.token === undefined || page.first === undefined) return undefined;
		return { p: page.token, b: page.first, o: 'a' };
	}
	if (coverage.order === 'd') {
		if (coverage.gap) return { ...coverage.gap, o: 'd' };
		if (listing.start === 'd' && work.hold !== undefined && work.state.p && work.state.b) {
			return { p: work.state.p, b: work.state.b, o: 'd' };
		}
	}
	return undefined;
}

interface Candidate {
	operation: ListedOperation;
	installationId: string;
	createKey: string;
}

/**
 * One poll's discovery: the operations whose logs this poll reads, and the next state (to be
 * stored only when every request of the poll succeeded). Pure: `previous` is not modified.
 */
export function discover(input: DiscoverInput): DiscoverResult {
	const prior = readDiscovery(input.previous, input.scope);
	const start = prior?.s ?? startState(undefined, input.scope, input.now, input.emitExisting).s;
	const share = knownShare(input.listings.length);
	const watch: WatchedOperation[] = [];
	const candidates: Candidate[] = [];
	const nextInstallations = dict<InstallationState>();
	const watchedCount = { n: 0 };

	interface Work {
		installationId: string;
		state: InstallationState;
		known: Known[];
		knownKeys: Set<string>;
		watched: Record<string, number>;
		newest?: string;
		/** Oldest creation key of a new operation left waiting. */
		hold?: string;
		listing: InstallationListing;
		coverage: ReturnType<typeof coverageOf>;
	}
	const works: Work[] = [];

	for (const listing of input.listings) {
		if (nextInstallations[listing.installationId]) continue;
		const before = prior?.i[listing.installationId];
		const firstSight = before === undefined;
		const state: InstallationState = before ?? { f: start };
		const known = readKnown(state);
		const coverage = coverageOf(listing, state.f);
		const work: Work = {
			installationId: listing.installationId,
			state,
			known,
			knownKeys: new Set(known.map((k) => k.key)),
			watched: dict(Object.entries(state.t ?? {})),
			newest: state.n,
			listing,
			coverage,
		};
		works.push(work);
		nextInstallations[listing.installationId] = state;

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
				work.known.push({
					key: operationKey(id),
					ns: keyToNs(createKey ?? work.newest ?? state.f),
				});
				work.knownKeys.add(operationKey(id));
			}
		}
		watchedCount.n += Object.keys(work.watched).length;

		for (const operation of listed.values()) {
			if (work.watched[operation.id] !== undefined) continue;
			const createKey = timestampKey(operation.createTime);
			if (createKey === undefined) continue; // undated: cannot be placed, never taken
			if (createKey > state.f) {
				// only what this poll verified: the rest is found again by a later poll
				const covered =
					coverage.through === null ||
					(coverage.through !== undefined && createKey <= coverage.through);
				if (covered && !work.knownKeys.has(operationKey(operation.id))) {
					candidates.push({ operation, installationId: listing.installationId, createKey });
				}
			} else if (firstSight && isRunning(operation.status)) {
				// running when the installation is first watched: from the start on
				candidates.push({ operation, installationId: listing.installationId, createKey: '' });
			}
		}
	}

	// Room: oldest first (history that is still running before anything new).
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
	for (const candidate of candidates) {
		const work = byInstallation.get(candidate.installationId)!;
		const history = candidate.createKey === '';
		if (watchedCount.n >= MAX_WATCHED_OPERATIONS) {
			if (!history) {
				waiting++;
				if (work.hold === undefined || candidate.createKey < work.hold)
					work.hold = candidate.createKey;
			}
			continue;
		}
		watchedCount.n++;
		// listed as finished before its log is read: this poll counts as one that saw it finished
		work.watched[candidate.operation.id] = isRunning(candidate.operation.status) ? 0 : 1;
		watch.push({
			operationId: candidate.operation.id,
			installationId: candidate.installationId,
			first: history ? (input.emitExisting ? 'new' : 'start') : 'new',
			retiring: false,
		});
		if (!history && (work.newest === undefined || candidate.createKey > work.newest)) {
			work.newest = candidate.createKey;
		}
	}

	// Next state per installation: retired operations leave `t`; the floor rises; known is bounded.
	for (const work of works) {
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
		let known = work.known.filter((k) => k.ns > floor);
		if (known.length > share) {
			// the oldest retired keys go, the floor rising past them, as far as it may rise; keys
			// above that stay (at most the watched operations' worth more than the share)
			known.sort((a, b) => (a.ns > b.ns ? -1 : a.ns < b.ns ? 1 : 0));
			let dropped = known[share].ns;
			if (cap !== undefined && dropped > cap) dropped = cap;
			if (dropped > floor) floor = dropped;
			known = known.filter((k) => k.ns > floor);
		}
		const next: InstallationState = { f: nsToKey(floor) };
		let top = work.newest !== undefined ? keyToNs(work.newest) : undefined;
		for (const k of known) if (top === undefined || k.ns > top) top = k.ns;
		if (top !== undefined) next.n = nsToKey(top);
		if (known.length && top !== undefined) {
			next.k = known.map((k) => `${k.key}:${((top! - k.ns) / NS_PER_MS).toString(36)}`);
		}
		if (Object.keys(watched).length) next.t = watched;
		const resume = resumePoint(work);
		if (resume?.p && resume.p.length <= MAX_TOKEN_LENGTH) Object.assign(next, resume);
		nextInstallations[work.installationId] = next;
	}

	watch.sort((a, b) => (a.operationId < b.operationId ? -1 : 1));
	return {
		watch,
		next: { v: DISCOVERY_VERSION, w: input.scope, s: start, i: nextInstallations },
		startMs: Number(keyToNs(start) / NS_PER_MS),
		waiting,
	};
}
