// @ts-check
'use strict';

/**
 * API keys (docs/api-notes.md, "deleteApiKey", "The wider API"). The `apiKey` path parameter is the key
 * itself, so it is never echoed: not in issues, and it is redacted from `instance`.
 */

const { noContent } = require('./common');
const { problem, issue } = require('../problems');

/** @typedef {import('../router').Ctx} Ctx */

/**
 * Seed op 1: 204, or 404 InputValidationProblem when the key is not one of the project's.
 * @param {Ctx} ctx
 */
function deleteApiKey(ctx) {
	const record = ctx.state.apiKeys.get(ctx.params.apiKey);
	if (!record || record.projectId !== ctx.project.id) {
		throw problem(404, 'API key not found', { issues: [issue('path', 'apiKey', 'API key not found', undefined, 'Not found')] });
	}
	ctx.state.apiKeys.delete(record.key);
	return noContent();
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{ id: 'deleteApiKey', method: 'DELETE', path: '/v1/projects/{projectIdOrName}/api-keys/{apiKey}', seedOp: 1, secretParams: ['apiKey'], handler: deleteApiKey },
];

module.exports = { routes };
