// @ts-check
'use strict';

/**
 * A local stand-in for the Integration Platform Management API (Ampersand-compatible),
 * faithful to the behaviour recorded in shared/reference/api-facts.md.
 *
 *   const { startSimulator, SEED } = require('./test/simulator');
 *   const sim = await startSimulator({ port: 0, readPort: 0 });
 *   // sim.apiUrl  → management host (routes under /v1)
 *   // sim.readUrl → read host (pause/unpause reads only)
 *   await sim.close();
 *
 * Two listeners, because the real API has two hosts (api-facts §2): sending the unpause
 * request to the management host gets a 404, as it would for real.
 */

const { createListener } = require('./server');
const { ROUTES } = require('./router');
const { SEED, PUBLIC_KEY_PEM } = require('./seed');
const { createState, resetState, newId } = require('./state');
const { Journal } = require('./journal');
const { Faults } = require('./faults');
const { nowIso } = require('./time');

/**
 * @typedef {{
 *   host?: string,
 *   port?: number,
 *   readPort?: number,
 *   quiet?: boolean,
 *   httpsWebhooksOnly?: boolean,
 * }} SimulatorOptions
 * @typedef {{ timestamp?: string, severity?: string, message?: Record<string, unknown>, [key: string]: unknown }} LogPartial
 */

/**
 * @param {import('node:http').Server} server
 * @param {number} port
 * @param {string} host
 * @returns {Promise<number>} the bound port
 */
function listen(server, port, host) {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			const address = server.address();
			resolve(typeof address === 'object' && address ? address.port : port);
		});
	});
}

/** @param {string} host */
function urlHost(host) {
	if (host === '0.0.0.0' || host === '') return '127.0.0.1';
	if (host === '::') return '[::1]';
	return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts both listeners.
 * @param {SimulatorOptions} [options]
 *   host (default 127.0.0.1), port / readPort (0 = any free port; defaults 0),
 *   quiet (default true: no request log), httpsWebhooksOnly (default true: webhook
 *   destination URLs must be https, as in the real API).
 */
async function startSimulator(options = {}) {
	const opts = {
		host: options.host || '127.0.0.1',
		port: options.port === undefined ? 0 : options.port,
		readPort: options.readPort === undefined ? 0 : options.readPort,
		quiet: options.quiet === undefined ? true : options.quiet,
		httpsWebhooksOnly: options.httpsWebhooksOnly === undefined ? true : options.httpsWebhooksOnly,
	};
	const state = createState();
	const journal = new Journal();
	const faults = new Faults(ROUTES.map((r) => r.id));

	/** @type {Set<{ timer: NodeJS.Timeout, resolve: (alive: boolean) => void }>} */
	const waits = new Set();
	/** @type {import('./server').Core} */
	const core = {
		state,
		journal,
		faults,
		options: opts,
		closing: false,
		sim: undefined,
		delay: (ms) => new Promise((resolve) => {
			if (core.closing) return resolve(false);
			const wait = { timer: setTimeout(() => { waits.delete(wait); resolve(true); }, ms), resolve };
			waits.add(wait);
		}),
	};

	const api = createListener(core, 'api');
	const read = createListener(core, 'read');
	const apiPort = await listen(api.server, opts.port, opts.host);
	let readPort;
	try {
		readPort = await listen(read.server, opts.readPort, opts.host);
	} catch (err) {
		await new Promise((resolve) => api.server.close(resolve));
		throw err;
	}

	let closed = false;
	const sim = {
		apiUrl: `http://${urlHost(opts.host)}:${apiPort}`,
		readUrl: `http://${urlHost(opts.host)}:${readPort}`,
		apiPort,
		readPort,
		options: opts,
		state,
		journal,
		faults,
		SEED,
		PUBLIC_KEY_PEM,

		/**
		 * Appends a log entry to an operation (now, unless `timestamp` is given) and returns it.
		 * @param {string} operationId
		 * @param {LogPartial} [partial]
		 */
		appendLog(operationId, partial = {}) {
			if (!state.operations.has(operationId)) throw new Error(`Unknown operation ${operationId}`);
			const entry = {
				...partial,
				timestamp: partial.timestamp || nowIso(),
				severity: partial.severity || 'INFO',
				message: { msg: 'Simulated log entry', operation_id: operationId, ...(partial.message || {}) },
			};
			const logs = state.logs.get(operationId) || [];
			logs.push(entry);
			state.logs.set(operationId, logs);
			return structuredClone(entry);
		},

		/**
		 * Adds an operation (by default an in-progress read of the seeded installation) and returns it.
		 * @param {Record<string, unknown>} [partial]
		 */
		addOperation(partial = {}) {
			const operation = {
				id: newId(),
				projectId: SEED.projectId,
				integrationId: SEED.integrationId,
				installationId: SEED.installationId,
				configId: SEED.configId,
				actionType: 'read',
				status: 'in_progress',
				metadata: { objects: [SEED.pausedObject] },
				createTime: nowIso(),
				...partial,
			};
			state.operations.set(operation.id, operation);
			if (!state.logs.has(operation.id)) state.logs.set(operation.id, []);
			return structuredClone(operation);
		},

		/** Back to the seeded world; journal and faults cleared. */
		reset() {
			resetState(state);
			journal.clear();
			faults.clear();
		},

		/** Stops both listeners, ending hanging requests and keep-alive sockets. */
		async close() {
			if (closed) return;
			closed = true;
			core.closing = true;
			for (const wait of waits) {
				clearTimeout(wait.timer);
				wait.resolve(false);
			}
			waits.clear();
			await Promise.all([api, read].map(({ server, sockets }) => new Promise((resolve) => {
				server.close(() => resolve(undefined));
				for (const socket of sockets) socket.destroy();
			})));
		},
	};
	core.sim = sim;
	return sim;
}

module.exports = { startSimulator, SEED, ROUTES };
