// @ts-check
'use strict';
/**
 * P3, in a child process with --expose-gc: the log trigger's real poll() (test/harness/poll.ts,
 * the same runner as the exactly-once tests) against a simulator with an operation of SIZE log
 * entries. Prints JSON: the response alone (fetch + JSON.parse), the first poll (reads the whole
 * history, builds the cursor), a steady poll (nothing new), a poll with one new entry, heap
 * growth of each, and the static data's size.
 */
require('../../scripts/tsRequire.cjs').registerTypeScript();
const { PollRunner } = require('../harness/poll.ts');
const {
	IntegrationPlatformLogTrigger,
} = require('../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node.ts');
const { startSimulator, SEED } = require('../simulator');

const SIZE = Number(process.argv[2]);
const gc = /** @type {() => void} */ (global.gc);

async function measure(/** @type {() => Promise<unknown>} */ fn) {
	gc();
	const before = process.memoryUsage().heapUsed;
	const started = process.hrtime.bigint();
	const result = await fn();
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	const afterRun = process.memoryUsage().heapUsed;
	gc();
	const retained = process.memoryUsage().heapUsed - before;
	return {
		ms,
		heapGrowthMB: (afterRun - before) / 1048576,
		retainedMB: retained / 1048576,
		result,
	};
}

(async () => {
	const sim = await startSimulator({ port: 0, readPort: 0 });
	try {
		const operation = sim.addOperation();
		for (let written = 0; written < SIZE; written += 100)
			sim.appendLogBurst(operation.id, Math.min(100, SIZE - written));
		const url = `${sim.apiUrl}/v1/projects/${SEED.projectId}/operations/${operation.id}/logs`;
		// The simulator runs in this process too: warm its route so that the first poll is not
		// charged for building the JSON the first time.
		await (await fetch(url, { headers: { 'x-api-key': SEED.apiKey } })).text();
		const response = await measure(async () => {
			const res = await fetch(url, { headers: { 'x-api-key': SEED.apiKey } });
			return JSON.parse(await res.text()).length;
		});
		const runner = new PollRunner({
			nodeType: new IntegrationPlatformLogTrigger(),
			nodeTypeName: 'n8n-nodes-integration-platform.integrationPlatformLogTrigger',
			parameters: {
				authentication: 'apiKey',
				project: { __rl: true, mode: 'id', value: SEED.projectId },
				operationIds: operation.id,
			},
			credentials: {
				integrationPlatformApi: { apiKey: SEED.apiKey, baseUrl: sim.apiUrl, readUrl: sim.readUrl },
			},
			networkTimeoutMs: 120_000,
		});
		const first = await measure(() => runner.poll());
		const steady = await measure(() => runner.poll());
		sim.appendLog(operation.id, { severity: 'ERROR', message: { msg: 'one more' } });
		const oneNew = await measure(() => runner.poll());
		const emitted = /** @type {any} */ (oneNew.result).items?.length ?? 0;
		process.stdout.write(
			JSON.stringify({
				size: SIZE,
				response: { ms: response.ms, heapGrowthMB: response.heapGrowthMB },
				first: { ms: first.ms, heapGrowthMB: first.heapGrowthMB, retainedMB: first.retainedMB },
				steady: { ms: steady.ms, heapGrowthMB: steady.heapGrowthMB },
				oneNew: { ms: oneNew.ms, heapGrowthMB: oneNew.heapGrowthMB, emitted },
				staticBytes: Buffer.byteLength(JSON.stringify(runner.staticData)),
			}),
		);
	} finally {
		await sim.close();
	}
})().catch((error) => {
	process.stderr.write(String(error?.stack ?? error));
	process.exit(1);
});
