// @ts-check
'use strict';

/**
 * The live in-memory world: one Map per resource, keyed by id (API keys by the key
 * string, sessions by token, groups/consumers by `projectId/ref`, logs by operation id,
 * custom fields by `projectId/provider/groupRef`, provider records by `installationId/objectName`
 * and then record id).
 *
 * Records are stored in (almost) the API's own shape. Fields the API never returns are
 * prefixed with `_` (e.g. a destination's `_projectId` and `_secrets`; docs/api-notes.md, "getDestination":
 * Destination has no projectId field) and stripped by `publicView()`.
 */

const { randomUUID } = require('node:crypto');
const { seedWorld } = require('./seed');

/**
 * @typedef {Record<string, any>} Rec
 * @typedef {{
 *   orgs: Map<string, Rec>, users: Map<string, Rec>, sessions: Map<string, Rec>, projects: Map<string, Rec>,
 *   apiKeys: Map<string, Rec>, groups: Map<string, Rec>, consumers: Map<string, Rec>, connections: Map<string, Rec>,
 *   integrations: Map<string, Rec>, revisions: Map<string, Rec>, installations: Map<string, Rec>,
 *   destinations: Map<string, Rec>, topics: Map<string, Rec>, topicDestinationRoutes: Map<string, Rec>,
 *   eventTopicRoutes: Map<string, Rec>, jwtKeys: Map<string, Rec>, providerApps: Map<string, Rec>, invites: Map<string, Rec>,
 *   claimedDomains: Map<string, Rec>, operations: Map<string, Rec>, logs: Map<string, Rec[]>,
 *   customFields: Map<string, Record<string, Record<string, Rec>>>,
 *   records: Map<string, Map<string, Rec>>, readReadiness: Map<string, Rec>,
 * }} State
 */

/**
 * @param {Rec[]} records
 * @param {string} [key]
 */
function byKey(records, key = 'id') {
	return new Map(records.map((r) => [r[key], r]));
}

/** @returns {State} */
function createState() {
	const w = seedWorld();
	/** @type {Rec[]} */
	const revisions = w.integrations.map((i) => ({ ...i.latestRevision, _integrationId: i.id }));
	return {
		orgs: byKey(w.orgs),
		users: byKey(w.users),
		sessions: byKey(w.sessions, 'token'),
		projects: byKey(w.projects),
		apiKeys: byKey(w.apiKeys, 'key'),
		groups: new Map(w.groups.map((g) => [`${g.projectId}/${g.groupRef}`, g])),
		consumers: new Map(w.consumers.map((c) => [`${c.projectId}/${c.consumerRef}`, c])),
		connections: byKey(w.connections),
		integrations: byKey(w.integrations),
		revisions: byKey(revisions),
		installations: byKey(w.installations),
		destinations: byKey(w.destinations),
		topics: byKey(w.topics),
		topicDestinationRoutes: byKey(w.topicDestinationRoutes),
		eventTopicRoutes: byKey(w.eventTopicRoutes),
		jwtKeys: byKey(w.jwtKeys),
		providerApps: byKey(w.providerApps),
		invites: byKey(w.invites),
		claimedDomains: byKey(w.claimedDomains),
		operations: byKey(w.operations),
		logs: new Map(Object.entries(w.logs)),
		customFields: new Map(),
		// The data plane (dataStore.js): provider records per `installationId/objectName`, and what
		// deliverResults recorded per `installationId/objectName`.
		records: new Map(
			Object.entries(w.records).map(([key, list]) => [
				key,
				new Map(list.map((/** @type {Rec} */ r) => [r.id, r])),
			]),
		),
		readReadiness: new Map(),
	};
}

/**
 * Puts the seeded world back in place, keeping the same Map objects so that
 * references held by tests (`sim.state.connections`) stay valid.
 * @param {State} state
 */
function resetState(state) {
	const fresh = /** @type {Record<string, Map<any, any>>} */ (
		/** @type {unknown} */ (createState())
	);
	const target = /** @type {Record<string, Map<any, any>>} */ (/** @type {unknown} */ (state));
	for (const [name, map] of Object.entries(fresh)) {
		if (!target[name]) target[name] = new Map();
		target[name].clear();
		for (const [k, v] of map) target[name].set(k, v);
	}
}

/**
 * A copy of a record without its internal `_` fields.
 * @template {Rec} T
 * @param {T} record
 * @returns {Rec}
 */
function publicView(record) {
	/** @type {Rec} */
	const out = {};
	for (const [k, v] of Object.entries(record)) if (!k.startsWith('_')) out[k] = v;
	return out;
}

/** JSON-friendly dump of the whole state (for `GET /__sim/state`). @param {State} state */
function dumpState(state) {
	/** @type {Record<string, unknown>} */
	const out = {};
	for (const [name, map] of Object.entries(state)) out[name] = Object.fromEntries(map);
	return out;
}

/** @returns {string} */
function newId() {
	return randomUUID();
}

module.exports = { createState, resetState, publicView, dumpState, newId };
