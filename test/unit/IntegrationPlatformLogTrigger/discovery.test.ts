/**
 * Discovery of the operations of an installation or integration (nodes/IntegrationPlatformLogTrigger/discovery.ts):
 * what is new, what is history, room, retirement, bounds, and reading stored state back.
 */
import {
	coverageOf,
	discover,
	KNOWN_BUDGET,
	ListingProgress,
	MAX_PAGES_PER_POLL,
	MAX_WATCHED_OPERATIONS,
	readDiscovery,
	RETIRE_AFTER_FINISHED_POLLS,
	type DiscoveryState,
	type InstallationListing,
	type ListedOperation,
} from '../../../nodes/IntegrationPlatformLogTrigger/discovery';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
const SCOPE = 'scope-1';
const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 23)}000Z`;
const op = (id: string, atMs: number, status = 'in_progress'): ListedOperation => ({
	id,
	createTime: iso(atMs),
	status,
});

function poll(previous: unknown, operations: ListedOperation[], now = NOW, emitExisting = false) {
	return discover({
		previous,
		scope: SCOPE,
		now,
		emitExisting,
		listings: [{ installationId: 'inst', operations }],
	});
}

describe('discover', () => {
	test('first poll: running history from the start, finished history ignored, nothing new', () => {
		const { watch, next } = poll(undefined, [
			op('old-running', NOW - 60_000),
			op('old-done', NOW - 60_000, 'success'),
		]);
		expect(watch).toEqual([
			{ operationId: 'old-running', installationId: 'inst', first: 'start', retiring: false },
		]);
		expect(next.i.inst.t).toEqual({ 'old-running': 0 });
	});

	test('later: operations created after the floor are new (whole); known and watched ones are not', () => {
		const first = poll(undefined, [op('a', NOW - 1000, 'success')]);
		const second = poll(
			first.next,
			[op('a', NOW - 1000, 'success'), op('b', NOW + 5000)],
			NOW + 60_000,
		);
		expect(second.watch.map((w) => [w.operationId, w.first])).toEqual([['b', 'new']]);
		const third = poll(
			second.next,
			[op('a', NOW - 1000, 'success'), op('b', NOW + 5000)],
			NOW + 120_000,
		);
		expect(third.watch.map((w) => [w.operationId, w.first])).toEqual([['b', undefined]]);
	});

	test(`finished operations retire after ${RETIRE_AFTER_FINISHED_POLLS} polls and are remembered while above the floor`, () => {
		let state: DiscoveryState = poll(undefined, []).next;
		const list = [op('b', NOW + 5000, 'success')];
		const retiring: boolean[] = [];
		for (let i = 1; i <= 3; i++) {
			const r = poll(state, list, NOW + i * 60_000);
			retiring.push(...r.watch.map((w) => w.retiring));
			state = r.next;
		}
		// taken (new) and listed finished already: that poll counts; the next one reads it a last
		// time and retires it; then never again
		expect(retiring).toEqual([false, true]);
		expect(state.i.inst.t).toBeUndefined();
		expect(state.i.inst.k).toHaveLength(1);
		expect(poll(state, list, NOW + 10 * 60_000).watch).toEqual([]);
	});

	test('room: at most MAX_WATCHED_OPERATIONS, oldest first; the floor waits for the rest', () => {
		const many = Array.from({ length: MAX_WATCHED_OPERATIONS + 3 }, (_, i) =>
			op(`n${String(i).padStart(2, '0')}`, NOW + 1000 + i * 3_600_000, 'success'),
		);
		const start = poll(undefined, []).next;
		const r = poll(start, many, NOW + 100 * 3_600_000);
		expect(r.watch).toHaveLength(MAX_WATCHED_OPERATIONS);
		expect(r.waiting).toBe(3);
		// the floor stays below the oldest waiting one although newer ones were taken hours later
		expect(r.next.i.inst.f < many[MAX_WATCHED_OPERATIONS].createTime!.toString()).toBe(true);
	});

	test('a gone operation (404) stops being watched', () => {
		const first = poll(undefined, [op('run', NOW - 1000)]);
		const gone = discover({
			previous: first.next,
			scope: SCOPE,
			now: NOW + 60_000,
			emitExisting: false,
			listings: [{ installationId: 'inst', operations: [] }],
			lookedUp: new Map([['run', null]]),
		});
		expect(gone.watch).toEqual([]);
		expect(gone.next.i.inst.t).toBeUndefined();
	});

	test('emit existing: the last 24 hours are new on the first poll', () => {
		const r = poll(
			undefined,
			[op('day-old', NOW - 2 * 86_400_000, 'success'), op('hour-old', NOW - 3_600_000, 'success')],
			NOW,
			true,
		);
		expect(r.watch.map((w) => [w.operationId, w.first])).toEqual([['hour-old', 'new']]);
	});

	test('bounded: retired keys never exceed the budget, whatever the history', () => {
		let state: DiscoveryState = poll(undefined, []).next;
		for (let round = 0; round < 40; round++) {
			const list = Array.from({ length: 10 }, (_, i) =>
				op(`r${round}-${i}`, NOW + round * 1000 + i, 'success'),
			);
			for (let p = 0; p < 3; p++) state = poll(state, list, NOW + round * 1000 + 500).next;
		}
		expect(state.i.inst.k!.length).toBeLessThanOrEqual(KNOWN_BUDGET);
		expect(JSON.stringify(state).length).toBeLessThan(1500);
	});

	test('another scope or a malformed state starts over', () => {
		const first = poll(undefined, []);
		expect(readDiscovery(first.next, 'other')).toBeUndefined();
		expect(readDiscovery({ v: 1, w: SCOPE, s: 'x', i: {} }, SCOPE)).toBeUndefined();
		expect(readDiscovery({ ...first.next, i: { inst: { f: 'bad' } } }, SCOPE)?.i).toEqual({});
	});
});

describe('ListingProgress', () => {
	const floor = iso(NOW);
	test('newest first: stops at the page that reaches the floor', () => {
		const p = new ListingProgress(floor);
		expect(p.page([op('a', NOW + 3000), op('b', NOW + 2000)])).toBe(true);
		expect(p.page([op('c', NOW + 1000), op('d', NOW - 1000)])).toBe(false);
	});

	test('oldest first (or no order): reads on to the end, up to the cap', () => {
		const p = new ListingProgress(floor);
		expect(p.page([op('a', NOW - 3000), op('b', NOW - 2000)])).toBe(true);
		expect(p.page([op('c', NOW - 5000)])).toBe(true);
		for (let i = 2; i < MAX_PAGES_PER_POLL; i++) p.page([]);
		expect(p.capped).toBe(true);
	});
});

describe('what a poll verified (coverageOf) and how far the floor rises', () => {
	const floor = iso(NOW);
	const ops = (...offsets: number[]) => offsets.map((o, i) => op(`o${i}-${o}`, NOW + o));
	const listing = (
		operations: ListedOperation[],
		pages: InstallationListing['pages'],
		more: Partial<InstallationListing> = {},
	): InstallationListing => ({ installationId: 'inst', operations, pages, done: false, ...more });

	test('oldest first, stopped before the end: up to just below the last creation time read', () => {
		const read = ops(1000, 2000, 3000);
		const c = coverageOf(listing(read, [{ first: iso(NOW + 1000), last: iso(NOW + 3000) }]), floor);
		expect(c.order).toBe('a');
		expect(c.through! < iso(NOW + 3000) && c.through! > iso(NOW + 2000)).toBe(true);
		expect(coverageOf(listing(read, [{}], { done: true }), floor).through).toBeNull();
	});

	test('newest first: everything once a run from the top reaches the floor; nothing while a gap is left, which is resumed', () => {
		const reached = ops(3000, 2000, -1000);
		expect(coverageOf(listing(reached, [{}]), floor).through).toBeNull();
		const capped = ops(3000, 2000, 1500);
		const c = coverageOf(
			listing(capped, [{}, { token: 'T2', first: iso(NOW + 1500), last: iso(NOW + 1500) }]),
			floor,
		);
		expect(c.through).toBeUndefined();
		expect(c.gap).toEqual({ p: 'T2', b: iso(NOW + 1500) });
		// the gap's run, reaching the floor: below the run's first creation time
		const gapRun = coverageOf(
			listing(ops(1500, 1000, -500), [{ token: 'T2' }], { start: 'd' }),
			floor,
		);
		expect(gapRun.through! < iso(NOW + 1500)).toBe(true);
	});

	test('no order: only a list read whole from the first page', () => {
		const mixed = ops(2000, 1000, 3000);
		expect(coverageOf(listing(mixed, [{}]), floor).through).toBeUndefined();
		expect(coverageOf(listing(mixed, [{}], { done: true }), floor).through).toBeNull();
	});

	test('the floor never rises above what the poll did not read, nor past an operation left waiting', () => {
		const start = poll(undefined, []).next;
		// oldest first, more new operations than room, the list going on past what was read
		const read = Array.from({ length: MAX_WATCHED_OPERATIONS + 10 }, (_, i) =>
			op(`n${String(i).padStart(3, '0')}`, NOW + 60_000 + i * 3_600_000, 'success'),
		);
		const r = discover({
			previous: start,
			scope: SCOPE,
			now: NOW + 1000 * 3_600_000,
			emitExisting: false,
			listings: [
				listing(read, [
					{ first: read[0].createTime as string, last: read[49].createTime as string },
					{
						token: 'P2',
						first: read[50].createTime as string,
						last: read[read.length - 1].createTime as string,
					},
				]),
			],
		});
		expect(r.watch).toHaveLength(MAX_WATCHED_OPERATIONS);
		expect(r.waiting).toBe(9); // the last one read is beyond what the poll verified
		const waitingFirst = read[MAX_WATCHED_OPERATIONS].createTime as string;
		expect(r.next.i.inst.f < waitingFirst).toBe(true);
		// the next poll resumes at the page holding the oldest waiting operation
		expect(r.next.i.inst).toMatchObject({ p: 'P2', b: read[50].createTime, o: 'a' });
	});

	test('a stored page token without its check (an older state) is not used', () => {
		const first = poll(undefined, []);
		const old = { ...first.next, i: { inst: { f: first.next.s, p: 'T' } } };
		expect(readDiscovery(old, SCOPE)?.i.inst.p).toBeUndefined();
	});
});
