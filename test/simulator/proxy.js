// @ts-check
'use strict';

/**
 * The proxy host (docs/api-notes.md, "Data plane", "Proxy"): `{proxyUrl}/<provider path>`, any
 * method, no `/v1`. The platform checks its own headers, then a small fake HubSpot (the seeded
 * installation's provider) answers over the installation's records (dataStore.js), so writes,
 * search, triggered reads and the proxy all see the same data.
 *
 * Platform headers (names in any case; Node lower-cases them):
 *   x-api-key               the project API key          missing or unknown → 401
 *   x-amp-project-id        project id or name           missing → 400; unknown → 404; another project's key → 403
 *   x-amp-proxy-version     must be 1                    missing or other → 400
 *   x-amp-installation-id   installation of the project  missing → 400; unknown → 404
 * These answers are the platform's problem documents (issues name the header). Everything after
 * them is the provider's: HubSpot's error body `{status: "error", message, correlationId,
 * category, errors?}`. The API key is never echoed.
 *
 * Fake HubSpot paths ({object}: contacts, companies, deals, tickets, or any object with records):
 *   GET    /crm/v3/objects/{object}?limit=&after=   200 {results, paging?: {next: {after, link}}}; limit 1-100, default 10
 *   POST   /crm/v3/objects/{object}                  {properties} → 201 the record
 *   GET    /crm/v3/objects/{object}/{id}             200 the record, 404 OBJECT_NOT_FOUND
 *   PATCH  /crm/v3/objects/{object}/{id}             {properties} → 200 the record (merged), 404
 *   DELETE /crm/v3/objects/{object}/{id}             204, 404
 *   GET    /status                                   200 text/html (a non-JSON answer)
 *   POST   /events/v3/send                           {eventName, …} → 204 with no body
 * A record is `{id, properties, createdAt, updatedAt, archived: false}`. An email without "@" is a
 * 400 VALIDATION_ERROR with `errors: [{error: "INVALID_EMAIL", name: "email", …}]`; an unknown
 * object type a 400 ("Unable to infer object type from: …"); an unknown path a 404; a body that is
 * not JSON a 400 VALIDATION_ERROR.
 */

const { randomUUID } = require('node:crypto');
const { problem, invalid, issue, notFound } = require('./problems');
const { resolveProject } = require('./auth');
const store = require('./dataStore');
const { remember } = require('./secretLog');

/**
 * @typedef {import('./router').Ctx} Ctx
 * @typedef {import('./server').Reply} Reply
 * @typedef {import('./state').Rec} Rec
 */

const PROXY_ROUTE_ID = 'proxy';
const KNOWN_OBJECTS = ['contacts', 'companies', 'deals', 'tickets'];
const JSON_TYPE = 'application/json;charset=utf-8';

/** @param {string | string[] | undefined} value */
function single(value) {
	const text = Array.isArray(value) ? value[0] : value;
	return typeof text === 'string' && text.trim() !== '' ? text.trim() : undefined;
}

/**
 * The platform's checks; returns the installation the request is for.
 * @param {Ctx} ctx
 * @returns {Rec}
 */
function platformChecks(ctx) {
	const key = single(ctx.headers['x-api-key']);
	if (!key) {
		throw problem(401, 'Missing x-api-key header', {
			title: 'Unauthorized',
			remedy: 'Send the project API key in the x-api-key header.',
		});
	}
	// Whatever arrives as a key is a secret for the leak scans, known to the platform or not.
	remember(key);
	const apiKey = ctx.state.apiKeys.get(key);
	if (!apiKey || apiKey.active === false) {
		throw problem(401, 'Invalid API key', {
			title: 'Unauthorized',
			remedy: 'Check the x-api-key header: the key may have been deleted or deactivated.',
		});
	}
	const projectRef = single(ctx.headers['x-amp-project-id']);
	const version = single(ctx.headers['x-amp-proxy-version']);
	const installationId = single(ctx.headers['x-amp-installation-id']);
	const issues = [];
	if (!projectRef)
		issues.push(issue('header', 'x-amp-project-id', 'Missing x-amp-project-id header'));
	if (!version)
		issues.push(issue('header', 'x-amp-proxy-version', 'Missing x-amp-proxy-version header'));
	else if (version !== '1')
		issues.push(
			issue('header', 'x-amp-proxy-version', 'Unsupported proxy version: send 1', version),
		);
	if (!installationId)
		issues.push(issue('header', 'x-amp-installation-id', 'Missing x-amp-installation-id header'));
	if (issues.length) throw invalid(issues);

	/** @type {import('./auth').Principal} */
	const principal = { kind: 'apiKey', apiKey, projectId: apiKey.projectId };
	let project;
	try {
		project = resolveProject(ctx.state, principal, /** @type {string} */ (projectRef));
	} catch (err) {
		const issues404 = err && err.options && err.options.issues;
		if (issues404) {
			issues404[0].in = 'header';
			issues404[0].name = 'x-amp-project-id';
		}
		throw err;
	}
	const installation = ctx.state.installations.get(/** @type {string} */ (installationId));
	if (!installation || installation.projectId !== project.id) {
		const error = notFound(
			'x-amp-installation-id',
			/** @type {string} */ (installationId),
			'Installation not found',
		);
		/** @type {any} */ (error.options.issues)[0].in = 'header';
		throw error;
	}
	return installation;
}

/**
 * HubSpot's error answer.
 * @param {number} status
 * @param {string} category
 * @param {string} message
 * @param {Rec} [extra]
 * @returns {Reply}
 */
function hubspotError(status, category, message, extra = {}) {
	const correlationId = randomUUID();
	return {
		status,
		headers: { 'X-HubSpot-Correlation-Id': correlationId },
		contentType: JSON_TYPE,
		body: { status: 'error', message, correlationId, category, ...extra },
	};
}

/** @param {number} status @param {unknown} body @returns {Reply} */
function hubspotJson(status, body) {
	return {
		status,
		headers: { 'X-HubSpot-Correlation-Id': randomUUID() },
		contentType: JSON_TYPE,
		body,
	};
}

/** @param {string} id */
function notFoundRecord(id) {
	return hubspotError(404, 'OBJECT_NOT_FOUND', `resource not found`, {
		context: { id: [id] },
	});
}

/**
 * A `{properties}` body, or the provider's 400.
 * @param {Ctx} ctx
 * @returns {Rec | Reply}
 */
function propertiesOf(ctx) {
	const body = ctx.body;
	if (!body || typeof body !== 'object' || Array.isArray(body))
		return hubspotError(400, 'VALIDATION_ERROR', 'Invalid input JSON: a JSON object is required');
	if (!body.properties || typeof body.properties !== 'object' || Array.isArray(body.properties))
		return hubspotError(400, 'VALIDATION_ERROR', 'Invalid input JSON: properties is required');
	return { properties: body.properties };
}

/**
 * The provider's 400 for a refused record.
 * @param {import('./dataStore').ProviderError} error
 * @param {Rec} fields
 */
function refused(error, fields) {
	const name = Object.keys(fields).find((k) => k.toLowerCase() === 'email') || 'email';
	return hubspotError(400, 'VALIDATION_ERROR', `Property values were not valid: ${error.message}`, {
		errors: [{ isValid: false, message: error.message, error: error.errorCode, name }],
	});
}

/**
 * The fake HubSpot over the installation's records.
 * @param {Ctx} ctx
 * @param {Rec} installation
 * @returns {Reply}
 */
function fakeHubspot(ctx, installation) {
	const method = ctx.method;
	const segments = ctx.pathname
		.split('/')
		.filter(Boolean)
		.map((s) => {
			try {
				return decodeURIComponent(s);
			} catch {
				return s;
			}
		});
	const path = `/${segments.join('/')}`;

	if (path === '/status') {
		if (method !== 'GET' && method !== 'HEAD')
			return hubspotError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on /status`);
		return {
			status: 200,
			contentType: 'text/html; charset=utf-8',
			raw: '<!DOCTYPE html>\n<html><head><title>HubSpot status</title></head><body><h1>All systems operational</h1></body></html>\n',
		};
	}
	if (path === '/events/v3/send') {
		if (method !== 'POST')
			return hubspotError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`);
		if (ctx.bodyError !== undefined) return malformed(ctx.bodyError);
		const body = ctx.body;
		if (!body || typeof body !== 'object' || typeof body.eventName !== 'string')
			return hubspotError(400, 'VALIDATION_ERROR', 'Invalid input JSON: eventName is required');
		return { status: 204 };
	}

	if (
		segments.length < 4 ||
		segments.length > 5 ||
		segments[0] !== 'crm' ||
		segments[1] !== 'v3' ||
		segments[2] !== 'objects'
	)
		return hubspotError(404, 'OBJECT_NOT_FOUND', `Unable to find endpoint ${method} ${path}`);
	const objectName = segments[3];
	const records = store.objectStore(ctx.state, installation.id, objectName);
	if (!KNOWN_OBJECTS.includes(objectName) && records.size === 0)
		return hubspotError(400, 'VALIDATION_ERROR', `Unable to infer object type from: ${objectName}`);
	if (ctx.bodyError !== undefined && ['POST', 'PATCH', 'PUT'].includes(method))
		return malformed(ctx.bodyError);

	if (segments.length === 4) {
		if (method === 'GET') {
			const limitText = Array.isArray(ctx.query.limit) ? ctx.query.limit[0] : ctx.query.limit;
			const afterText = Array.isArray(ctx.query.after) ? ctx.query.after[0] : ctx.query.after;
			const limit = limitText === undefined ? 10 : Number(limitText);
			if (!Number.isInteger(limit) || limit < 1 || limit > 100)
				return hubspotError(
					400,
					'VALIDATION_ERROR',
					`limit must be between 1 and 100, got ${limitText}`,
				);
			const after = afterText === undefined ? 0 : Number(afterText);
			if (!Number.isInteger(after) || after < 0)
				return hubspotError(400, 'VALIDATION_ERROR', `Invalid paging cursor: ${afterText}`);
			const all = [...records.values()].sort((a, b) => Number(a.id) - Number(b.id));
			const page = all.slice(after, after + limit).map(store.hubspotRecord);
			/** @type {Rec} */
			const body = { results: page };
			if (after + limit < all.length) {
				const next = String(after + limit);
				body.paging = {
					next: {
						after: next,
						link: `https://api.hubapi.com/crm/v3/objects/${objectName}?after=${next}&limit=${limit}`,
					},
				};
			}
			return hubspotJson(200, body);
		}
		if (method === 'POST') {
			const input = propertiesOf(ctx);
			if ('status' in input) return /** @type {Reply} */ (input);
			const done = store.createRecord(records, input.properties);
			if ('error' in done) return refused(done.error, input.properties);
			return hubspotJson(201, store.hubspotRecord(done.record));
		}
		return hubspotError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`);
	}

	const id = segments[4];
	if (method === 'GET') {
		const record = records.get(id);
		return record ? hubspotJson(200, store.hubspotRecord(record)) : notFoundRecord(id);
	}
	if (method === 'PATCH') {
		if (!records.has(id)) return notFoundRecord(id);
		const input = propertiesOf(ctx);
		if ('status' in input) return /** @type {Reply} */ (input);
		const done = store.updateRecord(records, id, input.properties);
		if ('error' in done) return refused(done.error, input.properties);
		return hubspotJson(200, store.hubspotRecord(done.record));
	}
	if (method === 'DELETE') {
		const done = store.deleteRecord(records, id);
		return 'error' in done ? notFoundRecord(id) : { status: 204 };
	}
	return hubspotError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`);
}

/** @param {string} detail */
function malformed(detail) {
	return hubspotError(400, 'VALIDATION_ERROR', `Invalid input JSON: ${detail}`);
}

/**
 * The proxy's one route: platform checks, then the fake provider.
 * @param {Ctx} ctx
 * @returns {Reply}
 */
function proxyHandler(ctx) {
	const installation = platformChecks(ctx);
	return fakeHubspot(ctx, installation);
}

/** The proxy's pseudo-route (not in ROUTES: it is no operation of the API's documents). */
const PROXY_ROUTE = {
	id: PROXY_ROUTE_ID,
	method: '*',
	host: /** @type {'proxy'} */ ('proxy'),
	path: '/{providerPath}',
	auth: /** @type {'none'} */ ('none'),
	rawBody: true,
	regex: /^\//,
	paramNames: [],
	handler: proxyHandler,
};

module.exports = { PROXY_ROUTE, PROXY_ROUTE_ID, proxyHandler };
