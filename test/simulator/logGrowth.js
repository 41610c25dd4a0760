// @ts-check
'use strict';

/**
 * Log growth: operations gain log entries over time, as running reads, writes and subscribes
 * do (docs/api-notes.md, "Operation logs"), for polling-trigger tests and for trying the log trigger by hand.
 *
 *   const sim = await startSimulator({ logGrowth: { intervalMs: 1000, perTick: 2 } });
 *   sim.startLogGrowth({ intervalMs: 500, operations: [SEED.operationId, SEED.secondOperationId] });
 *   sim.stopLogGrowth();
 *
 * Options (all optional):
 *   intervalMs   time between ticks (default 1000)
 *   perTick      entries per tick and operation (default 1)
 *   operations   operation ids (default: the seeded SEED.operationId)
 *   severities   severities picked in turn (default INFO, DEBUG, INFO, WARNING, INFO, ERROR)
 *   burstEvery   every Nth tick writes `burstSize` entries sharing one timestamp (default 0: never)
 *   burstSize    entries in a burst (default 3)
 *   lateEvery    every Nth entry is stamped `lateByMs` in the past, like a late-arriving entry (default 0)
 *   lateByMs     how late (default 2000)
 */

const { nowMicros, formatMicros } = require('./time');
const { SEED } = require('./seed');

const DEFAULT_SEVERITIES = ['INFO', 'DEBUG', 'INFO', 'WARNING', 'INFO', 'ERROR'];

/**
 * @typedef {{
 *   intervalMs?: number, perTick?: number, operations?: string[], severities?: string[],
 *   burstEvery?: number, burstSize?: number, lateEvery?: number, lateByMs?: number,
 * }} LogGrowthOptions
 * @typedef {{ appendLog(operationId: string, partial?: Record<string, unknown>): Record<string, unknown> }} LogSink
 */

/**
 * @param {LogSink} sim anything with appendLog (the simulator object)
 * @param {LogGrowthOptions} [options]
 */
function createLogGrowth(sim, options = {}) {
	const intervalMs = options.intervalMs === undefined ? 1000 : options.intervalMs;
	const perTick = options.perTick === undefined ? 1 : options.perTick;
	const operations =
		options.operations && options.operations.length ? options.operations : [SEED.operationId];
	const severities =
		options.severities && options.severities.length ? options.severities : DEFAULT_SEVERITIES;
	const burstEvery = options.burstEvery || 0;
	const burstSize = options.burstSize === undefined ? 3 : options.burstSize;
	const lateEvery = options.lateEvery || 0;
	const lateByMs = options.lateByMs === undefined ? 2000 : options.lateByMs;
	if (!(intervalMs > 0)) throw new Error('logGrowth.intervalMs must be > 0');
	if (!(Number.isInteger(perTick) && perTick >= 0))
		throw new Error('logGrowth.perTick must be an integer >= 0');

	/** @type {NodeJS.Timeout | undefined} */
	let timer;
	let ticks = 0;
	let entries = 0;
	/** @type {Record<string, unknown>[]} */
	const appended = [];

	/** @param {string} operationId @param {string} timestamp @param {string} msg */
	function write(operationId, timestamp, msg) {
		const severity = severities[entries % severities.length];
		entries++;
		const entry = sim.appendLog(operationId, {
			timestamp,
			severity,
			message: {
				msg,
				details: { tick: String(ticks), sequence: String(entries) },
				...(severity === 'ERROR' ? { error: 'provider: 502 Bad Gateway (simulated)' } : {}),
			},
		});
		appended.push({ operationId, ...entry });
	}

	/** Writes one tick's entries now (also usable without the timer). */
	function tick() {
		ticks++;
		for (const operationId of operations) {
			if (burstEvery && ticks % burstEvery === 0) {
				const shared = formatMicros(nowMicros());
				for (let i = 0; i < burstSize; i++)
					write(operationId, shared, `Burst entry ${i + 1} of ${burstSize}`);
			}
			for (let i = 0; i < perTick; i++) {
				const late = lateEvery > 0 && (entries + 1) % lateEvery === 0;
				const micros = nowMicros() - (late ? lateByMs * 1000 : 0);
				write(
					operationId,
					formatMicros(micros),
					late ? 'Late entry (stamped in the past)' : `Simulated progress ${entries + 1}`,
				);
			}
		}
	}

	return {
		options: {
			intervalMs,
			perTick,
			operations,
			severities,
			burstEvery,
			burstSize,
			lateEvery,
			lateByMs,
		},
		tick,
		start() {
			if (timer) return;
			timer = setInterval(tick, intervalMs);
			timer.unref();
		},
		stop() {
			if (timer) clearInterval(timer);
			timer = undefined;
		},
		get running() {
			return timer !== undefined;
		},
		get ticks() {
			return ticks;
		},
		/** every entry written so far, with its operationId */
		appended,
	};
}

module.exports = { createLogGrowth, DEFAULT_SEVERITIES };
