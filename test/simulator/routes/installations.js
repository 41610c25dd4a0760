// @ts-check
'use strict';

/**
 * Installations (docs/api-notes.md, "The wider API") and the read host's pause/unpause
 * ("unpauseReads").
 *
 * The paused state of a read is the per-object `disabled: true` flag in the installation
 * config (`config.content.read.objects.<name>.disabled`; "Enumerations").
 * pauseReads and unpauseReads live on the READ host only and accept only X-Api-Key; the
 * same path on the management host is a 404 (router: host 'read', auth 'apiKey').
 */

const { ok, noContent, filter } = require('./common');
const { invalid, issue, notFound } = require('../problems');
const { validate, queryString } = require('../validate');
const { publicView } = require('../state');
const { nowIso } = require('../time');
const { findIntegration } = require('./integrations');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 * @typedef {import('../state').State} State
 */

/** Optional body of pause/unpause: `{objects?: string[], note?: string}`. @type {Schema} */
const PAUSE_BODY = {
	type: 'object',
	properties: { objects: { type: 'array', items: { type: 'string', minLength: 1 } }, note: { type: 'string' } },
};

/**
 * Installation as the API returns it: the stored record with its connection embedded.
 * @param {State} state
 * @param {Rec} installation
 */
function toInstallation(state, installation) {
	const connection = state.connections.get(installation._connectionId);
	return { ...publicView(installation), connection: connection ? publicView(connection) : undefined };
}

/** @param {Ctx} ctx */
function listInstallationsForProject(ctx) {
	const groupRef = queryString(ctx.query, 'groupRef');
	const list = filter(ctx.state.installations.values(), (i) => i.projectId === ctx.project.id && (!groupRef || i.group.groupRef === groupRef));
	return ok(list.map((i) => toInstallation(ctx.state, i)));
}

/** @param {Ctx} ctx */
function listInstallations(ctx) {
	const integration = findIntegration(ctx, 'integrationId');
	const groupRef = queryString(ctx.query, 'groupRef');
	const list = filter(ctx.state.installations.values(), (i) => i.integrationId === integration.id && (!groupRef || i.group.groupRef === groupRef));
	return ok(list.map((i) => toInstallation(ctx.state, i)));
}

/**
 * The installation named by the path, which must belong to the integration named by the path.
 * @param {Ctx} ctx
 * @returns {{ integration: Rec, installation: Rec }}
 */
function findInstallation(ctx) {
	const integration = findIntegration(ctx, 'integrationId');
	const installation = ctx.state.installations.get(ctx.params.installationId);
	if (!installation || installation.integrationId !== integration.id) {
		throw notFound('installationId', ctx.params.installationId, 'Installation not found');
	}
	return { integration, installation };
}

/** @param {Ctx} ctx */
function getInstallation(ctx) {
	return ok(toInstallation(ctx.state, findInstallation(ctx).installation));
}

/**
 * Pauses (disabled = true) or unpauses (false) the scheduled reads of some or all objects.
 * Object names may be the provider's name or the mapped name (read.yaml pauseReads).
 * Without `objects` (or with an empty list) every read object is affected.
 * @param {Ctx} ctx
 * @param {boolean} disabled
 */
function setReadsPaused(ctx, disabled) {
	const { integration, installation } = findInstallation(ctx);
	const body = ctx.body === undefined ? {} : ctx.body;
	const shapeIssues = validate(body, PAUSE_BODY);
	if (shapeIssues.length) throw invalid(shapeIssues);

	const readObjects = (installation.config.content.read && installation.config.content.read.objects) || {};
	/** @type {Record<string, string>} mapped name → provider object name */
	const mapped = {};
	const revision = ctx.state.revisions.get(installation.config.revisionId) || integration.latestRevision;
	for (const obj of (revision.content.read && revision.content.read.objects) || []) {
		if (obj.mapToName) mapped[obj.mapToName] = obj.objectName;
	}
	/** @type {string[]} */
	const requested = body.objects && body.objects.length ? body.objects : Object.keys(readObjects);
	const names = requested.map((name) => (readObjects[name] ? name : mapped[name]));
	const unknown = requested
		.map((name, index) => ({ name, index }))
		.filter(({ index }) => !names[index] || !readObjects[names[index]]);
	if (unknown.length) {
		throw invalid(unknown.map(({ name, index }) => issue('body', `objects[${index}]`, `Object '${name}' is not read by this installation`, name)));
	}
	for (const name of names) readObjects[name].disabled = disabled;
	installation.updateTime = nowIso();
	(installation._readNotes || (installation._readNotes = [])).push({ action: disabled ? 'pause' : 'unpause', objects: names, note: body.note, time: installation.updateTime });
	return noContent();
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{ id: 'listInstallationsForProject', method: 'GET', path: '/v1/projects/{projectIdOrName}/installations', handler: listInstallationsForProject },
	{ id: 'listInstallations', method: 'GET', path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations', handler: listInstallations },
	{ id: 'getInstallation', method: 'GET', path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}', handler: getInstallation },
	{
		id: 'unpauseReads',
		method: 'POST',
		host: 'read',
		auth: 'apiKey',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}:unpause',
		seedOp: 5,
		handler: (ctx) => setReadsPaused(ctx, false),
	},
	{
		id: 'pauseReads',
		method: 'POST',
		host: 'read',
		auth: 'apiKey',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}:pause',
		handler: (ctx) => setReadsPaused(ctx, true),
	},
];

module.exports = { routes, toInstallation, findInstallation };
