// @ts-check
'use strict';

/**
 * Small helpers shared by the route modules: results, body validation, lookups.
 */

const { validate } = require('../validate');
const { invalid, notFound } = require('../problems');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../router').Result} Result
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 */

/** @param {unknown} body @returns {Result} */
const ok = (body) => ({ status: 200, body });
/** @param {unknown} [body] @returns {Result} 201, with no body when none is given (createIntegration, claimDomain) */
const created = (body) => ({ status: 201, body });
/** @returns {Result} */
const noContent = () => ({ status: 204 });

/**
 * Validates the request body and throws one InputValidationProblem listing every issue.
 * @param {Ctx} ctx
 * @param {Schema} schema
 * @param {number} [status] 400 by default; some operations answer 422 (e.g. docs/api-notes.md, "createTopicDestinationRoute")
 * @returns {any} the body
 */
function requireBody(ctx, schema, status = 400) {
	if (ctx.body === undefined) throw invalid([bodyMissing()], { status: 400 });
	const issues = validate(ctx.body, schema);
	if (issues.length) throw invalid(issues, { status });
	return ctx.body;
}

function bodyMissing() {
	return /** @type {import('../problems').Issue} */ ({
		type: 'about:blank',
		title: 'Missing request body',
		detail: 'A JSON request body is required',
		in: 'body',
	});
}

/**
 * A record of the current project by id (404 InputValidationProblem otherwise).
 * @param {Map<string, Rec>} map
 * @param {Ctx} ctx
 * @param {string} param path parameter name
 * @param {string} detail e.g. 'Topic not found'
 * @param {(rec: Rec) => string} [projectOf]
 */
function findInProject(map, ctx, param, detail, projectOf = (r) => r.projectId) {
	const id = ctx.params[param];
	const rec = map.get(id);
	if (!rec || projectOf(rec) !== ctx.project.id) throw notFound(param, id, detail);
	return rec;
}

/** @template T @param {Iterable<T>} values @param {(v: T) => boolean} keep */
function filter(values, keep) {
	return [...values].filter(keep);
}

module.exports = { ok, created, noContent, requireBody, findInProject, filter };
