/**
 * The hand-off of a poll's entries to n8n when main dies (nodes/IntegrationPlatformLogTrigger/
 * handOff.ts; docs/triggers.md, "When main dies"), through the real poll() against the
 * simulator, in both scopes. A crash "after the save" is the window measured in a real n8n: the
 * poll's static data is persisted, but its items never reach an execution. The restarted main is
 * a new process (the node loaded again in a fresh module registry).
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollRunner, Persistence } from '../../harness/poll';
import {
	freshLogTrigger,
	json,
	rl,
	runner,
	SEED,
	useLogSimulator,
} from '../../harness/logTriggerEngine';
import { MAX_KEYS_KEPT } from '../../../nodes/IntegrationPlatformLogTrigger/handOff';
import { triggerSchemaErrors } from '../../harness/outputSchemas';

const sim = useLogSimulator();

type Watch = 'operationIds' | 'installation';

function trigger(watch: Watch, persistence: Persistence = 'legacy'): PollRunner {
	const r = runner(
		sim(),
		watch === 'operationIds'
			? { watch, operationIds: SEED.operationId }
			: {
					watch,
					integration: rl(SEED.integrationId),
					installation: rl(SEED.installationId),
					operationIds: undefined,
				},
		{ persistence },
	);
	r.node.typeVersion = 2;
	return r;
}

/** Where the test writes entries: the watched operation, or a new one of the installation. */
function target(watch: Watch): string {
	return watch === 'operationIds' ? SEED.operationId : sim().addOperation().id;
}

const write = (operationId: string, ...msgs: string[]) =>
	msgs.forEach((msg) => sim().appendLog(operationId, { message: { msg } }));

async function poll(r: PollRunner): Promise<IDataObject[]> {
	const out = await r.poll();
	expect(out.error).toBeUndefined();
	return json(out.items);
}
const texts = (items: IDataObject[]) => items.map((i) => (i.message as IDataObject).msg);

describe.each(['operationIds', 'installation'] as const)('watching %s', (watch) => {
	test('main killed after the poll saved its state, before the execution: the next process emits the entries again, marked', async () => {
		const r = trigger(watch);
		await poll(r); // activation: start from now
		const op = target(watch);
		write(op, 'a1', 'a2');
		const lost = await poll(r);
		expect(texts(lost)).toEqual(['a1', 'a2']); // persisted, then main died: no execution
		write(op, 'b1');
		r.restart(freshLogTrigger());
		const again = await poll(r);
		expect(texts(again)).toEqual(['a1', 'a2', 'b1']);
		// what the lost poll handed off is marked; b1 was never emitted before
		expect(again.map((i) => i.redelivered)).toEqual([true, true, undefined]);
		expect(triggerSchemaErrors('IntegrationPlatformLogTrigger', 2, again)).toEqual([]);
		expect(again.map((i) => i.entryKey)).toEqual(
			expect.arrayContaining(lost.map((i) => i.entryKey)),
		);
		// confirmed by the next poll of the same process: nothing again, nothing marked
		write(op, 'c1');
		const next = await poll(r);
		expect(texts(next)).toEqual(['c1']);
		expect(next[0].redelivered).toBeUndefined();
	});

	test('the same process polls on: each entry once, none marked', async () => {
		const r = trigger(watch);
		await poll(r);
		const op = target(watch);
		const seen: IDataObject[] = [];
		for (const round of ['a', 'b', 'c']) {
			write(op, `${round}1`, `${round}2`);
			seen.push(...(await poll(r)));
			expect(await poll(r)).toEqual([]); // a poll with nothing new confirms the hand-off
		}
		expect(texts(seen)).toEqual(['a1', 'a2', 'b1', 'b2', 'c1', 'c2']);
		expect(seen.filter((i) => i.redelivered !== undefined)).toEqual([]);
		expect(r.staticData.handOff).toBeUndefined();
	});

	test('a restart after a confirmation committed (durable cursors: every poll is saved) repeats nothing', async () => {
		const r = trigger(watch, 'durableCursors');
		await poll(r);
		const op = target(watch);
		write(op, 'a1');
		await poll(r); // the activation poll of durable cursors commits only when it emits
		write(op, 'b1');
		expect(texts(await poll(r))).toEqual(['b1']);
		expect(await poll(r)).toEqual([]); // confirms, and the confirmation is committed
		r.restart(freshLogTrigger());
		write(op, 'c1');
		const after = await poll(r);
		expect(texts(after)).toEqual(['c1']);
		expect(after[0].redelivered).toBeUndefined();
	});

	test('killed twice in a row: the second process goes back to the same point', async () => {
		const r = trigger(watch);
		await poll(r);
		const op = target(watch);
		write(op, 'a1');
		expect(texts(await poll(r))).toEqual(['a1']); // lost
		r.restart(freshLogTrigger());
		write(op, 'b1');
		expect(texts(await poll(r))).toEqual(['a1', 'b1']); // lost again
		r.restart(freshLogTrigger());
		const third = await poll(r);
		expect(texts(third)).toEqual(['a1', 'b1']);
		expect(third.every((i) => i.redelivered === true)).toBe(true);
	});

	test(`a lost poll of more than ${MAX_KEYS_KEPT} entries: read again, every item is marked`, async () => {
		const r = trigger(watch);
		await poll(r);
		const op = target(watch);
		const many = Array.from({ length: MAX_KEYS_KEPT + 1 }, (_, i) => `m${i}`);
		write(op, ...many);
		expect(await poll(r)).toHaveLength(many.length); // lost
		expect(r.staticData.handOff).not.toHaveProperty('keys');
		write(op, 'after');
		r.restart(freshLogTrigger());
		const again = await poll(r);
		expect(again).toHaveLength(many.length + 1);
		expect(again.every((i) => i.redelivered === true)).toBe(true);
	});

	test('a failed poll while going back leaves the hand-off unconfirmed: the next poll still emits again', async () => {
		const r = trigger(watch);
		await poll(r);
		const op = target(watch);
		write(op, 'a1');
		expect(texts(await poll(r))).toEqual(['a1']); // lost
		r.restart(freshLogTrigger());
		sim().faults.add({ route: 'listOperationLogs', status: 500, times: 1 });
		expect((await r.poll()).error).toBeDefined();
		const again = await poll(r);
		expect(texts(again)).toEqual(['a1']);
		expect(again[0].redelivered).toBe(true);
	});
});

test('"Fetch Test Event" neither reads nor writes the hand-off', async () => {
	const r = trigger('operationIds');
	await poll(r);
	write(SEED.operationId, 'a1');
	await poll(r);
	const handOff = JSON.stringify(r.staticData.handOff);
	expect(handOff).toContain('"by"');
	r.restart(freshLogTrigger());
	const manual = await r.poll('manual');
	expect(manual.error).toBeUndefined();
	expect(json(manual.items).some((i) => i.redelivered)).toBe(false);
	expect(JSON.stringify(r.staticData.handOff)).toBe(handOff);
});
