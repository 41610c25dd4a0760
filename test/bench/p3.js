// @ts-check
'use strict';
/**
 * P3, log trigger: time and memory of one poll as an operation's log history grows (10, 1,000 and
 * 100,000 entries), and the size of the node's static data.
 *
 * - The poll itself: the node's real poll() in a child process (p3poll.js), timed and weighed
 *   (heap) next to the response alone (fetching and parsing the same log).
 * - In the real n8n: the workflow is activated and, once the activation poll has stored its
 *   cursor (n8n runs it after answering the activate call), the static data n8n keeps is read
 *   back through the public API.
 */
const { execFile } = require('node:child_process');
const path = require('node:path');
const { promisify } = require('node:util');
const { SEED } = require('../simulator');

const SIZES = (process.env.BENCH_P3_SIZES ?? '10,1000,100000').split(',').map(Number);
const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** Activates a log trigger on an operation of `size` entries and waits for its stored cursor. */
async function inN8n(/** @type {any} */ ctx, /** @type {number} */ size) {
	const { n8n, sim, creds } = ctx;
	const operation = sim.addOperation();
	for (let written = 0; written < size; written += 100)
		sim.appendLogBurst(operation.id, Math.min(100, size - written));
	const workflow = await n8n.createWorkflow({
		name: `bench p3 ${size}`,
		nodes: [
			{
				name: 'Logs',
				type: 'n8n-nodes-integration-platform.integrationPlatformLogTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					project: { __rl: true, mode: 'id', value: SEED.projectId },
					operationIds: operation.id,
					pollTimes: { item: [{ mode: 'everyHour' }] },
				},
				credentials: { integrationPlatformApi: creds.ours },
			},
			{
				parameters: {},
				name: 'Handle',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [200, 0],
			},
		],
		connections: { Logs: { main: [[{ node: 'Handle', type: 'main', index: 0 }]] } },
	});
	const started = Date.now();
	await n8n.api('POST', `/workflows/${workflow.id}/activate`);
	let staticData;
	for (;;) {
		staticData = (await n8n.api('GET', `/workflows/${workflow.id}`)).staticData;
		if (JSON.stringify(staticData ?? {}).includes(operation.id)) break;
		if (Date.now() - started > 120_000)
			throw new Error(`no cursor stored for ${size} entries after 120 s`);
		await sleep(100);
	}
	const storedMs = Date.now() - started;
	await n8n.api('POST', `/workflows/${workflow.id}/deactivate`);
	return { storedMs, staticBytes: Buffer.byteLength(JSON.stringify(staticData)) };
}

exports.run = async function run(/** @type {any} */ ctx) {
	process.stdout.write(`P3: log trigger poll vs history size (${SIZES.join(', ')} entries)\n`);
	const rows = [];
	/** @type {unknown[]} */
	const results = [];
	for (const size of SIZES) {
		const { stdout } = await promisify(execFile)(
			process.execPath,
			['--expose-gc', path.join(__dirname, 'p3poll.js'), String(size)],
			{
				maxBuffer: 1 << 20,
			},
		);
		const poll = JSON.parse(stdout);
		const n8nSide = await inN8n(ctx, size);
		results.push({ ...poll, n8n: n8nSide });
		const ms = (/** @type {number} */ v) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;
		const mb = (/** @type {number} */ v) => `${v.toFixed(1)} MB`;
		process.stdout.write(
			`  ${String(size).padStart(7)}: response ${ms(poll.response.ms)}, first poll ${ms(poll.first.ms)}, steady ${ms(poll.steady.ms)}, one new ${ms(poll.oneNew.ms)}, static ${poll.staticBytes} B (n8n: ${n8nSide.staticBytes} B after ${n8nSide.storedMs} ms)\n`,
		);
		rows.push(
			`| ${size.toLocaleString('en-US')} | ${ms(poll.response.ms)} / ${mb(poll.response.heapGrowthMB)} | ${ms(poll.first.ms)} / ${mb(poll.first.heapGrowthMB)} | ${ms(poll.steady.ms)} | ${ms(poll.oneNew.ms)} (${poll.oneNew.emitted} emitted) | ${poll.staticBytes} B | ${n8nSide.staticBytes} B, stored ${n8nSide.storedMs} ms after activation |`,
		);
	}
	return {
		results,
		text: [
			'| P3 log trigger: log entries | the response alone (time / heap) | first poll (time / heap) | steady poll, nothing new | poll with 1 new entry | static data | in the real n8n |',
			'|---|---|---|---|---|---|---|',
			...rows,
		].join('\n'),
	};
};
