#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * Runs the simulator until Ctrl-C:
 *
 *   node test/simulator/cli.js [--port 4010] [--read-port 4011] [--write-port 4012]
 *                              [--search-port 4013] [--proxy-port 4014] [--host 127.0.0.1]
 *                              [--quiet] [--allow-http-webhooks] [--log-rate N]
 *
 * --port 0 picks a free port (and then the other ports default to 0 too); otherwise the read,
 * write, search and proxy ports default to port + 1 … port + 4. The URLs printed are the real ones. --allow-http-webhooks
 * turns off the https rule for webhook destinations (for a local n8n on http). --log-rate N
 * appends N log entries per second to the seeded operation (fractions allowed: 0.2 = one every
 * 5 s), for trying the log trigger (logGrowth.js).
 */

const { startSimulator, SEED } = require('./index');

/**
 * @typedef {{
 *   port: number, readPort?: number, writePort?: number, searchPort?: number, proxyPort?: number,
 *   host: string, quiet: boolean, httpsWebhooksOnly: boolean, logRate?: number,
 * }} Args
 */

const USAGE =
	'Usage: node test/simulator/cli.js [--port 4010] [--read-port 4011] [--write-port 4012] [--search-port 4013] [--proxy-port 4014] [--host 127.0.0.1] [--quiet] [--allow-http-webhooks] [--log-rate N]';

/** The extra hosts' flags, option names and offsets from --port. */
const EXTRA_PORTS = /** @type {const} */ ([
	['--read-port', 'readPort', 1],
	['--write-port', 'writePort', 2],
	['--search-port', 'searchPort', 3],
	['--proxy-port', 'proxyPort', 4],
]);

/**
 * @param {string[]} argv
 * @returns {Args}
 */
function parseArgs(argv) {
	/** @type {Args} */
	const args = { port: 4010, host: '127.0.0.1', quiet: false, httpsWebhooksOnly: true };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = () => (inline !== undefined ? inline : argv[++i]);
		/** @param {string | undefined} text */
		const port = (text) => {
			const n = Number(text);
			if (!Number.isInteger(n) || n < 0 || n > 65535)
				throw new Error(`${flag} needs a port number, got ${text}`);
			return n;
		};
		if (flag === '--port' || flag === '-p') args.port = port(value());
		else if (EXTRA_PORTS.some(([name]) => name === flag)) {
			const [, option] = /** @type {(typeof EXTRA_PORTS)[number]} */ (
				EXTRA_PORTS.find(([name]) => name === flag)
			);
			args[option] = port(value());
		} else if (flag === '--host') args.host = String(value());
		else if (flag === '--quiet' || flag === '-q') args.quiet = true;
		else if (flag === '--allow-http-webhooks') args.httpsWebhooksOnly = false;
		else if (flag === '--log-rate') {
			const text = value();
			const rate = Number(text);
			if (!Number.isFinite(rate) || rate < 0)
				throw new Error(`--log-rate needs entries per second (a number >= 0), got ${text}`);
			args.logRate = rate;
		} else if (flag === '--help' || flag === '-h') {
			console.log(USAGE);
			process.exit(0);
		} else throw new Error(`Unknown argument ${argv[i]}\n${USAGE}`);
	}
	return args;
}

async function main() {
	const args = parseArgs(process.argv.slice(2));
	/** @type {Record<string, number>} */
	const ports = {};
	for (const [, option, offset] of EXTRA_PORTS) {
		const given = args[option];
		ports[option] = given !== undefined ? given : args.port === 0 ? 0 : args.port + offset;
	}
	// Entries per second → ticks: one entry per tick below 1/s, else ticks of one second.
	const rate = args.logRate || 0;
	const logGrowth =
		rate > 0
			? rate < 1
				? { intervalMs: Math.round(1000 / rate), perTick: 1 }
				: { intervalMs: 1000, perTick: Math.round(rate) }
			: undefined;
	const sim = await startSimulator({
		host: args.host,
		port: args.port,
		...ports,
		quiet: args.quiet,
		httpsWebhooksOnly: args.httpsWebhooksOnly,
		logGrowth,
	});
	console.log(
		[
			'Integration Platform API simulator',
			`  api:     ${sim.apiUrl}    (management host, routes under /v1; control API under /__sim/)`,
			`  read:    ${sim.readUrl}    (read host, routes under /v1)`,
			`  write:   ${sim.writeUrl}    (write host, routes under /v1)`,
			`  search:  ${sim.searchUrl}    (search host, routes under /v1)`,
			`  proxy:   ${sim.proxyUrl}    (proxy host, provider paths without /v1; a fake HubSpot)`,
			`  apiKey:  ${SEED.apiKey}`,
			`  bearer:  ${SEED.bearerToken}`,
			`  project: ${SEED.projectName} (${SEED.projectId})`,
			...(logGrowth ? [`  logs:    ${rate} new entries/s on operation ${SEED.operationId}`] : []),
			'  deliver: a signed read result to the destination the installation names for the object',
			'           (and to its "-test" twin, where a trigger listening in the n8n editor waits):',
			`           curl -s -X POST ${sim.apiUrl}/__sim/emit/read -H 'content-type: application/json' \\`,
			`             -d '{"objectName":"contacts","records":[{"fields":{"email":"jo@example.com"}}]}'`,
			'Press Ctrl-C to stop.',
		].join('\n'),
	);

	let stopping = false;
	/** @param {string} signal */
	const stop = async (signal) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping the simulator`);
		await sim.close();
		process.exit(0);
	};
	process.on('SIGINT', () => {
		stop('SIGINT');
	});
	process.on('SIGTERM', () => {
		stop('SIGTERM');
	});
}

main().catch((err) => {
	console.error(err instanceof Error ? err.message : err);
	process.exit(1);
});
