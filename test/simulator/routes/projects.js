// @ts-check
'use strict';

/**
 * Projects (docs/api-notes.md, "listProjects", "The wider API").
 * Project: id, name, appName, orgId, createTime, updateTime?; `entitlements` only from
 * getProject with includeEntitlements=true (list results leave them out).
 */

const { ok, created, requireBody } = require('./common');
const { maskedChanges } = require('./updateMask');
const { orgIdsOf } = require('../auth');
const { queryBool } = require('../validate');
const { invalid, problem, issue } = require('../problems');
const { newId } = require('../state');
const { nowIso } = require('../time');

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
	const projects = [...state.projects.values()].filter((p) =>
		principal.kind === 'apiKey'
			? p.id === principal.projectId
			: orgIdsOf(state, principal).includes(p.orgId),
	);
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

/** Project name rule of createProject: letters, digits and hyphens, 2–128, no hyphen at either end. */
const NAME = {
	type: /** @type {const} */ ('string'),
	minLength: 2,
	maxLength: 128,
	pattern: /^[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]$/,
	patternText: 'only letters, digits and hyphens, and start and end with a letter or digit',
};
const APP_NAME = { type: /** @type {const} */ ('string'), minLength: 1, maxLength: 128 };

/** @type {import('../validate').Schema} */
const CREATE_PROJECT = {
	type: 'object',
	required: ['appName', 'name', 'orgId'],
	properties: { appName: APP_NAME, name: NAME, orgId: { type: 'string', minLength: 1 } },
};

/**
 * Names are stored in lowercase ("normalized to lowercase on save") and identify a project in
 * paths, so they are unique (409 otherwise).
 * @param {Ctx} ctx @param {string} name @param {string} [exceptId]
 */
function assertNameFree(ctx, name, exceptId) {
	const taken = [...ctx.state.projects.values()].some((p) => p.name === name && p.id !== exceptId);
	if (taken)
		throw problem(409, `A project named '${name}' already exists`, {
			remedy: 'Choose another project name.',
		});
}

/**
 * Bearer only (docs/api-notes.md, "Credentials per operation"). 201 Project; 422 on invalid input;
 * the builder must belong to the organization.
 * @param {Ctx} ctx
 */
function createProject(ctx) {
	const body = requireBody(ctx, CREATE_PROJECT, 422);
	const org = ctx.state.orgs.get(body.orgId);
	if (!org)
		throw problem(404, 'Organization not found', {
			issues: [issue('body', 'orgId', 'Organization not found', body.orgId, 'Not found')],
		});
	if (!orgIdsOf(ctx.state, ctx.principal).includes(org.id))
		throw problem(403, 'You are not a member of this organization');
	const name = body.name.toLowerCase();
	assertNameFree(ctx, name);
	const project = {
		id: newId(),
		name,
		appName: body.appName,
		orgId: org.id,
		createTime: nowIso(),
		entitlements: { brandingRemoval: { value: false }, logRetentionDays: { value: 7 } },
	};
	ctx.state.projects.set(project.id, project);
	return created(toProject(project));
}

/**
 * Mask of appName and name; 200 Project. A new name is stored in lowercase, like a created one.
 * @param {Ctx} ctx
 */
function updateProject(ctx) {
	const changes = maskedChanges(ctx, 'project', { appName: APP_NAME, name: NAME });
	if (typeof changes.name === 'string') {
		changes.name = changes.name.toLowerCase();
		assertNameFree(ctx, /** @type {string} */ (changes.name), ctx.project.id);
	}
	Object.assign(ctx.project, changes, { updateTime: nowIso() });
	return ok(toProject(ctx.project));
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{ id: 'listProjects', method: 'GET', path: '/v1/projects', seedOp: 16, handler: listProjects },
	{
		id: 'createProject',
		method: 'POST',
		path: '/v1/projects',
		auth: 'bearer',
		handler: createProject,
	},
	{ id: 'getProject', method: 'GET', path: '/v1/projects/{projectIdOrName}', handler: getProject },
	{
		id: 'updateProject',
		method: 'PATCH',
		path: '/v1/projects/{projectIdOrName}',
		handler: updateProject,
	},
];

module.exports = { routes, toProject };
