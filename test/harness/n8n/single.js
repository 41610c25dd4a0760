// @ts-check
'use strict';
/**
 * The single-process n8n of the e2e project, `npm start` and the benchmarks: `n8n start` with this
 * package installed, an owner and a public-API key; returned with the REST client bound to it.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureRuntime } = require('../runtime');
const { bootstrapOwner, installPackage } = require('./bootstrap');
const { freePort, isPortFree, launchN8n, n8nEnv, readiness } = require('./launch');
const { createClient } = require('./restClient');

/**
 * @typedef {object} StartOptions
 * @property {string | string[]} [packageTgz]  the `npm pack` tarball(s) to install as n8n does;
 *   none to start n8n on a user folder that already holds its packages (e.g. installed by hand
 *   with npm, as test/e2e/manualInstall.test.ts does)
 * @property {string} [userFolder]      n8n's user folder (default: a new temp folder)
 * @property {number} [port]            editor/API port (default: a free port)
 * @property {Record<string, string>} [env] extra environment for n8n
 * @property {(message: string) => void} [progress]
 * @property {boolean} [quietLogs]       keep n8n's log in memory only (default true)
 */

/** @param {StartOptions} options */
async function startN8n(options) {
	const progress = options.progress ?? ((m) => process.stderr.write(`[n8n] ${m}\n`));
	const runtime = await ensureRuntime();
	const userFolder = options.userFolder ?? fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-user-'));
	for (const tgz of [options.packageTgz ?? []].flat()) installPackage(tgz, userFolder);
	const port = options.port ?? (await freePort());
	if (options.port && !(await isPortFree(port))) {
		throw new Error(
			`Port ${port} is already in use (another n8n?). Stop it, or choose another port with N8N_PORT.`,
		);
	}
	const brokerPort = await freePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	const env = {
		...n8nEnv(runtime, userFolder),
		N8N_PORT: String(port),
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		...(options.env ?? {}),
	};
	progress(`starting n8n on ${baseUrl} (user folder ${userFolder})`);
	const logFile = path.join(userFolder, 'n8n.log');
	const n8n = await launchN8n({
		runtime,
		name: 'n8n',
		args: ['start'],
		env,
		logFile,
		// n8n 2.0.0 answers /healthz/readiness before it has registered its REST routes; the
		// settings route comes after them (2.41.1 registers both before listening).
		ready: readiness(`${baseUrl}/healthz/readiness`, `${baseUrl}/rest/settings`),
	});
	const readyMs = n8n.readyMs;
	progress(`n8n ready in ${(readyMs / 1000).toFixed(1)} s`);

	const session = await bootstrapOwner(baseUrl);
	const instance = createClient({ baseUrl, apiKey: session.apiKey, cookie: session.cookie });
	return {
		...instance,
		/** the n8n version running (N8N_RUNTIME_VERSION, else the pinned one) */
		version: runtime.version,
		readyMs,
		userFolder,
		port,
		pid: n8n.pid,
		logFile,
		get log() {
			return n8n.log;
		},
		stop: () => n8n.stop(),
		cleanup() {
			fs.rmSync(userFolder, { recursive: true, force: true });
		},
	};
}

module.exports = { startN8n };
