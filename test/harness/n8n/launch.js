// @ts-check
'use strict';
/**
 * Starting one n8n process (`n8n start`, `worker` or `webhook`) on Node 24: its environment, free
 * ports, and waiting until it answers its readiness URL. Used by single.js and queueCluster.js.
 */
const { killGroup, spawnOwned } = require('../ownedProcess');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

/** n8n's optional modules that call out to n8n's servers or that the tests do not need. */
const DISABLED_MODULES = [
	'mcp-registry',
	'agents',
	'agent-evals',
	'instance-ai',
	'chat-hub',
	'insights',
	'workflow-builder',
	'breaking-changes',
	'promotions',
	'quick-connect',
	'mcp',
	'instance-version-history',
];

/**
 * n8n refuses to start when N8N_DISABLED_MODULES names a module it does not know
 * (UnknownModuleError), and older releases know fewer: their names, from `MODULE_NAMES` in
 * `@n8n/backend-common/dist/modules/modules.config.js` of that release. A version not listed knows
 * every name of DISABLED_MODULES (2.41.1 does).
 * @type {Record<string, string[]>}
 */
const MODULES_KNOWN_BY = {
	'2.0.0': [
		'insights',
		'external-secrets',
		'community-packages',
		'data-table',
		'mcp',
		'chat-hub',
		'provisioning',
		'breaking-changes',
	],
};

/** N8N_DISABLED_MODULES for n8n `version`: DISABLED_MODULES less the names it does not know. */
function disabledModules(/** @type {string} */ version) {
	const known = MODULES_KNOWN_BY[version];
	return (known ? DISABLED_MODULES.filter((name) => known.includes(name)) : DISABLED_MODULES).join(
		',',
	);
}

/**
 * Environment for an isolated n8n that never reaches the internet: no telemetry, version
 * notifications, templates, banners, license renewal, AI features or optional modules
 * (docs/testing.md, "The real n8n runtime").
 */
const OFFLINE_ENV = {
	N8N_ENCRYPTION_KEY: 'local-tests-only-not-a-secret',
	GENERIC_TIMEZONE: 'UTC',
	N8N_LISTEN_ADDRESS: '127.0.0.1',
	N8N_HOST: '127.0.0.1',
	N8N_PROTOCOL: 'http',
	N8N_SECURE_COOKIE: 'false',
	N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_DYNAMIC_BANNERS_ENABLED: 'false',
	N8N_HIRING_BANNER_ENABLED: 'false',
	N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
	N8N_AI_ENABLED: 'false',
	N8N_PYTHON_ENABLED: 'false',
	N8N_DISABLED_MODULES: DISABLED_MODULES.join(','),
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
	N8N_LOG_LEVEL: 'info',
	N8N_LOG_FORMAT: 'json',
	EXTERNAL_FRONTEND_HOOKS_URLS: '',
};

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits for `promise` at most `ms`; unlike racing a sleep, leaves no timer behind that would keep
 * the caller's process (Jest's) alive after a quick exit.
 * @param {Promise<unknown>} promise @param {number} ms
 */
function within(promise, ms) {
	/** @type {NodeJS.Timeout | undefined} */
	let timer;
	return Promise.race([promise, new Promise((r) => (timer = setTimeout(r, ms)))]).finally(() =>
		clearTimeout(timer),
	);
}

/** @returns {Promise<number>} a free TCP port on 127.0.0.1 */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = /** @type {net.AddressInfo} */ (server.address());
			server.close(() => resolve(port));
		});
	});
}

/** @param {number} count @returns {Promise<number[]>} distinct free ports */
async function freePorts(count) {
	const ports = new Set();
	while (ports.size < count) ports.add(await freePort());
	return [...ports];
}

/** @param {number} port */
function isPortFree(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/**
 * The environment every n8n process of the harness gets: the offline settings (the module list
 * fitted to the runtime's n8n version), Node 24 first on PATH, and a user folder that also serves
 * as HOME so nothing lands in the real one.
 * @param {{ node: string, version?: string }} runtime @param {string} userFolder
 * @returns {Record<string, string>}
 */
function n8nEnv(runtime, userFolder) {
	return {
		PATH: `${path.dirname(runtime.node)}${path.delimiter}${process.env.PATH}`,
		HOME: userFolder,
		N8N_USER_FOLDER: userFolder,
		...OFFLINE_ENV,
		...(runtime.version ? { N8N_DISABLED_MODULES: disabledModules(runtime.version) } : {}),
	};
}

/**
 * @typedef {object} N8nProcess
 * @property {string} name
 * @property {number | undefined} pid
 * @property {string} logFile
 * @property {number} readyMs
 * @property {string} log              the last 200 KB of its output
 * @property {number | null} exitCode   null while it runs
 * @property {() => Promise<void>} stop SIGTERM, SIGKILL after 20 s; resolves once it exited
 */

/**
 * Spawns one n8n command (`start`, `worker`, `webhook`) on Node 24 and waits until `ready()`
 * answers true. Its output goes to `logFile` (appended when `append`, so a restarted process keeps
 * one file) and its last 200 KB stay in memory for error messages.
 * @param {{ runtime: { node: string, n8nBin: string }, name: string, args: string[],
 *   env: Record<string, string>, logFile: string, append?: boolean,
 *   ready: () => Promise<boolean>, timeoutMs?: number }} spec
 * @returns {Promise<N8nProcess>}
 */
async function launchN8n(spec) {
	const timeoutMs = spec.timeoutMs ?? 240_000;
	const started = Date.now();
	// Owned: it ends with this process however that ends (ownedProcess.js), even mid-start.
	const child = spawnOwned(spec.runtime.node, [spec.runtime.n8nBin, ...spec.args], {
		env: spec.env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const logStream = fs.createWriteStream(spec.logFile, { flags: spec.append ? 'a' : 'w' });
	let log = '';
	const onData = (/** @type {Buffer} */ d) => {
		logStream.write(d);
		log = (log + d).slice(-200_000);
	};
	child.stdout.on('data', onData);
	child.stderr.on('data', onData);
	/** @type {number | null} */
	let exitCode = null;
	const exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			exitCode = code ?? (signal ? 128 : 0);
			resolve(undefined);
		}),
	);
	/** @type {Promise<void> | undefined} */
	let stopping;
	/** @type {N8nProcess} */
	const handle = {
		name: spec.name,
		pid: child.pid,
		logFile: spec.logFile,
		readyMs: 0,
		get log() {
			return log;
		},
		get exitCode() {
			return exitCode;
		},
		stop() {
			stopping ??= (async () => {
				if (exitCode === null) {
					child.kill('SIGTERM');
					await within(exited, 20_000);
					if (exitCode === null) killGroup(child, 'SIGKILL');
					await exited;
				}
				// Whatever n8n started and left behind (its task runner) goes with it.
				killGroup(child, 'SIGKILL');
				await new Promise((r) => logStream.end(r));
			})();
			return stopping;
		},
	};
	const deadline = started + timeoutMs;
	for (;;) {
		if (exitCode !== null)
			throw new Error(`${spec.name} exited during start-up (${exitCode}):\n${log.slice(-4000)}`);
		if (Date.now() > deadline) {
			killGroup(child, 'SIGKILL');
			throw new Error(`${spec.name} not ready after ${timeoutMs / 1000} s:\n${log.slice(-4000)}`);
		}
		try {
			if (await spec.ready()) break;
		} catch {
			// not listening yet
		}
		await sleep(250);
	}
	handle.readyMs = Date.now() - started;
	return handle;
}

/** @param {string[]} urls  ready when every one answers 2xx */
const readiness =
	(...urls) =>
	async () => {
		for (const url of urls) if (!(await fetch(url)).ok) return false;
		return true;
	};

module.exports = {
	OFFLINE_ENV,
	disabledModules,
	sleep,
	within,
	freePort,
	freePorts,
	isPortFree,
	n8nEnv,
	launchN8n,
	readiness,
};
