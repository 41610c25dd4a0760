// @ts-check
'use strict';

/**
 * Problem documents (docs/api-notes.md, "Problem documents").
 *
 * - `ApiProblem`: RFC 9457 fields (type, title, status, detail, instance) plus subsystem,
 *   time, requestId, and where useful remedy, causes, retryable, retryAfter.
 * - `InputValidationProblem`: ApiProblem plus `issues[]`; each issue is itself an ApiProblem
 *   with `in` (body|header|path|query), `name` (e.g. `latestRevision.content.name`) and `value`.
 * - The JWT-key operations are the odd ones out: content type `application/json` and
 *   `validationIssues: [{field, value, detail, remedy}]` instead of `issues` (docs/api-notes.md, "updateJWTKey").
 *
 * Handlers throw a ProblemError; server.js turns it into the response body with
 * `problemBody()`, filling in instance, time and requestId.
 */

const http = require('node:http');
const { rfc3339 } = require('./time');

const PROBLEM_JSON = 'application/problem+json';

/**
 * @typedef {'body' | 'header' | 'path' | 'query'} IssueLocation
 * @typedef {{ type: string, title: string, detail: string, in: IssueLocation, name?: string, value?: unknown }} Issue
 * @typedef {{ field: string, value?: unknown, detail: string, remedy?: string }} ValidationIssue
 * @typedef {{
 *   title?: string,
 *   type?: string,
 *   remedy?: string,
 *   causes?: string[],
 *   retryable?: boolean,
 *   retryAfterSeconds?: number,
 *   issues?: Issue[],
 *   validationIssues?: ValidationIssue[],
 *   contentType?: string,
 *   headers?: Record<string, string>,
 *   context?: Record<string, unknown>,
 * }} ProblemOptions
 */

class ProblemError extends Error {
	/**
	 * @param {number} status
	 * @param {string} detail
	 * @param {ProblemOptions} [options]
	 */
	constructor(status, detail, options = {}) {
		super(detail);
		this.name = 'ProblemError';
		this.status = status;
		this.detail = detail;
		this.options = options;
	}
}

/** @param {number} status */
function statusTitle(status) {
	return http.STATUS_CODES[status] || 'Error';
}

/** @param {number} status */
function statusType(status) {
	return `https://httpstatuses.com/${status}`;
}

/**
 * One entry of `issues[]`.
 * @param {IssueLocation} where
 * @param {string | undefined} name
 * @param {string} detail
 * @param {unknown} [value] the value as sent (left out when the field was missing)
 * @param {string} [title]
 * @returns {Issue}
 */
function issue(where, name, detail, value, title = 'Invalid input') {
	/** @type {Issue} */
	const entry = { type: 'about:blank', title, detail, in: where };
	if (name !== undefined && name !== '') entry.name = name;
	if (value !== undefined) entry.value = value;
	return entry;
}

/**
 * @param {number} status
 * @param {string} detail
 * @param {ProblemOptions} [options]
 */
function problem(status, detail, options) {
	return new ProblemError(status, detail, options);
}

/**
 * InputValidationProblem listing every invalid input (docs/api-notes.md, "Problem documents").
 * @param {Issue[]} issues
 * @param {{ status?: number, detail?: string, remedy?: string }} [options]
 */
function invalid(issues, options = {}) {
	const status = options.status || 400;
	const detail =
		options.detail ||
		(issues.length === 1
			? issues[0].detail
			: `${issues.length} inputs are invalid: ${issues.map((i) => i.name || i.in).join(', ')}`);
	return new ProblemError(status, detail, {
		issues,
		remedy: options.remedy,
		title: status === 422 ? 'Unprocessable Entity' : 'Bad Request',
	});
}

/**
 * 404 InputValidationProblem for an unknown path parameter, as most "not found" answers are.
 * @param {string} name path parameter name
 * @param {string} value the value as sent
 * @param {string} detail e.g. 'Topic not found'
 */
function notFound(name, value, detail) {
	return new ProblemError(404, detail, {
		issues: [issue('path', name, detail, value, 'Not found')],
	});
}

/**
 * Builds the JSON body of a problem document.
 * @param {ProblemError} err
 * @param {{ instance: string, requestId: string }} request
 * @returns {Record<string, unknown>}
 */
function problemBody(err, request) {
	const o = err.options;
	/** @type {Record<string, unknown>} */
	const body = {
		type: o.type || statusType(err.status),
		title: o.title || statusTitle(err.status),
		status: err.status,
		detail: err.detail,
		instance: request.instance,
		subsystem: 'api',
		time: rfc3339(),
		requestId: request.requestId,
	};
	if (o.remedy) body.remedy = o.remedy;
	if (o.causes) body.causes = o.causes;
	const retryable =
		o.retryable !== undefined ? o.retryable : err.status === 429 || err.status >= 500;
	if (retryable || err.status === 429 || err.status >= 500) body.retryable = retryable;
	if (o.retryAfterSeconds !== undefined) {
		body.retryable = true;
		body.retryAfter = rfc3339(o.retryAfterSeconds);
	}
	if (o.context) body.context = o.context;
	if (o.issues) body.issues = o.issues;
	if (o.validationIssues) body.validationIssues = o.validationIssues;
	return body;
}

module.exports = {
	PROBLEM_JSON,
	ProblemError,
	issue,
	problem,
	invalid,
	notFound,
	problemBody,
	statusTitle,
	statusType,
};
