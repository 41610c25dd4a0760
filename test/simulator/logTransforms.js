// @ts-check
'use strict';

/**
 * What a real log endpoint may do to its answers, for testing the log trigger's cursor
 * (docs/api-notes.md, "Operation logs": bare array, no promised order, no entry id, microsecond timestamps, retention).
 *
 * Response transformations, applied by a fault rule's `logs` field to a 200 array answer:
 *
 *   { route: 'listOperationLogs', logs: { shuffle: true, duplicate: 2, dropOldest: 1, coarsen: 'second', seed: 7 } }
 *
 *   shuffle     answer in a random order
 *   duplicate   repeat this many entries (picked at random) within the answer
 *   dropOldest  leave out this many of the oldest entries (by timestamp) from this answer only
 *   coarsen     'second' | 'millisecond': cut every timestamp to that precision, so entries share
 *               timestamps; deterministic per entry, so keep the rule on for stable answers
 *   seed        seed of the rule's random choices (default: a random seed); each rule keeps its
 *               own generator, so a sequence of requests is reproducible
 *
 * State changes (sim.applyLogRetention): entries removed for good, as retention does.
 */

const { parseMicros } = require('./time');

/**
 * @typedef {{ shuffle?: boolean, duplicate?: number, dropOldest?: number, coarsen?: 'second' | 'millisecond', seed?: number }} LogTransform
 * @typedef {{ timestamp?: unknown, [key: string]: unknown }} LogLike
 */

const TRANSFORM_FIELDS = ['shuffle', 'duplicate', 'dropOldest', 'coarsen', 'seed'];

/**
 * mulberry32: small, fast, seedable.
 * @param {number} seed
 * @returns {() => number} numbers in [0, 1)
 */
function seededRandom(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** @type {WeakMap<object, () => number>} one generator per fault rule */
const generators = new WeakMap();

/**
 * @param {object} owner the fault rule
 * @param {number | undefined} seed
 */
function generatorFor(owner, seed) {
	let random = generators.get(owner);
	if (!random) {
		random = seededRandom(seed === undefined ? Math.floor(Math.random() * 2 ** 32) : seed);
		generators.set(owner, random);
	}
	return random;
}

/**
 * @param {unknown} spec
 * @returns {string[]} what is wrong with a `logs` transform
 */
function checkTransform(spec) {
	if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return ['logs must be an object'];
	const s = /** @type {Record<string, unknown>} */ (spec);
	const out = [];
	for (const key of Object.keys(s))
		if (!TRANSFORM_FIELDS.includes(key)) out.push(`unknown logs field '${key}'`);
	if (s.shuffle !== undefined && typeof s.shuffle !== 'boolean')
		out.push('logs.shuffle must be a boolean');
	for (const key of ['duplicate', 'dropOldest', 'seed']) {
		if (s[key] !== undefined && !(Number.isInteger(s[key]) && /** @type {number} */ (s[key]) >= 0))
			out.push(`logs.${key} must be an integer >= 0`);
	}
	if (s.coarsen !== undefined && s.coarsen !== 'second' && s.coarsen !== 'millisecond')
		out.push("logs.coarsen must be 'second' or 'millisecond'");
	return out;
}

/**
 * A timestamp cut to whole seconds or milliseconds (same zone suffix).
 * @param {unknown} timestamp
 * @param {'second' | 'millisecond'} precision
 */
function coarsenTimestamp(timestamp, precision) {
	if (typeof timestamp !== 'string') return timestamp;
	const match = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(timestamp);
	if (!match) return timestamp;
	const [, whole, fraction = '', zone] = match;
	if (precision === 'second') return `${whole}${zone}`;
	return `${whole}.${fraction.padEnd(3, '0').slice(0, 3)}${zone}`;
}

/**
 * Microseconds of an entry's timestamp, for "oldest"; unparseable ones count as oldest.
 * @param {LogLike} entry
 */
function microsOf(entry) {
	const micros = typeof entry.timestamp === 'string' ? parseMicros(entry.timestamp) : undefined;
	return micros === undefined ? -Infinity : micros;
}

/**
 * Applies a transform to one answer. The entries are copied, never modified.
 * @param {LogLike[]} entries
 * @param {LogTransform} spec
 * @param {() => number} random
 * @returns {LogLike[]}
 */
function transformLogs(entries, spec, random) {
	let out = entries.map((e) => structuredClone(e));
	if (spec.coarsen) {
		const precision = spec.coarsen;
		out = out.map((e) => ({ ...e, timestamp: coarsenTimestamp(e.timestamp, precision) }));
	}
	if (spec.dropOldest) {
		const order = out.map((e, i) => ({ i, t: microsOf(e) })).sort((a, b) => a.t - b.t || a.i - b.i);
		const dropped = new Set(order.slice(0, spec.dropOldest).map((o) => o.i));
		out = out.filter((_, i) => !dropped.has(i));
	}
	if (spec.duplicate && out.length) {
		for (let n = 0; n < spec.duplicate; n++) {
			const copy = structuredClone(out[Math.floor(random() * out.length)]);
			out.splice(Math.floor(random() * (out.length + 1)), 0, copy);
		}
	}
	if (spec.shuffle) {
		for (let i = out.length - 1; i > 0; i--) {
			const j = Math.floor(random() * (i + 1));
			[out[i], out[j]] = [out[j], out[i]];
		}
	}
	return out;
}

/**
 * Retention: removes entries for good. `keepLast` keeps the newest N entries of each operation;
 * `maxAgeMs` removes entries older than that, measured from `now` (default: the newest entry of
 * the operation, so synthetic clocks work too).
 * @param {Map<string, LogLike[]>} logs state.logs
 * @param {{ keepLast?: number, maxAgeMs?: number, now?: string, operationId?: string }} options
 * @returns {number} how many entries were removed
 */
function applyRetention(logs, options) {
	const { keepLast, maxAgeMs, now, operationId } = options;
	if (keepLast === undefined && maxAgeMs === undefined)
		throw new Error('applyLogRetention needs keepLast or maxAgeMs');
	let removed = 0;
	for (const [id, list] of logs) {
		if (operationId !== undefined && id !== operationId) continue;
		const order = list
			.map((e, i) => ({ i, t: microsOf(e) }))
			.sort((a, b) => a.t - b.t || a.i - b.i);
		const drop = new Set();
		if (keepLast !== undefined)
			for (const o of order.slice(0, Math.max(0, order.length - keepLast))) drop.add(o.i);
		if (maxAgeMs !== undefined && order.length) {
			const reference = now !== undefined ? parseMicros(now) : order[order.length - 1].t;
			if (reference !== undefined && Number.isFinite(reference)) {
				for (const o of order) if (o.t < reference - maxAgeMs * 1000) drop.add(o.i);
			}
		}
		if (!drop.size) continue;
		removed += drop.size;
		logs.set(
			id,
			list.filter((_, i) => !drop.has(i)),
		);
	}
	return removed;
}

module.exports = {
	transformLogs,
	checkTransform,
	generatorFor,
	seededRandom,
	applyRetention,
	coarsenTimestamp,
};
