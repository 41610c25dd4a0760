/**
 * Creation times and log times ahead of the poll's clock (a skewed or broken clock), through the
 * log trigger's real poll() against the simulator: they neither raise a floor nor hide later
 * entries, and what they date is emitted exactly once, across later polls too.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	CLOCK_TOLERANCE_MS,
	MAX_AHEAD_PER_OPERATION,
} from '../../../nodes/IntegrationPlatformLogTrigger/logCursor';
import { fakeDateOnly } from '../../harness/fakeDate';
import { MAX_AHEAD_KNOWN } from '../../../nodes/IntegrationPlatformLogTrigger/discovery';
import type { PollRunner } from '../../harness/poll';
import {
	identity,
	isoMicros,
	rl,
	runner,
	SEED,
	useLogSimulator,
} from '../../harness/logTriggerEngine';

const sim = useLogSimulator();

const FAR_AHEAD = '9999-12-31T23:59:59.000000Z';
const DAY = 24 * 60 * 60 * 1000;
const dayAhead = () => isoMicros((Date.now() + DAY) * 1000);

function scope(watch: 'installation' | 'integration'): PollRunner {
	const r = runner(sim(), {
		watch,
		integration: rl(SEED.integrationId),
		installation: rl(SEED.installationId),
		operationIds: undefined,
	});
	r.node.typeVersion = 2;
	return r;
}

class Tally {
	readonly mustEmit = new Set<string>();

	readonly emitted = new Map<string, number>();

	log(operationId: string, entry?: IDataObject): void {
		this.mustEmit.add(identity(operationId, sim().appendLog(operationId, entry)));
	}

	async polls(r: PollRunner, count: number): Promise<void> {
		for (let i = 0; i < count; i++) {
			const out = await r.poll();
			expect(out.error).toBeUndefined();
			for (const { json } of out.items ?? []) {
				const id = identity(json.operationId as string, json as IDataObject);
				this.emitted.set(id, (this.emitted.get(id) ?? 0) + 1);
			}
		}
	}

	expectExactlyOnce(): void {
		const missing = [...this.mustEmit].filter((id) => !this.emitted.has(id));
		expect(`${missing.length} of ${this.mustEmit.size} entries never emitted`).toBe(
			`0 of ${this.mustEmit.size} entries never emitted`,
		);
		expect([...this.emitted].filter(([, n]) => n > 1)).toEqual([]);
		expect([...this.emitted.keys()].filter((id) => !this.mustEmit.has(id))).toEqual([]);
	}
}

describe.each(['installation', 'integration'] as const)('watching an %s', (watch) => {
	test.each([
		['in the year 9999', () => FAR_AHEAD],
		['a day ahead', dayAhead],
	])(
		'an operation created %s, then 30 ordinary ones: every entry once, across later polls',
		async (_n, createTime) => {
			const r = scope(watch);
			await r.poll(); // activation
			const tally = new Tally();
			const ahead = sim().addOperation({ createTime: createTime() });
			tally.log(ahead.id, { message: { msg: 'ahead' } });
			await tally.polls(r, 1);
			sim().state.operations.get(ahead.id)!.status = 'success';
			for (let i = 0; i < 30; i++) {
				const { id } = sim().addOperation({ status: 'success' });
				tally.log(id, { message: { msg: `op ${i} a` } });
				tally.log(id, { message: { msg: `op ${i} b` } });
			}
			await tally.polls(r, 6); // the operation ahead is retired, and still listed
			tally.expectExactlyOnce();
			const { id } = sim().addOperation();
			tally.log(id, { message: { msg: 'after all that' } });
			await tally.polls(r, 2);
			tally.expectExactlyOnce();
		},
	);

	test('an operation listed again with a later creation time: the operations after it are not lost, it is not new again', async () => {
		const r = scope(watch);
		await r.poll();
		const tally = new Tally();
		const moved = sim().addOperation();
		tally.log(moved.id, { message: { msg: 'moved' } });
		await tally.polls(r, 1);
		Object.assign(sim().state.operations.get(moved.id)!, {
			createTime: dayAhead(),
			status: 'success',
		});
		await tally.polls(r, 3); // read twice finished: retired
		for (let i = 0; i < 3; i++) {
			const { id } = sim().addOperation({ status: 'success' });
			tally.log(id, { message: { msg: `later ${i}` } });
		}
		await tally.polls(r, 4);
		tally.expectExactlyOnce();
	});
});

describe.each([
	['operation IDs', { operationIds: SEED.operationId }, 1],
	[
		'an installation',
		{
			watch: 'installation',
			integration: rl(SEED.integrationId),
			installation: rl(SEED.installationId),
			operationIds: undefined,
		},
		2,
	],
] as const)('log times, watching %s', (_n, parameters, version) => {
	test.each([
		['in the year 9999', FAR_AHEAD],
		['a day ahead', null],
	])(
		'one entry dated %s among ordinary ones: it comes out once, and so do the next ones',
		async (_m, stamp) => {
			const r = runner(sim(), parameters as IDataObject);
			r.node.typeVersion = version;
			const op =
				version === 1
					? SEED.operationId
					: sim().addOperation({ createTime: '2020-01-01T00:00:00.000000Z' }).id;
			await r.poll(); // activation (a running operation of the installation is watched from now)
			const tally = new Tally();
			tally.log(op, { message: { msg: 'before' } });
			tally.log(op, { timestamp: stamp ?? dayAhead(), message: { msg: 'ahead' } });
			await tally.polls(r, 1);
			for (let i = 0; i < 10; i++) {
				tally.log(op, { message: { msg: `next ${i}` } });
				await tally.polls(r, 1);
			}
			await tally.polls(r, 2);
			tally.expectExactlyOnce();
		},
	);

	test(`an entry within the tolerance (${CLOCK_TOLERANCE_MS / 60_000} minutes) ahead counts as any other`, async () => {
		const r = runner(sim(), parameters as IDataObject);
		r.node.typeVersion = version;
		const op =
			version === 1
				? SEED.operationId
				: sim().addOperation({ createTime: '2020-01-01T00:00:00.000000Z' }).id;
		await r.poll();
		const tally = new Tally();
		const soon = isoMicros((Date.now() + CLOCK_TOLERANCE_MS / 2) * 1000);
		tally.log(op, { timestamp: soon, message: { msg: 'soon' } });
		await tally.polls(r, 1);
		tally.log(op, { message: { msg: 'now' } });
		await tally.polls(r, 2);
		tally.expectExactlyOnce();
		const cursor = (r.staticData.logCursor as { ops: Record<string, IDataObject> }).ops[op];
		expect(cursor.m! > soon.slice(0, 26)).toBe(true); // the mark rose to it: the ordinary path
	});
});

describe('the bound on entries ahead of the clock', () => {
	const aheadBy = (i: number) =>
		`9999-12-31T23:59:${String(i % 60).padStart(2, '0')}.${String(i).padStart(6, '0')}Z`;

	test(`${MAX_AHEAD_PER_OPERATION} entries ahead in one operation: each once, across later polls`, async () => {
		const r = runner(sim(), {});
		await r.poll();
		const tally = new Tally();
		for (let i = 0; i < MAX_AHEAD_PER_OPERATION; i++) {
			tally.log(SEED.operationId, { timestamp: aheadBy(i), message: { msg: `ahead ${i}` } });
		}
		await tally.polls(r, 1);
		tally.log(SEED.operationId, { message: { msg: 'now' } });
		await tally.polls(r, 2);
		tally.expectExactlyOnce();
	});

	test('one more: the poll fails saying what to check, nothing is emitted or moved', async () => {
		const r = runner(sim(), {});
		await r.poll();
		for (let i = 0; i <= MAX_AHEAD_PER_OPERATION; i++) {
			sim().appendLog(SEED.operationId, { timestamp: aheadBy(i), message: { msg: `ahead ${i}` } });
		}
		const before = JSON.stringify(r.staticData);
		const out = await r.poll();
		expect(out.items).toBeNull();
		expect(out.error?.message).toBe(
			`Operation ${SEED.operationId} has log entries dated more than 5 minutes ahead of this n8n's clock, more than the ${MAX_AHEAD_PER_OPERATION} the trigger remembers per operation`,
		);
		expect(out.error?.description).toMatch(
			/1 more did not fit\. Check the clock of n8n's host.*cursor did not move/,
		);
		expect(JSON.stringify(r.staticData)).toBe(before);
	});
});

describe('the clock catches up (Date moved two days on)', () => {
	beforeEach(() => fakeDateOnly());
	afterEach(() => jest.useRealTimers());

	test('an entry and an operation dated a day ahead are not emitted again once they are the past', async () => {
		const ops = runner(sim(), {});
		const installation = scope('installation');
		await ops.poll();
		await installation.poll();
		const tally = new Tally();
		tally.log(SEED.operationId, { timestamp: dayAhead(), message: { msg: 'entry ahead' } });
		const ahead = sim().addOperation({ createTime: dayAhead() });
		tally.log(ahead.id, { timestamp: dayAhead(), message: { msg: 'operation ahead' } });
		await tally.polls(ops, 1);
		await tally.polls(installation, 2);
		sim().state.operations.get(ahead.id)!.status = 'success';
		await tally.polls(installation, 2); // retired while ahead
		jest.setSystemTime(Date.now() + 2 * DAY);
		tally.log(SEED.operationId, { message: { msg: 'two days on' } });
		const { id } = sim().addOperation();
		tally.log(id, { message: { msg: 'new operation, two days on' } });
		await tally.polls(ops, 2);
		await tally.polls(installation, 3);
		tally.expectExactlyOnce();
	});
});

test(`more than ${MAX_AHEAD_KNOWN} finished operations created ahead of the clock: each emitted once, then the poll fails saying what to check`, async () => {
	const r = scope('installation');
	await r.poll();
	const tally = new Tally();
	for (let i = 0; i <= MAX_AHEAD_KNOWN; i++) {
		const { id } = sim().addOperation({ createTime: FAR_AHEAD, status: 'success' });
		tally.log(id, { message: { msg: `ahead ${i}` } });
	}
	await tally.polls(r, 1); // taken and read (listed finished: one of the two reads)
	tally.expectExactlyOnce();
	const before = JSON.stringify(r.staticData);
	const out = await r.poll(); // the second read retires them: one more than the state keeps
	expect(out.items).toBeNull();
	expect(out.error?.message).toBe(
		`${MAX_AHEAD_KNOWN + 1} finished operations were created more than 5 minutes ahead of this n8n's clock; the trigger remembers at most ${MAX_AHEAD_KNOWN}`,
	);
	expect(out.error?.description).toMatch(/Check the clock of n8n's host.*cursor did not move/);
	expect(JSON.stringify(r.staticData)).toBe(before);
});
