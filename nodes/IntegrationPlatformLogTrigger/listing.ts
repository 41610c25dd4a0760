/**
 * One poll's reading of an installation's operations list (see discovery.ts): the pages read,
 * the order they show, what they verified and where the next poll resumes. Pure: no n8n imports.
 */
import { timestampKey } from '../common/timestamps';
import type { InstallationState, ListedOperation } from './discoveryState';
import { keyToNs, MAX_PAGES_PER_POLL, MAX_WATCHED_OPERATIONS, nsToKey } from './discoveryState';

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

export interface ResumeWork {
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
export function resumePoint(
	work: ResumeWork,
): Pick<InstallationState, 'p' | 'b' | 'o'> | undefined {
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
