// @ts-check
'use strict';

/**
 * A local stand-in for the Integration Platform Management API (Ampersand-compatible),
 * faithful to the behaviour recorded in docs/api-notes.md.
 *
 *   const { startSimulator, SEED } = require('./test/simulator');
 *   const sim = await startSimulator({ port: 0, readPort: 0 });
 *   // sim.apiUrl    → management host (routes under /v1)
 *   // sim.readUrl   → read host (pause/unpause reads, trigger a read, deliver results; under /v1)
 *   // sim.writeUrl  → write host (writeRecords; under /v1)
 *   // sim.searchUrl → search host (searchRecords; under /v1)
 *   // sim.proxyUrl  → proxy host (provider paths, no /v1; a fake HubSpot behind it)
 *   await sim.close();
 *
 * One listener per host, because the real API has five (docs/api-notes.md, "Hosts and base URLs", "Data plane"):
 * sending the unpause request to the management host gets a 404, as it would for real.
 */

const { createListener } = require('./server');
const { ROUTES } = require('./router');
const { PROXY_ROUTE_ID } = require('./proxy');
const { SEED, PUBLIC_KEY_PEM } = require('./seed');
const { createState, resetState, newId } = require('./state');
const secretLog = require('./secretLog');
const { Journal } = require('./journal');
const { Faults } = require('./faults');
const { Deliveries } = require('./deliveries');
const { nowIso } = require('./time');
const { createLogGrowth } = require('./logGrowth');
const { applyRetention } = require('./logTransforms');

/**
 * @typedef {{
 *   host?: string,
 *   port?: number,
 *   readPort?: number,
 *   writePort?: number,
 *   searchPort?: number,
 *   proxyPort?: number,
 *   quiet?: boolean,
 *   httpsWebhooksOnly?: boolean,
 *   logGrowth?: import('./logGrowth').LogGrowthOptions,
 *   deliveries?: import('./deliveries').DeliveryOptions,
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
 * Starts the five listeners.
 * @param {SimulatorOptions} [options]
 *   host (default 127.0.0.1), port / readPort / writePort / searchPort / proxyPort (0 = any free
 *   port; defaults 0),
 *   quiet (default true: no request log), httpsWebhooksOnly (default true: webhook
 *   destination URLs must be https, as in the real API), deliveries ({ retryDelaysMs,
 *   timeoutMs, downloadTtlMs }: Svix's retry schedule and the 15-minute download links by
 *   default; see deliveries.js).
 */
async function startSimulator(options = {}) {
	const opts = {
		host: options.host || '127.0.0.1',
		port: options.port === undefined ? 0 : options.port,
		readPort: options.readPort === undefined ? 0 : options.readPort,
		writePort: options.writePort === undefined ? 0 : options.writePort,
		searchPort: options.searchPort === undefined ? 0 : options.searchPort,
		proxyPort: options.proxyPort === undefined ? 0 : options.proxyPort,
		quiet: options.quiet === undefined ? true : options.quiet,
		httpsWebhooksOnly: options.httpsWebhooksOnly === undefined ? true : options.httpsWebhooksOnly,
	};
	const state = createState();
	const journal = new Journal();
	const faults = new Faults([...ROUTES.map((r) => r.id), PROXY_ROUTE_ID]);
	// Signed webhook deliveries, retries and download URLs (deliveries.js). Bound to core below.
	/** @type {Deliveries} */
	let deliveries;

	/** @type {Set<{ timer: NodeJS.Timeout, resolve: (alive: boolean) => void }>} */
	const waits = new Set();
	/** @type {Set<Promise<unknown>>} work that continues after a response (async writes, triggered reads) */
	const tasks = new Set();
	/** @type {import('./server').Core} */
	const core = {
		state,
		journal,
		faults,
		options: opts,
		closing: false,
		sim: undefined,
		background: (task) => {
			if (core.closing) return;
			const done = new Promise((resolve) => setImmediate(resolve))
				.then(() => (core.closing ? undefined : task()))
				.catch((err) => {
					if (!opts.quiet) console.error('[simulator] background task failed', err);
				})
				.finally(() => tasks.delete(done));
			tasks.add(done);
		},
		delay: (ms) =>
			new Promise((resolve) => {
				if (core.closing) return resolve(false);
				const wait = {
					timer: setTimeout(() => {
						waits.delete(wait);
						resolve(true);
					}, ms),
					resolve,
				};
				waits.add(wait);
			}),
	};

	const api = createListener(core, 'api');
	const read = createListener(core, 'read');
	const write = createListener(core, 'write');
	const search = createListener(core, 'search');
	const proxy = createListener(core, 'proxy');
	const listeners = [api, read, write, search, proxy];
	/** @type {number[]} */
	const ports = [];
	try {
		for (const [listener, port] of /** @type {const} */ ([
			[api, opts.port],
			[read, opts.readPort],
			[write, opts.writePort],
			[search, opts.searchPort],
			[proxy, opts.proxyPort],
		])) {
			ports.push(await listen(listener.server, port, opts.host));
		}
	} catch (err) {
		await Promise.all(
			listeners
				.slice(0, ports.length)
				.map(({ server }) => new Promise((resolve) => server.close(resolve))),
		);
		throw err;
	}
	const [apiPort, readPort, writePort, searchPort, proxyPort] = ports;
	const origin = (/** @type {number} */ port) => `http://${urlHost(opts.host)}:${port}`;

	let closed = false;
	/** @type {ReturnType<typeof createLogGrowth> | undefined} operations gaining log entries over time */
	let growth;
	const sim = {
		apiUrl: origin(apiPort),
		readUrl: origin(readPort),
		/** write host: writeRecords under /v1 */
		writeUrl: origin(writePort),
		/** search host: searchRecords under /v1 */
		searchUrl: origin(searchPort),
		/** proxy host: provider paths, no /v1 */
		proxyUrl: origin(proxyPort),
		apiPort,
		readPort,
		writePort,
		searchPort,
		proxyPort,
		options: opts,
		state,
		journal,
		faults,
		SEED,
		PUBLIC_KEY_PEM,
		/** @type {Deliveries} the delivery log and engine (see deliveries.js) */
		get deliveries() {
			return deliveries;
		},

		/** Sends a message to a destination (name or id), Svix-signed; resolves after the first attempt. */
		deliver(/** @type {Parameters<Deliveries['deliver']>[0]} */ input) {
			return deliveries.deliver(input);
		},
		/** Routes a notification through topics and routes and delivers it. */
		emitNotification(
			/** @type {string} */ eventType,
			/** @type {Record<string, unknown>} */ data = {},
			/** @type {{ projectId?: string }} */ options = {},
		) {
			return deliveries.emitNotification(eventType, data, options);
		},
		/** A read result to the destination the installation names for the object. */
		emitRead(/** @type {Parameters<Deliveries['emitRead']>[0]} */ input) {
			return deliveries.emitRead(input);
		},
		/** Subscribe events to the destination the installation names for the object. */
		emitSubscribe(/** @type {Parameters<Deliveries['emitSubscribe']>[0]} */ input) {
			return deliveries.emitSubscribe(input);
		},
		/** A schema-watch message to the watchSchema destination. */
		emitSchemaWatch(/** @type {Parameters<Deliveries['emitSchemaWatch']>[0]} */ input) {
			return deliveries.emitSchemaWatch(input);
		},

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
				message: {
					msg: 'Simulated log entry',
					operation_id: operationId,
					...(partial.message || {}),
				},
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

		/**
		 * Adds `count` operations in bulk (by default finished reads of the seeded installation),
		 * cheaply: no copies returned, createTime one millisecond apart from `startTime` so the
		 * list's order is their order of creation. Returns the count and the first and last ids.
		 * @param {number} count
		 * @param {Record<string, unknown>} [partial]
		 * @param {{ startTime?: string }} [bulkOptions]
		 */
		addOperations(count, partial = {}, bulkOptions = {}) {
			const start = Date.parse(bulkOptions.startTime ?? '2030-01-01T00:00:00.000Z');
			let firstId = '';
			let lastId = '';
			for (let i = 0; i < count; i++) {
				const id = newId();
				state.operations.set(id, {
					id,
					projectId: SEED.projectId,
					integrationId: SEED.integrationId,
					installationId: SEED.installationId,
					configId: SEED.configId,
					actionType: 'read',
					status: 'success',
					metadata: { objects: [SEED.pausedObject] },
					createTime: `${new Date(start + i).toISOString().slice(0, -1)}000Z`,
					...partial,
				});
				if (!state.logs.has(id)) state.logs.set(id, []);
				if (i === 0) firstId = id;
				lastId = id;
			}
			return { count, firstId, lastId };
		},

		/**
		 * Starts appending log entries on a timer (logGrowth.js), replacing a running growth.
		 * @param {import('./logGrowth').LogGrowthOptions} [growthOptions]
		 */
		startLogGrowth(growthOptions = {}) {
			if (growth) growth.stop();
			growth = createLogGrowth(sim, growthOptions);
			growth.start();
			return growth;
		},

		/** Stops the log growth, if any; returns how many ticks it ran. */
		stopLogGrowth() {
			if (!growth) return 0;
			growth.stop();
			return growth.ticks;
		},

		/**
		 * Appends `count` entries sharing one timestamp (docs/api-notes.md, "Operation logs": several entries can share a timestamp).
		 * @param {string} operationId
		 * @param {number} count
		 * @param {LogPartial} [partial]
		 */
		appendLogBurst(operationId, count, partial = {}) {
			const timestamp = partial.timestamp || nowIso();
			return Array.from({ length: count }, (_, i) =>
				sim.appendLog(operationId, {
					...partial,
					timestamp,
					message: { msg: `Burst entry ${i + 1} of ${count}`, ...(partial.message || {}) },
				}),
			);
		},

		/**
		 * Retention (docs/api-notes.md, "Operation logs": entries older than logRetentionDays vanish): removes entries for
		 * good, keeping the newest `keepLast` of each operation and/or those within `maxAgeMs`.
		 * @param {{ keepLast?: number, maxAgeMs?: number, now?: string, operationId?: string }} retention
		 * @returns {number} entries removed
		 */
		applyLogRetention(retention) {
			return applyRetention(state.logs, retention);
		},

		/**
		 * Resolves once the work started after responses (asynchronous writes, triggered reads and
		 * their deliveries' first attempts) has finished.
		 */
		async whenIdle() {
			while (tasks.size) await Promise.all([...tasks]);
		},

		/** Back to the seeded world; journal and faults cleared. */
		reset() {
			if (growth) growth.stop();
			resetState(state);
			journal.clear();
			faults.clear();
			deliveries.clear();
		},

		/** Stops the listeners, ending hanging requests and keep-alive sockets. */
		async close() {
			if (closed) return;
			closed = true;
			if (growth) growth.stop();
			core.closing = true;
			for (const wait of waits) {
				clearTimeout(wait.timer);
				wait.resolve(false);
			}
			waits.clear();
			deliveries.close();
			secretLog.flush();
			await Promise.all(
				listeners.map(
					({ server, sockets }) =>
						new Promise((resolve) => {
							server.close(() => resolve(undefined));
							for (const socket of sockets) socket.destroy();
						}),
				),
			);
		},
	};
	core.sim = sim;
	if (options.logGrowth) sim.startLogGrowth(options.logGrowth);
	deliveries = new Deliveries(core, options.deliveries);
	return sim;
}

module.exports = { startSimulator, SEED, ROUTES };
