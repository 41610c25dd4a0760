/**
 * Version 2 of the log trigger watching a whole installation or integration, through its real
 * poll() against the simulator: new operations found between polls and across pages, installations
 * of an integration, finished operations retired, failures that leave the state alone, restarts,
 * "Fetch Test Event", and version 1 left as it was.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	MAX_WATCHED_OPERATIONS,
	PAGE_SIZE,
} from '../../../nodes/IntegrationPlatformLogTrigger/discovery';
import type { PollRunner } from '../../harness/poll';
import {
	json,
	msgs,
	rl,
	runner,
	SEED,
	useLogSimulator,
	type LogSimulator,
} from '../../harness/logTriggerEngine';
import { triggerSchemaErrors } from '../../harness/outputSchemas';

const sim = useLogSimulator();

const OP = SEED.operationId;
const OP2 = SEED.secondOperationId;
const INST = SEED.installationId;
const INST2 = SEED.deletableInstallationId;

/** A version-2 trigger (the harness builds version-1 nodes). */
function v2(parameters: IDataObject, options: Parameters<typeof runner>[2] = {}): PollRunner {
	const r = runner(
		sim(),
		{
			watch: 'installation',
			integration: rl(SEED.integrationId),
			installation: rl(INST),
			operationIds: undefined,
			...parameters,
		},
		options,
	);
	r.node.typeVersion = 2;
	return r;
}

const listRequests = () => sim().journal.find({ routeId: 'listOperations' });
const logRequests = () => sim().journal.find({ routeId: 'listOperationLogs' });
const discovery = (r: PollRunner) => r.staticData.discovery as IDataObject;

describe('an installation', () => {
	test('first poll starts from now: no history; the running operation and a new one are watched; each entry once', async () => {
		const r = v2({});
		const first = await r.poll();
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		expect(first.persisted).toBe(true);
		// the running seeded operation is watched from now on; the finished one is not
		expect(logRequests().map((e) => e.pathname.split('/')[5])).toEqual([OP2]);

		sim().appendLog(OP2, { message: { msg: 'running op, after the start' } });
		const created = sim().addOperation();
		sim().appendLog(created.id, { message: { msg: 'new op 1' } });
		sim().appendLog(created.id, { message: { msg: 'new op 2' } });
		const second = await r.poll();
		expect(msgs(second.items)).toEqual(['running op, after the start', 'new op 1', 'new op 2']);
		// What the editor previews before the first poll (__schema__/v2.0.0.json).
		expect(triggerSchemaErrors('IntegrationPlatformLogTrigger', 2, json(second.items))).toEqual([]);
		expect(json(second.items)[1]).toMatchObject({
			operationId: created.id,
			installationId: INST,
			projectId: SEED.projectId,
		});
		expect((await r.poll()).items).toBeNull();
		sim().appendLog(created.id, { message: { msg: 'later' } });
		expect(msgs((await r.poll()).items)).toEqual(['later']);
	});

	test('a new operation whose entries predate the poll still comes out whole (it is new as a whole)', async () => {
		const r = v2({});
		await r.poll();
		const created = sim().addOperation({ status: 'success' });
		for (let i = 0; i < 3; i++) sim().appendLog(created.id, { message: { msg: `done ${i}` } });
		expect(msgs((await r.poll()).items)).toEqual(['done 0', 'done 1', 'done 2']);
	});

	test('finished operations are retired after being read in two polls; they never come back', async () => {
		const r = v2({});
		await r.poll();
		const created = sim().addOperation();
		sim().appendLog(created.id, { message: { msg: 'working' } });
		expect(msgs((await r.poll()).items)).toEqual(['working']);
		sim().state.operations.get(created.id)!.status = 'success';
		sim().appendLog(created.id, { message: { msg: 'finished' } });
		expect(msgs((await r.poll()).items)).toEqual(['finished']);
		const watched = () =>
			Object.keys(((discovery(r).i as IDataObject)[INST] as IDataObject).t ?? {});
		expect(watched()).toContain(created.id);
		expect((await r.poll()).items).toBeNull(); // second poll that saw it finished: retired
		expect(watched()).not.toContain(created.id);
		expect(Object.keys((r.staticData.logCursor as IDataObject).ops as IDataObject)).not.toContain(
			created.id,
		);
		sim().journal.clear();
		expect((await r.poll()).items).toBeNull();
		expect(logRequests().map((e) => e.pathname.split('/')[5])).not.toContain(created.id);
	});

	test('new operations across pages: the whole list is read (its order is oldest first here), each entry once', async () => {
		const r = v2({});
		await r.poll();
		(
			sim() as LogSimulator & {
				addOperations(count: number, partial: IDataObject, options: IDataObject): unknown;
			}
		).addOperations(
			PAGE_SIZE * 2 + 10,
			{ status: 'success' },
			{ startTime: '2020-01-01T00:00:00.000Z' },
		);
		const late = sim().addOperation();
		sim().appendLog(late.id, { message: { msg: 'on the last page' } });
		sim().journal.clear();
		const out = await r.poll();
		expect(msgs(out.items)).toEqual(['on the last page']);
		expect(listRequests()).toHaveLength(3);
		expect(listRequests()[1].pathname).toContain('/operations');
	});

	test('more new operations than room: the rest are taken by later polls, none lost, none twice', async () => {
		const r = v2({});
		await r.poll();
		const created = Array.from({ length: MAX_WATCHED_OPERATIONS + 5 }, () =>
			sim().addOperation({ status: 'success' }),
		);
		created.forEach((op, i) => sim().appendLog(op.id, { message: { msg: `op ${i}` } }));
		const seen: string[] = [];
		for (let i = 0; i < 6; i++) seen.push(...msgs((await r.poll()).items));
		expect(seen.sort()).toEqual(created.map((_, i) => `op ${i}`).sort());
		expect(r.persistedJson.length).toBeLessThan(12_000);
	});

	test('emit existing: operations of the last 24 hours and running ones come out whole on the first poll', async () => {
		const recent = sim().addOperation({ status: 'success' });
		sim().appendLog(recent.id, { message: { msg: 'recent history' } });
		const r = v2({ options: { emitExisting: true } });
		const out = await r.poll();
		const ops = new Set(json(out.items).map((j) => j.operationId));
		expect(ops).toEqual(new Set([recent.id, OP2]));
		expect((await r.poll()).items).toBeNull();
	});
});

describe('an integration', () => {
	test('operations of every installation, in one timestamp order; the installation list is read each poll', async () => {
		const r = v2({ watch: 'integration', installation: undefined });
		await r.poll();
		const a = sim().addOperation({ installationId: INST });
		const b = sim().addOperation({ installationId: INST2 });
		sim().appendLog(b.id, { timestamp: '2031-01-01T00:00:01.000000Z', message: { msg: 'b1' } });
		sim().appendLog(a.id, { timestamp: '2031-01-01T00:00:02.000000Z', message: { msg: 'a1' } });
		sim().journal.clear();
		const out = await r.poll();
		expect(msgs(out.items)).toEqual(['b1', 'a1']);
		expect(json(out.items).map((j) => j.installationId)).toEqual([INST2, INST]);
		expect(sim().journal.find({ routeId: 'listInstallations' })).toHaveLength(1);
		expect((await r.poll()).items).toBeNull();
	});
});

describe('failures and restarts', () => {
	test.each([
		['the operations list', 'listOperations'],
		['the logs', 'listOperationLogs'],
		['the installation list', 'listInstallations'],
	])(
		'%s failing: nothing emitted, state untouched, the next poll emits each entry once',
		async (_n, route) => {
			const r = v2({ watch: 'integration', installation: undefined });
			await r.poll();
			const created = sim().addOperation();
			sim().appendLog(created.id, { message: { msg: 'one' } });
			const before = JSON.stringify(r.staticData);
			sim().faults.add({ route, status: 500, times: 1 });
			const failed = await r.poll();
			expect(failed.error?.description).toMatch(/cursor did not move/);
			expect(JSON.stringify(r.staticData)).toBe(before);
			expect(msgs((await r.poll()).items)).toEqual(['one']);
			expect((await r.poll()).items).toBeNull();
		},
	);

	test('a failed first poll records the start: what existed stays history, what came after is emitted', async () => {
		sim().faults.add({ route: 'listOperations', status: 503, times: 1 });
		const r = v2({});
		expect((await r.poll()).error).toBeDefined();
		expect(discovery(r)).toMatchObject({ v: 1, s: expect.any(String) });
		const created = sim().addOperation();
		sim().appendLog(created.id, { message: { msg: 'after the start' } });
		sim().appendLog(OP2, { message: { msg: 'running op after the start' } });
		expect(msgs((await r.poll()).items).sort()).toEqual(
			['after the start', 'running op after the start'].sort(),
		);
	});

	test('a restart before anything was emitted neither replays nor skips', async () => {
		const r = v2({});
		await r.poll();
		const created = sim().addOperation();
		sim().appendLog(created.id, { message: { msg: 'x' } });
		r.restart();
		expect(msgs((await r.poll()).items)).toEqual(['x']);
		r.restart();
		expect((await r.poll()).items).toBeNull();
	});

	test('another installation chosen: the state starts over from now', async () => {
		const r = v2({});
		await r.poll();
		const s1 = discovery(r).w;
		const r2 = v2({ installation: rl(INST2) });
		r2.persistedJson = r.persistedJson;
		r2.restart();
		expect((await r2.poll()).items).toBeNull();
		expect(discovery(r2).w).not.toBe(s1);
	});

	test('parameter problems are reported before any request', async () => {
		expect((await v2({ installation: rl('') }).poll()).error?.message).toBe('Select a group');
		expect((await v2({ integration: rl('') }).poll()).error?.message).toBe('Select an integration');
		expect(listRequests()).toHaveLength(0);
	});
});

describe('Fetch Test Event and version 1', () => {
	test('manual mode: latest entries of the newest operations, no state written', async () => {
		const r = v2({});
		const out = await r.poll('manual');
		expect(json(out.items).length).toBeGreaterThan(0);
		expect(json(out.items)[0]).toMatchObject({ installationId: INST, projectId: SEED.projectId });
		expect(r.staticData.discovery).toBeUndefined();
		expect(r.persistedJson).toBe('{}');
	});

	test('version 1 ignores Watch and its locators: it watches the operation IDs it has', async () => {
		const r = runner(sim(), { watch: 'installation', installation: rl(INST2) });
		await r.poll();
		expect(logRequests().map((e) => e.pathname.split('/')[5])).toEqual([OP]);
		expect(listRequests()).toHaveLength(0);
		expect(r.staticData.discovery).toBeUndefined();
	});

	test('version 2 watching operation IDs behaves as version 1 does', async () => {
		const r = v2({ watch: 'operationIds', operationIds: OP });
		await r.poll();
		sim().appendLog(OP, { message: { msg: 'x' } });
		const out = await r.poll();
		expect(msgs(out.items)).toEqual(['x']);
		expect(json(out.items)[0].installationId).toBeUndefined();
		expect(listRequests()).toHaveLength(0);
	});
});
