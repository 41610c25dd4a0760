/**
 * Operation → Get Many's pages (routing/pagedList.ts, the operation's own pagination): every page
 * is sent by n8n's routing like the first, so Request Options and the operation's error check
 * apply to each. Paging itself (sizes, tokens, loops) is tested in resources/operation.test.ts.
 */
import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { startForwardProxy, type ForwardProxy } from '../../../harness/forwardProxy';

let sim: Simulator;
let proxy: ForwardProxy;
beforeAll(async () => {
	sim = await startSimulator();
	proxy = await startForwardProxy();
});
afterAll(async () => {
	await proxy.close();
	await sim.close();
});
beforeEach(() => {
	sim.reset();
	proxy.seen.length = 0;
});

const list = {
	resource: 'operation',
	operation: 'getAll',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	installation: rl(SEED.installationId),
};
const listPath = `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/installations/${SEED.installationId}/operations`;

/** `count` more operations of the seeded installation: with the seeded ones, more than a page. */
function addOperations(count: number) {
	const operations = (sim.state as Record<string, unknown>).operations as Map<string, unknown>;
	for (let i = 0; i < count; i++) {
		const id = `op-${String(i).padStart(5, '0')}`;
		operations.set(id, {
			id,
			projectId: SEED.projectId,
			integrationId: SEED.integrationId,
			installationId: SEED.installationId,
			configId: SEED.configId,
			actionType: 'write',
			status: 'success',
			createTime: `2026-01-01T00:00:00.${String(i).padStart(6, '0')}Z`,
		});
	}
}

test('Request Options → Proxy carries every page, not only the first', async () => {
	addOperations(1100);
	const result = await run(sim, { ...list, returnAll: true, requestOptions: { proxy: proxy.url } });
	expect(result.error).toBeUndefined();
	expect(result.json).toHaveLength(1102);
	expect(proxy.seen).toEqual([
		expect.stringMatching(new RegExp(`^GET http://[^/]+${listPath}\\?pageSize=1000$`)),
		expect.stringMatching(new RegExp(`^GET http://[^/]+${listPath}\\?pageSize=1000&pageToken=`)),
	]);
});

test("a later page's error is its item's: with Continue On Fail the error names that item", async () => {
	addOperations(1100);
	// Item 0 reads one page of 5, item 1 every page; the third request is item 1's second page.
	sim.faults.add({ route: 'listOperations', skip: 2, status: 500, times: 1 });
	const result = await run(
		sim,
		{ ...list, returnAll: '={{ $json.all }}', limit: 5 },
		{ items: [{ all: false }, { all: true }], continueOnFail: true },
	);
	expect(result.requests.map((r) => r.status)).toEqual([200, 200, 500]);
	const failed = result.items.filter((item) => item.error);
	expect(failed).toHaveLength(1);
	// n8n's routing pairs no error item (docs/n8n-notes.md, "Continue On Fail in routed
	// operations"); the error itself says which item it is.
	expect((failed[0].error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
	expect(result.items.filter((item) => !item.error)).toHaveLength(5);
});
