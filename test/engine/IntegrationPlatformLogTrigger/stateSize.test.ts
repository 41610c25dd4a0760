/**
 * The log trigger's state is bounded in bytes, not only in counts: operation IDs far longer than
 * the API's UUIDs cannot fill n8n's static data. Through the real poll() against the in-process
 * fake of the API (test/harness/operationsFake.ts), on a faked Date (one poll a simulated minute).
 */
import type { IDataObject } from 'n8n-workflow';

import { IntegrationPlatformLogTrigger } from '../../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node';
import {
	MAX_OPERATION_ID_LENGTH,
	WATCHED_ID_BUDGET,
} from '../../../nodes/IntegrationPlatformLogTrigger/discovery';
import { MAX_STATE_BYTES } from '../../../nodes/IntegrationPlatformLogTrigger/stateSize';
import { fakeDateOnly } from '../../harness/fakeDate';
import { identity, NODE_TYPE_NAME, rl, SEED } from '../../harness/logTriggerEngine';
import {
	FAKE_BASE_URL,
	FAKE_INTEGRATION,
	FAKE_PROJECT,
	OperationsFake,
} from '../../harness/operationsFake';
import { PollRunner } from '../../harness/poll';

const MINUTE = 60_000;

beforeEach(() => fakeDateOnly());
afterEach(() => jest.useRealTimers());

function fakeRunner(fake: OperationsFake, parameters: IDataObject = {}): PollRunner {
	const r = new PollRunner({
		nodeType: new IntegrationPlatformLogTrigger(),
		nodeTypeName: NODE_TYPE_NAME,
		parameters: {
			project: rl(FAKE_PROJECT.name),
			watch: 'installation',
			integration: rl(FAKE_INTEGRATION),
			installation: rl(fake.installations[0]),
			...parameters,
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

const stateBytes = (r: PollRunner) =>
	Math.max(Buffer.byteLength(JSON.stringify(r.staticData)), Buffer.byteLength(r.persistedJson));

test('100 operations with 100 KB IDs: the poll fails naming the ID, the state stays small', async () => {
	const fake = new OperationsFake(Date.UTC(2030, 0, 1));
	jest.setSystemTime(fake.now);
	const r = fakeRunner(fake);
	expect((await r.poll()).error).toBeUndefined();
	fake.now += 1000;
	for (let i = 0; i < 100; i++) {
		const id = `${i}-`.padEnd(100 * 1024, 'x');
		fake.addOperation(undefined, 'success', id);
		fake.appendLog(id, `op ${i}`);
	}
	let largest = 0;
	let error: Error | undefined;
	for (let i = 0; i < 3; i++) {
		fake.now += MINUTE;
		jest.setSystemTime(fake.now);
		const out = await r.poll();
		error ??= out.error;
		largest = Math.max(largest, stateBytes(r));
	}
	expect(largest).toBeLessThan(4096);
	expect(error?.message).toBe(
		`Installation ${fake.installations[0]} lists an operation whose ID has ${100 * 1024} characters ("0-${'x'.repeat(38)}…"); the trigger watches IDs of at most ${MAX_OPERATION_ID_LENGTH}`,
	);
});

test(`operations with IDs of ${MAX_OPERATION_ID_LENGTH} characters: fewer watched at once, every entry once, the state within ${MAX_STATE_BYTES} bytes`, async () => {
	const fake = new OperationsFake(Date.UTC(2030, 0, 1));
	jest.setSystemTime(fake.now);
	const r = fakeRunner(fake);
	expect((await r.poll()).error).toBeUndefined();
	fake.now += 1000;
	const mustEmit = new Set<string>();
	const created = 100;
	for (let i = 0; i < created; i++) {
		const id = `${i}-`.padEnd(MAX_OPERATION_ID_LENGTH, 'y');
		fake.addOperation(undefined, 'in_progress', id);
		mustEmit.add(identity(id, fake.appendLog(id, `op ${i} started`)));
	}
	const emitted = new Map<string, number>();
	let largest = 0;
	let mostWatched = 0;
	for (let poll = 0; poll < 30; poll++) {
		fake.now += MINUTE;
		jest.setSystemTime(fake.now);
		// operations finish a while after they were first read, with a last entry
		if (poll === 2 || poll === 8 || poll === 14 || poll === 20) {
			for (const [id, operation] of fake.operations) {
				if (operation.status !== 'in_progress') continue;
				mustEmit.add(identity(id, fake.appendLog(id, 'finished')));
				fake.finish(id);
			}
		}
		const out = await r.poll();
		expect(out.error).toBeUndefined();
		for (const { json } of out.items ?? []) {
			const id = identity(json.operationId as string, json as IDataObject);
			emitted.set(id, (emitted.get(id) ?? 0) + 1);
		}
		largest = Math.max(largest, stateBytes(r));
		const watched = (r.staticData.discovery as { i: Record<string, { t?: object }> }).i[
			fake.installations[0]
		].t;
		mostWatched = Math.max(mostWatched, Object.keys(watched ?? {}).length);
	}
	expect([...mustEmit].filter((id) => !emitted.has(id))).toHaveLength(0);
	expect([...emitted.values()].filter((n) => n > 1)).toHaveLength(0);
	expect(mostWatched).toBe(Math.floor(WATCHED_ID_BUDGET / MAX_OPERATION_ID_LENGTH));
	expect(largest).toBeLessThan(MAX_STATE_BYTES);
	// eslint-disable-next-line no-console
	console.log(`IDs of ${MAX_OPERATION_ID_LENGTH} characters: largest state ${largest} B`);
});

test('an operation ID typed longer than that is refused before any request, naming the field', async () => {
	const fake = new OperationsFake(Date.UTC(2030, 0, 1));
	const r = fakeRunner(fake, {
		watch: 'operationIds',
		operationIds: `ok-id, ${'z'.repeat(MAX_OPERATION_ID_LENGTH + 1)}`,
	});
	const out = await r.poll();
	expect(out.error?.message).toBe(
		`Operation ID too long: ${MAX_OPERATION_ID_LENGTH + 1} characters`,
	);
	expect(out.error?.description).toMatch(/Check the Operation IDs field/);
	expect(fake.requests).toEqual({});
});
