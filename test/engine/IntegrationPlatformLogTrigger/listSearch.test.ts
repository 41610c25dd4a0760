/**
 * Version 3 of the log trigger picks its operations from a list (listSearch.ts): the project's
 * recent operations as the action node's Operation ID list shows them. Each row of Operations is
 * a locator; the poll watches the rows' IDs. Versions 1 and 2 keep their text field.
 */
import type { IDataObject } from 'n8n-workflow';

import { IntegrationPlatformLogTrigger } from '../../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node';
import { searchOperations } from '../../../nodes/IntegrationPlatformLogTrigger/listSearch';
import { searchContext } from '../../harness/listSearch';
import {
	msgs,
	rl,
	runner,
	SEED,
	startSimulator,
	type LogSimulator,
} from '../../harness/logTriggerEngine';

let sim: LogSimulator;
beforeAll(async () => (sim = await startSimulator()));
afterEach(() => sim.reset());
afterAll(async () => await sim.close());

const { properties } = new IntegrationPlatformLogTrigger().description;
const row = (operationId: unknown) => ({ operationId });

function v3(parameters: IDataObject) {
	const r = runner(sim, { watch: 'operationIds', operationIds: undefined, ...parameters });
	r.node.typeVersion = 3;
	return r;
}

test("a row's list: the project's operations by type, integration, group and status, newest first", async () => {
	const context = searchContext(sim as never, {
		current: {
			watch: 'operationIds',
			project: rl(SEED.projectName, 'name'),
			operations: { operation: [row(rl('', 'list'))] },
		},
		path: 'parameters.operations.operation[0].operationId',
		properties,
		typeVersion: 3,
	});
	const { results } = await searchOperations.call(context);
	expect(results.map((entry) => entry.value)).toEqual([SEED.secondOperationId, SEED.operationId]);
	expect(results[1].name).toBe(
		`read · ${SEED.integrationName} · ${SEED.groupName} · success · 2025-06-02T08:15:30.000001Z`,
	);
});

test('without a project the list says what to do first', async () => {
	const context = searchContext(sim as never, {
		current: { watch: 'operationIds', operations: { operation: [row(rl('', 'list'))] } },
		path: 'parameters.operations.operation[0].operationId',
		properties,
		typeVersion: 3,
	});
	await expect(searchOperations.call(context)).rejects.toThrow('Select the project first');
});

test('two rows, one from the list and one by ID, are both watched', async () => {
	const r = v3({
		operations: {
			operation: [row(rl(SEED.operationId, 'list')), row(rl(SEED.secondOperationId, 'id'))],
		},
	});
	const out = await r.poll('manual');
	expect(out.error).toBeUndefined();
	const watched = new Set(
		sim.journal.find({ routeId: 'listOperationLogs' }).map((e) => e.pathname.split('/')[5]),
	);
	expect(watched).toEqual(new Set([SEED.operationId, SEED.secondOperationId]));
	expect(msgs(out.items).length).toBeGreaterThan(0);
});

test('a row whose expression gives a list of IDs watches each; a name "By ID" is refused', async () => {
	const list = v3({
		operations: { operation: [row(rl([SEED.operationId, SEED.secondOperationId] as never, 'id'))] },
	});
	expect((await list.poll('manual')).error).toBeUndefined();
	const named = v3({ operations: { operation: [row(rl('nightly-read', 'id'))] } });
	const out = await named.poll('manual');
	expect(out.error?.message).toMatch(
		/^"Operation 1" \(By ID\): "nightly-read" is not an operation ID/,
	);
});

test('no row: "Add at least one operation"', async () => {
	const out = await v3({ operations: {} }).poll('manual');
	expect(out.error?.message).toBe('Add at least one operation');
});

test('version 2 still reads its comma-separated text', async () => {
	const r = runner(sim, {
		watch: 'operationIds',
		operationIds: `${SEED.operationId}, ${SEED.secondOperationId}`,
	});
	r.node.typeVersion = 2;
	expect((await r.poll('manual')).error).toBeUndefined();
});
