// Jest global setup of the e2e project: one real n8n for the whole run (starting n8n is CPU-heavy,
// so tests share it), with this package installed from its packed tarball. Tests reach it through
// the file named by N8N_E2E_INFO; each test file starts its own simulator.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { packPackage, startN8n } = require('./n8n');
const { followParent } = require('./ownedProcess');

module.exports = async () => {
	// SIGTERM to `npm run test:e2e` reaches npm's shell only: Jest then stops with it, and its n8n
	// with Jest (ownedProcess.js).
	followParent();
	const started = Date.now();
	// `npm test` builds first and says so; a direct `jest --selectProjects e2e` must not test a stale dist/.
	const packageTgz = packPackage({ build: process.env.E2E_BUILT !== '1' });
	const n8n = await startN8n({ packageTgz });
	globalThis.__N8N_E2E__ = n8n;
	globalThis.__N8N_E2E_TGZ__ = packageTgz;
	const info = {
		version: n8n.version,
		baseUrl: n8n.baseUrl,
		apiKey: n8n.apiKey,
		cookie: n8n.cookie,
		userFolder: n8n.userFolder,
		logFile: n8n.logFile,
		packageTgz,
	};
	// Every simulator of the run appends the secrets it issued or received here (simulator
	// secretLog.js); the last test checks that none of them reached n8n's logs or data.
	process.env.SIM_SECRETS_FILE = path.join(os.tmpdir(), `n8n-e2e-${process.pid}-secrets.txt`);
	fs.writeFileSync(process.env.SIM_SECRETS_FILE, '');
	const file = path.join(os.tmpdir(), `n8n-e2e-${process.pid}.json`);
	fs.writeFileSync(file, JSON.stringify(info));
	process.env.N8N_E2E_INFO = file;
	process.stderr.write(
		`[e2e] n8n ${n8n.version} ready at ${n8n.baseUrl} after ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
	);
};
