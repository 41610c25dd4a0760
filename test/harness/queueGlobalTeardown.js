// @ts-check
'use strict';
// Jest global teardown of the e2e-queue project: the control server, then every cluster process by
// its PID (n8n processes first, Redis last: startN8nCluster's stop()).
const fs = require('node:fs');
const path = require('node:path');

module.exports = async () => {
	const state = /** @type {any} */ (globalThis).__N8N_E2E_QUEUE__;
	if (state) {
		await state.control.close();
		const started = Date.now();
		await state.cluster.stop();
		process.stderr.write(
			`[e2e-queue] cluster stopped in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
		);
		if (process.env.KEEP_N8N_USER_FOLDER) {
			process.stderr.write(
				`[e2e-queue] cluster folder (logs, database) kept at ${state.cluster.rootFolder}\n`,
			);
		} else {
			state.cluster.cleanup();
		}
		fs.rmSync(path.dirname(state.packageTgz), { recursive: true, force: true });
	}
	if (process.env.N8N_E2E_QUEUE_INFO) fs.rmSync(process.env.N8N_E2E_QUEUE_INFO, { force: true });
};
