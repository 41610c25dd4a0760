#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * Runs the simulator until Ctrl-C:
 *
 *   node test/simulator/cli.js [--port 4010] [--read-port 4011] [--host 127.0.0.1]
 *                              [--quiet] [--allow-http-webhooks] [--log-rate N]
 *
 * --port 0 picks a free port (and then --read-port defaults to 0 too); otherwise the read
 * port defaults to port + 1. The URLs printed are the real ones. --allow-http-webhooks
 * turns off the https rule for webhook destinations (for a local n8n on http). --log-rate N
 * appends N log entries per second to the seeded operation (fractions allowed: 0.2 = one every
 * 5 s), for trying the log trigger (logGrowth.js).
 */

const { startSimulator, SEED } = require('./index');

const USAGE =
	'Usage: node test/simulator/cli.js [--port 4010] [--read-port 4011] [--host 127.0.0.1] [--quiet] [--allow-http-webhooks] [--log-rate N]';

/**
 * @param {string[]} argv
 * @returns {{ port: number, readPort?: number, host: string, quiet: boolean, httpsWebhooksOnly: boolean, logRate?: number }}
 */
function parseArgs(argv) {
	/** @type {{ port: number, readPort?: number, host: string, quiet: boolean, httpsWebhooksOnly: boolean, logRate?: number }} */
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
		else if (flag === '--read-port') args.readPort = port(value());
		else if (flag === '--host') args.host = String(value());
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
	const readPort =
		args.readPort !== undefined ? args.readPort : args.port === 0 ? 0 : args.port + 1;
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
		readPort,
		quiet: args.quiet,
		httpsWebhooksOnly: args.httpsWebhooksOnly,
		logGrowth,
	});
	console.log(
		[
			'Integration Platform API simulator',
			`  api:     ${sim.apiUrl}    (management host, routes under /v1; control API under /__sim/)`,
			`  read:    ${sim.readUrl}    (read host, routes under /v1)`,
			`  apiKey:  ${SEED.apiKey}`,
			`  bearer:  ${SEED.bearerToken}`,
			`  project: ${SEED.projectName} (${SEED.projectId})`,
			...(logGrowth ? [`  logs:    ${rate} new entries/s on operation ${SEED.operationId}`] : []),
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
