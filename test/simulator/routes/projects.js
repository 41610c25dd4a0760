// @ts-check
'use strict';

/**
 * Projects (docs/api-notes.md, "listProjects", "The wider API").
 * Project: id, name, appName, orgId, createTime, updateTime?; `entitlements` only from
 * getProject with includeEntitlements=true (list results leave them out).
 */

const { ok } = require('./common');
const { orgIdsOf } = require('../auth');
const { queryBool } = require('../validate');
const { invalid } = require('../problems');

/** @typedef {import('../router').Ctx} Ctx @typedef {import('../state').Rec} Rec */

/** @param {Rec} project @param {boolean} [withEntitlements] */
function toProject(project, withEntitlements = false) {
	const { entitlements, ...rest } = project;
	return withEntitlements ? { ...rest, entitlements } : rest;
}

/**
 * Seed op 16. "Lists projects your credentials can access": an API key sees its own
 * project, a bearer token the projects of its builder's organizations.
 * @param {Ctx} ctx
 */
function listProjects(ctx) {
	const { principal, state } = ctx;
	const projects = [...state.projects.values()].filter((p) => (principal.kind === 'apiKey'
		? p.id === principal.projectId
		: orgIdsOf(state, principal).includes(p.orgId)));
	return ok(projects.map((p) => toProject(p)));
}

/** @param {Ctx} ctx */
function getProject(ctx) {
	/** @type {import('../problems').Issue[]} */
	const issues = [];
	const withEntitlements = queryBool(ctx.query, 'includeEntitlements', false, issues);
	if (issues.length) throw invalid(issues);
	return ok(toProject(ctx.project, withEntitlements));
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{ id: 'listProjects', method: 'GET', path: '/v1/projects', seedOp: 16, handler: listProjects },
	{ id: 'getProject', method: 'GET', path: '/v1/projects/{projectIdOrName}', handler: getProject },
];

module.exports = { routes, toProject };
