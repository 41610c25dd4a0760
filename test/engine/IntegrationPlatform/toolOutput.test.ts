/**
 * Lists answered to an AI tool call say when Limit cut them (routing/results.ts,
 * entriesUpToLimit); workflows get the entries only.
 */
import {
	credentialsFor,
	rl,
	SEED,
	startSimulator,
	type Simulator,
} from '../../harness/actionEngine';
import { NODE_TYPE, runNode } from '../../harness/engine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());

const asTool = `${NODE_TYPE}Tool`;
const run = async (parameters: Record<string, unknown>, nodeTypeName?: string) =>
	await runNode({
		parameters: parameters as never,
		credentials: credentialsFor(sim) as never,
		...(nodeTypeName ? { nodeTypeName } : {}),
	});

const connections = { resource: 'connection', operation: 'getAll', project: rl(SEED.projectId) };

test('a tool call of a list cut at Limit ends with an item that says so, with the count', async () => {
	const all = await run({ ...connections, returnAll: true });
	expect(all.json.length).toBeGreaterThan(1);
	const cut = await run({ ...connections, returnAll: false, limit: 1 }, asTool);
	expect(cut.json).toHaveLength(2);
	expect(cut.json[0].id).toBe(all.json[0].id);
	expect(cut.json[1]).toEqual({
		listCutAtLimit: true,
		returned: 1,
		available: all.json.length,
		note: `Only the first 1 of ${all.json.length} entries are listed (the limit). Call again with a higher limit to see more.`,
	});
});

test('the same list in a workflow has the entries only; a tool call under the limit has no note', async () => {
	const inWorkflow = await run({ ...connections, returnAll: false, limit: 1 });
	expect(inWorkflow.json).toHaveLength(1);
	expect(inWorkflow.json[0]).not.toHaveProperty('listCutAtLimit');
	const whole = await run({ ...connections, returnAll: false, limit: 100 }, asTool);
	expect(whole.json.some((json) => 'listCutAtLimit' in json)).toBe(false);
});

test('a paged list (Operation → Get Many) cut with pages left says more exist, without a total', async () => {
	const cut = await run(
		{
			resource: 'operation',
			operation: 'getAll',
			project: rl(SEED.projectId),
			integration: rl(SEED.integrationId),
			installation: rl(SEED.installationId),
			returnAll: false,
			limit: 1,
		},
		asTool,
	);
	const note = cut.json[cut.json.length - 1];
	expect(cut.json).toHaveLength(2);
	expect(note).toMatchObject({ listCutAtLimit: true, returned: 1 });
});
