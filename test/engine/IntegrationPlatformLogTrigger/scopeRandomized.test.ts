/**
 * Exactly once, randomized, for version 2 watching an installation or an integration: operations
 * appear between polls (sometimes more than the trigger watches at once, sometimes in the
 * integration's other installation), log, finish and are retired; requests fail (500 on the
 * installation list, the operations list, an operation lookup or the logs), answers are shuffled,
 * n8n restarts. Oracle: every entry written after the first successful poll, on an operation of
 * the scope, is emitted exactly once. LOG_TRIGGER_SEED reproduces a run.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollRunner } from '../../harness/poll';
import {
	identity,
	prng,
	rl,
	runner,
	SEED,
	startSimulator,
	type LogSimulator,
} from '../../harness/logTriggerEngine';

jest.setTimeout(300_000);

const BASE_SEED = Number(process.env.LOG_TRIGGER_SEED ?? 515151);

let sim: LogSimulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => await sim.close());

async function run(watch: 'installation' | 'integration', seed: number, polls: number) {
	sim.reset();
	const random = prng(seed);
	const installations =
		watch === 'integration'
			? [SEED.installationId, SEED.deletableInstallationId]
			: [SEED.installationId];
	const r: PollRunner = runner(sim, {
		watch,
		integration: rl(SEED.integrationId),
		installation: rl(SEED.installationId),
		operationIds: undefined,
	});
	r.node.typeVersion = 2;

	const running: string[] = [SEED.secondOperationId];
	const mustEmit = new Set<string>();
	const emitted = new Map<string, number>();
	let started = false;
	let sequence = 0;
	let failures = 0;
	let largest = 0;

	for (let poll = 0; poll < polls; poll++) {
		if (started) {
			// new operations, sometimes a burst larger than the trigger watches at once
			const created = random() < 0.03 ? 25 : random() < 0.4 ? 1 + Math.floor(random() * 2) : 0;
			for (let i = 0; i < created; i++) {
				const installationId = installations[Math.floor(random() * installations.length)];
				running.push(sim.addOperation({ installationId }).id);
			}
			for (const id of running) {
				const n = random() < 0.5 ? 0 : 1 + Math.floor(random() * 3);
				for (let i = 0; i < n; i++) {
					const entry = sim.appendLog(id, { message: { msg: `e${++sequence}` } });
					mustEmit.add(identity(id, entry));
				}
			}
			// some finish (after their last entries)
			for (let i = running.length - 1; i >= 0; i--) {
				if (random() < 0.15) {
					sim.state.operations.get(running[i])!.status = random() < 0.8 ? 'success' : 'failure';
					running.splice(i, 1);
				}
			}
		}
		sim.faults.clear();
		const x = random();
		const route =
			x < 0.03
				? 'listOperations'
				: x < 0.06
					? 'listOperationLogs'
					: x < 0.08
						? 'getOperation'
						: x < 0.1 && watch === 'integration'
							? 'listInstallations'
							: undefined;
		if (route) sim.faults.add({ route, status: 500, times: 1, skip: Math.floor(random() * 3) });
		else if (random() < 0.2)
			sim.faults.add({ route: 'listOperationLogs', logs: { shuffle: true, seed: poll } });
		if (poll > 0 && random() < 0.03) r.restart();

		const out = await r.poll();
		if (out.error) {
			failures++;
			expect(out.error.message).toMatch(/^Could not get /);
			continue;
		}
		started = true;
		for (const { json } of out.items ?? []) {
			const id = identity(json.operationId as string, json as IDataObject);
			emitted.set(id, (emitted.get(id) ?? 0) + 1);
		}
		// the poll state, and apart from it the hand-off's copy of an earlier one (handOff.ts)
		for (const data of [r.staticData, JSON.parse(r.persistedJson)[`node:${r.node.name}`] ?? {}]) {
			const { handOff, ...state } = data as IDataObject;
			largest = Math.max(
				largest,
				JSON.stringify(state).length,
				JSON.stringify(handOff ?? {}).length,
			);
		}
	}
	// settle: no faults, enough polls for every waiting operation to be taken and read
	sim.faults.clear();
	for (const id of running) sim.state.operations.get(id)!.status = 'success';
	for (let i = 0; i < 12; i++) {
		const out = await r.poll();
		for (const { json } of out.items ?? []) {
			const id = identity(json.operationId as string, json as IDataObject);
			emitted.set(id, (emitted.get(id) ?? 0) + 1);
		}
	}
	const duplicates = [...emitted.values()].filter((n) => n > 1).length;
	const misses = [...mustEmit].filter((id) => !emitted.has(id)).length;
	const unexpected = [...emitted.keys()].filter((id) => !mustEmit.has(id)).length;
	return { mustEmit: mustEmit.size, duplicates, misses, unexpected, failures, largest };
}

test.each([
	['installation', BASE_SEED],
	['integration', BASE_SEED + 1],
] as const)(
	'watching an %s: every entry exactly once, bounded state (seed %s)',
	async (watch, seed) => {
		const stats = await run(watch, seed, 200);
		// eslint-disable-next-line no-console
		console.log(`scope ${watch} seed ${seed}: ${JSON.stringify(stats)}`);
		expect(stats.mustEmit).toBeGreaterThan(200);
		expect(stats.failures).toBeGreaterThan(0);
		expect(stats.duplicates).toBe(0);
		expect(stats.misses).toBe(0);
		expect(stats.unexpected).toBe(0);
		expect(stats.largest).toBeLessThan(12_000);
	},
);
