// @ts-check
'use strict';

/**
 * Route table and matching.
 *
 * Each route module under routes/ exports `routes`: `{ id, method, host?, path, auth?, ... , handler }`.
 *   id        the real API's operationId (docs/api-notes.md, "Operations"); also the name fault rules use
 *   host      'api' (management host, default), 'read', 'write' or 'search' (docs/api-notes.md, "Hosts and base URLs",
 *             "Data plane"); the proxy host has one pseudo-route of its own (proxy.js), outside ROUTES
 *   path      template such as `/v1/projects/{projectIdOrName}/connections:generate`
 *   auth      'any' (X-Api-Key or Bearer, default), 'bearer', 'apiKey', 'none' (docs/api-notes.md, "Credentials per operation")
 *   seedOp    number of the endpoint in the seed spec (1-18), when it is one of them
 *   secretParams  path params that are secrets (the API key of deleteApiKey) and are
 *             redacted from problem `instance` values
 *   jsonProblems  handler errors use `application/json` (JWT-key operations; docs/api-notes.md, "Problem documents")
 *   badRequest    how the handler's 400s are sent where the API's document declares them differently
 *             (docs/api-notes.md, "Data plane"): 'text' → text/plain (writeRecords), 'json' → an
 *             `application/json` problem document with its issues (triggerRead, deliverResults, searchRecords)
 *   rawBody   a body that is not JSON goes to the handler (ctx.bodyError) instead of a 400 (the proxy)
 *
 * Path templates follow Google-style custom verbs: `{installationId}:unpause`. A parameter
 * never spans a `/` or a raw `:`, so `/installations/x:unpause` does not match
 * `/installations/{installationId}`. Matching runs on the raw path; parameters are
 * percent-decoded after matching.
 */

/**
 * @typedef {import('./state').State} State
 * @typedef {import('./state').Rec} Rec
 * @typedef {import('./auth').Principal} Principal
 * @typedef {{
 *   state: State,
 *   options: { httpsWebhooksOnly: boolean },
 *   host: Host,
 *   method: string,
 *   pathname: string,
 *   query: Record<string, string | string[]>,
 *   headers: Record<string, string | string[] | undefined>,
 *   body: any,
 *   params: Record<string, string>,
 *   principal: Principal,
 *   project: Rec,
 *   requestId: string,
 *   bodyError?: string,
 *   core: import('./server').Core,
 * }} Ctx
 * @typedef {'api' | 'read' | 'write' | 'search' | 'proxy'} Host
 * @typedef {{ status: number, body?: unknown, headers?: Record<string, string>, contentType?: string, raw?: string }} Result
 * @typedef {{
 *   id: string, method: string, host?: Host, path: string, auth?: import('./auth').AuthMode,
 *   seedOp?: number, secretParams?: string[], jsonProblems?: boolean, summary?: string,
 *   badRequest?: 'text' | 'json', rawBody?: boolean,
 *   handler: (ctx: Ctx) => Result | Promise<Result>,
 * }} RouteDef
 * @typedef {RouteDef & { host: Host, auth: import('./auth').AuthMode, regex: RegExp, paramNames: string[] }} CompiledRoute
 */

const { PROXY_ROUTE } = require('./proxy');

const MODULES = [
	require('./routes/projects'),
	require('./routes/apiKeys'),
	require('./routes/connections'),
	require('./routes/objectMetadata'),
	require('./routes/integrations'),
	require('./routes/installations'),
	require('./routes/operations'),
	require('./routes/destinations'),
	require('./routes/topics'),
	require('./routes/topicRoutes'),
	require('./routes/jwtKeys'),
	require('./routes/orgs'),
	require('./routes/claimedDomains'),
	require('./routes/oauth'),
	require('./routes/uploads'),
	require('./routes/providers'),
	require('./routes/providerApps'),
	require('./routes/write'),
	require('./routes/read'),
	require('./routes/search'),
];

/** @param {string} text */
function escapeRegex(text) {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * @param {RouteDef} def
 * @returns {CompiledRoute}
 */
function compile(def) {
	/** @type {string[]} */
	const paramNames = [];
	const pattern = def.path
		.split(/(\{[A-Za-z]+\})/)
		.map((part) => {
			const param = /^\{([A-Za-z]+)\}$/.exec(part);
			if (!param) return escapeRegex(part);
			paramNames.push(param[1]);
			return '([^/:]+)';
		})
		.join('');
	return { host: 'api', auth: 'any', ...def, regex: new RegExp(`^${pattern}$`), paramNames };
}

/** @type {CompiledRoute[]} */
const COMPILED = MODULES.flatMap((m) => m.routes)
	.map(compile)
	// Literal-heavy templates first, so a literal segment beats a parameter.
	.sort((a, b) => a.paramNames.length - b.paramNames.length);

{
	const seen = new Set();
	for (const r of COMPILED) {
		if (seen.has(r.id)) throw new Error(`duplicate route id ${r.id}`);
		seen.add(r.id);
	}
}

/**
 * Every route: id, method, host, path template, auth mode and seed operation number.
 * @type {ReadonlyArray<Readonly<{ id: string, method: string, host: Host, path: string, auth: string, seedOp?: number }>>}
 */
const ROUTES = Object.freeze(
	COMPILED.map((r) =>
		Object.freeze({
			id: r.id,
			method: r.method,
			host: r.host,
			path: r.path,
			auth: r.auth,
			...(r.seedOp ? { seedOp: r.seedOp } : {}),
		}),
	).sort(
		(a, b) =>
			(a.seedOp || 99) - (b.seedOp || 99) ||
			a.path.localeCompare(b.path) ||
			a.method.localeCompare(b.method),
	),
);

/** @param {string} raw */
function decode(raw) {
	try {
		return decodeURIComponent(raw);
	} catch {
		return raw;
	}
}

/**
 * @param {Host} host
 * @param {string} method
 * @param {string} pathname raw (not decoded) request path
 * @returns {{ route: CompiledRoute, params: Record<string, string> } | { allowed: string[] } | null}
 *   the route, or the allowed methods when only the method is wrong, or null when nothing matches
 */
function matchRoute(host, method, pathname) {
	// The proxy passes any method and path on to the provider (proxy.js).
	if (host === 'proxy') return { route: /** @type {CompiledRoute} */ (PROXY_ROUTE), params: {} };
	/** @type {string[]} */
	const allowed = [];
	for (const route of COMPILED) {
		if (route.host !== host) continue;
		const m = route.regex.exec(pathname);
		if (!m) continue;
		if (route.method !== method) {
			allowed.push(route.method);
			continue;
		}
		/** @type {Record<string, string>} */
		const params = {};
		route.paramNames.forEach((name, i) => {
			params[name] = decode(m[i + 1]);
		});
		return { route, params };
	}
	return allowed.length ? { allowed: [...new Set(allowed)] } : null;
}

module.exports = { ROUTES, matchRoute };
