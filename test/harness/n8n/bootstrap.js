// @ts-check
'use strict';
/**
 * What goes into an n8n before tests or `npm start` use it: this package, packed and installed the
 * way n8n installs community packages (n8n loads them from
 * <userFolder>/.n8n/nodes/node_modules/<name>; their node types are `<package>.<node>`); the owner
 * account and a public-API key; and, keyed by name so that a second run creates nothing twice,
 * credentials and the example workflows (docs/testing.md, "The real n8n runtime").
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PACKAGE_NAME = require(path.join(ROOT, 'package.json')).name;
const EXAMPLES_DIR = path.join(ROOT, 'examples');
const OWNER = {
	email: 'owner@example.com',
	firstName: 'Ada',
	lastName: 'Owner',
	password: 'Simulat0r!pass',
};

/**
 * Builds (unless dist/ is current) and packs this package; returns the tarball path.
 * @param {{ build?: boolean }} [options]
 */
function packPackage({ build = false } = {}) {
	// Built = every file package.json's n8n section names is in dist/ (no package.json is copied there).
	const { nodes = [], credentials = [] } = require(path.join(ROOT, 'package.json')).n8n ?? {};
	const built = [...nodes, ...credentials].every((entry) => fs.existsSync(path.join(ROOT, entry)));
	if (build || !built) {
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
 * Logs in as the owner (creating the owner on a fresh database) and mints a public-API key,
 * replacing keys an earlier run of the harness left.
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

/** The example workflows (examples/*.json), in file-name order. */
function readExamples() {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, f), 'utf8')));
}

/**
 * @typedef {object} Wanted
 * @property {Array<{ type: string, name: string, data: Record<string, unknown> }>} credentials
 *   at most one per credential type; the workflows' nodes get the one of their type
 * @property {any[]} workflows  e.g. readExamples()
 * @property {(kind: 'credential' | 'workflow', name: string) => void | Promise<void>} [onCreated]
 */

/**
 * Creates what is missing of `wanted`, keyed by name: a credential is there when one of the same
 * type and name exists, a workflow when one of the same name exists (whatever the user changed in
 * it since). Running it again, after a complete or an interrupted run, creates nothing twice.
 * @param {ReturnType<typeof import('./restClient').createClient>} client
 * @param {Wanted} wanted
 */
async function importMissing(client, wanted) {
	const created = { credentials: 0, workflows: 0 };
	const existing = await client.listCredentials();
	/** @type {Record<string, { id: string, name: string }>} */
	const credentials = {};
	for (const spec of wanted.credentials) {
		let credential = existing.find((c) => c.type === spec.type && c.name === spec.name);
		if (!credential) {
			credential = /** @type {{ id: string, name: string, type: string }} */ (
				await client.createCredential(spec)
			);
			created.credentials++;
			await wanted.onCreated?.('credential', spec.name);
		}
		credentials[spec.type] = { id: credential.id, name: credential.name };
	}
	const names = new Set((await client.listWorkflows()).map((w) => w.name));
	for (const workflow of wanted.workflows) {
		if (names.has(workflow.name)) continue;
		await client.createWorkflow(workflow, credentials);
		names.add(workflow.name);
		created.workflows++;
		await wanted.onCreated?.('workflow', workflow.name);
	}
	return { credentials, created };
}

module.exports = {
	ROOT,
	PACKAGE_NAME,
	OWNER,
	packPackage,
	installPackage,
	bootstrapOwner,
	readExamples,
	importMissing,
};
