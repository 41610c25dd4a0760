#!/usr/bin/env node
// @ts-check
/**
 * `npm test`: every check and test layer in order, stopping at the first failure (docs/testing.md,
 * "Test layers"): build, lint, scan, typecheck, jest unit + engine, jest e2e (one real n8n), jest
 * e2e-queue (n8n in queue mode) when this machine has Redis and PostgreSQL, then the version smoke
 * (jest e2e-versions) once per other n8n version of test/harness/runtime-versions/.
 *
 * Without them the queue layer is skipped with a prominent notice saying how to run it, and the
 * run still passes if everything else did; with CI=true or REQUIRE_QUEUE=1 (.ci/run installs both
 * servers) a missing server fails the run before anything else starts. N8N_QUEUE_DB=sqlite needs
 * Redis only. The browser check (test/e2e/browser.test.ts, part of the e2e layer) needs Chromium
 * and is handled the same way: left out of the e2e layer with a notice when the machine has none,
 * a failure with CI=true, REQUIRE_QUEUE=1 or REQUIRE_BROWSER=1 (.ci/run installs it). Each version
 * layer first provisions its n8n (minutes, first run only); when that install fails (a package
 * missing from the registry, no network) the layer is skipped with a notice, or fails with CI=true,
 * REQUIRE_QUEUE=1 or REQUIRE_VERSIONS=1. Ends with one line per layer (passed, FAILED, skipped, not
 * run) and the total time; exits non-zero on any failure.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { queuePrerequisites } = require('../test/harness/n8n/queueServers.js');
const runtime = require('../test/harness/runtime.js');
const { followParent, killGroup, spawnOwned } = require('../test/harness/ownedProcess.js');
const JEST = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const truthy = (/** @type {string | undefined} */ v) => v === '1' || v === 'true';
const queueRequired = truthy(process.env.CI) || truthy(process.env.REQUIRE_QUEUE);
const queueDb = process.env.N8N_QUEUE_DB === 'sqlite' ? 'sqlite' : 'postgres';
// Jest's default is one worker less than the cores: on two (CI machines) one, in band, leaving a
// core idle; two workers there ran unit + engine in 83 s instead of 113 s.
const UNIT_WORKERS = Math.max(2, os.availableParallelism() - 1);
const HOW_TO_RUN_QUEUE =
	'apt-get install redis-server postgresql (with sudo unless root), then: npm run test:e2e:queue';
// Where test/harness/browser.ts looks for Chromium (CHROMIUM_PATH first).
const CHROMIUM = process.env.CHROMIUM_PATH
	? [process.env.CHROMIUM_PATH]
	: ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
const chromiumMissing = !CHROMIUM.some((file) => fs.existsSync(file));
const browserRequired = queueRequired || truthy(process.env.REQUIRE_BROWSER);
const BROWSER_TEST = 'test/e2e/browser.test.ts';
/** Every e2e file that drives the editor in Chromium: left out together when it is missing. */
const BROWSER_TESTS = [
	BROWSER_TEST,
	'test/e2e/credentialSwitch.test.ts',
	'test/e2e/nodesPanel.test.ts',
	'test/e2e/editorWalk.test.ts',
	'test/e2e/editor/locators.test.ts',
];
const HOW_TO_RUN_BROWSER = `apt-get install chromium (with sudo unless root), or set CHROMIUM_PATH; then: npx jest ${BROWSER_TEST} --selectProjects e2e --runInBand`;
const versionsRequired = queueRequired || truthy(process.env.REQUIRE_VERSIONS);
/** @type {string[]} the n8n versions of the version smoke, besides the pinned one */
const EXTRA_VERSIONS = runtime.extraVersions();

/**
 * @typedef {object} Layer
 * @property {string} name
 * @property {string} command  'npm', or the path of jest's bin
 * @property {string[]} args
 * @property {Record<string, string>} [env]
 * @property {boolean} [jest]  counts its tests (jest --json)
 * @property {string} [n8nVersion]  provisions this n8n first (runtime.js); skipped or failed if it cannot
 */

/** @type {Layer[]} */
const layers = [
	{ name: 'build', command: 'npm', args: ['run', 'build'] },
	{ name: 'lint', command: 'npm', args: ['run', 'lint'] },
	{ name: 'scan', command: 'npm', args: ['run', 'scan'] },
	{ name: 'typecheck', command: 'npm', args: ['run', 'typecheck'] },
	{
		name: 'unit+engine',
		command: JEST,
		args: ['--selectProjects', 'unit', 'engine', `--maxWorkers=${UNIT_WORKERS}`],
		jest: true,
	},
	{
		name: 'e2e',
		command: JEST,
		args: ['--selectProjects', 'e2e', '--runInBand'],
		env: { E2E_BUILT: '1' },
		jest: true,
	},
	{
		name: 'e2e-queue',
		command: JEST,
		args: ['--selectProjects', 'e2e-queue', '--runInBand'],
		env: { E2E_BUILT: '1' },
		jest: true,
	},
	...EXTRA_VERSIONS.map((version) => ({
		name: `e2e@${version}`,
		command: JEST,
		args: ['--selectProjects', 'e2e-versions', '--runInBand'],
		env: { E2E_BUILT: '1', N8N_RUNTIME_VERSION: version },
		jest: true,
		n8nVersion: version,
	})),
];

// `npm test -- --only=e2e,e2e-queue [-- <jest arguments>]`: those layers alone, with the jest
// arguments (test paths, -t) added to each; used while developing and by test/e2e/signals.test.ts.
const argv = process.argv.slice(2);
const passThrough = argv.includes('--') ? argv.splice(argv.indexOf('--')).slice(1) : [];
const only = argv
	.find((a) => a.startsWith('--only='))
	?.slice('--only='.length)
	.split(',');
const unknown = only?.filter((name) => !layers.some((l) => l.name === name)) ?? [];
if (unknown.length) {
	process.stderr.write(
		`npm test: no layer ${unknown.join(', ')} (layers: ${layers.map((l) => l.name).join(', ')})\n`,
	);
	process.exit(2);
}
if (only) layers.splice(0, layers.length, ...layers.filter((l) => only.includes(l.name)));
for (const layer of layers) if (layer.jest) layer.args.push(...passThrough);

/** Tests counted over every Jest layer, for the closing line. */
const counted = { passed: 0, failed: 0, skipped: 0 };
/**
 * The failed tests of every Jest layer ("layer: file › test"), repeated after the summary: a long
 * run's output is often cut to its last lines (CI logs, `| tail`), and Jest's report file goes.
 * @type {string[]}
 */
const failedTests = [];
/** @type {Map<string, { status: string, ms?: number, note?: string }>} */
const results = new Map(layers.map((l) => [l.name, { status: 'not run' }]));
/** @type {import('node:child_process').ChildProcess | undefined} */
let running;
/** @type {NodeJS.Signals | undefined} */
let interrupted;

/** @param {string[]} lines */
function banner(lines) {
	const rule = '='.repeat(100);
	const body = lines.map((l) => (l ? `  ${l}` : '')).join('\n');
	process.stdout.write(`\n${rule}\n${body}\n${rule}\n\n`);
}

/**
 * Installs n8n `version` into the runtime cache unless it is there (test/harness/runtime.js, in a
 * child process so that its progress shows and Ctrl-C stops it).
 * @param {string} version
 * @returns {Promise<{ code: number, seconds?: number, output: string }>} seconds when it installed
 */
function provision(version) {
	const ready = fs.existsSync(path.join(runtime.runtimeDir(version), '.ready'));
	if (ready) return Promise.resolve({ code: 0, output: '' });
	process.stdout.write(
		`\n▸ npm test: installing n8n ${version} for e2e@${version} (first run only)\n`,
	);
	const started = Date.now();
	return new Promise((resolve) => {
		let output = '';
		const child = spawnOwned(
			process.execPath,
			[path.join(ROOT, 'test', 'harness', 'runtime.js'), version],
			{ cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
		);
		running = child;
		child.stderr?.on('data', (d) => {
			process.stderr.write(d);
			output = (output + d).slice(-4000);
		});
		child.on('error', (error) => resolve({ code: 1, output: error.message }));
		child.on('exit', (code, signal) => {
			running = undefined;
			const seconds = Math.round((Date.now() - started) / 1000);
			resolve({ code: code ?? (signal ? 1 : 0), seconds, output });
		});
	});
}

/** @param {Layer} layer @returns {Promise<{ code: number, note?: string }>} */
function run(layer) {
	const report = path.join(os.tmpdir(), `npm-test-${process.pid}-${layer.name}.json`);
	const args = layer.jest ? [...layer.args, '--json', `--outputFile=${report}`] : layer.args;
	const [cmd, argv] =
		layer.command === 'npm' ? ['npm', args] : [process.execPath, [layer.command, ...args]];
	const shown = [layer.command === 'npm' ? 'npm' : 'jest', ...layer.args].join(' ');
	process.stdout.write(`\n▸ npm test: ${layer.name} (${shown})\n`);
	return new Promise((resolve) => {
		const child = spawnOwned(cmd, argv, {
			cwd: ROOT,
			stdio: ['ignore', 'inherit', 'inherit'],
			env: { ...process.env, ...(layer.env ?? {}) },
		});
		running = child;
		child.on('error', (error) => resolve({ code: 1, note: error.message }));
		child.on('exit', (code, signal) => {
			running = undefined;
			/** @type {string | undefined} */
			let note;
			if (layer.jest && fs.existsSync(report)) {
				const r = JSON.parse(fs.readFileSync(report, 'utf8'));
				counted.passed += r.numPassedTests;
				counted.failed += r.numFailedTests;
				counted.skipped += r.numPendingTests;
				for (const file of r.testResults ?? []) {
					const where = path.relative(ROOT, file.name);
					for (const test of file.assertionResults ?? []) {
						if (test.status === 'failed')
							failedTests.push(`${layer.name}: ${where} › ${test.fullName}`);
					}
					// A file that failed outside its tests (a hook, a syntax error) has none failed.
					if (
						file.status === 'failed' &&
						!(file.assertionResults ?? []).some((t) => t.status === 'failed')
					) {
						failedTests.push(
							`${layer.name}: ${where} (${(file.message ?? '').split('\n').find((l) => l.trim()) ?? 'failed to run'})`,
						);
					}
				}
				note = `${r.numTotalTests} tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${r.numPendingTests ? `, ${r.numPendingTests} skipped` : ''} (${r.numTotalTestSuites} files)`;
				fs.rmSync(report, { force: true });
			}
			resolve({ code: code ?? (signal ? 1 : 0), note });
		});
	});
}

// Ctrl-C or SIGTERM: passed on to the running layer's whole process group (it runs in one of its
// own, test/harness/ownedProcess.js); its n8n, Redis, PostgreSQL and Chromium end with it. Nothing
// after it runs. Should this process die first, the watchdog ends the layer all the same.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
	process.on(signal, () => {
		interrupted = signal;
		if (!running) process.exit(130);
		killGroup(running, signal);
	});
}
followParent(); // `npm test` sent SIGTERM: npm's shell dies without passing it on

const started = Date.now();
const queue = queuePrerequisites(queueDb);
const queueMissing = queue.missing.length > 0 && layers.some((l) => l.name === 'e2e-queue');
// "redis-server is not installed (…); n8n's queue mode needs Redis." and the like.
const why = queue.missing.map((m) => m.reason.split(' Install it with:')[0]).join(' ');
let failed = false;
const selected = (/** @type {string} */ name) => layers.some((l) => l.name === name);
if (chromiumMissing && selected('e2e')) {
	const why = `Chromium is not installed (looked for ${CHROMIUM.join(', ')}); the browser check of the editor needs it.`;
	banner([
		`${browserRequired ? 'FAILING' : 'SKIPPING'} the browser checks (${BROWSER_TESTS.join(', ')}: the editor in headless Chromium):`,
		`  ${why}`,
		`To run it: ${HOW_TO_RUN_BROWSER}`,
		browserRequired
			? 'CI=true, REQUIRE_QUEUE=1 or REQUIRE_BROWSER=1 is set, so a missing Chromium is a failure (.ci/run installs it).'
			: 'The rest of the e2e layer runs; set REQUIRE_BROWSER=1 to make a missing Chromium a failure instead.',
	]);
	if (browserRequired) {
		results.set('e2e', { status: 'FAILED', note: why });
		failed = true;
	} else {
		const e2e = layers.find((l) => l.name === 'e2e');
		for (const file of BROWSER_TESTS) {
			e2e?.args.push(`--testPathIgnorePatterns=${file.replaceAll('.', '\\.')}`);
		}
	}
}
if (queueMissing) {
	const lines = [
		`${queueRequired ? 'FAILING' : 'SKIPPING'} the e2e-queue layer (n8n in queue mode: Redis, PostgreSQL, main, workers, a webhook process):`,
		`  ${why}`,
		`To run it: ${HOW_TO_RUN_QUEUE}`,
		queueRequired
			? `CI=true or REQUIRE_QUEUE=1 is set, so a missing server is a failure (.ci/run installs both).`
			: 'Everything else runs; set REQUIRE_QUEUE=1 to make a missing server a failure instead.',
	];
	banner(lines);
	if (queueRequired) {
		results.set('e2e-queue', { status: 'FAILED', note: why });
		failed = true;
	}
}

for (const layer of layers) {
	if (failed) break;
	if (layer.name === 'e2e-queue' && queueMissing) {
		results.set(layer.name, { status: 'skipped', note: `${why} To run it: ${HOW_TO_RUN_QUEUE}` });
		continue;
	}
	const t = Date.now();
	/** @type {string | undefined} */
	let installed;
	if (layer.n8nVersion) {
		const version = layer.n8nVersion;
		const install = await provision(version);
		if (interrupted) {
			results.set(layer.name, { status: 'FAILED', ms: Date.now() - t, note: 'interrupted' });
			failed = true;
			continue;
		}
		if (install.code !== 0) {
			const why = `n8n ${version} could not be installed: ${lastLine(install.output)}`;
			banner([
				`${versionsRequired ? 'FAILING' : 'SKIPPING'} the version smoke on n8n ${version} (test/e2e-versions):`,
				`  ${why}`,
				`To run it: node test/harness/runtime.js ${version}, then: N8N_RUNTIME_VERSION=${version} npx jest --selectProjects e2e-versions --runInBand`,
				versionsRequired
					? 'CI=true, REQUIRE_QUEUE=1 or REQUIRE_VERSIONS=1 is set, so an n8n that does not install is a failure.'
					: 'Set REQUIRE_VERSIONS=1 to make an n8n that does not install a failure instead.',
			]);
			results.set(layer.name, {
				status: versionsRequired ? 'FAILED' : 'skipped',
				ms: Date.now() - t,
				note: why,
			});
			failed = versionsRequired;
			continue;
		}
		if (install.seconds !== undefined)
			installed = `n8n ${version} installed in ${install.seconds} s`;
	}
	const { code, note } = await run(layer);
	const browserSkipped =
		layer.name === 'e2e' && chromiumMissing ? ' (browser check skipped: no Chromium)' : '';
	const counted = note === undefined ? browserSkipped.trim() : `${note}${browserSkipped}`;
	results.set(layer.name, {
		status: code === 0 ? 'passed' : 'FAILED',
		ms: Date.now() - t,
		note: installed ? `${counted}; ${installed}` : counted,
	});
	failed = code !== 0 || interrupted !== undefined;
}

/** The last line of a command's output that says something (the reason it failed). */
function lastLine(/** @type {string} */ output) {
	const lines = output
		.split('\n')
		.map((l) => l.trim())
		.filter((l) => l && !/A complete log of this run|In most cases you or one/.test(l));
	return lines.at(-1) ?? 'no output';
}

/** One summary line: layer, status, time, what it counted or why it did not run. */
function line(/** @type {string} */ name, /** @type {string} */ status, ms = NaN, note = '') {
	const time = Number.isNaN(ms) ? '' : `${(ms / 1000).toFixed(1)} s`;
	return `${name.padEnd(12)} ${status.padEnd(8)} ${time.padStart(8)}  ${note}`.trimEnd();
}
const summary = [...results].map(([name, r]) => line(name, r.status, r.ms, r.note));
const skippedLayers = [...results].filter(([, r]) => r.status === 'skipped').map(([name]) => name);
const total = failed ? 'FAILED' : 'passed';
const skipNote = skippedLayers.length ? `${skippedLayers.join(', ')} skipped (above)` : '';
summary.push(line('total', total, Date.now() - started, skipNote));
banner([
	'npm test summary',
	'',
	...summary,
	...(failedTests.length ? ['', 'failed tests:', ...failedTests.map((t) => `  ${t}`)] : []),
]);
// The plain closing line CI runners read: every Jest layer's tests added up.
process.stdout.write(
	`tests: ${counted.passed} passed, ${counted.failed} failed${counted.skipped ? `, ${counted.skipped} skipped` : ''}\n`,
);
process.exitCode = interrupted ? 130 : failed ? 1 : 0;
