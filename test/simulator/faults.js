// @ts-check
'use strict';

const { checkTransform } = require('./logTransforms');

/**
 * Fault injection. A rule applies to requests of one route id (or '*'; the proxy host's requests
 * are route 'proxy'), optionally only
 * on one host or method. Rules are checked after routing (so the route id is known) and
 * before authentication; the first rule that matches and still has uses left wins.
 *
 * Rule fields:
 *   route              route id from router.ROUTES, or '*'
 *   host?              'api' | 'read' | 'write' | 'search' | 'proxy'
 *   method?            e.g. 'GET'
 *   status?            answer with this status; without `body` a proper problem document
 *                      is built (e.g. 503 'Service Unavailable', retryable: true)
 *   body?              object → JSON, string → sent raw
 *   headers?           extra response headers
 *   latencyMs?         wait before answering (alone: the request then proceeds normally)
 *   malformed?         run the request, then send its JSON body truncated (status 200 or `status`)
 *   reset?             destroy the socket without answering
 *   hang?              never answer (until the simulator closes)
 *   processFirst?      run the request as usual first (a write is stored), then apply latencyMs,
 *                      reset, hang, status/body or malformed to its answer: the outcome the
 *                      client cannot see
 *   retryAfterSeconds? Retry-After header; problem bodies get retryable: true and retryAfter
 *   logs?              transform a 200 array answer (the logs route): shuffle, duplicate,
 *                      dropOldest, coarsen, seed; see logTransforms.js
 *   times?             how many requests the rule affects (default unlimited)
 *   skip?              let the first N matching requests through untouched
 */

/**
 * @typedef {{
 *   route: string, host?: import('./router').Host, method?: string, status?: number, body?: unknown,
 *   headers?: Record<string, string>, latencyMs?: number, malformed?: boolean, reset?: boolean,
 *   hang?: boolean, processFirst?: boolean, retryAfterSeconds?: number, times?: number, skip?: number,
 *   logs?: import('./logTransforms').LogTransform,
 * }} FaultRule
 * @typedef {FaultRule & { id: string, matched: number, fired: number }} StoredRule
 */

const HOSTS = ['api', 'read', 'write', 'search', 'proxy'];

const KNOWN_FIELDS = [
	'route',
	'host',
	'method',
	'status',
	'body',
	'headers',
	'latencyMs',
	'malformed',
	'reset',
	'hang',
	'processFirst',
	'retryAfterSeconds',
	'times',
	'skip',
	'logs',
];

class Faults {
	/** @param {string[]} routeIds ids a rule may name (besides '*') */
	constructor(routeIds) {
		this.routeIds = new Set(routeIds);
		/** @type {StoredRule[]} */
		this.rules = [];
		this.nextId = 1;
	}

	/**
	 * @param {FaultRule} rule
	 * @returns {string} the rule id
	 */
	add(rule) {
		const problems = Faults.check(rule, this.routeIds);
		if (problems.length) throw new Error(`Invalid fault rule: ${problems.join('; ')}`);
		const id = `fault-${this.nextId++}`;
		this.rules.push({ ...rule, id, matched: 0, fired: 0 });
		return id;
	}

	/** @param {string} id @returns {boolean} whether a rule was removed */
	remove(id) {
		const index = this.rules.findIndex((r) => r.id === id);
		if (index >= 0) this.rules.splice(index, 1);
		return index >= 0;
	}

	clear() {
		this.rules.length = 0;
	}

	/** @returns {StoredRule[]} copies, with how often each rule matched and fired */
	list() {
		return this.rules.map((r) => ({ ...r }));
	}

	/**
	 * Finds the rule for a request and counts the use.
	 * @param {{ routeId: string | null, host: import('./router').Host, method: string }} request
	 * @returns {StoredRule | undefined}
	 */
	take(request) {
		for (const rule of this.rules) {
			if (rule.route !== '*' && rule.route !== request.routeId) continue;
			if (rule.host && rule.host !== request.host) continue;
			if (rule.method && rule.method.toUpperCase() !== request.method) continue;
			rule.matched++;
			if (rule.matched <= (rule.skip || 0)) continue;
			if (rule.times !== undefined && rule.fired >= rule.times) continue;
			rule.fired++;
			return rule;
		}
		return undefined;
	}

	/**
	 * @param {any} rule
	 * @param {Set<string>} routeIds
	 * @returns {string[]} what is wrong with the rule
	 */
	static check(rule, routeIds) {
		if (!rule || typeof rule !== 'object' || Array.isArray(rule))
			return ['a rule must be an object'];
		const out = [];
		if (typeof rule.route !== 'string') out.push("route must be a route id or '*'");
		else if (rule.route !== '*' && !routeIds.has(rule.route))
			out.push(`unknown route id '${rule.route}'`);
		for (const key of Object.keys(rule))
			if (!KNOWN_FIELDS.includes(key)) out.push(`unknown field '${key}'`);
		if (rule.host !== undefined && !HOSTS.includes(rule.host))
			out.push(`host must be one of ${HOSTS.map((h) => `'${h}'`).join(', ')}`);
		if (
			rule.status !== undefined &&
			!(Number.isInteger(rule.status) && rule.status >= 100 && rule.status <= 599)
		)
			out.push('status must be an HTTP status code');
		for (const key of ['latencyMs', 'retryAfterSeconds', 'times', 'skip']) {
			if (rule[key] !== undefined && !(typeof rule[key] === 'number' && rule[key] >= 0))
				out.push(`${key} must be a number >= 0`);
		}
		if (rule.headers !== undefined && (typeof rule.headers !== 'object' || rule.headers === null))
			out.push('headers must be an object');
		if (rule.logs !== undefined) out.push(...checkTransform(rule.logs));
		return out;
	}
}

module.exports = { Faults };
