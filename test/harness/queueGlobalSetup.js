// @ts-check
'use strict';
/**
 * Jest global setup of the e2e-queue project: one n8n queue-mode cluster for the whole run
 * (docs/testing.md, "Queue mode": Redis + main + workers + a webhook process, one user folder
 * shared by all of them), with this package installed from its packed tarball.
 *
 * Tests run in their own module registry (or worker process), not with this module's objects, so
 * they reach the cluster through the file named by N8N_E2E_QUEUE_INFO (same fields as the e2e
 * project's N8N_E2E_INFO, plus the log files and a control URL). The control server, on 127.0.0.1, lets a test stop and start main (the cluster's
 * processes are children of this process, and teardown must stop them by PID) and take the
 * cluster for itself: a test that restarts main must not run beside one that delivers to it.
 *
 * The database is a private PostgreSQL by default: on SQLite shared by several processes, n8n
 * 2.41.1 fails some executions with SQLITE_BUSY under the event-trigger test's load (see
 * startN8nCluster). N8N_QUEUE_DB=sqlite runs the suite on SQLite anyway.
 *
 * Environment: N8N_QUEUE_DB (postgres | sqlite), N8N_QUEUE_WORKERS (default 2),
 * N8N_QUEUE_DURABLE_CURSORS=1 (n8n's durable scheduler and poll cursors on), E2E_BUILT=1
 * (dist/ is current, do not build), KEEP_N8N_USER_FOLDER (keep logs and data).
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { packPackage, redisVersion, startN8nCluster } = require('./n8n');
const { followParent } = require('./ownedProcess');

/**
 * @param {Awaited<ReturnType<typeof startN8nCluster>>} cluster
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
async function startControl(cluster) {
	/** @type {string | undefined} */
	let holder;
	/** @type {Array<() => void>} */
	const waiting = [];
	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://control');
		const owner = url.searchParams.get('owner') ?? '';
		const reply = (/** @type {number} */ status, /** @type {unknown} */ body) => {
			// No keep-alive: a reused socket the server just timed out would fail the next call.
			res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
			res.end(JSON.stringify(body));
		};
		const fail = (/** @type {unknown} */ error) =>
			reply(500, { error: error instanceof Error ? error.message : String(error) });
		const route = `${req.method} ${url.pathname}`;
		if (route === 'POST /main/stop') {
			cluster.stopMain().then((stoppedMs) => reply(200, { stoppedMs }), fail);
		} else if (route === 'POST /main/start') {
			cluster.startMain().then((readyMs) => reply(200, { readyMs, pid: cluster.mainPid }), fail);
		} else if (route === 'POST /main/restart') {
			cluster.restartMain().then((b) => reply(200, b), fail);
		} else if (route === 'POST /process/kill') {
			const signal = /** @type {NodeJS.Signals} */ (url.searchParams.get('signal') ?? 'SIGKILL');
			cluster
				.kill(url.searchParams.get('name') ?? '', signal)
				.then((exitedMs) => reply(200, { exitedMs }), fail);
		} else if (route === 'POST /process/start') {
			const name = url.searchParams.get('name') ?? '';
			cluster
				.start(name)
				.then(
					(readyMs) =>
						reply(200, { readyMs, pid: cluster.processes().find((p) => p.name === name)?.pid }),
					fail,
				);
		} else if (route === 'GET /processes') {
			reply(200, cluster.processes());
		} else if (route === 'POST /lock') {
			// Answered when granted, or 409 after 30 s so the client asks again (no long timeouts).
			if (holder === undefined || holder === owner) {
				holder = owner;
				reply(200, { holder });
				return;
			}
			const grant = () => {
				clearTimeout(timer);
				holder = owner;
				reply(200, { holder });
			};
			const timer = setTimeout(() => {
				waiting.splice(waiting.indexOf(grant), 1);
				reply(409, { holder });
			}, 30_000);
			waiting.push(grant);
		} else if (route === 'POST /unlock') {
			if (holder === owner) {
				holder = undefined;
				waiting.shift()?.();
			}
			reply(200, { holder: holder ?? null });
		} else {
			reply(404, { error: `no route ${route}` });
		}
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

module.exports = async () => {
	// As the e2e project's setup: SIGTERM to `npm run test:e2e:queue` stops Jest and its cluster.
	followParent();
	const started = Date.now();
	// Fail loudly, before building anything, when Redis is missing: run directly, the project never
	// skips (npm test, scripts/test.mjs, decides beforehand whether to run it).
	process.stderr.write(`\n[e2e-queue] ${redisVersion()}\n`);
	const database = process.env.N8N_QUEUE_DB ?? 'postgres';
	if (database !== 'postgres' && database !== 'sqlite')
		throw new Error(`N8N_QUEUE_DB must be postgres or sqlite, not ${database}`);
	// `npm test` builds first and says so; a direct `jest --selectProjects e2e-queue` must not test a stale dist/.
	const packageTgz = packPackage({ build: process.env.E2E_BUILT !== '1' });
	const cluster = await startN8nCluster({
		packageTgz,
		workers: Number(process.env.N8N_QUEUE_WORKERS ?? 2),
		webhookProcess: true,
		database,
		// n8n's durable poll cursors (docs/n8n-notes.md, "Polling triggers"), to run the suite with them
		env:
			process.env.N8N_QUEUE_DURABLE_CURSORS === '1'
				? {
						N8N_SCHEDULER_ENABLED: 'true',
						N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
						N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
					}
				: {},
		progress: (m) => process.stderr.write(`[e2e-queue] ${m}\n`),
	});
	/** @type {{ url: string, close: () => Promise<void> } | undefined} */
	let control;
	try {
		control = await startControl(cluster);
	} catch (error) {
		await cluster.stop();
		throw error;
	}
	/** @type {any} */ (globalThis).__N8N_E2E_QUEUE__ = { cluster, control, packageTgz };
	const logFiles = Object.fromEntries(cluster.processes().map((p) => [p.name, p.logFile]));
	const info = {
		baseUrl: cluster.baseUrl,
		apiKey: cluster.apiKey,
		cookie: cluster.cookie,
		userFolder: cluster.userFolder,
		logFile: logFiles.main,
		packageTgz,
		mode: 'queue',
		database,
		webhookBaseUrl: cluster.webhookBaseUrl,
		controlUrl: control.url,
		logFiles,
		workers: cluster
			.processes()
			.filter((p) => p.name.startsWith('worker'))
			.map((p) => p.name),
	};
	const file = path.join(os.tmpdir(), `n8n-e2e-queue-${process.pid}.json`);
	fs.writeFileSync(file, JSON.stringify(info));
	process.env.N8N_E2E_QUEUE_INFO = file;
	process.stderr.write(
		`[e2e-queue] cluster ready at ${cluster.baseUrl} (webhook process ${cluster.webhookBaseUrl}) after ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
	);
};
