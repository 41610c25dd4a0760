// @ts-check
'use strict';

/**
 * Operations and their logs (docs/api-notes.md, "listOperationLogs", "The wider API", "Operation logs").
 *
 * - listOperationLogs returns a bare array of Log {timestamp, severity, message}: no
 *   pagination, no filters, no promised order (the simulator returns them as stored).
 * - listOperations is the only paginated list of the API: pageSize 1-1000 (default 200),
 *   pageToken → `{results, pagination: {done, nextPageToken?}}`. Tokens are base64 with
 *   `+`, `/` and `=` in them, like the real example (`Q9JT+2qfys28V4ODN+UayA==`), so a
 *   client that forgets to URL-encode them gets a 400 (a raw `+` arrives as a space).
 * - Order of listOperations is undocumented; the simulator uses createTime, oldest first.
 */

const { ok, findInProject } = require('./common');
const { invalid, issue } = require('../problems');
const { queryString } = require('../validate');
const { findInstallation } = require('./installations');

/** @typedef {import('../router').Ctx} Ctx */

const TOKEN_PREFIX = Buffer.from([0xfb, 0xff]);

/** @param {number} offset */
function encodePageToken(offset) {
	return Buffer.concat([TOKEN_PREFIX, Buffer.from(`o${offset}`)]).toString('base64');
}

/** @param {string} token @returns {number | undefined} */
function decodePageToken(token) {
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return undefined;
	const bytes = Buffer.from(token, 'base64');
	if (bytes.length < 4 || !bytes.subarray(0, 2).equals(TOKEN_PREFIX)) return undefined;
	const match = /^o(\d+)$/.exec(bytes.subarray(2).toString('latin1'));
	return match ? Number(match[1]) : undefined;
}

/** @param {Ctx} ctx */
function getOperation(ctx) {
	return ok(findInProject(ctx.state.operations, ctx, 'operationId', 'Operation not found'));
}

/** @param {Ctx} ctx */
function listOperations(ctx) {
	const { installation } = findInstallation(ctx);
	const issues = [];
	const sizeText = queryString(ctx.query, 'pageSize');
	let pageSize = 200;
	if (sizeText !== undefined && sizeText !== '') {
		pageSize = Number(sizeText);
		if (!/^\d+$/.test(sizeText) || pageSize < 1 || pageSize > 1000) {
			issues.push(
				issue('query', 'pageSize', 'pageSize must be an integer from 1 to 1000', sizeText),
			);
		}
	}
	const token = queryString(ctx.query, 'pageToken');
	let offset = 0;
	if (token !== undefined && token !== '') {
		const decoded = decodePageToken(token);
		if (decoded === undefined)
			issues.push(issue('query', 'pageToken', 'Invalid page token (is it URL-encoded?)', token));
		else offset = decoded;
	}
	if (issues.length) throw invalid(issues);

	const all = [...ctx.state.operations.values()]
		.filter((op) => op.installationId === installation.id)
		.sort((a, b) => String(a.createTime).localeCompare(String(b.createTime)));
	const results = all.slice(offset, offset + pageSize);
	const next = offset + pageSize;
	const done = next >= all.length;
	return ok({
		results,
		pagination: done ? { done } : { done, nextPageToken: encodePageToken(next) },
	});
}

/**
 * Seed op 9: a bare array of Log.
 * @param {Ctx} ctx
 */
function listOperationLogs(ctx) {
	const operation = findInProject(ctx.state.operations, ctx, 'operationId', 'Operation not found');
	return ok(ctx.state.logs.get(operation.id) || []);
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'listOperationLogs',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/operations/{operationId}/logs',
		seedOp: 9,
		handler: listOperationLogs,
	},
	{
		id: 'getOperation',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/operations/{operationId}',
		handler: getOperation,
	},
	{
		id: 'listOperations',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}/operations',
		handler: listOperations,
	},
];

module.exports = { routes, encodePageToken, decodePageToken };
