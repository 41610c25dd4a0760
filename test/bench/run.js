#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run bench`: measures the nodes in a real n8n 2.41.1 against the simulator and prints, for
 * each benchmark, the runs, the median and the ratios to the peer a user would pick instead, all
 * measured in this one run. It asserts nothing about time (speed goals live here, not in tests).
 *
 *   P1  action node, 1,000 items of a read (Destination → Get) and a write (Topic Destination
 *       Route → Create), against n8n's HTTP Request node with a header-auth credential and a URL
 *       expression (the fair peer), a node built the starter's way (the "before"), and the raw
 *       floor (a bare Node client on the same Node 24).
 *   P4  package: cold load time of all nodes and credentials, packed tarball size.
 *   P2, P3 (event and log triggers) run when those nodes are in the package: see p2.js, p3.js.
 *   P5  60 s of sustained signed deliveries, single process and queue mode (about 10 minutes; only
 *       when BENCH_ONLY names it): see p5.js.
 *   P6  Record → Write, 10,000 items batched, against the HTTP Request node sending one request
 *       per item with a header-auth credential: time and requests (see p6.js).
 *   P7  Operation → Get Many, Return All over 100,000 operations of one installation: peak heap
 *       against the output alone, requests, page size (about 10 s; it needs no n8n, so
 *       BENCH_ONLY=p7 alone builds nothing and starts none): see p7.js.
 *
 * Options (environment): BENCH_ITEMS (1000), BENCH_ROUNDS (3), BENCH_ONLY (comma list, default
 * p1,p2,p3,p4,p6,p7; add p5 for the load run), BENCH_P6_ITEMS (10000), BENCH_P7_OPERATIONS
 * (100000).
 * Results are also written to test/bench/results/latest.json.
 */
const { execFile, execFileSync } = require('node:child_process');
const { promisify } = require('node:util');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureRuntime } = require('../harness/runtime');
const { followParent } = require('../harness/ownedProcess');
const { packPackage, startN8n } = require('../harness/n8n');
const { startSimulator, SEED } = require('../simulator');
const { median, say, seconds, workflow } = require('./common');

const ROOT = path.resolve(__dirname, '..', '..');
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONLY = (process.env.BENCH_ONLY ?? 'p1,p2,p3,p4,p6,p7').split(',');

function packStarterStyle() {
	const dest = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-starter-'));
	const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', dest], {
		cwd: path.join(__dirname, 'starterStyle'),
		encoding: 'utf8',
	});
	return path.join(dest, out.trim().split('\n').pop() ?? '');
}

/**
 * Runs each variant ROUNDS times, interleaved (so drift in machine load hits all alike), and
 * returns the node's execution times from the execution records.
 * @param {any} n8n @param {Record<string, () => Promise<any>>} variants build a workflow per run
 * @param {() => Promise<void>} [beforeRun]
 */
async function measure(n8n, variants, beforeRun) {
	/** @type {Record<string, number[]>} */
	const times = {};
	for (let round = 0; round < ROUNDS; round++) {
		for (const [name, build] of Object.entries(variants)) {
			if (beforeRun) await beforeRun();
			const run = await n8n.runWorkflow(await build());
			const nodeRun = run.runData['Under Test']?.[0];
			const count = run.output('Under Test').length;
			if (run.status !== 'success' || count !== ITEMS) {
				throw new Error(
					`${name}: ${run.status}, ${count} items: ${run.error?.message ?? JSON.stringify(run.errors)}`,
				);
			}
			(times[name] ??= []).push(nodeRun.executionTime);
			say(`  ${name.padEnd(14)} round ${round + 1}: ${seconds(nodeRun.executionTime)}`);
		}
	}
	return times;
}

/** @param {string} title @param {Record<string, number[]>} times @param {Record<string, string>} labels */
function table(title, times, labels, ours = 'ours', peer = 'peer', floor = 'floor') {
	const rows = [`| ${title} | runs | median | vs peer | vs floor |`, '|---|---|---|---|---|'];
	for (const [name, values] of Object.entries(times)) {
		const m = median(values);
		const vsPeer = times[peer] ? (m / median(times[peer])).toFixed(2) : '';
		const vsFloor = times[floor] ? (m / median(times[floor])).toFixed(1) : '';
		const label = name === ours ? `**${labels[name]}**` : labels[name];
		rows.push(
			`| ${label} | ${values.map(seconds).join(' / ')} | ${seconds(m)} | ${vsPeer} | ${vsFloor} |`,
		);
	}
	return rows.join('\n');
}

async function p1(/** @type {any} */ ctx) {
	const { n8n, sim, runtime, creds } = ctx;
	const items = `return Array.from({ length: ${ITEMS} }, (_, i) => ({ json: { name: i % 2 ? '${SEED.kinesisDestinationName}' : '${SEED.destinationName}' } }));`;
	const destinationPath = `${sim.apiUrl}/v1/projects/${SEED.projectName}/destinations/`;
	const ours = {
		type: 'n8n-nodes-integration-platform.integrationPlatform',
		typeVersion: 2,
		parameters: {
			resource: 'destination',
			operation: 'get',
			project: { __rl: true, mode: 'name', value: SEED.projectName },
			destination: { __rl: true, mode: 'name', value: '={{ $json.name }}' },
		},
		credentials: { integrationPlatformApi: creds.ours },
	};
	const peer = {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			url: `=${destinationPath}{{ $json.name }}`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			options: {},
		},
		credentials: { httpHeaderAuth: creds.header },
	};
	const starterStyle = {
		type: 'n8n-nodes-bench-starter-style.benchStarterStyle',
		typeVersion: 1,
		parameters: { operation: 'get', project: SEED.projectName, destination: '={{ $json.name }}' },
		credentials: { benchStarterStyleApi: creds.starter },
	};
	say(`P1 read: Destination → Get, ${ITEMS} items, ${ROUNDS} rounds`);
	const read = await measure(n8n, {
		ours: async () => workflow(items, ours),
		peer: async () => workflow(items, peer),
		starterStyle: async () => workflow(items, starterStyle),
	});
	read.floor = [];
	read.fetch = [];
	for (let round = 0; round < ROUNDS; round++) {
		// Asynchronously: the simulator answering the floor's requests runs in this process.
		const { stdout } = await promisify(execFile)(runtime.node, [
			path.join(__dirname, 'floor.js'),
			`${destinationPath}{name}`,
			'X-Api-Key',
			SEED.apiKey,
			String(ITEMS),
		]);
		const { keepAliveMs, fetchMs } = JSON.parse(stdout);
		read.floor.push(keepAliveMs);
		read.fetch.push(fetchMs);
		say(`  floor          round ${round + 1}: ${seconds(keepAliveMs)} (fetch ${seconds(fetchMs)})`);
	}

	// Write: one route per item, each to its own topic (the service refuses duplicate routes).
	say(`P1 write: Topic Destination Route → Create, ${ITEMS} items, ${ROUNDS} rounds`);
	/** @type {string[]} */
	let topicIds = [];
	const prepareTopics = async () => {
		sim.reset();
		topicIds = [];
		for (let i = 0; i < ITEMS; i++) {
			const res = await fetch(`${sim.apiUrl}/v1/projects/${SEED.projectName}/topics`, {
				method: 'POST',
				headers: { 'x-api-key': SEED.apiKey, 'content-type': 'application/json' },
				body: JSON.stringify({ name: `bench-topic-${i}` }),
			});
			topicIds.push((await res.json()).id);
		}
		sim.journal.clear();
	};
	const writeItems = () =>
		`const ids = ${JSON.stringify(topicIds)}; return ids.map((topicId) => ({ json: { topicId } }));`;
	const write = await measure(
		n8n,
		{
			ours: async () =>
				workflow(writeItems(), {
					type: 'n8n-nodes-integration-platform.integrationPlatform',
					typeVersion: 2,
					parameters: {
						resource: 'topicDestinationRoute',
						operation: 'create',
						project: { __rl: true, mode: 'name', value: SEED.projectName },
						topicId: { __rl: true, mode: 'id', value: '={{ $json.topicId }}' },
						destinationId: { __rl: true, mode: 'id', value: SEED.destinationId },
					},
					credentials: { integrationPlatformApi: creds.ours },
				}),
			peer: async () =>
				workflow(writeItems(), {
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					parameters: {
						method: 'POST',
						url: `${sim.apiUrl}/v1/projects/${SEED.projectName}/topic-destination-routes`,
						authentication: 'genericCredentialType',
						genericAuthType: 'httpHeaderAuth',
						sendBody: true,
						specifyBody: 'json',
						jsonBody: `={ "topicId": "{{ $json.topicId }}", "destinationId": "${SEED.destinationId}" }`,
						options: {},
					},
					credentials: { httpHeaderAuth: creds.header },
				}),
		},
		prepareTopics,
	);
	const labels = {
		ours: 'Integration Platform node',
		peer: 'HTTP Request, URL expression, header-auth credential (fair peer)',
		starterStyle: 'declarative node built the starter\'s way ("before")',
		floor: 'raw floor: bare Node client, keep-alive, sequential',
		fetch: 'raw Node fetch, sequential',
	};
	return {
		results: { read, write },
		text: [
			table(`P1 read: Destination → Get, ${ITEMS} items`, read, labels),
			'',
			table(`P1 write: Topic Destination Route → Create, ${ITEMS} items`, write, {
				ours: labels.ours,
				peer: 'HTTP Request, JSON body expression, header-auth credential (fair peer)',
			}),
		].join('\n'),
	};
}

async function p4(/** @type {any} */ ctx) {
	const { runtime, packageTgz } = ctx;
	say('P4: package load time and size');
	const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-unpacked-'));
	execFileSync('tar', ['-xzf', packageTgz, '-C', unpacked, '--strip-components=1']);
	const listing = execFileSync('tar', ['-tzvf', packageTgz], { encoding: 'utf8' });
	const unpackedBytes = listing
		.trim()
		.split('\n')
		.reduce((sum, line) => sum + Number(line.split(/\s+/)[2] ?? 0), 0);
	const n8nModules = path.join(runtime.n8nDir, 'node_modules');
	const loads = [];
	for (let i = 0; i < 5; i++) {
		const out = execFileSync(
			runtime.node,
			[path.join(__dirname, 'loadTime.js'), unpacked, n8nModules],
			{ encoding: 'utf8' },
		);
		loads.push(JSON.parse(out));
	}
	fs.rmSync(unpacked, { recursive: true, force: true });
	const tgzBytes = fs.statSync(packageTgz).size;
	const loadMs = median(loads.map((l) => l.ms));
	return {
		results: { loadMs: loads.map((l) => l.ms), files: loads[0].files, tgzBytes, unpackedBytes },
		text: [
			'| P4 package | value |',
			'|---|---|',
			`| cold load of ${loads[0].files} node and credential files (median of 5, Node 24) | ${loadMs.toFixed(0)} ms |`,
			`| packed tarball | ${(tgzBytes / 1024).toFixed(1)} KB (${(unpackedBytes / 1024).toFixed(0)} KB unpacked) |`,
		].join('\n'),
	};
}

/**
 * Suites that need no n8n (they start their own simulator and run the node in-process): when
 * BENCH_ONLY names only these, nothing is built or packed and no n8n is started.
 * @type {Record<string, string>}
 */
const STANDALONE = { p7: 'p7.js' };

/** Writes test/bench/results/latest.json and prints the report. */
function writeReport(
	/** @type {string} */ header,
	/** @type {string[]} */ sections,
	/** @type {Record<string, unknown>} */ results,
	/** @type {number} */ started,
) {
	const report = `${header}\n\n${sections.join('\n\n')}\n`;
	fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
	fs.writeFileSync(
		path.join(__dirname, 'results', 'latest.json'),
		JSON.stringify(
			{ date: new Date().toISOString(), items: ITEMS, rounds: ROUNDS, results, report },
			null,
			2,
		),
	);
	say(`\n${report}\nBenchmarks took ${Math.round((Date.now() - started) / 1000)} s.`);
}

async function main() {
	const started = Date.now();
	if (ONLY.every((name) => name in STANDALONE)) {
		/** @type {string[]} */
		const sections = [];
		/** @type {Record<string, unknown>} */
		const results = {};
		for (const name of ONLY) {
			const outcome = await require(path.join(__dirname, STANDALONE[name])).run({});
			results[name] = outcome.results;
			sections.push(outcome.text);
		}
		const header = `Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), load average ${os
			.loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}; the node run in-process with the engine harness (no n8n started).`;
		writeReport(header, sections, results, started);
		return;
	}
	const runtime = await ensureRuntime();
	say('Building and packing …');
	// E2E_BUILT=1: dist/ is current (as in npm test's e2e layer); pack it as it is.
	const packageTgz = packPackage({ build: process.env.E2E_BUILT !== '1' });
	const starterTgz = packStarterStyle();
	const sim = await startSimulator({ port: 0, readPort: 0, quiet: true, httpsWebhooksOnly: false });
	const n8n = await startN8n({
		packageTgz: [packageTgz, starterTgz],
		progress: (m) => say(`  ${m}`),
	});
	/** @type {string[]} */
	const sections = [];
	/** @type {Record<string, unknown>} */
	const results = {};
	try {
		const ours = await n8n.createCredential({
			type: 'integrationPlatformApi',
			name: 'bench',
			data: {
				apiKey: SEED.apiKey,
				baseUrl: sim.apiUrl,
				readUrl: sim.readUrl,
				writeUrl: sim.writeUrl,
			},
		});
		const header = await n8n.createCredential({
			type: 'httpHeaderAuth',
			name: 'bench header',
			data: { name: 'X-Api-Key', value: SEED.apiKey },
		});
		const starter = await n8n.createCredential({
			type: 'benchStarterStyleApi',
			name: 'bench starter',
			data: { apiKey: SEED.apiKey, baseUrl: sim.apiUrl },
		});
		const ctx = {
			n8n,
			/** A second n8n with other settings, for comparisons (P2). */
			startExtraN8n: async (/** @type {Record<string, string>} */ env) =>
				await startN8n({
					packageTgz: [packageTgz, starterTgz],
					env,
					progress: (m) => say(`  ${m}`),
				}),
			sim,
			runtime,
			packageTgz,
			creds: {
				ours: { id: ours.id, name: ours.name },
				header: { id: header.id, name: header.name },
				starter: { id: starter.id, name: starter.name },
			},
		};
		const suites =
			/** @type {Record<string, (ctx: any) => Promise<{ results: unknown; text: string } | undefined>>} */ ({
				p1,
				p4,
			});
		for (const extra of ['p2', 'p3', 'p5', 'p6', 'p7']) {
			const file = path.join(__dirname, `${extra}.js`);
			if (fs.existsSync(file)) suites[extra] = require(file).run;
		}
		for (const name of ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']) {
			if (!ONLY.includes(name) || !suites[name]) continue;
			const outcome = await suites[name](ctx);
			if (!outcome) continue;
			results[name] = outcome.results;
			sections.push(outcome.text);
		}
	} finally {
		await n8n.stop();
		n8n.cleanup();
		await sim.close();
	}
	const header = `n8n 2.41.1 on Node 24, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), load average ${os
		.loadavg()
		.map((l) => l.toFixed(2))
		.join(' ')}; node execution time from the execution record; ${ROUNDS} rounds, interleaved.`;
	writeReport(header, sections, results, started);
}

// `npm run bench` sent SIGTERM: npm's shell dies without passing it on. Dying, this process takes
// its n8n with it (ownedProcess.js).
followParent();
main().catch((error) => {
	process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});
