/**
 * Volume, for version 2 watching an installation: every operation's entries come out exactly
 * once when far more operations appear than one poll reads (its page cap, the operations it
 * watches at once), and the cursor's state stays bounded.
 * - a burst of 2,500 operations after activation, against the simulator (over HTTP);
 * - a burst of 10,000, and 30 operations a minute for 24 simulated hours (43,200), against an
 *   in-process fake with the API's paging (test/harness/operationsFake.ts), one poll a simulated
 *   minute. Only Date is faked (the node reads the time of each poll from it); nothing sleeps.
 * Each run prints its figures: polls, entries, misses, duplicates, requests, largest state.
 */
import type { IDataObject } from 'n8n-workflow';

import { IntegrationPlatformLogTrigger } from '../../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node';
import {
	identity,
	NODE_TYPE_NAME,
	rl,
	runner,
	SEED,
	startSimulator,
	type LogSimulator,
} from '../../harness/logTriggerEngine';
import {
	FAKE_BASE_URL,
	FAKE_INTEGRATION,
	FAKE_PROJECT,
	OperationsFake,
} from '../../harness/operationsFake';
import { PollRunner } from '../../harness/poll';
import { fakeDateOnly } from '../../harness/fakeDate';

jest.setTimeout(900_000);

const MINUTE = 60_000;
/** The state's bound asserted here (JSON of the node's static data, bytes). */
const STATE_LIMIT = 40_000;

interface Tally {
	mustEmit: Set<string>;
	emitted: Map<string, number>;
	polls: number;
	failures: number;
	largestState: number;
}

const newTally = (): Tally => ({
	mustEmit: new Set(),
	emitted: new Map(),
	polls: 0,
	failures: 0,
	largestState: 0,
});

/** One poll; counts what it emitted. Returns how many items it emitted. */
async function pollOnce(r: PollRunner, tally: Tally): Promise<number> {
	const out = await r.poll();
	tally.polls++;
	if (out.error) {
		tally.failures++;
		return 0;
	}
	for (const { json } of out.items ?? []) {
		const id = identity(json.operationId as string, json as IDataObject);
		tally.emitted.set(id, (tally.emitted.get(id) ?? 0) + 1);
	}
	tally.largestState = Math.max(
		tally.largestState,
		JSON.stringify(r.staticData).length,
		r.persistedJson.length,
	);
	return out.items?.length ?? 0;
}

function figures(tally: Tally) {
	const misses = [...tally.mustEmit].filter((id) => !tally.emitted.has(id)).length;
	return {
		entries: tally.mustEmit.size,
		emitted: tally.emitted.size,
		misses,
		duplicates: [...tally.emitted.values()].filter((n) => n > 1).length,
		unexpected: [...tally.emitted.keys()].filter((id) => !tally.mustEmit.has(id)).length,
		polls: tally.polls,
		failures: tally.failures,
		largestState: tally.largestState,
	};
}

/** Polls until every entry is out, or `maxPolls`, or `quiet` polls in a row emit nothing. */
async function drain(
	r: PollRunner,
	tally: Tally,
	maxPolls: number,
	before: () => void = () => {},
	quiet = 10,
) {
	let silent = 0;
	for (let i = 0; i < maxPolls && silent < quiet; i++) {
		before();
		const n = await pollOnce(r, tally);
		silent = n ? 0 : silent + 1;
		if (tally.emitted.size >= tally.mustEmit.size && silent >= 2) break;
	}
}

/** Over HTTP a poll may fail (a request timing out on a busy machine); later polls catch up. */
function expectExactlyOnce(tally: Tally, failuresAllowed = false) {
	const result = figures(tally);
	expect(result).toMatchObject({ misses: 0, duplicates: 0, unexpected: 0 });
	if (!failuresAllowed) expect(result.failures).toBe(0);
	expect(result.largestState).toBeLessThan(STATE_LIMIT);
}

describe('against the simulator', () => {
	let sim: LogSimulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(async () => await sim.close());

	test('a burst of 2,500 operations after activation: every entry exactly once', async () => {
		const r = runner(sim, {
			watch: 'installation',
			integration: rl(SEED.integrationId),
			installation: rl(SEED.installationId),
			operationIds: undefined,
		});
		r.node.typeVersion = 2;
		const tally = newTally();
		await pollOnce(r, tally); // activation
		const known = new Set(sim.state.operations.keys());
		(
			sim as LogSimulator & {
				addOperations(count: number, partial: IDataObject, options: IDataObject): unknown;
			}
		).addOperations(
			2500,
			{ status: 'in_progress' },
			{ startTime: new Date(Date.now() + 1000).toISOString() },
		);
		for (const [id, operation] of sim.state.operations) {
			if (known.has(id)) continue;
			for (const step of ['started', 'finished']) {
				tally.mustEmit.add(identity(id, sim.appendLog(id, { message: { msg: step } })));
			}
			operation.status = 'success';
		}
		await drain(r, tally, 600);
		const result = figures(tally);
		// eslint-disable-next-line no-console
		console.log(`simulator, burst of 2,500: ${JSON.stringify(result)}`);
		expectExactlyOnce(tally, true);
	});
});

describe('against the in-process fake, one poll a simulated minute', () => {
	const start = Date.UTC(2030, 0, 1, 0, 0, 0);

	beforeEach(() => {
		fakeDateOnly();
	});
	afterEach(() => jest.useRealTimers());

	function fakeRunner(fake: OperationsFake): PollRunner {
		const r = new PollRunner({
			nodeType: new IntegrationPlatformLogTrigger(),
			nodeTypeName: NODE_TYPE_NAME,
			parameters: {
				project: rl(FAKE_PROJECT.name),
				watch: 'installation',
				integration: rl(FAKE_INTEGRATION),
				installation: rl(fake.installations[0]),
			},
			credentials: {
				integrationPlatformApi: {
					apiKey: SEED.apiKey,
					baseUrl: FAKE_BASE_URL,
					readUrl: FAKE_BASE_URL,
					writeUrl: FAKE_BASE_URL,
					searchUrl: FAKE_BASE_URL,
					proxyUrl: FAKE_BASE_URL,
				},
			},
			transport: fake.transport,
		});
		r.node.typeVersion = 2;
		return r;
	}

	/** The next poll happens a minute later, at the fake's time. */
	const tick = (fake: OperationsFake) => () => {
		fake.now += MINUTE;
		jest.setSystemTime(fake.now);
	};

	test.each(['oldest', 'newest'] as const)(
		'a burst of 10,000 operations after activation (list %s first): every entry exactly once',
		async (order) => {
			const fake = new OperationsFake(start, { order });
			const r = fakeRunner(fake);
			const tally = newTally();
			jest.setSystemTime(fake.now);
			await pollOnce(r, tally); // activation
			fake.now += 1000;
			for (let i = 0; i < 10_000; i++) {
				const operation = fake.addOperation();
				for (const step of ['started', 'finished']) {
					tally.mustEmit.add(identity(operation.id, fake.appendLog(operation.id, step)));
				}
				fake.finish(operation.id);
			}
			await drain(r, tally, 1000, tick(fake));
			const result = { ...figures(tally), requests: fake.requests };
			// eslint-disable-next-line no-console
			console.log(`fake, burst of 10,000, ${order} first: ${JSON.stringify(result)}`);
			expectExactlyOnce(tally);
		},
	);

	test('older operations vanish under a stored page token: the list is read from the top again, nothing skipped', async () => {
		const fake = new OperationsFake(start);
		const r = fakeRunner(fake);
		const tally = newTally();
		jest.setSystemTime(fake.now);
		await pollOnce(r, tally); // activation
		fake.now += 1000;
		const created = Array.from({ length: 600 }, () => {
			const operation = fake.addOperation();
			tally.mustEmit.add(identity(operation.id, fake.appendLog(operation.id, 'done')));
			fake.finish(operation.id);
			return operation;
		});
		const resumeToken = () =>
			((r.staticData.discovery as IDataObject).i as Record<string, IDataObject>)[
				fake.installations[0]
			].p;
		// poll until the trigger resumes past the first page
		for (let i = 0; i < 20 && resumeToken() === undefined; i++) {
			tick(fake)();
			await pollOnce(r, tally);
		}
		expect(resumeToken()).toBeDefined();
		// the operations already emitted go (retention): an offset token now points further on
		const emittedOps = new Set([...tally.emitted.keys()].map((id) => JSON.parse(id)[0]));
		const gone = created.findIndex((o) => !emittedOps.has(o.id));
		expect(gone).toBeGreaterThan(0);
		fake.forgetOldest(gone);
		await drain(r, tally, 100, tick(fake));
		const result = figures(tally);
		// eslint-disable-next-line no-console
		console.log(
			`fake, 600 operations, ${gone} oldest gone under the token: ${JSON.stringify(result)}`,
		);
		expectExactlyOnce(tally);
	});

	test('30 operations a minute for 24 simulated hours: every entry exactly once', async () => {
		const fake = new OperationsFake(start);
		const r = fakeRunner(fake);
		const tally = newTally();
		jest.setSystemTime(fake.now);
		await pollOnce(r, tally); // activation
		// each operation: an entry when it starts, one when it ends 45 s later, then it is finished
		const ends: Array<{ at: number; id: string }> = [];
		const minutes = 24 * 60;
		for (let minute = 0; minute < minutes; minute++) {
			const base = start + minute * MINUTE;
			const events: Array<{ at: number; run: () => void }> = [];
			for (let k = 0; k < 30; k++) {
				events.push({
					at: base + 1000 + k * 2000,
					run: () => {
						const operation = fake.addOperation();
						tally.mustEmit.add(identity(operation.id, fake.appendLog(operation.id, 'started')));
						ends.push({ at: fake.now + 45_000, id: operation.id });
					},
				});
			}
			// ends due within this minute, interleaved with the starts by time
			while (ends.length && ends[0].at <= base + MINUTE) {
				const end = ends.shift()!;
				events.push({
					at: end.at,
					run: () => {
						tally.mustEmit.add(identity(end.id, fake.appendLog(end.id, 'ended')));
						fake.finish(end.id);
					},
				});
			}
			events.sort((a, b) => a.at - b.at);
			for (const event of events) {
				// an end scheduled by a start of this minute is due later than everything sorted here
				fake.now = Math.max(fake.now, event.at);
				event.run();
			}
			while (ends.length && ends[0].at <= base + MINUTE) {
				const end = ends.shift()!;
				fake.now = Math.max(fake.now, end.at);
				tally.mustEmit.add(identity(end.id, fake.appendLog(end.id, 'ended')));
				fake.finish(end.id);
			}
			fake.now = base + MINUTE;
			jest.setSystemTime(fake.now);
			await pollOnce(r, tally);
		}
		for (const end of ends.splice(0)) {
			tally.mustEmit.add(identity(end.id, fake.appendLog(end.id, 'ended')));
			fake.finish(end.id);
		}
		await drain(r, tally, 60, tick(fake));
		const result = { ...figures(tally), requests: fake.requests };
		// eslint-disable-next-line no-console
		console.log(`fake, 30 a minute for 24 hours: ${JSON.stringify(result)}`);
		expect(tally.mustEmit.size).toBe(2 * 30 * minutes);
		expectExactlyOnce(tally);
	});
});
