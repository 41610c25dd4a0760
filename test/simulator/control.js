// @ts-check
'use strict';

/**
 * The simulator's own control API under `/__sim/` on the management listener. No auth,
 * for tests and harnesses only; requests to it are not journaled.
 *
 *   GET    /__sim/journal            {entries}; filters ?routeId=&host=&method=&since=<seq>
 *   DELETE /__sim/journal            204
 *   GET    /__sim/faults             the rules, with matched/fired counters
 *   POST   /__sim/faults             body = rule → 201 {id}
 *   DELETE /__sim/faults             204 (all rules)
 *   DELETE /__sim/faults/{id}        204, 404 if unknown
 *   POST   /__sim/reset              204: seeded world back, journal and faults cleared
 *   GET    /__sim/state              JSON dump of the state (including `_` internal fields)
 *   GET    /__sim/seed               the SEED constants
 *   GET    /__sim/routes             the route table
 *   POST   /__sim/logs/{operationId} body = partial log entry → 201 the appended entry
 *   POST   /__sim/operations         body = partial operation → 201 the new operation
 *   …/__sim/deliveries, /__sim/notifications, /__sim/emit/*: signed deliveries (deliveries.js);
 *   an emit reaches the destination named for the object and its `-test` twin, where a trigger
 *   listening in n8n's editor waits
 */

const { ROUTES } = require('./router');
const { SEED } = require('./seed');
const { dumpState } = require('./state');
const { handleDeliveryControl } = require('./deliveries');

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} [body]
 */
function reply(res, status, body) {
	const payload = body === undefined ? '' : JSON.stringify(body);
	/** @type {Record<string, string | number>} */
	const headers = { 'Content-Length': Buffer.byteLength(payload) };
	if (payload) headers['Content-Type'] = 'application/json';
	res.writeHead(status, headers);
	res.end(payload);
}

/**
 * @param {import('./server').Core} core
 * @param {string} method
 * @param {string} pathname
 * @param {URLSearchParams} search
 * @param {Buffer} raw
 * @param {import('node:http').ServerResponse} res
 */
async function handleControl(core, method, pathname, search, raw, res) {
	/** @type {any} */
	let body;
	const text = raw.toString('utf8');
	if (text.trim()) {
		try {
			body = JSON.parse(text);
		} catch (err) {
			return reply(res, 400, {
				error: `Malformed JSON: ${err instanceof Error ? err.message : err}`,
			});
		}
	}
	const path = pathname.replace(/\/+$/, '');
	const logMatch = /^\/__sim\/logs\/([^/]+)$/.exec(path);
	const faultMatch = /^\/__sim\/faults\/([^/]+)$/.exec(path);
	try {
		if (path === '/__sim/journal' && method === 'GET') {
			const since = Number(search.get('since') || 0);
			const entries = core.journal.entries.filter(
				(e) =>
					e.seq > since &&
					(!search.get('routeId') || e.routeId === search.get('routeId')) &&
					(!search.get('host') || e.host === search.get('host')) &&
					(!search.get('method') || e.method === String(search.get('method')).toUpperCase()),
			);
			return reply(res, 200, { entries });
		}
		if (path === '/__sim/journal' && method === 'DELETE') {
			core.journal.clear();
			return reply(res, 204);
		}
		if (path === '/__sim/faults' && method === 'GET') return reply(res, 200, core.faults.list());
		if (path === '/__sim/faults' && method === 'POST')
			return reply(res, 201, { id: core.faults.add(body) });
		if (path === '/__sim/faults' && method === 'DELETE') {
			core.faults.clear();
			return reply(res, 204);
		}
		if (faultMatch && method === 'DELETE') {
			return core.faults.remove(decodeURIComponent(faultMatch[1]))
				? reply(res, 204)
				: reply(res, 404, { error: 'No such fault rule' });
		}
		if (path === '/__sim/reset' && method === 'POST') {
			core.sim.reset();
			return reply(res, 204);
		}
		if (path === '/__sim/state' && method === 'GET') return reply(res, 200, dumpState(core.state));
		if (path === '/__sim/seed' && method === 'GET') return reply(res, 200, SEED);
		if (path === '/__sim/routes' && method === 'GET') return reply(res, 200, ROUTES);
		if (logMatch && method === 'POST')
			return reply(res, 201, core.sim.appendLog(decodeURIComponent(logMatch[1]), body || {}));
		if (path === '/__sim/operations' && method === 'POST')
			return reply(res, 201, core.sim.addOperation(body || {}));
		const delivery = await handleDeliveryControl(core.sim.deliveries, method, path, search, body);
		if (delivery) return reply(res, delivery.status, delivery.body);
		return reply(res, 404, { error: `No control route ${method} ${pathname}` });
	} catch (err) {
		const message = err instanceof Error ? err.message : String(err);
		return reply(res, /^Unknown operation/.test(message) ? 404 : 400, { error: message });
	}
}

module.exports = { handleControl };
