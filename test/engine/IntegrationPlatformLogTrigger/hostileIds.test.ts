/**
 * Operation IDs that are names of every JavaScript object's properties (`__proto__`,
 * `constructor`, `hasOwnProperty`, `toString`), through the log trigger's real poll() against the
 * simulator, in every scope: each of their entries comes out exactly once, across restarts (the
 * static data goes through JSON, as n8n stores it).
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollRunner } from '../../harness/poll';
import { identity, rl, runner, SEED, useLogSimulator } from '../../harness/logTriggerEngine';

const sim = useLogSimulator();

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];

function scoped(watch: 'installation' | 'integration' | 'operationIds', version: 1 | 2) {
	const r = runner(sim(), {
		...(watch === 'operationIds'
			? { watch, operationIds: PROTOTYPE_NAMES.join(', ') }
			: {
					watch,
					integration: rl(SEED.integrationId),
					installation: rl(SEED.installationId),
					operationIds: undefined,
				}),
	});
	r.node.typeVersion = version;
	return r;
}

async function collect(r: PollRunner, into: Map<string, number>, polls: number) {
	for (let i = 0; i < polls; i++) {
		if (i === 2) r.restart(); // back from the persisted JSON copy
		const out = await r.poll();
		expect(out.error).toBeUndefined();
		for (const { json } of out.items ?? []) {
			const id = identity(json.operationId as string, json as IDataObject);
			into.set(id, (into.get(id) ?? 0) + 1);
		}
	}
}

test.each([
	['installation', 2],
	['integration', 2],
	['operationIds', 2],
	['operationIds', 1],
] as const)(
	'watching %s (version %s): operations named after Object.prototype members, every entry once',
	async (watch, version) => {
		if (watch === 'operationIds') for (const id of PROTOTYPE_NAMES) sim().addOperation({ id });
		const r = scoped(watch, version);
		expect((await r.poll()).error).toBeUndefined(); // activation: start from now
		if (watch !== 'operationIds') for (const id of PROTOTYPE_NAMES) sim().addOperation({ id });
		const mustEmit = new Set<string>();
		for (const id of PROTOTYPE_NAMES) {
			for (const msg of ['one', 'two']) {
				mustEmit.add(identity(id, sim().appendLog(id, { message: { msg: `${id} ${msg}` } })));
			}
		}
		const emitted = new Map<string, number>();
		await collect(r, emitted, 3);
		for (const id of PROTOTYPE_NAMES) {
			mustEmit.add(identity(id, sim().appendLog(id, { message: { msg: `${id} three` } })));
		}
		await collect(r, emitted, 3);
		expect([...mustEmit].filter((id) => !emitted.has(id))).toEqual([]);
		expect([...emitted].filter(([, n]) => n > 1)).toEqual([]);
		expect(emitted.size).toBe(12);
	},
);
