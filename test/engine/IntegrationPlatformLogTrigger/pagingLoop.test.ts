/**
 * The operations list's paging that does not advance (a next-page token this listing already
 * followed: the same one again, or A, B, A …), through the log trigger's real poll() against the
 * simulator: the poll fails with an error naming the loop, the state stays as it was, and once
 * the paging is sound again every entry comes out once.
 */
import type { IDataObject } from 'n8n-workflow';

import { identity, rl, runner, SEED, useLogSimulator } from '../../harness/logTriggerEngine';

const sim = useLogSimulator();

/** A page of the installation's real operations that is not the last, pointing at `token`. */
function pageTo(token: string): IDataObject {
	const results = [...sim().state.operations.values()].filter(
		(o) => o.installationId === SEED.installationId,
	);
	return { results, pagination: { done: false, nextPageToken: token } };
}

const A = 'QUFBQQ==';
const B = 'QkJCQg==';

// Twenty pages of the loop (more than a poll reads); the loop is told after `pages` pages.
test.each([
	['a token that never changes', [A], 2],
	['tokens that alternate A, B, A', [A, B], 3],
])(
	'%s: the poll fails naming the loop, nothing moves, then every entry once',
	async (_n, cycle, pages) => {
		const r = runner(sim(), {
			watch: 'installation',
			integration: rl(SEED.integrationId),
			installation: rl(SEED.installationId),
			operationIds: undefined,
		});
		r.node.typeVersion = 2;
		expect((await r.poll()).error).toBeUndefined(); // activation
		const mustEmit = new Set<string>();
		for (let i = 0; i < 3; i++) {
			const { id } = sim().addOperation();
			mustEmit.add(identity(id, sim().appendLog(id, { message: { msg: `op ${i}` } })));
		}
		for (let i = 0; i < 20; i++) {
			const body = pageTo(cycle[i % cycle.length]);
			sim().faults.add({ route: 'listOperations', status: 200, body, times: 1 });
		}
		const before = JSON.stringify(r.staticData);
		const failed = await r.poll();
		expect(failed.error?.message).toBe(
			`Could not get the operations of installation ${SEED.installationId}: the list's paging does not advance (after ${pages} pages, the next page token is one this listing already followed)`,
		);
		expect(failed.error?.description).toMatch(/cursor did not move/);
		expect(failed.items).toBeNull();
		expect(JSON.stringify(r.staticData)).toBe(before);
		expect(sim().journal.find({ routeId: 'listOperations' })).toHaveLength(1 + pages);

		sim().faults.clear();
		const emitted = new Map<string, number>();
		for (let i = 0; i < 3; i++) {
			for (const { json } of (await r.poll()).items ?? []) {
				const id = identity(json.operationId as string, json as IDataObject);
				emitted.set(id, (emitted.get(id) ?? 0) + 1);
			}
		}
		expect([...emitted.keys()].sort()).toEqual([...mustEmit].sort());
		expect([...emitted.values()].every((n) => n === 1)).toBe(true);
	},
);
