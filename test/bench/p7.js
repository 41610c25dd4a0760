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
 *
 * The peak includes garbage, and the retained heap includes what n8n-core keeps after the run, so
 * neither says what the node holds. The honest figure comes from a second Return All run: at the
 * start of each of its requests after the first (a page boundary: diagnostics_channel
 * 'http.client.request.start'), a forced gc and the live heap minus the weight of the items
 * produced so far (count × one item alone), in pages. The retained heap is then broken down by
 * dropping one holder at a time (n8n's run record, the item wrappers with their pairedItem, the
 * harness's result), and weighed again 2 s later.
 */
const { execFile } = require('node:child_process');
const path = require('node:path');
const { spawnOwned } = require('../harness/ownedProcess');
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
	require('../../scripts/tsRequire.cjs').registerTypeScript();
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
	// The requests of this run (the parent's journal also sees the second run below).
	const channel = require('node:diagnostics_channel');
	let requestsFirstRun = 0;
	const countRequest = () => requestsFirstRun++;
	channel.subscribe('http.client.request.start', countRequest);
	const started = process.hrtime.bigint();
	let result = await run(mode === 'all' ? { returnAll: true } : { returnAll: false, limit: 100 });
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	clearInterval(timer);
	channel.unsubscribe('http.client.request.start', countRequest);
	peak = Math.max(peak, process.memoryUsage().heapUsed);
	if (result.error) throw result.error;
	const items = result.json.length;
	const heap = () => {
		gc();
		gc();
		return process.memoryUsage().heapUsed;
	};
	const retained = heap() - baseline;
	let text = JSON.stringify(result.json);
	const jsonBytes = Buffer.byteLength(text);
	const pageText = JSON.stringify(result.json.slice(0, 1000));
	// The JSON text is kept for the rebuild below; its weight is taken out of what follows.
	const textWeight = heap() - baseline - retained;

	// What the retained heap is made of, by dropping one holder at a time: n8n's run record and
	// the harness's list of json objects; then the items' pairedItem (an object per item, set by
	// the node's last postReceive step) and the item wrappers, keeping the json objects only.
	const anyResult = /** @type {any} */ (result);
	anyResult.run = undefined;
	anyResult.json = undefined;
	const withoutRunRecord = heap() - baseline - textWeight;
	anyResult.items = anyResult.items.map((/** @type {any} */ item) => item.json);
	const jsonObjectsOnly = heap() - baseline - textWeight;
	// @ts-expect-error dropped so that only the copies below are weighed
	result = undefined;
	// What stays after the harness let go of the run: held by someone else, at once and 2 s later.
	const heldAfterDrop = heap() - baseline - textWeight;
	await new Promise((resolve) => setTimeout(resolve, 2000));
	const heldLater = heap() - baseline - textWeight;
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
	const jsonAlone = (() => {
		const before = heap();
		const copy = JSON.parse(JSON.stringify(JSON.parse(pageText)));
		const size = heap() - before;
		return copy.length ? size : 0;
	})();

	// Live heap while paging: at the start of every request after the first (a page boundary:
	// the previous page is already items), a forced gc, then the heap above a fresh baseline
	// minus what the items produced so far weigh (their count × the weight of one item alone).
	const boundaries = [];
	if (mode === 'all') {
		const perItem = outputAlone / items;
		let requestsSeen = 0;
		const base = heap();
		const onRequest = () => {
			requestsSeen++;
			if (requestsSeen === 1) return;
			const produced = (requestsSeen - 1) * 1000;
			const live = heap() - base;
			boundaries.push({ produced, liveMB: live / MB, beyondMB: (live - produced * perItem) / MB });
		};
		channel.subscribe('http.client.request.start', onRequest);
		const second = await run({ returnAll: true });
		channel.unsubscribe('http.client.request.start', onRequest);
		if (second.error) throw second.error;
	}
	const beyond = boundaries.map((b) => b.beyondMB);
	process.stdout.write(
		`${JSON.stringify({
			items,
			requestsFirstRun,
			ms,
			peakMB: (peak - baseline) / MB,
			retainedMB: retained / MB,
			withoutRunRecordMB: withoutRunRecord / MB,
			jsonObjectsOnlyMB: jsonObjectsOnly / MB,
			heldAfterDropMB: heldAfterDrop / MB,
			heldLaterMB: heldLater / MB,
			textMB: textWeight / MB,
			outputAloneMB: outputAlone / MB,
			onePageMB: onePage / MB,
			onePageJsonOnlyMB: jsonAlone / MB,
			jsonMB: jsonBytes / MB,
			pageItems: Math.min(1000, items),
			boundaries: boundaries.length,
			boundaryBeyondMaxMB: beyond.length ? Math.max(...beyond) : 0,
			boundaryBeyondMedianMB: beyond.length
				? [...beyond].sort((a, b) => a - b)[beyond.length >> 1]
				: 0,
			boundaryBeyondLastMB: beyond.length ? beyond[beyond.length - 1] : 0,
		})}\n`,
	);
}

/** Runs the child for one mode; the simulator answers from this process meanwhile. */
async function measureMode(/** @type {any} */ sim, /** @type {string} */ mode) {
	const proc = spawnOwned(
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
		// The child's count: the journal also holds the second (boundary-sampling) run.
		requests: measured.requestsFirstRun,
		listRequests: Math.min(requests.length, measured.requestsFirstRun),
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
			'| P7 what the node holds while paging (Return All, a second run; forced gc at the start of each of its requests after the first) | value |',
			'|---|---|',
			`| page boundaries sampled | ${all.boundaries} |`,
			`| live heap beyond the items produced so far, largest | ${mb(all.boundaryBeyondMaxMB)} (${(all.boundaryBeyondMaxMB / all.onePageMB).toFixed(2)} pages) |`,
			`| the same, median | ${mb(all.boundaryBeyondMedianMB)} (${(all.boundaryBeyondMedianMB / all.onePageMB).toFixed(2)} pages) |`,
			'',
			'| P7 the retained heap after the run, by holder (gc before each figure; the JSON text kept for the rebuild is taken out) | value |',
			'|---|---|',
			`| with the harness's result held | ${mb(all.retainedMB)} |`,
			`| without the run record and the harness's json list | ${mb(all.withoutRunRecordMB)} |`,
			`| json objects only (item wrappers and pairedItem dropped) | ${mb(all.jsonObjectsOnlyMB)} |`,
			`| nothing of the run held by the harness, at once | ${mb(all.heldAfterDropMB)} |`,
			`| the same 2 s later | ${mb(all.heldLaterMB)} |`,
			'',
			'Reading: while paging, the node holds its items and at most about one page (the figures above); the heap retained after the run does not shrink when the harness drops its result, so it is held outside the node (n8n-core and the HTTP client around the run; part of it is released about 2 s later, the rest is the output itself, still referenced). Peak and retained figures therefore overstate what Return All costs per page.',
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
