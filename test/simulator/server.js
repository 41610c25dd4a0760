// @ts-check
'use strict';

/**
 * The HTTP side: one listener per host (management, read, write, search and proxy; docs/api-notes.md, "Hosts and
 * base URLs", "Data plane"), and the request pipeline they share:
 *
 *   read body → (management host: /__sim/ control API, not journaled)
 *   → route match → journal entry → fault rules → 404/405 → auth (docs/api-notes.md, "Credentials per operation")
 *   → project access → malformed-JSON check → handler → response
 *
 * Every response carries `X-Request-Id`; problem documents repeat it as `requestId`.
 */

const http = require('node:http');
const { randomUUID } = require('node:crypto');
const { matchRoute } = require('./router');
const { authenticate, resolveProject } = require('./auth');
const {
	ProblemError,
	PROBLEM_JSON,
	problem,
	invalid,
	issue,
	problemBody,
	statusTitle,
} = require('./problems');
const { nowIso } = require('./time');
const { handleControl } = require('./control');
const { transformLogs, generatorFor } = require('./logTransforms');
const { handleDownload, isDownloadPath } = require('./routes/downloads');

/**
 * @typedef {import('./router').Ctx} Ctx
 * @typedef {import('./router').Result} Result
 * @typedef {import('./router').CompiledRoute} CompiledRoute
 * @typedef {import('./faults').StoredRule} StoredRule
 * @typedef {import('./journal').Entry} Entry
 * @typedef {{
 *   state: import('./state').State,
 *   journal: import('./journal').Journal,
 *   faults: import('./faults').Faults,
 *   options: { quiet: boolean, httpsWebhooksOnly: boolean },
 *   delay: (ms: number) => Promise<boolean>,
 *   background: (task: () => unknown) => void,
 *   closing: boolean,
 *   sim: any,
 * }} Core
 * @typedef {Result & { contentType?: string, raw?: string }} Reply
 */

/** @typedef {import('./router').Host} Host */

/** @type {Record<Host, string>} */
const HOST_NAMES = {
	api: 'management',
	read: 'read',
	write: 'write',
	search: 'search',
	proxy: 'proxy',
};
/** @type {Record<Host, string>} */
const HOST_DOMAINS = {
	api: 'api.withampersand.com',
	read: 'read.withampersand.com',
	write: 'write.withampersand.com',
	search: 'search.withampersand.com',
	proxy: 'proxy.withampersand.com',
};

const MAX_BODY_BYTES = 5 * 1024 * 1024;
const BODY_METHODS = ['POST', 'PUT', 'PATCH'];

/**
 * @param {http.IncomingMessage} req
 * @returns {Promise<Buffer>}
 */
function readBody(req) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/**
 * Query parameters as an object: a repeated parameter becomes an array.
 * @param {URLSearchParams} params
 * @returns {Record<string, string | string[]>}
 */
function queryObject(params) {
	/** @type {Record<string, string | string[]>} */
	const out = {};
	for (const [key, value] of params) {
		const have = out[key];
		out[key] = have === undefined ? value : [...(Array.isArray(have) ? have : [have]), value];
	}
	return out;
}

/**
 * The problem `instance`: the request path, with secret path parameters (an API key in
 * deleteApiKey's path) masked so that no credential is echoed.
 * @param {string} rawPath
 * @param {CompiledRoute | undefined} route
 * @param {Record<string, string>} params
 */
function instanceOf(rawPath, route, params) {
	if (!route || !route.secretParams) return rawPath;
	const secrets = route.secretParams.map((name) => params[name]).filter(Boolean);
	return rawPath
		.split('/')
		.map((seg) => {
			let decoded = seg;
			try {
				decoded = decodeURIComponent(seg);
			} catch {
				/* keep raw */
			}
			return secrets.includes(decoded) ? '***' : seg;
		})
		.join('/');
}

/**
 * @param {ProblemError} err
 * @param {{ instance: string, requestId: string }} request
 * @param {boolean} jsonVariant JWT-key style: application/json with validationIssues (docs/api-notes.md, "Problem documents")
 * @returns {Reply}
 */
function problemReply(err, request, jsonVariant) {
	const body = problemBody(err, request);
	if (jsonVariant && Array.isArray(body.issues)) {
		body.validationIssues = body.issues.map((i) => ({
			field: i.name || i.in,
			value: i.value,
			detail: i.detail,
		}));
		delete body.issues;
	}
	/** @type {Record<string, string>} */
	const headers = { ...(err.options.headers || {}) };
	if (err.options.retryAfterSeconds !== undefined)
		headers['Retry-After'] = String(err.options.retryAfterSeconds);
	return {
		status: err.status,
		body,
		headers,
		contentType: err.options.contentType || (jsonVariant ? 'application/json' : PROBLEM_JSON),
	};
}

/**
 * A handler's 400 where the API's document declares its own form (docs/api-notes.md, "Data plane"): plain
 * text (the write API: the details in one line), or an `application/json` problem document that keeps
 * its `issues` (the read API's triggerRead and deliverResults, the search API).
 * @param {ProblemError} err
 * @param {{ instance: string, requestId: string }} request
 * @param {'text' | 'json'} form
 * @returns {Reply}
 */
function badRequestReply(err, request, form) {
	if (form === 'text') {
		return { status: 400, raw: err.detail, contentType: 'text/plain; charset=utf-8' };
	}
	return { status: 400, body: problemBody(err, request), contentType: 'application/json' };
}

/**
 * The answer a fault rule dictates (not used for latency-only, malformed, reset and hang).
 * @param {StoredRule} fault
 * @param {{ instance: string, requestId: string }} request
 * @returns {Reply}
 */
function faultReply(fault, request) {
	const status = fault.status !== undefined ? fault.status : 200;
	/** @type {Record<string, string>} */
	const headers = { ...(fault.headers || {}) };
	if (fault.retryAfterSeconds !== undefined)
		headers['Retry-After'] = String(fault.retryAfterSeconds);
	if (fault.body === undefined) {
		if (status < 400) return { status, headers };
		const detail =
			status === 503
				? 'The service is temporarily unavailable'
				: `${statusTitle(status)} (simulated fault ${fault.id})`;
		return problemReply(
			problem(status, detail, { retryAfterSeconds: fault.retryAfterSeconds }),
			request,
			false,
		);
	}
	if (typeof fault.body === 'string') {
		return {
			status,
			headers,
			raw: fault.body,
			contentType:
				headers['Content-Type'] || headers['content-type'] || 'text/plain; charset=utf-8',
		};
	}
	let body = fault.body;
	if (
		status >= 400 &&
		fault.retryAfterSeconds !== undefined &&
		body &&
		typeof body === 'object' &&
		!Array.isArray(body)
	) {
		body = {
			...body,
			retryable: true,
			retryAfter: new Date(Date.now() + fault.retryAfterSeconds * 1000).toISOString(),
		};
	}
	return { status, headers, body, contentType: status >= 400 ? PROBLEM_JSON : 'application/json' };
}

/**
 * Runs the pipeline after routing and faults: 404/405, auth, project access, handler.
 * @param {Core} core
 * @param {Ctx} ctx
 * @param {ReturnType<typeof matchRoute>} match
 * @param {{ instance: string, requestId: string }} request
 * @param {string | undefined} bodyError
 * @returns {Promise<Reply>}
 */
async function runRoute(core, ctx, match, request, bodyError) {
	const route = match && 'route' in match ? match.route : undefined;
	let inHandler = false;
	try {
		if (!match) {
			const elsewhere = /** @type {Host[]} */ (['api', 'read', 'write', 'search']).find((other) => {
				if (other === ctx.host) return false;
				const there = matchRoute(other, ctx.method, ctx.pathname);
				return Boolean(there && 'route' in there);
			});
			throw problem(
				404,
				`No route for ${ctx.method} ${ctx.pathname} on the ${HOST_NAMES[ctx.host]} host`,
				{
					title: 'Not Found',
					remedy: elsewhere
						? `This operation is served by the ${HOST_NAMES[elsewhere]} host (${HOST_DOMAINS[elsewhere]}).`
						: undefined,
				},
			);
		}
		if (!route) {
			const allowed = 'allowed' in match ? match.allowed : [];
			throw problem(
				405,
				`Method ${ctx.method} is not allowed on ${ctx.pathname}; allowed: ${allowed.join(', ')}`,
				{ headers: { Allow: allowed.join(', ') } },
			);
		}
		ctx.principal = authenticate(ctx, route.auth);
		if (ctx.params.projectIdOrName !== undefined)
			ctx.project = resolveProject(ctx.state, ctx.principal, ctx.params.projectIdOrName);
		inHandler = true;
		if (bodyError !== undefined && BODY_METHODS.includes(ctx.method) && !route.rawBody) {
			throw invalid([
				issue('body', undefined, `Malformed JSON body: ${bodyError}`, undefined, 'Malformed JSON'),
			]);
		}
		return await route.handler(ctx);
	} catch (err) {
		if (err instanceof ProblemError && route && route.badRequest && inHandler && err.status === 400)
			return badRequestReply(err, request, route.badRequest);
		if (err instanceof ProblemError)
			return problemReply(err, request, Boolean(route && route.jsonProblems && inHandler));
		if (!core.options.quiet) console.error('[simulator] handler error', err);
		return problemReply(
			problem(500, `Internal simulator error: ${err && err.message}`),
			request,
			false,
		);
	}
}

/**
 * @param {http.ServerResponse} res
 * @param {Reply} reply
 * @param {Entry} entry
 * @param {import('./journal').Journal} journal told of the answer (`answered`)
 */
function send(res, reply, entry, journal) {
	entry.status = reply.status;
	if (res.destroyed || res.writableEnded) return;
	/** @type {Record<string, string | number>} */
	const headers = { ...(reply.headers || {}) };
	let payload = '';
	if (reply.raw !== undefined) payload = reply.raw;
	else if (reply.body !== undefined && reply.status !== 204) payload = JSON.stringify(reply.body);
	if (payload !== '' && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
		headers['Content-Type'] = reply.contentType || 'application/json';
	}
	headers['Content-Length'] = Buffer.byteLength(payload);
	res.writeHead(reply.status, headers);
	res.end(payload);
	const type = Object.keys(headers).find((h) => h.toLowerCase() === 'content-type');
	journal.answered(entry, {
		status: reply.status,
		contentType: type === undefined ? undefined : String(headers[type]),
		payload,
	});
}

/**
 * A `hang` fault: no answer (until the client gives up or close() destroys the socket); the
 * journal's `onHang` listeners are told which request it is.
 * @param {Core} core
 * @param {http.IncomingMessage} req
 * @param {Entry} entry
 */
function hang(core, req, entry) {
	core.journal.hung(entry, {
		remoteAddress: req.socket.remoteAddress,
		remotePort: req.socket.remotePort,
		localPort: req.socket.localPort,
	});
}

/**
 * @param {Core} core
 * @param {Host} host
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
async function handle(core, host, req, res) {
	const requestId = randomUUID();
	res.setHeader('X-Request-Id', requestId);
	const started = Date.now();
	const raw = await readBody(req);
	const url = req.url || '/';
	const q = url.indexOf('?');
	const pathname = q >= 0 ? url.slice(0, q) : url;
	const searchParams = new URLSearchParams(q >= 0 ? url.slice(q + 1) : '');
	const method = (req.method || 'GET').toUpperCase();

	// Pre-signed download links of url results (deliveries.js): no auth, not journaled.
	if (host === 'api' && isDownloadPath(pathname)) {
		handleDownload(core, method, pathname, res);
		return;
	}
	if (host === 'api' && (pathname === '/__sim' || pathname.startsWith('/__sim/'))) {
		await handleControl(core, method, pathname, searchParams, raw, res);
		return;
	}

	const text = raw.toString('utf8');
	/** @type {unknown} */
	let body;
	/** @type {string | undefined} */
	let bodyError;
	if (text.trim() !== '') {
		try {
			body = JSON.parse(text);
		} catch (err) {
			body = text;
			bodyError = err instanceof Error ? err.message : String(err);
		}
	}

	const match = matchRoute(host, method, pathname);
	const route = match && 'route' in match ? match.route : undefined;
	const params = match && 'params' in match ? match.params : {};
	const query = queryObject(searchParams);
	const entry = core.journal.record({
		time: nowIso(),
		host,
		method,
		path: url,
		pathname,
		query,
		headers: { ...req.headers },
		body,
		status: null,
		routeId: route ? route.id : null,
		requestId,
	});
	if (!core.options.quiet) {
		res.on('finish', () =>
			console.log(
				`[simulator] ${host.padEnd(4)} ${method} ${pathname} → ${res.statusCode} (${Date.now() - started} ms)`,
			),
		);
	}
	const request = { instance: instanceOf(pathname, route, params), requestId };

	const fault = core.faults.take({ routeId: entry.routeId, host, method });
	if (fault) entry.fault = fault.id;
	if (fault && !fault.processFirst) {
		if (fault.latencyMs) {
			const alive = await core.delay(fault.latencyMs);
			if (!alive) return;
		}
		if (fault.reset) {
			req.socket.destroy();
			return;
		}
		if (fault.hang) {
			hang(core, req, entry);
			return; // close() destroys the socket
		}
		if (!fault.malformed && (fault.status !== undefined || fault.body !== undefined)) {
			send(res, faultReply(fault, request), entry, core.journal);
			return;
		}
	}

	/** @type {Ctx} */
	const ctx = /** @type {any} */ ({
		state: core.state,
		options: core.options,
		host,
		method,
		pathname,
		query,
		headers: req.headers,
		body,
		params,
		requestId,
		bodyError,
		core,
	});
	let reply = await runRoute(core, ctx, match, request, bodyError);
	if (fault && fault.logs && reply.status === 200 && Array.isArray(reply.body)) {
		// The log endpoint's liberties (docs/api-notes.md, "Operation logs"): order, duplicates, shared timestamps, retention.
		reply = {
			...reply,
			body: transformLogs(reply.body, fault.logs, generatorFor(fault, fault.logs.seed)),
		};
	}

	if (fault && fault.processFirst) {
		// The request did its work (a write is stored); only the answer goes wrong: it comes late,
		// the connection drops, or another answer replaces it.
		if (fault.latencyMs) {
			const alive = await core.delay(fault.latencyMs);
			if (!alive) return;
		}
		if (fault.reset) {
			req.socket.destroy();
			return;
		}
		if (fault.hang) {
			hang(core, req, entry);
			return;
		}
		if (!fault.malformed && (fault.status !== undefined || fault.body !== undefined)) {
			send(res, faultReply(fault, request), entry, core.journal);
			return;
		}
	}

	if (fault && fault.malformed) {
		// The work was done, but the answer arrives cut in half: never valid JSON.
		const full =
			reply.raw !== undefined
				? reply.raw
				: JSON.stringify(reply.body === undefined ? { ok: true } : reply.body);
		const headers = { ...(fault.headers || {}) };
		if (fault.retryAfterSeconds !== undefined)
			headers['Retry-After'] = String(fault.retryAfterSeconds);
		send(
			res,
			{
				status: fault.status !== undefined ? fault.status : 200,
				headers,
				raw: full.slice(0, Math.max(1, Math.floor(full.length / 2))),
				contentType: 'application/json',
			},
			entry,
			core.journal,
		);
		return;
	}
	send(res, reply, entry, core.journal);
}

/**
 * @param {Core} core
 * @param {Host} host
 * @returns {{ server: http.Server, sockets: Set<import('node:net').Socket> }}
 */
function createListener(core, host) {
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	const server = http.createServer((req, res) => {
		handle(core, host, req, res).catch((err) => {
			if (!core.options.quiet) console.error('[simulator] request failed', err);
			if (!res.headersSent && !res.destroyed) {
				res.writeHead(500, { 'Content-Type': PROBLEM_JSON });
				res.end(
					JSON.stringify({
						type: 'about:blank',
						title: 'Internal Server Error',
						status: 500,
						detail: String(err && err.message),
					}),
				);
			}
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	return { server, sockets };
}

module.exports = { createListener, readBody };
