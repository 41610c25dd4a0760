// @ts-check
'use strict';
/**
 * n8n in queue mode for the e2e-queue project and the P5 benchmark: Redis (and PostgreSQL), main,
 * workers and optionally a webhook process, with the install and bootstrap of single.js.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureRuntime } = require('../runtime');
const { bootstrapOwner, installPackage } = require('./bootstrap');
const { freePorts, launchN8n, n8nEnv, readiness } = require('./launch');
const { postgresBin, redisVersion, spawnPostgres, spawnRedis } = require('./queueServers');
const { createClient } = require('./restClient');

/** @typedef {import('./launch').N8nProcess} N8nProcess */
/** @typedef {import('./queueServers').Server} Server */

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
 * Starts n8n in queue mode (docs/testing.md, "Queue mode"): a private redis-server, then main
 * (`n8n start`, which runs the migrations and is the leader: it activates workflows and runs poll
 * triggers), then the workers and the optional webhook process. All processes share one user
 * folder, hence one installed copy of the package (every process loads it from there) and, with
 * `database: 'sqlite'`, one SQLite database; and the same encryption key (workers decrypt
 * credentials). Each gets its own ports: a worker's task broker on the default port would collide
 * with main's.
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
	/** @type {Server | undefined} */
	let redisServer;
	/** @type {Server | undefined} */
	let pgServer;

	/**
	 * How each process is launched, by name (main, worker1…, webhook): the same spec when it is
	 * started again, with its log appended to the same file.
	 * @param {string} name
	 */
	const specOf = (name) => {
		if (name === 'main')
			return {
				runtime,
				name,
				args: ['start'],
				env: { ...common, N8N_PORT: String(mainPort), N8N_RUNNERS_BROKER_PORT: String(mainBroker) },
				logFile: logFile(name),
				append: true,
				ready: readiness(`${baseUrl}/healthz/readiness`),
			};
		if (name === 'webhook' && options.webhookProcess)
			return {
				runtime,
				name,
				args: ['webhook'],
				env: {
					...common,
					N8N_PORT: String(webhookPort),
					N8N_RUNNERS_BROKER_PORT: String(webhookBroker),
				},
				logFile: logFile(name),
				append: true,
				ready: readiness(`http://127.0.0.1:${webhookPort}/healthz/readiness`),
			};
		const worker = /^worker(\d+)$/.exec(name);
		const workerPorts = worker ? ports.workers[Number(worker[1]) - 1] : undefined;
		if (!workerPorts) throw new Error(`no process named ${name}`);
		return {
			runtime,
			name,
			args: ['worker', `--concurrency=${options.workerConcurrency ?? 10}`],
			env: {
				...common,
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(workerPorts.health),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				N8N_RUNNERS_BROKER_PORT: String(workerPorts.broker),
			},
			logFile: logFile(name),
			append: true,
			ready: readiness(`http://127.0.0.1:${workerPorts.health}/healthz/readiness`),
		};
	};
	const mainSpec = () => specOf('main');

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

	/** @param {string} name @returns {N8nProcess | undefined} */
	const current = (name) =>
		name === 'main'
			? n8n.main
			: name === 'webhook'
				? n8n.webhook
				: n8n.workers.find((w) => w.name === name);
	/** Main's kills and starts queue with its stops and starts; other processes need no queue. */
	const onProcess = (/** @type {string} */ name, /** @type {() => Promise<number>} */ op) =>
		name === 'main' ? onMain(op) : op();

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
		await redisServer?.stop();
		await pgServer?.stop();
	}

	/** @type {Record<string, number>} */
	const timings = {};
	let session;
	try {
		progress(`${redis}; cluster folder ${rootFolder}`);
		redisServer = spawnRedis({ port: redisPort, dir: redisDir, logFile: logFile('redis') });
		await redisServer.ready();
		timings.redisMs = Date.now() - started;

		if (database === 'postgres') {
			const pgLog = logFile('postgres');
			pgServer = spawnPostgres({ bin: pgBin, port: pgPort, dir: pgDir, logFile: pgLog });
			await pgServer.ready();
			timings.postgresMs = Date.now() - started;
			progress(`PostgreSQL (${path.basename(path.dirname(pgBin))}) ready on 127.0.0.1:${pgPort}`);
		}

		// Main first: it runs the migrations on the fresh database the others then open.
		progress(`starting main on ${baseUrl}, Redis on 127.0.0.1:${redisPort}`);
		n8n.main = await launchN8n({ ...mainSpec(), append: false });
		timings.mainReadyMs = Date.now() - started;
		progress(`main ready in ${(n8n.main.readyMs / 1000).toFixed(1)} s`);

		const others = ports.workers.map((_, i) =>
			launchN8n({ ...specOf(`worker${i + 1}`), append: false }).then((p) => {
				n8n.workers.push(p);
				progress(`${p.name} ready in ${(p.readyMs / 1000).toFixed(1)} s`);
			}),
		);
		if (options.webhookProcess) {
			others.push(
				launchN8n({ ...specOf('webhook'), append: false }).then((p) => {
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
			['redis', { pid: redisServer?.pid, logFile: logFile('redis') }],
			...(pgServer ? [['postgres', pgServer]] : []),
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
		/**
		 * Sends `signal` to one process (main, worker1…, webhook) and waits until it has exited;
		 * SIGKILL gives it no chance to finish anything. A process already dead (killed by the
		 * caller's own `process.kill`, for exact timing) is only reaped.
		 * @param {string} name @param {NodeJS.Signals} [signal]
		 */
		kill: (name, signal = 'SIGKILL') =>
			onProcess(name, async () => {
				const p = current(name);
				if (p && p.exitCode === null) {
					try {
						process.kill(/** @type {number} */ (p.pid), signal);
					} catch {
						// it exited meanwhile
					}
				}
				const t = Date.now();
				await p?.stop(); // waits for the exit (SIGKILL after 20 s), then clears its group
				return Date.now() - t;
			}),
		/** Starts a process that was stopped or killed, with its first launch's spec. */
		start: (name) =>
			onProcess(name, async () => {
				if (closed) throw new Error('the cluster was stopped');
				const p = current(name);
				if (p && p.exitCode === null) throw new Error(`${name} is still running`);
				fs.appendFileSync(
					logFile(name),
					`\n--- ${name} started again at ${new Date().toISOString()} ---\n`,
				);
				const started = await launchN8n(specOf(name));
				if (name === 'main') n8n.main = started;
				else if (name === 'webhook') n8n.webhook = started;
				else n8n.workers = n8n.workers.map((w) => (w.name === name ? started : w));
				return started.readyMs;
			}),
		stop: stopAll,
		cleanup() {
			fs.rmSync(rootFolder, { recursive: true, force: true });
		},
	};
}

module.exports = { startN8nCluster };
