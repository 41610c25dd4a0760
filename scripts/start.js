#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm start`: build the package, start the API simulator and a real n8n 2.41.1 with the package
 * installed (as n8n installs community packages), an owner account, both credentials pointing at
 * the simulator and every example workflow imported. Ctrl-C stops both.
 *
 * Everything n8n stores lives in .n8n-start/ (git-ignored), so a second `npm start` keeps your
 * workflows. The set-up is keyed by name (test/harness/n8n/bootstrap.js, importMissing): stopped
 * half-way, the next start creates only what is missing, never a second copy; once complete
 * (.n8n-start/npm-start.json), it is not repeated, so examples you delete stay deleted.
 * Environment: N8N_PORT (5678), SIM_PORT (4010; the read, write, search and proxy hosts use
 * SIM_PORT + 1 … SIM_PORT + 4), N8N_START_FOLDER (.n8n-start), E2E_BUILT=1 (dist/ is current: pack
 * without building, as the e2e layer of `npm test` does).
 */
const fs = require('node:fs');
const path = require('node:path');
const {
	importMissing,
	packPackage,
	readExamples,
	startN8n,
	OWNER,
} = require('../test/harness/n8n');
const { startSimulator, SEED } = require('../test/simulator');
const { followParent } = require('../test/harness/ownedProcess');

const ROOT = path.resolve(__dirname, '..');
const USER_FOLDER = process.env.N8N_START_FOLDER || path.join(ROOT, '.n8n-start');
const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const SIM_PORT = Number(process.env.SIM_PORT ?? 4010);
const say = (/** @type {string} */ message) => process.stdout.write(`${message}\n`);
let stopping = false;
/** What is running so far: Ctrl-C or SIGTERM at any moment, even mid-start, stops exactly that. */
/** @type {Awaited<ReturnType<typeof startN8n>> | undefined} */
let n8n;
/** @type {Awaited<ReturnType<typeof startSimulator>> | undefined} */
let sim;

async function stop() {
	if (stopping) return;
	stopping = true;
	say('\n▸ Stopping n8n and the simulator …');
	// n8n (and anything it or the runtime install started) is also ended by ownedProcess.js's
	// watchdog if this process dies before it gets here.
	await n8n?.stop();
	await sim?.close();
	say('Stopped.');
	process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
followParent(); // `npm start` sent SIGTERM: npm's shell dies without passing it on

async function main() {
	const started = Date.now();
	say('▸ Building and packing the package …');
	const packageTgz = packPackage({ build: process.env.E2E_BUILT !== '1' });

	say(
		`▸ Starting the API simulator on 127.0.0.1:${SIM_PORT} (read, write, search and proxy hosts ${SIM_PORT + 1}–${SIM_PORT + 4}) …`,
	);
	sim = await startSimulator({
		host: '127.0.0.1',
		port: SIM_PORT,
		readPort: SIM_PORT + 1,
		writePort: SIM_PORT + 2,
		searchPort: SIM_PORT + 3,
		proxyPort: SIM_PORT + 4,
		quiet: true,
		// n8n serves webhooks over plain http here; the real service insists on https.
		httpsWebhooksOnly: false,
		// Something for the log trigger to pick up: a new entry on the demo operation every 20 s.
		logGrowth: { intervalMs: 20_000 },
	});

	say(
		`▸ Starting n8n on 127.0.0.1:${N8N_PORT} (first start provisions Node 24 and n8n: a few minutes) …`,
	);
	fs.mkdirSync(USER_FOLDER, { recursive: true });
	n8n = await startN8n({
		packageTgz,
		userFolder: USER_FOLDER,
		port: N8N_PORT,
		progress: (m) => say(`  ${m}`),
	});
	if (stopping) return; // stopped while n8n was starting: stop() has it now

	const marker = path.join(USER_FOLDER, 'npm-start.json');
	if (!fs.existsSync(marker)) {
		say('▸ Creating the credentials and importing the example workflows …');
		// The simulator serves read results over http on this machine, which the event trigger's
		// download rules refuse unless the workflow allows it (a testing option).
		const workflows = readExamples().map((/** @type {any} */ workflow) => ({
			...workflow,
			nodes: workflow.nodes.map((/** @type {any} */ node) =>
				node.type.endsWith('.integrationPlatformTrigger')
					? {
							...node,
							parameters: {
								...node.parameters,
								options: {
									...(node.parameters.options ?? {}),
									allowInsecureDownloads: true,
									downloadHosts: new URL(sim.apiUrl).hostname,
								},
							},
						}
					: node,
			),
		}));
		// Keyed by name: after a start stopped half-way, only what is missing is created.
		const { credentials, created } = await importMissing(n8n, {
			credentials: [
				{
					type: 'integrationPlatformApi',
					name: 'Integration Platform (simulator)',
					data: {
						apiKey: SEED.apiKey,
						baseUrl: sim.apiUrl,
						readUrl: sim.readUrl,
						writeUrl: sim.writeUrl,
						searchUrl: sim.searchUrl,
						proxyUrl: sim.proxyUrl,
					},
				},
				{
					type: 'integrationPlatformTokenApi',
					name: 'Integration Platform token (simulator)',
					data: { accessToken: SEED.bearerToken, baseUrl: sim.apiUrl, searchUrl: sim.searchUrl },
				},
			],
			workflows,
		});
		const simulator = {
			apiUrl: sim.apiUrl,
			readUrl: sim.readUrl,
			writeUrl: sim.writeUrl,
			searchUrl: sim.searchUrl,
			proxyUrl: sim.proxyUrl,
		};
		fs.writeFileSync(
			marker,
			JSON.stringify({ credentials, examples: workflows.length, simulator }, null, 2),
		);
		const kept = 2 - created.credentials + workflows.length - created.workflows;
		say(
			`  2 credentials, ${workflows.length} example workflows` +
				(kept ? ` (${kept} of these were there from an interrupted start)` : ''),
		);
	}

	say(`
Ready in ${Math.round((Date.now() - started) / 1000)} s.

  n8n editor     http://127.0.0.1:${N8N_PORT}
  log in as      ${OWNER.email} / ${OWNER.password}
  API simulator  ${sim.apiUrl} (read ${sim.readUrl}, write ${sim.writeUrl},
                 search ${sim.searchUrl}, proxy ${sim.proxyUrl})

What to try:
  • Open a workflow named "Integration Platform: …" (one per operation) and click "Execute workflow".
  • Add an "Integration Platform" node to a new workflow; both credentials are already set up
    against the simulator (API key ${SEED.apiKey}, project "${SEED.projectName}").
  • Triggers: activate "Integration Platform: React to operation log entries" (the simulator writes a log entry on
    the demo operation every 20 s; n8n polls once a minute) or "Integration Platform: Receive
    signed events", then make the simulator deliver a signed read result:
      curl -s -X POST ${sim.apiUrl}/__sim/emit/read -H 'content-type: application/json' \\
        -d '{"objectName":"contacts","records":[{"fields":{"email":"jo@example.com"}}]}'
  • Point a credential at https://api.withampersand.com with your own API key to use the real service.
  • The simulator's control API: ${sim.apiUrl}/__sim/journal shows every request n8n made.

Press Ctrl-C to stop. Your workflows are kept in .n8n-start/ for the next npm start.`);
}

main().catch((error) => {
	if (stopping) return; // Ctrl-C during the set-up: n8n went away under it
	process.stderr.write(
		`npm start failed: ${error instanceof Error ? error.message : String(error)}\n`,
	);
	process.exit(1);
});
