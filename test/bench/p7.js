// @ts-check
'use strict';
/**
 * P7, Operation → Get Many with Return All over 100,000 operations of one installation: peak heap
 * of the node's run next to the heap of its output alone, the requests and page size used, and the
 * same with Limit 100 (only BENCH_ONLY=p7 runs it).
 *
 * The simulator (bulk-seeded with sim.addOperations) stays in this process; the node runs
 * in-process with the engine harness (test/harness/engine.ts runNode) in a child process started
 * with --expose-gc (this file with `child`), so the heap sampled holds only the node, its
 * harness and its output. The child samples process.memoryUsage().heapUsed every SAMPLE_MS during
 * the run (no gc during it, so the peak includes garbage not yet collected), then weighs, after
 * gc: what the run retained (its output as returned), and the same items rebuilt alone from their
 * JSON (output alone), and one page of 1,000 of them (one page).
 */
const { execFile } = require('node:child_process');
const path = require('node:path');
const { promisify } = require('node:util');

const COUNT = Number(process.env.BENCH_P7_OPERATIONS ?? 100_000);
const SAMPLE_MS = 2;
const MB = 1048576;

/** Child: runs the node once (after a warm-up) and prints JSON measurements. */
async function child(
	/** @type {string} */ apiUrl,
	/** @type {string} */ readUrl,
	/** @type {string} */ mode,
) {
	require('../harness/engineEnv');
	require('./tsRequire');
	const { runNode } = require('../harness/engine.ts');
	// By its full name: without the extension, plain Node resolves the node's codex (.node.json).
	const {
		IntegrationPlatform,
	} = require('../../nodes/IntegrationPlatform/IntegrationPlatform.node.ts');
	const { SEED } = require('../simulator');
	const gc = /** @type {() => void} */ (global.gc);
	const rl = (/** @type {string} */ value) => ({ __rl: true, mode: 'id', value });
	const run = async (/** @type {Record<string, unknown>} */ extra) =>
		await runNode({
			nodeType: new IntegrationPlatform(),
			parameters: /** @type {any} */ ({
				resource: 'operation',
				operation: 'getAll',
				project: rl(SEED.projectId),
				integration: rl(SEED.integrationId),
				installation: rl(SEED.installationId),
				...extra,
			}),
			credentials: { integrationPlatformApi: { apiKey: SEED.apiKey, baseUrl: apiUrl, readUrl } },
		});
	// Warm-up: loads and compiles the node, n8n's engine and the HTTP client (the parent clears
	// the journal after it).
	await run({ returnAll: false, limit: 1 });
	process.stdout.write('warm\n');
	await new Promise((resolve) => process.stdin.once('data', resolve));

	gc();
	gc();
	const baseline = process.memoryUsage().heapUsed;
	let peak = baseline;
	const timer = setInterval(() => {
		const used = process.memoryUsage().heapUsed;
		if (used > peak) peak = used;
	}, SAMPLE_MS);
	const started = process.hrtime.bigint();
	let result = await run(mode === 'all' ? { returnAll: true } : { returnAll: false, limit: 100 });
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	clearInterval(timer);
	peak = Math.max(peak, process.memoryUsage().heapUsed);
	if (result.error) throw result.error;
	const items = result.json.length;
	gc();
	gc();
	const retained = process.memoryUsage().heapUsed - baseline;

	// The output alone: the same items, rebuilt from their JSON, held in an array.
	let text = JSON.stringify(result.json);
	const jsonBytes = Buffer.byteLength(text);
	const pageText = JSON.stringify(result.json.slice(0, 1000));
	// @ts-expect-error dropped so that only the copies below are weighed
	result = undefined;
	gc();
	gc();
	const before = process.memoryUsage().heapUsed;
	/** @type {any} */
	let alone = JSON.parse(text).map((/** @type {unknown} */ json) => ({ json }));
	gc();
	gc();
	const outputAlone = process.memoryUsage().heapUsed - before;
	alone = undefined;
	text = '';
	gc();
	gc();
	const beforePage = process.memoryUsage().heapUsed;
	/** @type {any} */
	let page = JSON.parse(pageText).map((/** @type {unknown} */ json) => ({ json }));
	gc();
	gc();
	const onePage = process.memoryUsage().heapUsed - beforePage;
	page = undefined;
	process.stdout.write(
		`${JSON.stringify({
			items,
			ms,
			peakMB: (peak - baseline) / MB,
			retainedMB: retained / MB,
			outputAloneMB: outputAlone / MB,
			onePageMB: onePage / MB,
			jsonMB: jsonBytes / MB,
			pageItems: Math.min(1000, items),
		})}\n`,
	);
}

/** Runs the child for one mode; the simulator answers from this process meanwhile. */
async function measureMode(/** @type {any} */ sim, /** @type {string} */ mode) {
	const { spawn } = require('node:child_process');
	const proc = spawn(
		process.execPath,
		['--expose-gc', __filename, 'child', sim.apiUrl, sim.readUrl, mode],
		{ stdio: ['pipe', 'pipe', 'inherit'] },
	);
	let out = '';
	const done = new Promise((resolve, reject) => {
		proc.on('error', reject);
		proc.on('exit', (code) =>
			code === 0 ? resolve(undefined) : reject(new Error(`p7 child (${mode}) exited ${code}`)),
		);
	});
	const warm = new Promise((resolve) => {
		proc.stdout.on('data', (chunk) => {
			out += chunk;
			if (out.includes('warm\n') && !out.includes('\n{')) {
				if (!proc.stdin.writableEnded) {
					sim.journal.clear();
					proc.stdin.end('go\n');
					resolve(undefined);
				}
			}
		});
	});
	await Promise.race([warm, done]);
	await done;
	const measured = JSON.parse(out.slice(out.indexOf('warm\n') + 5).trim());
	const requests = sim.journal.entries.filter(
		(/** @type {any} */ e) => e.routeId === 'listOperations',
	);
	const sizes = [...new Set(requests.map((/** @type {any} */ e) => e.query.pageSize))];
	return {
		...measured,
		requests: sim.journal.entries.length,
		listRequests: requests.length,
		pageSizes: sizes,
	};
}

exports.run = async function run() {
	const { startSimulator } = require('../simulator');
	process.stdout.write(`P7: Operation → Get Many over ${COUNT} operations of one installation\n`);
	const sim = await startSimulator({
		port: 0,
		readPort: 0,
		quiet: true,
		httpsWebhooksOnly: false,
	});
	try {
		const seeded = Date.now();
		sim.addOperations(COUNT);
		const total = [...sim.state.operations.values()].filter(
			(/** @type {any} */ op) => op.installationId === require('../simulator').SEED.installationId,
		).length;
		process.stdout.write(`  seeded ${COUNT} operations in ${Date.now() - seeded} ms\n`);
		/** @type {Record<string, any>} */
		const results = {};
		for (const mode of ['all', 'limit']) {
			results[mode] = await measureMode(sim, mode);
			process.stdout.write(`  ${mode}: ${JSON.stringify(results[mode])}\n`);
		}
		const mb = (/** @type {number} */ v) => `${v.toFixed(1)} MB`;
		const row = (/** @type {string} */ label, /** @type {any} */ r) =>
			`| ${label} | ${r.items} | ${r.requests} (${r.listRequests} list) | ${r.pageSizes.join(', ')} | ${(r.ms / 1000).toFixed(2)} s | ${mb(r.peakMB)} | ${mb(r.retainedMB)} | ${mb(r.peakMB - r.outputAloneMB)} (${((r.peakMB - r.outputAloneMB) / r.onePageMB).toFixed(1)} pages) | ${mb(r.peakMB - r.retainedMB)} (${((r.peakMB - r.retainedMB) / r.onePageMB).toFixed(1)} pages) |`;
		const all = results.all;
		const text = [
			`| P7 Operation → Get Many, one installation of ${total} operations | items returned | requests | page size | time | peak heap above baseline | retained after run (gc) | peak beyond output alone (in pages of the size used) | peak beyond retained |`,
			'|---|---|---|---|---|---|---|---|---|',
			row('**Return All**', all),
			row('Limit 100', results.limit),
			'',
			'| P7 output alone (the Return All items rebuilt from their JSON, held in an array) | value |',
			'|---|---|',
			`| ${all.items} items as JSON text | ${mb(all.jsonMB)} |`,
			`| ${all.items} items on the heap | ${mb(all.outputAloneMB)} |`,
			`| one page (${all.pageItems} items) on the heap | ${mb(all.onePageMB)} |`,
			`| Return All peak heap ÷ output alone | ${(all.peakMB / all.outputAloneMB).toFixed(2)} |`,
			'',
			`Heap sampled every ${SAMPLE_MS} ms in a child process (--expose-gc) running the node in-process; baseline after a warm-up run and gc; the peak includes garbage not yet collected; the simulator runs in the parent.`,
		].join('\n');
		return { results, text };
	} finally {
		await sim.close();
	}
};

if (require.main === module && process.argv[2] === 'child') {
	child(process.argv[3], process.argv[4], process.argv[5]).catch((error) => {
		process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
		process.exit(1);
	});
}
