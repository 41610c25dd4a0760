/**
 * settings.ts: the log trigger checks the value of its Integration and Installation "By ID"
 * modes, as n8n's editor checks a typed one: a name is refused before any request, naming the
 * field and the list. n8n skips the check for an expression, and does not check before a poll;
 * the poll runner hands the node its parameters as an expression would have given them.
 */
import type { IDataObject } from 'n8n-workflow';

import {
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

function v2(parameters: IDataObject) {
	const r = runner(sim, {
		watch: 'installation',
		integration: rl(SEED.integrationId, 'id'),
		installation: rl(SEED.installationId, 'id'),
		operationIds: undefined,
		...parameters,
	});
	r.node.typeVersion = 2;
	return r;
}

test('a name in Integration "By ID": refused before any request', async () => {
	sim.journal.clear();
	const out = await v2({ integration: rl('hubspot-sync', 'id') }).poll('manual');
	expect(out.error?.message).toBe(
		'"Integration" (By ID): "hubspot-sync" is not an integration ID (IDs are UUIDs): pick it from the list ("From List")',
	);
	expect(sim.journal.entries).toEqual([]);
});

test('a group ref in Group "By ID": refused, naming By Group Ref', async () => {
	const out = await v2({ installation: rl('acme-group', 'id') }).poll('manual');
	expect(out.error?.message).toBe(
		'"Group" (By ID): "acme-group" is not an installation ID (IDs are UUIDs): choose "By Group Ref" or pick it from the list',
	);
});

test('IDs "By ID" and from the list are read', async () => {
	const out = await v2({
		integration: rl(SEED.integrationId, 'id'),
		installation: rl(SEED.installationId, 'list'),
	}).poll('manual');
	expect(out.error).toBeUndefined();
});
