// @ts-check
'use strict';
/**
 * The servers an n8n queue-mode cluster needs besides n8n: a private Redis (the job queue) and,
 * by default, a private PostgreSQL (docs/testing.md, "Queue mode"). Both are the machine's own
 * (`apt-get install redis-server postgresql`), started on free ports in the cluster's folder and
 * stopped by their PID; `queuePrerequisites()` says whether they are there without starting them.
 */
const { spawnSync } = require('node:child_process');
const { killGroup, spawnOwned } = require('../ownedProcess');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { sleep, within } = require('./launch');

const REDIS_INSTALL =
	'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server';
const POSTGRES_INSTALL =
	'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql';

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
 * Postgres refuses to run as root: as root, initdb and the server run as the `postgres` user the
 * Debian package creates.
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

/**
 * @typedef {object} Prerequisites
 * @property {string} [redis]     redis-server's version line
 * @property {string} [postgres]  PostgreSQL's bin folder
 * @property {Array<{ server: string, reason: string }>} missing  why (with the install line)
 */

/**
 * What the queue-mode suite needs and this machine lacks, without starting anything.
 * @param {'postgres' | 'sqlite'} [database]
 * @returns {Prerequisites}
 */
function queuePrerequisites(database = 'postgres') {
	/** @type {Prerequisites} */
	const found = { missing: [] };
	try {
		found.redis = redisVersion();
	} catch (error) {
		found.missing.push({ server: 'redis-server', reason: /** @type {Error} */ (error).message });
	}
	if (database === 'postgres') {
		try {
			found.postgres = postgresBin();
			postgresUser();
		} catch (error) {
			delete found.postgres;
			found.missing.push({ server: 'PostgreSQL', reason: /** @type {Error} */ (error).message });
		}
	}
	return found;
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

/**
 * @typedef {object} Server
 * @property {number | undefined} pid
 * @property {string} logFile
 * @property {() => Promise<void>} ready  resolves once it serves, throws (with its log) otherwise
 * @property {() => Promise<void>} stop   by its PID: a polite signal, SIGKILL after a grace period
 */

/**
 * Spawns a throw-away redis-server (no persistence) on 127.0.0.1:`port`; the handle exists before
 * it is ready, so a failed start can still be stopped.
 * @param {{ port: number, dir: string, logFile: string }} options
 * @returns {Server}
 */
function spawnRedis({ port, dir, logFile }) {
	const log = fs.openSync(logFile, 'w');
	const child = spawnOwned(
		'redis-server',
		[
			'--bind',
			'127.0.0.1',
			'--port',
			String(port),
			'--dir',
			dir,
			'--save',
			'',
			'--appendonly',
			'no',
		],
		{ stdio: ['ignore', log, log] },
	);
	const exited = new Promise((resolve) => child.on('exit', () => resolve(undefined)));
	fs.closeSync(log);
	const running = () => child.exitCode === null && !child.signalCode;
	return {
		pid: child.pid,
		logFile,
		async ready() {
			const deadline = Date.now() + 20_000;
			while (!(await redisPing(port))) {
				if (child.exitCode !== null)
					throw new Error(
						`redis-server exited (${child.exitCode}):\n${fs.readFileSync(logFile, 'utf8')}`,
					);
				if (Date.now() > deadline) throw new Error('redis-server not ready after 20 s');
				await sleep(100);
			}
		},
		async stop() {
			if (!running()) return;
			child.kill('SIGTERM');
			await within(exited, 10_000);
			if (running()) killGroup(child, 'SIGKILL');
		},
	};
}

/**
 * Creates a throw-away PostgreSQL cluster in `dir` (initdb, trust auth on 127.0.0.1, fsync off:
 * CI data) and spawns its server on `port`; `ready()` also creates n8n's database `n8n`, owned by
 * the superuser `n8n` initdb made. As root, runs as the postgres user, so `dir`'s parent (the
 * cluster folder) becomes 0711.
 * @param {{ bin: string, port: number, dir: string, logFile: string }} options
 * @returns {Server}
 */
function spawnPostgres({ bin, port, dir, logFile }) {
	const user = postgresUser();
	fs.mkdirSync(dir);
	if (user) {
		fs.chmodSync(path.dirname(dir), 0o711); // mkdtemp's 0700 would keep the postgres user out
		fs.chownSync(dir, user.uid, user.gid);
	}
	const asPostgres = {
		cwd: dir,
		...(user ?? {}),
		env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' },
	};
	const data = path.join(dir, 'data');
	const init = spawnSync(
		path.join(bin, 'initdb'),
		['-D', data, '-A', 'trust', '-U', 'n8n', '-E', 'UTF8', '--no-sync'],
		{ ...asPostgres, encoding: 'utf8' },
	);
	if (init.status !== 0)
		throw new Error(
			`initdb failed (${init.status}): ${init.error?.message ?? ''}\n${init.stdout}\n${init.stderr}`,
		);
	const settings = [
		'listen_addresses=127.0.0.1',
		`port=${port}`,
		`unix_socket_directories=${dir}`,
		'fsync=off',
		'synchronous_commit=off',
		'full_page_writes=off',
		'max_connections=200',
		// Every write statement in the log, with its time to the millisecond: a test can act the
		// moment n8n writes something (a poll's static data) and measure what follows.
		'log_statement=mod',
		'log_line_prefix=%m [%p] ',
	];
	const log = fs.openSync(logFile, 'w');
	const child = spawnOwned(
		path.join(bin, 'postgres'),
		['-D', data, ...settings.flatMap((s) => ['-c', s])],
		// SIGINT: PostgreSQL's fast shutdown (SIGTERM would wait for n8n's connections to close).
		{ ...asPostgres, stdio: ['ignore', log, log], stopSignal: 'SIGINT' },
	);
	const exited = new Promise((resolve) => child.on('exit', () => resolve(undefined)));
	fs.closeSync(log);
	const running = () => child.exitCode === null && !child.signalCode;
	const address = ['-h', '127.0.0.1', '-p', String(port)];
	return {
		pid: child.pid,
		logFile,
		async ready() {
			const deadline = Date.now() + 30_000;
			while (spawnSync(path.join(bin, 'pg_isready'), ['-q', ...address]).status !== 0) {
				if (child.exitCode !== null)
					throw new Error(
						`postgres exited (${child.exitCode}):\n${fs.readFileSync(logFile, 'utf8')}`,
					);
				if (Date.now() > deadline) throw new Error('postgres not ready after 30 s');
				await sleep(100);
			}
			const created = spawnSync(
				path.join(bin, 'psql'),
				[
					...address,
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
		},
		async stop() {
			if (!running()) return;
			child.kill('SIGINT'); // "fast" shutdown: the postmaster, by its PID
			await within(exited, 15_000);
			if (running()) killGroup(child, 'SIGKILL');
		},
	};
}

module.exports = {
	REDIS_INSTALL,
	POSTGRES_INSTALL,
	redisVersion,
	postgresBin,
	queuePrerequisites,
	spawnRedis,
	spawnPostgres,
};
