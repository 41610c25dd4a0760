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
 */
const { execFileSync, spawn } = require('node:child_process');
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
		throw new Error(`Port ${port} is already in use (another n8n?). Stop it, or choose another port with N8N_PORT.`);
	}
	const brokerPort = await freePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	const env = {
		PATH: `${path.dirname(runtime.node)}${path.delimiter}${process.env.PATH}`,
		HOME: userFolder, // nothing may land in the real $HOME
		N8N_USER_FOLDER: userFolder,
		...OFFLINE_ENV,
		N8N_PORT: String(port),
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		...(options.env ?? {}),
	};
	const started = Date.now();
	progress(`starting n8n on ${baseUrl} (user folder ${userFolder})`);
	const child = spawn(runtime.node, [runtime.n8nBin, 'start'], {
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const logFile = path.join(userFolder, 'n8n.log');
	const logStream = fs.createWriteStream(logFile);
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

	const deadline = Date.now() + 240_000;
	for (;;) {
		if (exitCode !== null)
			throw new Error(`n8n exited during start-up (${exitCode}):\n${log.slice(-4000)}`);
		if (Date.now() > deadline) {
			child.kill('SIGKILL');
			throw new Error(`n8n not ready after 240 s:\n${log.slice(-4000)}`);
		}
		try {
			if ((await fetch(`${baseUrl}/healthz/readiness`)).ok) break;
		} catch {
			// not listening yet
		}
		await sleep(250);
	}
	const readyMs = Date.now() - started;
	progress(`n8n ready in ${(readyMs / 1000).toFixed(1)} s`);

	const session = await bootstrapOwner(baseUrl);
	const instance = createClient({ baseUrl, apiKey: session.apiKey, cookie: session.cookie });
	return {
		...instance,
		readyMs,
		userFolder,
		port,
		pid: child.pid,
		logFile,
		get log() {
			return log;
		},
		async stop() {
			if (exitCode === null) {
				child.kill('SIGTERM');
				await Promise.race([exited, sleep(20_000)]);
				if (exitCode === null) child.kill('SIGKILL');
				await exited;
			}
			await new Promise((r) => logStream.end(r));
		},
		cleanup() {
			fs.rmSync(userFolder, { recursive: true, force: true });
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
		const setup = await fetch(`${baseUrl}/rest/owner/setup`, { method: 'POST', headers: json, body: JSON.stringify(OWNER) });
		if (!setup.ok) throw new Error(`owner setup: ${setup.status} ${await setup.text()}`);
		res = await login();
	}
	if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
	const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
	const listed = (await (await fetch(`${baseUrl}/rest/api-keys`, { headers: { cookie } })).json()).data;
	const existing = Array.isArray(listed) ? listed : (listed?.items ?? listed?.data ?? []);
	for (const key of existing.filter((/** @type {any} */ k) => k.label === 'harness')) {
		await fetch(`${baseUrl}/rest/api-keys/${key.id}`, { method: 'DELETE', headers: { cookie } });
	}
	const scopes = (await (await fetch(`${baseUrl}/rest/api-keys/scopes`, { headers: { cookie } })).json()).data;
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
	 * once, and its execution is returned with every node's output. The workflow is deleted after.
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
			await api('POST', `/workflows/${created.id}/deactivate`).catch(() => undefined);
			await api('DELETE', `/workflows/${created.id}`).catch(() => undefined);
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
	createClient,
	packPackage,
	installPackage,
	freePort,
	describeExecution,
	PACKAGE_NAME,
	OWNER,
};
