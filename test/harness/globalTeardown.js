const fs = require('node:fs');
const path = require('node:path');

module.exports = async () => {
	const n8n = globalThis.__N8N_E2E__;
	if (n8n) {
		await n8n.stop();
		if (process.env.KEEP_N8N_USER_FOLDER) {
			process.stderr.write(`[e2e] n8n user folder kept at ${n8n.userFolder}\n`);
		} else {
			n8n.cleanup();
		}
	}
	// The packed package's temporary folder (packPackage makes one per run).
	if (globalThis.__N8N_E2E_TGZ__)
		fs.rmSync(path.dirname(globalThis.__N8N_E2E_TGZ__), { recursive: true, force: true });
	if (process.env.N8N_E2E_INFO) fs.rmSync(process.env.N8N_E2E_INFO, { force: true });
	if (process.env.SIM_SECRETS_FILE) fs.rmSync(process.env.SIM_SECRETS_FILE, { force: true });
};
