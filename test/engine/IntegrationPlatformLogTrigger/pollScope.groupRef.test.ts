/**
 * Watch → Group given By Group Ref, through the trigger's real poll() against the simulator: each
 * poll looks the group's installation up in the integration's installations and watches it as
 * By ID (the installation ID) would; a group without an installation fails the poll, naming the group.
 */
import type { IDataObject } from 'n8n-workflow';

import { scopeOf } from '../../../nodes/IntegrationPlatformLogTrigger/pollScope';
import type { Settings } from '../../../nodes/IntegrationPlatformLogTrigger/settings';
import type { PollRunner } from '../../harness/poll';
import { json, msgs, rl, runner, SEED, useLogSimulator } from '../../harness/logTriggerEngine';

const sim = useLogSimulator();

function v2(parameters: IDataObject): PollRunner {
	const r = runner(sim(), {
		watch: 'installation',
		integration: rl(SEED.integrationId),
		operationIds: undefined,
		...parameters,
	});
	r.node.typeVersion = 2;
	return r;
}

const lookups = () => sim().journal.find({ routeId: 'listInstallations' });

describe('Watch → Group by group ref', () => {
	test("the group's installation is watched: new entries come out with its installation ID", async () => {
		const r = v2({ installation: rl(SEED.groupRef, 'groupRef') });
		expect((await r.poll()).error).toBeUndefined();
		const created = sim().addOperation();
		sim().appendLog(created.id, { message: { msg: 'for the group' } });
		const second = await r.poll();
		expect(msgs(second.items)).toEqual(['for the group']);
		expect(json(second.items)[0]).toMatchObject({
			operationId: created.id,
			installationId: SEED.installationId,
		});
		// looked up on each poll, by the group ref
		expect(lookups()).toHaveLength(2);
		// the journal keeps the query as it came (harness/logTriggerEngine.ts, JournalEntry)
		const groupRefs = lookups().map(
			(e) => (e as unknown as { query: Record<string, string> }).query.groupRef,
		);
		expect(groupRefs).toEqual([SEED.groupRef, SEED.groupRef]);
	});

	test('the same text By ID and By Group Ref are different scopes', () => {
		const settings = {
			watch: 'installation',
			project: SEED.projectId,
			integration: SEED.integrationId,
			installation: 'acme-group',
		} as Settings;
		expect(scopeOf({ ...settings, byGroupRef: true })).not.toBe(
			scopeOf({ ...settings, byGroupRef: false }),
		);
		// By ID keeps the scope saved workflows have (nothing added to it).
		expect(scopeOf({ ...settings, byGroupRef: false })).toBe(scopeOf(settings));
	});

	test('a group without an installation of the integration fails the poll, naming the group', async () => {
		const r = v2({ installation: rl('no-such-group', 'groupRef') });
		const out = await r.poll();
		expect(out.error?.message).toBe(
			'Group "no-such-group" has no installation of this integration',
		);
		expect(out.error?.description).toContain("the trigger's cursor did not move");
		expect(sim().journal.find({ routeId: 'listOperations' })).toHaveLength(0);
	});

	test('an empty Group is reported before any request, under its label', async () => {
		const out = await v2({ installation: rl('', 'groupRef') }).poll();
		expect(out.error?.message).toBe('Select a group');
		expect(sim().journal.entries).toHaveLength(0);
	});
});
