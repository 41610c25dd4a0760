/**
 * Where "start from now" starts when n8n keeps no activation poll's state (activationStart.ts):
 * n8n's durable poll cursors commit no activation poll that finds nothing, but the activator saves
 * the workflow's global static data, where the first poll notes its time.
 */
import type { IDataObject } from 'n8n-workflow';

import { msgs, rl, runner, SEED, useLogSimulator } from '../../harness/logTriggerEngine';

const sim = useLogSimulator();

const OP = SEED.operationId;

test.each([
	['operation IDs', OP, {}],
	[
		'an installation',
		SEED.secondOperationId, // running when the installation is first watched
		{
			watch: 'installation',
			integration: rl(SEED.integrationId),
			installation: rl(SEED.installationId),
		},
	],
] as const)(
	'durable cursors commit no activation poll that finds nothing, yet what is logged before the first scheduled poll is emitted (watching %s)',
	async (_, operationId, parameters) => {
		const r = runner(sim(), parameters, { persistence: 'durableCursors' });
		if ('watch' in parameters) r.node.typeVersion = 2;
		await r.poll(); // the activation poll: its state is not committed, the noted start is
		const persisted = JSON.parse(r.persistedJson) as IDataObject;
		expect(persisted[`node:${r.node.name}`]).toBeUndefined();
		const between = 'between activation and the first scheduled poll';
		sim().appendLog(operationId, { message: { msg: between } });
		expect(msgs((await r.poll()).items)).toEqual([between]);
		sim().appendLog(operationId, { message: { msg: 'later' } });
		expect(msgs((await r.poll()).items)).toEqual(['later']);
	},
);

test('durable cursors: deactivated and activated again before any scheduled poll, the trigger goes on from its first activation', async () => {
	const r = runner(sim(), {}, { persistence: 'durableCursors' });
	await r.poll(); // the first activation poll: not committed, the noted start is
	sim().appendLog(OP, { message: { msg: 'while active' } });
	r.reactivate();
	sim().appendLog(OP, { message: { msg: 'after activating again' } });
	expect(msgs((await r.poll()).items)).toEqual(['while active', 'after activating again']);
});
