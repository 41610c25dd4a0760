// @ts-check
'use strict';

/**
 * API keys (docs/api-notes.md, "deleteApiKey", "API keys"). ApiKey: key, label, scopes, projectId,
 * active. The `apiKey` path parameter is the key itself, so it is never echoed: not in issues,
 * and it is redacted from `instance`. A created key is a new secret (secretLog).
 */

const { randomBytes } = require('node:crypto');

const { ok, created, noContent, requireBody } = require('./common');
const { maskedChanges } = require('./updateMask');
const { problem, issue, invalid } = require('../problems');
const { queryBool } = require('../validate');
const { remember } = require('../secretLog');

/** @typedef {import('../router').Ctx} Ctx @typedef {import('../validate').Schema} Schema */

/** @type {Schema} */
const SCOPES = { type: 'array', items: { type: 'string', minLength: 1 } };
/** @type {Schema} */
const LABEL = { type: 'string', minLength: 1, maxLength: 255 };

/** @param {import('../state').Rec} record */
const view = (record) => ({
	key: record.key,
	label: record.label,
	scopes: record.scopes,
	projectId: record.projectId,
	active: record.active,
});

/**
 * 404 InputValidationProblem when the key is not one of the project's; the key is not echoed.
 * @param {Ctx} ctx
 */
function findKey(ctx) {
	const record = ctx.state.apiKeys.get(ctx.params.apiKey);
	if (!record || record.projectId !== ctx.project.id) {
		throw problem(404, 'API key not found', {
			issues: [issue('path', 'apiKey', 'API key not found', undefined, 'Not found')],
		});
	}
	return record;
}

/** `?active=true` lists only active keys. @param {Ctx} ctx */
function listApiKeys(ctx) {
	/** @type {import('../problems').Issue[]} */
	const issues = [];
	const activeOnly = queryBool(ctx.query, 'active', false, issues);
	if (issues.length) throw invalid(issues);
	return ok(
		[...ctx.state.apiKeys.values()]
			.filter((k) => k.projectId === ctx.project.id && (!activeOnly || k.active !== false))
			.map(view),
	);
}

/** 201 ApiKey, with the new key. @param {Ctx} ctx */
function createApiKey(ctx) {
	const body = requireBody(ctx, {
		type: 'object',
		required: ['label'],
		properties: { label: LABEL, scopes: SCOPES },
	});
	const record = {
		key: `amp_sim_${randomBytes(12).toString('hex')}`,
		label: body.label,
		scopes: body.scopes ?? ['full'],
		projectId: ctx.project.id,
		active: true,
	};
	remember(record.key);
	ctx.state.apiKeys.set(record.key, record);
	return created(view(record));
}

/** @param {Ctx} ctx */
function getApiKey(ctx) {
	return ok(view(findKey(ctx)));
}

/** Mask of active, label, scopes; 200 ApiKey. @param {Ctx} ctx */
function updateApiKey(ctx) {
	const record = findKey(ctx);
	const changes = maskedChanges(ctx, 'apiKey', {
		active: { type: 'boolean' },
		label: LABEL,
		scopes: SCOPES,
	});
	Object.assign(record, changes);
	return ok(view(record));
}

/**
 * Seed op 1: 204, or 404 InputValidationProblem when the key is not one of the project's.
 * @param {Ctx} ctx
 */
function deleteApiKey(ctx) {
	const record = findKey(ctx);
	ctx.state.apiKeys.delete(record.key);
	return noContent();
}

const BASE = '/v1/projects/{projectIdOrName}/api-keys';

/** @type {import('../router').RouteDef[]} */
const routes = [
	{ id: 'listApiKeys', method: 'GET', path: BASE, handler: listApiKeys },
	{ id: 'createApiKey', method: 'POST', path: BASE, handler: createApiKey },
	{
		id: 'getApiKey',
		method: 'GET',
		path: `${BASE}/{apiKey}`,
		secretParams: ['apiKey'],
		handler: getApiKey,
	},
	{
		id: 'updateApiKey',
		method: 'PATCH',
		path: `${BASE}/{apiKey}`,
		secretParams: ['apiKey'],
		handler: updateApiKey,
	},
	{
		id: 'deleteApiKey',
		method: 'DELETE',
		path: `${BASE}/{apiKey}`,
		seedOp: 1,
		secretParams: ['apiKey'],
		handler: deleteApiKey,
	},
];

module.exports = { routes };
