// @ts-check
'use strict';

/**
 * Integrations and revisions (docs/api-notes.md, "createIntegration", "getHydratedRevision",
 * "listIntegrations", "The wider API").
 * Integration: id, projectId, name, provider, createTime, updateTime?, latestRevision
 * {id, specVersion, createTime, content} (the seed's "the service" field).
 */

const { ok, created, requireBody } = require('./common');
const { problem, invalid, issue, notFound } = require('../problems');
const { validate, queryString } = require('../validate');
const { newId } = require('../state');
const { nowIso } = require('../time');
const { PROVIDERS } = require('../catalog');
const { CONTENT, hydrateContent } = require('../manifest');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 */

/** Request body of createIntegration: all three fields required (docs/api-notes.md, "createIntegration"). @type {Schema} */
const CREATE_INTEGRATION = {
	type: 'object',
	required: ['name', 'provider', 'latestRevision'],
	properties: {
		name: { type: 'string', minLength: 1 },
		provider: { type: 'string', minLength: 1 },
		latestRevision: {
			type: 'object',
			required: ['specVersion', 'content'],
			properties: { specVersion: { type: 'string', minLength: 1 }, content: { type: 'object' } },
		},
	},
};

/**
 * An integration of the current project by id or name (getIntegration accepts either).
 * @param {Ctx} ctx
 * @param {string} param
 * @returns {Rec}
 */
function findIntegration(ctx, param) {
	const ref = ctx.params[param];
	const inProject = [...ctx.state.integrations.values()].filter((i) => i.projectId === ctx.project.id);
	const found = inProject.find((i) => i.id === ref) || inProject.find((i) => i.name === ref);
	if (!found) throw notFound(param, ref, 'Integration not found');
	return found;
}

/**
 * Seed op 4: 201 with an empty body. Shape errors of the request are 400; problems inside
 * the manifest content (e.g. a missing content.name) are 422 (docs/api-notes.md, "createIntegration").
 * @param {Ctx} ctx
 */
function createIntegration(ctx) {
	const body = requireBody(ctx, CREATE_INTEGRATION);
	const content = body.latestRevision.content;
	const issues = validate(content, CONTENT, { name: 'latestRevision.content' });
	if (!PROVIDERS[body.provider]) issues.unshift(issue('body', 'provider', `Unknown provider '${body.provider}'`, body.provider));
	if (issues.length) throw invalid(issues, { status: 422 });

	// Not documented: names are unique per project (the batch upsert addresses integrations by
	// name), so a duplicate is answered like the other duplicate-name cases, with 409.
	const duplicate = [...ctx.state.integrations.values()].some((i) => i.projectId === ctx.project.id && i.name === body.name);
	if (duplicate) throw problem(409, `An integration named '${body.name}' already exists in this project`);

	const now = nowIso();
	const revision = { id: newId(), specVersion: body.latestRevision.specVersion, createTime: now, content };
	const integration = { id: newId(), projectId: ctx.project.id, name: body.name, provider: body.provider, createTime: now, latestRevision: revision };
	ctx.state.integrations.set(integration.id, integration);
	ctx.state.revisions.set(revision.id, { ...revision, _integrationId: integration.id });
	return created();
}

/**
 * Seed op 8: a bare array, no pagination.
 * @param {Ctx} ctx
 */
function listIntegrations(ctx) {
	return ok([...ctx.state.integrations.values()].filter((i) => i.projectId === ctx.project.id));
}

/** @param {Ctx} ctx */
function getIntegration(ctx) {
	return ok(findIntegration(ctx, 'integrationIdOrName'));
}

/**
 * Seed op 6: the revision's content hydrated with the connection's field metadata.
 * @param {Ctx} ctx
 */
function getHydratedRevision(ctx) {
	const connectionId = queryString(ctx.query, 'connectionId');
	if (!connectionId) {
		throw invalid([issue('query', 'connectionId', 'connectionId is required', undefined, 'Missing required parameter')]);
	}
	const integration = findIntegration(ctx, 'integrationId');
	const revision = ctx.state.revisions.get(ctx.params.revisionId);
	if (!revision || revision._integrationId !== integration.id) throw notFound('revisionId', ctx.params.revisionId, 'Revision not found');
	const connection = ctx.state.connections.get(connectionId);
	if (!connection || connection.projectId !== ctx.project.id) {
		throw problem(404, 'Connection not found', { issues: [issue('query', 'connectionId', 'Connection not found', connectionId, 'Not found')] });
	}
	if (connection.provider !== integration.provider) {
		throw invalid([issue('query', 'connectionId', `The connection is for ${connection.provider}, the integration for ${integration.provider}`, connectionId)], { status: 422 });
	}
	const customFields = ctx.state.customFields.get(`${ctx.project.id}/${connection.provider}/${connection.group.groupRef}`) || {};
	return ok({
		id: revision.id,
		specVersion: revision.specVersion,
		createTime: revision.createTime,
		content: hydrateContent(revision.content, customFields),
	});
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{ id: 'createIntegration', method: 'POST', path: '/v1/projects/{projectIdOrName}/integrations', seedOp: 4, handler: createIntegration },
	{ id: 'listIntegrations', method: 'GET', path: '/v1/projects/{projectIdOrName}/integrations', seedOp: 8, handler: listIntegrations },
	{ id: 'getIntegration', method: 'GET', path: '/v1/projects/{projectIdOrName}/integrations/{integrationIdOrName}', handler: getIntegration },
	{
		id: 'getHydratedRevision',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/revisions/{revisionId}:hydrate',
		seedOp: 6,
		handler: getHydratedRevision,
	},
];

module.exports = { routes, findIntegration, CREATE_INTEGRATION };
