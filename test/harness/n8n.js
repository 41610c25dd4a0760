// @ts-check
'use strict';
/**
 * Starts a real n8n (2.41.1 on Node 24, see runtime.js) with this package installed the way n8n
 * installs community packages, bootstraps an owner and a public-API key, and drives it headlessly:
 * credentials and workflows through the public API, runs through webhooks.
 *
 * Verified recipe: shared/reference/n8n-runtime.md §3.3 (unpacked tarball under
 * <userFolder>/.n8n/nodes/node_modules/<name>, node types `<package>.<node>`), §4 (offline
 * environment), §5.2 (owner, login, API key, asynchronous webhook registration).
 *
 * `startN8nCluster` starts the same n8n in queue mode (Redis + main + workers + optionally a webhook
 * process) with the same environment, install and bootstrap: shared/reference/n8n-queue-mode.md.
 */
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { ensureRuntime } = require('./runtime');

const ROOT = path.resolve(__dirname, '..', '..');
const PACKAGE_NAME = require(path.join(ROOT, 'package.json')).name;
const OWNER = {
	email: 'owner@example.com',
	firstName: 'Ada',
	lastName: 'Owner',
	password: 'Simulat0r!pass',
};

/** Environment for an isolated n8n that never reaches the internet (n8n-runtime.md §4). */
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
	N8N_DISABLED_MODULES:
		'mcp-registry,agents,agent-evals,instance-ai,chat-hub,insights,workflow-builder,breaking-changes,promotions,quick-connect,mcp,instance-version-history',
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

/** @param {number} port */
function isPortFree(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/**
 * Builds (unless dist/ is current) and packs this package; returns the tarball path.
 * @param {{ build?: boolean }} [options]
 */
function packPackage({ build = false } = {}) {
	if (build || !fs.existsSync(path.join(ROOT, 'dist', 'package.json'))) {
		execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
	}
	const dest = fs.mkdtempSync(path.join(os.tmpdir(), 'pkg-tgz-'));
	const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', dest], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	return path.join(dest, out.trim().split('\n').pop() ?? '');
}

/**
 * Installs the packed package into a user folder as n8n does for community packages: the
 * tarball's contents under .n8n/nodes/node_modules/<name>, with dev and peer dependencies removed
 * from its package.json (n8n's CommunityPackagesService does the same before `npm install`).
 * @param {string} packageTgz @param {string} userFolder
 */
function installPackage(packageTgz, userFolder) {
	const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'pkg-'));
	execFileSync('tar', ['-xzf', packageTgz, '-C', unpacked, '--strip-components=1']);
	const manifestPath = path.join(unpacked, 'package.json');
	const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
	delete manifest.devDependencies;
	delete manifest.peerDependencies;
	delete manifest.optionalDependencies;
	fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const dest = path.join(nodesDir, 'node_modules', manifest.name);
	fs.rmSync(dest, { recursive: true, force: true });
	fs.mkdirSync(path.dirname(dest), { recursive: true });
	fs.cpSync(unpacked, dest, { recursive: true });
	fs.rmSync(unpacked, { recursive: true, force: true });
	const installed = path.join(nodesDir, 'package.json');
	const list = fs.existsSync(installed)
		? JSON.parse(fs.readFileSync(installed, 'utf8'))
		: { name: 'installed-nodes', private: true };
	list.dependencies = { ...(list.dependencies ?? {}), [manifest.name]: manifest.version };
	fs.writeFileSync(installed, JSON.stringify(list, null, 2));
	return manifest.name;
}

/**
 * The environment every n8n process of the harness gets: the offline settings (n8n-runtime.md
 * §4), Node 24 first on PATH, and a user folder that also serves as HOME so nothing lands in the
 * real one.
 * @param {{ node: string }} runtime @param {string} userFolder
 * @returns {Record<string, string>}
 */
function n8nEnv(runtime, userFolder) {
	return {
		PATH: `${path.dirname(runtime.node)}${path.delimiter}${process.env.PATH}`,
		HOME: userFolder,
		N8N_USER_FOLDER: userFolder,
		...OFFLINE_ENV,
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
	const child = spawn(spec.runtime.node, [spec.runtime.n8nBin, ...spec.args], {
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
					if (exitCode === null) child.kill('SIGKILL');
					await exited;
				}
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
			child.kill('SIGKILL');
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

/** @param {string} url */
const readiness = (url) => async () => (await fetch(url)).ok;

/**
 * @typedef {object} StartOptions
 * @property {string | string[]} packageTgz  the `npm pack` tarball(s) to install
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
	for (const tgz of [options.packageTgz].flat()) installPackage(tgz, userFolder);
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
		ready: readiness(`${baseUrl}/healthz/readiness`),
	});
	const readyMs = n8n.readyMs;
	progress(`n8n ready in ${(readyMs / 1000).toFixed(1)} s`);

	const session = await bootstrapOwner(baseUrl);
	const instance = createClient({ baseUrl, apiKey: session.apiKey, cookie: session.cookie });
	return {
		...instance,
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

const REDIS_INSTALL =
	'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server';

/** The installed redis-server's version line; throws the install instruction when there is none. */
function redisVersion() {
	const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
	if (probe.error || probe.status !== 0) {
		throw new Error(
			`redis-server is not installed (${probe.error?.message ?? `exit ${probe.status}`}); n8n's queue mode needs Redis. Install it with:\n  ${REDIS_INSTALL}\n(.ci/run does this on CI machines.)`,
		);
	}
	return probe.stdout.trim();
}

/** @param {number} port @returns {Promise<boolean>} whether Redis answers PING */
function redisPing(port) {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
		socket.setTimeout(1000, () => {
			socket.destroy();
			resolve(false);
		});
		socket.on('data', (d) => {
			resolve(String(d).startsWith('+PONG'));
			socket.destroy();
		});
		socket.on('error', () => resolve(false));
	});
}

const POSTGRES_INSTALL =
	'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql';

/**
 * The newest installed PostgreSQL server's bin folder (Debian: /usr/lib/postgresql/<v>/bin), else
 * the folder of `postgres` on PATH; throws the install instruction when there is none.
 */
function postgresBin() {
	const debian = '/usr/lib/postgresql';
	const versions = fs.existsSync(debian)
		? fs
				.readdirSync(debian)
				.filter((v) => fs.existsSync(path.join(debian, v, 'bin', 'postgres')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	if (versions.length) return path.join(debian, versions[0], 'bin');
	const which = spawnSync('sh', ['-c', 'command -v postgres'], { encoding: 'utf8' });
	const found = which.status === 0 ? which.stdout.trim() : '';
	if (found && fs.existsSync(path.join(path.dirname(found), 'initdb'))) return path.dirname(found);
	throw new Error(
		`PostgreSQL is not installed (no postgres and initdb); the queue-mode suite runs n8n on it by default (N8N_QUEUE_DB=sqlite to use SQLite instead). Install it with:\n  ${POSTGRES_INSTALL}\n(.ci/run does this on CI machines.)`,
	);
}

/**
 * Postgres refuses to run as root (n8n-queue-mode.md §1): as root, initdb and the server run as the
 * `postgres` user the Debian package creates.
 * @returns {{ uid: number, gid: number } | undefined}
 */
function postgresUser() {
	if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
	const entry = fs
		.readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.map((line) => line.split(':'))
		.find((fields) => fields[0] === 'postgres');
	if (!entry)
		throw new Error(
			`running as root, but there is no postgres user to run PostgreSQL as. Install it with:\n  ${POSTGRES_INSTALL}`,
		);
	return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

/** @param {number} count @returns {Promise<number[]>} distinct free ports */
async function freePorts(count) {
	const ports = new Set();
	while (ports.size < count) ports.add(await freePort());
	return [...ports];
}

/**
 * @typedef {object} ClusterOptions
 * @property {string | string[]} packageTgz  the `npm pack` tarball(s) to install
 * @property {number} [workers]          `n8n worker` processes (default 1)
 * @property {number} [workerConcurrency] jobs per worker (n8n's default 10)
 * @property {boolean} [webhookProcess]  also start an `n8n webhook` process (default false)
 * @property {'sqlite' | 'postgres'} [database] SQLite in the shared user folder (default), or a
 *   private PostgreSQL server started like Redis (needs the postgresql package)
 * @property {Record<string, string>} [env] extra environment for every n8n process
 * @property {(message: string) => void} [progress]
 */

/**
 * Starts n8n in queue mode (n8n-queue-mode.md §1, §2, Appendix A): a private redis-server, then
 * main (`n8n start`, which runs the migrations and is the leader: it activates workflows and
 * runs poll triggers), then the workers and the optional webhook process. All processes share one
 * user folder, hence one installed copy of the package (every process loads it from there) and,
 * with `database: 'sqlite'`, one SQLite database; and the same encryption key (workers decrypt
 * credentials). Each gets its own ports: a worker's task broker on the default port would collide
 * (§6).
 *
 * SQLite or Postgres: n8n 2.41.1 opens SQLite without a busy timeout, so when two processes write
 * at the same moment one fails at once with SQLITE_BUSY. At a few executions per second that is
 * rare; at 12-20 deliveries per second into a cluster of main, a webhook process and 1-2 workers,
 * 3-14 of 520 executions failed that way (measured here), which n8n then reports as failed
 * executions. n8n supports queue mode on Postgres only ("Scaling mode is not officially supported
 * with sqlite"); `database: 'postgres'` starts a private one (initdb, trust auth on 127.0.0.1,
 * fsync off: throw-away CI data) and stops it after the n8n processes.
 *
 * Main can be stopped and started again on the same database while the workers keep running
 * (`stopMain`, `startMain`, `restartMain`). `stop()` ends every process by its PID: the n8n
 * processes first (entry points, then workers), then Redis, then Postgres.
 * @param {ClusterOptions} options
 */
async function startN8nCluster(options) {
	const progress = options.progress ?? ((m) => process.stderr.write(`[n8n-queue] ${m}\n`));
	// Both checks before anything is created: a missing server fails loudly, with its install line.
	const redis = redisVersion();
	const database = options.database ?? 'sqlite';
	const pgBin = database === 'postgres' ? postgresBin() : '';
	const runtime = await ensureRuntime();
	const started = Date.now();
	const workerCount = options.workers ?? 1;
	const rootFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
	const userFolder = path.join(rootFolder, 'user');
	const logDir = path.join(rootFolder, 'logs');
	const redisDir = path.join(rootFolder, 'redis');
	const pgDir = path.join(rootFolder, 'postgres');
	for (const dir of [userFolder, logDir, redisDir]) fs.mkdirSync(dir, { recursive: true });
	for (const tgz of [options.packageTgz].flat()) installPackage(tgz, userFolder);

	const [redisPort, mainPort, mainBroker, webhookPort, webhookBroker, pgPort, ...workerPorts] =
		await freePorts(6 + 2 * workerCount);
	const ports = {
		redis: redisPort,
		main: mainPort,
		mainBroker,
		webhook: options.webhookProcess ? webhookPort : undefined,
		postgres: database === 'postgres' ? pgPort : undefined,
		workers: Array.from({ length: workerCount }, (_, i) => ({
			health: workerPorts[2 * i],
			broker: workerPorts[2 * i + 1],
		})),
	};
	const baseUrl = `http://127.0.0.1:${mainPort}`;
	const common = {
		...n8nEnv(runtime, userFolder),
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		// Manual runs ("Fetch Test Event") go to the workers too; main then starts no task runner.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		...(database === 'postgres'
			? {
					DB_TYPE: 'postgresdb',
					DB_POSTGRESDB_HOST: '127.0.0.1',
					DB_POSTGRESDB_PORT: String(pgPort),
					DB_POSTGRESDB_DATABASE: 'n8n',
					DB_POSTGRESDB_USER: 'n8n',
					DB_POSTGRESDB_PASSWORD: 'n8n',
				}
			: {}),
		...(options.env ?? {}),
	};
	const logFile = (/** @type {string} */ name) => path.join(logDir, `${name}.log`);
	/** @type {{ main?: N8nProcess, webhook?: N8nProcess, workers: N8nProcess[] }} */
	const n8n = { workers: [] };
	/** @type {import('node:child_process').ChildProcess | undefined} */
	let redisChild;
	let redisExit = Promise.resolve();
	/** @type {import('node:child_process').ChildProcess | undefined} */
	let pgChild;
	let pgExit = Promise.resolve();

	const mainSpec = () => ({
		runtime,
		name: 'main',
		args: ['start'],
		env: { ...common, N8N_PORT: String(mainPort), N8N_RUNNERS_BROKER_PORT: String(mainBroker) },
		logFile: logFile('main'),
		append: true,
		ready: readiness(`${baseUrl}/healthz/readiness`),
	});

	let closed = false;
	/** Stops and starts of main, one at a time; stopAll waits for the one under way. */
	let mainOperation = Promise.resolve();
	/** @template T @param {() => Promise<T>} operation @returns {Promise<T>} */
	const onMain = (operation) => {
		const result = mainOperation.then(operation);
		mainOperation = result.then(
			() => undefined,
			() => undefined,
		);
		return result;
	};

	async function stopAll() {
		closed = true;
		await mainOperation;
		// Entry points first (nothing new is enqueued), then the workers finish, then Redis.
		const timed = async (/** @type {N8nProcess | undefined} */ p) => {
			if (!p || p.exitCode !== null) return await p?.stop();
			const t = Date.now();
			await p.stop();
			progress(`${p.name} stopped in ${((Date.now() - t) / 1000).toFixed(1)} s`);
		};
		await Promise.all([n8n.webhook, n8n.main].map(timed));
		await Promise.all(n8n.workers.map(timed));
		if (redisChild && redisChild.exitCode === null && !redisChild.signalCode) {
			redisChild.kill('SIGTERM');
			await within(redisExit, 10_000);
			if (redisChild.exitCode === null && !redisChild.signalCode) redisChild.kill('SIGKILL');
		}
		if (pgChild && pgChild.exitCode === null && !pgChild.signalCode) {
			pgChild.kill('SIGINT'); // "fast" shutdown: the postmaster, by its PID
			await within(pgExit, 15_000);
			if (pgChild.exitCode === null && !pgChild.signalCode) pgChild.kill('SIGKILL');
		}
	}

	/** @type {Record<string, number>} */
	const timings = {};
	let session;
	try {
		progress(`${redis}; cluster folder ${rootFolder}`);
		const redisLog = fs.openSync(logFile('redis'), 'w');
		const child = spawn(
			'redis-server',
			[
				'--bind',
				'127.0.0.1',
				'--port',
				String(redisPort),
				'--dir',
				redisDir,
				'--save',
				'',
				'--appendonly',
				'no',
			],
			{ stdio: ['ignore', redisLog, redisLog] },
		);
		redisChild = child;
		redisExit = new Promise((resolve) => child.on('exit', () => resolve()));
		fs.closeSync(redisLog);
		const redisDeadline = Date.now() + 20_000;
		while (!(await redisPing(redisPort))) {
			if (child.exitCode !== null)
				throw new Error(
					`redis-server exited (${child.exitCode}):\n${fs.readFileSync(logFile('redis'), 'utf8')}`,
				);
			if (Date.now() > redisDeadline) throw new Error('redis-server not ready after 20 s');
			await sleep(100);
		}
		timings.redisMs = Date.now() - started;

		if (database === 'postgres') {
			const user = postgresUser();
			fs.mkdirSync(pgDir);
			if (user) {
				fs.chmodSync(rootFolder, 0o711); // mkdtemp's 0700 would keep the postgres user out
				fs.chownSync(pgDir, user.uid, user.gid);
			}
			const asPostgres = {
				cwd: pgDir,
				...(user ?? {}),
				env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' },
			};
			const data = path.join(pgDir, 'data');
			const init = spawnSync(
				path.join(pgBin, 'initdb'),
				['-D', data, '-A', 'trust', '-U', 'n8n', '-E', 'UTF8', '--no-sync'],
				{ ...asPostgres, encoding: 'utf8' },
			);
			if (init.status !== 0)
				throw new Error(
					`initdb failed (${init.status}): ${init.error?.message ?? ''}\n${init.stdout}\n${init.stderr}`,
				);
			const pgLog = fs.openSync(logFile('postgres'), 'w');
			const child = spawn(
				path.join(pgBin, 'postgres'),
				[
					'-D',
					data,
					'-c',
					'listen_addresses=127.0.0.1',
					'-c',
					`port=${pgPort}`,
					'-c',
					`unix_socket_directories=${pgDir}`,
					'-c',
					'fsync=off',
					'-c',
					'synchronous_commit=off',
					'-c',
					'full_page_writes=off',
					'-c',
					'max_connections=200',
				],
				{ ...asPostgres, stdio: ['ignore', pgLog, pgLog] },
			);
			pgChild = child;
			pgExit = new Promise((resolve) => child.on('exit', () => resolve()));
			fs.closeSync(pgLog);
			const pgDeadline = Date.now() + 30_000;
			for (;;) {
				const ready = spawnSync(path.join(pgBin, 'pg_isready'), [
					'-q',
					'-h',
					'127.0.0.1',
					'-p',
					String(pgPort),
				]);
				if (ready.status === 0) break;
				if (child.exitCode !== null)
					throw new Error(
						`postgres exited (${child.exitCode}):\n${fs.readFileSync(logFile('postgres'), 'utf8')}`,
					);
				if (Date.now() > pgDeadline) throw new Error('postgres not ready after 30 s');
				await sleep(100);
			}
			// n8n's database: the superuser initdb made owns it (trust auth, loopback only).
			const created = spawnSync(
				path.join(pgBin, 'psql'),
				[
					'-h',
					'127.0.0.1',
					'-p',
					String(pgPort),
					'-U',
					'n8n',
					'-d',
					'postgres',
					'-v',
					'ON_ERROR_STOP=1',
					'-c',
					'CREATE DATABASE n8n OWNER n8n',
				],
				{ ...asPostgres, encoding: 'utf8' },
			);
			if (created.status !== 0) throw new Error(`CREATE DATABASE failed: ${created.stderr}`);
			timings.postgresMs = Date.now() - started;
			progress(`PostgreSQL (${path.basename(path.dirname(pgBin))}) ready on 127.0.0.1:${pgPort}`);
		}

		// Main first: it migrates the fresh database the others then open (n8n-queue-mode.md §6).
		progress(`starting main on ${baseUrl}, Redis on 127.0.0.1:${redisPort}`);
		n8n.main = await launchN8n({ ...mainSpec(), append: false });
		timings.mainReadyMs = Date.now() - started;
		progress(`main ready in ${(n8n.main.readyMs / 1000).toFixed(1)} s`);

		const others = ports.workers.map(({ health, broker }, i) =>
			launchN8n({
				runtime,
				name: `worker${i + 1}`,
				args: ['worker', `--concurrency=${options.workerConcurrency ?? 10}`],
				env: {
					...common,
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(health),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
					N8N_RUNNERS_BROKER_PORT: String(broker),
				},
				logFile: logFile(`worker${i + 1}`),
				ready: readiness(`http://127.0.0.1:${health}/healthz/readiness`),
			}).then((p) => {
				n8n.workers.push(p);
				progress(`${p.name} ready in ${(p.readyMs / 1000).toFixed(1)} s`);
			}),
		);
		if (options.webhookProcess) {
			others.push(
				launchN8n({
					runtime,
					name: 'webhook',
					args: ['webhook'],
					env: {
						...common,
						N8N_PORT: String(webhookPort),
						N8N_RUNNERS_BROKER_PORT: String(webhookBroker),
					},
					logFile: logFile('webhook'),
					ready: readiness(`http://127.0.0.1:${webhookPort}/healthz/readiness`),
				}).then((p) => {
					n8n.webhook = p;
					progress(`webhook process ready in ${(p.readyMs / 1000).toFixed(1)} s`);
				}),
			);
		}
		// allSettled: a failed start must not leave the others running unseen by stopAll.
		const [bootstrap, ...outcomes] = await Promise.allSettled([bootstrapOwner(baseUrl), ...others]);
		const failed = [bootstrap, ...outcomes].find((o) => o.status === 'rejected');
		if (failed) throw /** @type {PromiseRejectedResult} */ (failed).reason;
		session = /** @type {PromiseFulfilledResult<{ apiKey: string, cookie: string }>} */ (bootstrap)
			.value;
		timings.allReadyMs = Date.now() - started;
	} catch (error) {
		await stopAll();
		throw error;
	}
	n8n.workers.sort((a, b) => a.name.localeCompare(b.name));
	progress(
		`queue cluster ready in ${(timings.allReadyMs / 1000).toFixed(1)} s: main, ${workerCount} worker(s)${options.webhookProcess ? ', webhook process' : ''}, ${database}`,
	);

	const client = createClient({ baseUrl, apiKey: session.apiKey, cookie: session.cookie });
	const processes = () =>
		[
			['redis', { pid: redisChild?.pid, logFile: logFile('redis') }],
			...(pgChild ? [['postgres', { pid: pgChild.pid, logFile: logFile('postgres') }]] : []),
			['main', n8n.main],
			...n8n.workers.map((w) => [w.name, w]),
			...(n8n.webhook ? [['webhook', n8n.webhook]] : []),
		].map(([name, p]) => {
			const proc = /** @type {{ pid?: number, logFile: string }} */ (p);
			return { name: /** @type {string} */ (name), pid: proc.pid, logFile: proc.logFile };
		});

	const stopMain = () =>
		onMain(async () => {
			const t = Date.now();
			await n8n.main?.stop();
			return Date.now() - t;
		});
	const startMain = () =>
		onMain(async () => {
			if (closed) throw new Error('the cluster was stopped');
			if (n8n.main && n8n.main.exitCode === null) throw new Error('main is still running');
			fs.appendFileSync(
				logFile('main'),
				`\n--- main started again at ${new Date().toISOString()} ---\n`,
			);
			n8n.main = await launchN8n(mainSpec());
			return n8n.main.readyMs;
		});

	return {
		...client,
		mode: /** @type {const} */ ('queue'),
		database,
		apiKey: session.apiKey,
		cookie: session.cookie,
		/** Where /webhook/… is served by the webhook process (main's own URL without one). */
		webhookBaseUrl: options.webhookProcess ? `http://127.0.0.1:${webhookPort}` : baseUrl,
		ports,
		timings,
		rootFolder,
		userFolder,
		logDir,
		get mainPid() {
			return n8n.main?.pid;
		},
		processes,
		/** The whole log of a process so far (its file), e.g. `readLog('worker1')`. */
		readLog: (/** @type {string} */ name) => fs.readFileSync(logFile(name), 'utf8'),
		stopMain,
		startMain,
		/** Stops main and starts it again on the same database; the workers keep running. */
		async restartMain() {
			const stoppedMs = await stopMain();
			const readyMs = await startMain();
			return { stoppedMs, readyMs, pid: n8n.main?.pid };
		},
		stop: stopAll,
		cleanup() {
			fs.rmSync(rootFolder, { recursive: true, force: true });
		},
	};
}

/**
 * Logs in as the owner (creating the owner on a fresh database) and mints a public-API key,
 * replacing keys an earlier run of the harness left (n8n-runtime.md §5.2).
 * @param {string} baseUrl
 */
async function bootstrapOwner(baseUrl) {
	const json = { 'content-type': 'application/json' };
	const login = () =>
		fetch(`${baseUrl}/rest/login`, {
			method: 'POST',
			headers: json,
			body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
		});
	let res = await login();
	if (!res.ok) {
		const setup = await fetch(`${baseUrl}/rest/owner/setup`, {
			method: 'POST',
			headers: json,
			body: JSON.stringify(OWNER),
		});
		if (!setup.ok) throw new Error(`owner setup: ${setup.status} ${await setup.text()}`);
		res = await login();
	}
	if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
	const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
	const listed = (await (await fetch(`${baseUrl}/rest/api-keys`, { headers: { cookie } })).json())
		.data;
	const existing = Array.isArray(listed) ? listed : (listed?.items ?? listed?.data ?? []);
	for (const key of existing.filter((/** @type {any} */ k) => k.label === 'harness')) {
		await fetch(`${baseUrl}/rest/api-keys/${key.id}`, { method: 'DELETE', headers: { cookie } });
	}
	const scopes = (
		await (await fetch(`${baseUrl}/rest/api-keys/scopes`, { headers: { cookie } })).json()
	).data;
	res = await fetch(`${baseUrl}/rest/api-keys`, {
		method: 'POST',
		headers: { ...json, cookie },
		body: JSON.stringify({ label: 'harness', expiresAt: null, scopes }),
	});
	if (!res.ok) throw new Error(`api key: ${res.status} ${await res.text()}`);
	const apiKey = (await res.json()).data.rawApiKey;
	return { apiKey, cookie };
}

/**
 * The client half of the harness: usable against any running n8n given its API key.
 * @param {{ baseUrl: string, apiKey: string, cookie?: string }} connection
 */
function createClient({ baseUrl, apiKey, cookie }) {
	/** @param {string} method @param {string} apiPath @param {unknown} [body] */
	async function api(method, apiPath, body) {
		for (let attempt = 1; ; attempt++) {
			const res = await fetch(`${baseUrl}/api/v1${apiPath}`, {
				method,
				headers: { 'X-N8N-API-KEY': apiKey, 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await res.text();
			// SQLite answers 503 "Database is not ready!" while n8n writes a large execution.
			if (res.status === 503 && attempt < 20) {
				await sleep(250 * attempt);
				continue;
			}
			if (!res.ok)
				throw new Error(`${method} /api/v1${apiPath}: ${res.status} ${text.slice(0, 2000)}`);
			return text ? JSON.parse(text) : undefined;
		}
	}

	/** @param {string} webhookPath @param {unknown} body @param {Record<string, string>} [headers] @param {'webhook' | 'webhook-test'} [kind] */
	function webhook(webhookPath, body, headers = {}, kind = 'webhook') {
		return fetch(`${baseUrl}/${kind}/${webhookPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: typeof body === 'string' ? body : JSON.stringify(body),
		});
	}

	/** Activation registers webhooks asynchronously in n8n 2.x: poll until it stops answering 404. */
	async function waitForWebhook(
		/** @type {string} */ webhookPath,
		/** @type {unknown} */ body,
		timeoutMs = 30_000,
	) {
		const until = Date.now() + timeoutMs;
		for (;;) {
			const res = await webhook(webhookPath, body);
			if (res.status !== 404 || Date.now() > until) return res;
			await res.arrayBuffer();
			await sleep(150);
		}
	}

	/** @param {{ type: string, name: string, data: Record<string, unknown> }} credential */
	async function createCredential(credential) {
		return await api('POST', '/credentials', credential);
	}

	/** Tests a stored credential with its type's `test` request, as the editor's "Test" button does. */
	async function testCredential(/** @type {string} */ credentialId) {
		if (!cookie) throw new Error('testCredential needs the owner session');
		// The editor's endpoint takes the credential as stored; n8n decrypts it server-side.
		const stored = await fetch(`${baseUrl}/rest/credentials/${credentialId}?includeData=true`, {
			headers: { cookie },
		});
		const credentials = (await stored.json()).data;
		const res = await fetch(`${baseUrl}/rest/credentials/test`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({ credentials }),
		});
		const body = await res.json();
		if (!res.ok) throw new Error(`credential test: ${res.status} ${JSON.stringify(body)}`);
		return /** @type {{ status: 'OK' | 'Error', message: string }} */ (body.data);
	}

	/**
	 * Creates a workflow, with node credentials mapped by credential type to the ids given.
	 * @param {any} workflow @param {Record<string, { id: string, name: string }>} [credentials]
	 */
	async function createWorkflow(workflow, credentials = {}) {
		const nodes = workflow.nodes.map((/** @type {any} */ node) => {
			if (!node.credentials) return node;
			const mapped = Object.fromEntries(
				Object.entries(node.credentials).map(([type, ref]) => [type, credentials[type] ?? ref]),
			);
			return { ...node, credentials: mapped };
		});
		return await api('POST', '/workflows', {
			name: workflow.name ?? 'workflow',
			nodes,
			connections: workflow.connections ?? {},
			settings: { executionOrder: 'v1', ...(workflow.settings ?? {}) },
		});
	}

	/**
	 * Runs a workflow that starts with a Manual Trigger (an example as users import it): the
	 * trigger is swapped for a Webhook node of the same name, the workflow is activated, called
	 * once, and its execution is returned with every node's output. The workflow is deactivated after.
	 * @param {any} workflow @param {Record<string, { id: string, name: string }>} [credentials]
	 * @param {{ input?: unknown }} [options]
	 */
	async function runWorkflow(workflow, credentials = {}, options = {}) {
		const hookPath = `run-${crypto.randomUUID()}`;
		const nodes = workflow.nodes.map((/** @type {any} */ node) =>
			node.type === 'n8n-nodes-base.manualTrigger'
				? {
						...node,
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						webhookId: crypto.randomUUID(),
						parameters: {
							httpMethod: 'POST',
							path: hookPath,
							responseMode: 'lastNode',
							options: {},
						},
					}
				: node,
		);
		const created = await createWorkflow({ ...workflow, nodes }, credentials);
		try {
			await api('POST', `/workflows/${created.id}/activate`);
			const res = await waitForWebhook(hookPath, options.input ?? {});
			await res.arrayBuffer();
			const execution = await latestExecution(created.id);
			return describeExecution(execution);
		} finally {
			// Deactivated, not deleted: deleting a workflow deletes its executions, which the
			// suite's secret scan reads at the end (test/e2e/secretScan.test.ts).
			await api('POST', `/workflows/${created.id}/deactivate`).catch(() => undefined);
		}
	}

	/** Waits for the newest finished execution of a workflow and returns it with its data. */
	async function latestExecution(/** @type {string} */ workflowId, timeoutMs = 60_000) {
		const until = Date.now() + timeoutMs;
		for (;;) {
			const list = await api(
				'GET',
				`/executions?workflowId=${workflowId}&limit=1&includeData=true`,
			);
			const execution = list.data[0];
			if (execution && execution.finished !== undefined && execution.stoppedAt) return execution;
			if (Date.now() > until) throw new Error(`no finished execution of workflow ${workflowId}`);
			await sleep(200);
		}
	}

	/** @param {string} workflowId */
	async function executions(workflowId, includeData = false) {
		/** @type {any[]} */
		const all = [];
		let cursor = '';
		do {
			const page = await api(
				'GET',
				`/executions?workflowId=${workflowId}&limit=250&includeData=${includeData}${cursor ? `&cursor=${cursor}` : ''}`,
			);
			all.push(...page.data);
			cursor = page.nextCursor ?? '';
		} while (cursor);
		return all;
	}

	return {
		baseUrl,
		apiKey,
		cookie,
		api,
		webhook,
		waitForWebhook,
		createCredential,
		testCredential,
		createWorkflow,
		runWorkflow,
		latestExecution,
		executions,
	};
}

/**
 * Flattens an execution record: status, the error if any, and each node's output items.
 * @param {any} execution
 */
function describeExecution(execution) {
	const runData = execution.data?.resultData?.runData ?? {};
	/** @type {Record<string, any[]>} */
	const outputs = {};
	/** @type {Record<string, any>} */
	const errors = {};
	for (const [nodeName, runs] of Object.entries(runData)) {
		const run = /** @type {any[]} */ (runs)[0];
		outputs[nodeName] = (run?.data?.main?.[0] ?? []).map((/** @type {any} */ item) => item.json);
		if (run?.error) errors[nodeName] = run.error;
	}
	return {
		id: execution.id,
		status: execution.status,
		error: execution.data?.resultData?.error,
		outputs,
		errors,
		runData,
		/** output items of a node (json only) */
		output: (/** @type {string} */ nodeName) => outputs[nodeName] ?? [],
	};
}

module.exports = {
	startN8n,
	startN8nCluster,
	redisVersion,
	createClient,
	packPackage,
	installPackage,
	freePort,
	describeExecution,
	PACKAGE_NAME,
	OWNER,
};
