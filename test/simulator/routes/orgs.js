// @ts-check
'use strict';

/**
 * Organizations and invites (docs/api-notes.md, "deleteOrgInvite", "updateOrg", "getOrgInvite").
 * Every route here is BEARER ONLY ("Only bearer auth works for this endpoint";
 * docs/api-notes.md, "Credentials per operation"): they act on a builder and their org role, which a project API key does not have.
 *
 * Org: id, label, defaultTeamId, createTime, updateTime?.
 * Invite: id, invitedEmail, parentType ('org'), parentId, status
 * (pending|accepted|revoked|expired), createTime, updateTime?.
 */

const { ok, noContent, requireBody } = require('./common');
const { invalid, issue, notFound } = require('../problems');
const { requireOrgMember } = require('../auth');
const { nowIso } = require('../time');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 */

/** @type {Schema} */
const UPDATE_ORG = {
	type: 'object',
	required: ['updateMask', 'org'],
	properties: {
		// Items are not an enum in the schema; the description allows only `label`.
		updateMask: { type: 'array', minItems: 1, items: { type: 'string', enum: ['label'] } },
		org: { type: 'object', properties: { label: { type: 'string', minLength: 1, maxLength: 128 } } },
	},
};

/** @param {Ctx} ctx */
function getOrg(ctx) {
	return ok(requireOrgMember(ctx.state, ctx.principal, ctx.params.orgId));
}

/**
 * Seed op 14: 200 Org.
 * @param {Ctx} ctx
 */
function updateOrg(ctx) {
	const org = requireOrgMember(ctx.state, ctx.principal, ctx.params.orgId);
	const body = requireBody(ctx, UPDATE_ORG);
	if (body.org.label === undefined) {
		throw invalid([issue('body', 'org.label', 'org.label is required when updateMask contains label', undefined, 'Missing required field')]);
	}
	org.label = body.org.label;
	org.updateTime = nowIso();
	return ok(org);
}

/** @param {Ctx} ctx */
function listOrgInvites(ctx) {
	requireOrgMember(ctx.state, ctx.principal, ctx.params.orgId);
	return ok([...ctx.state.invites.values()].filter((i) => i.parentType === 'org' && i.parentId === ctx.params.orgId));
}

/** @param {Ctx} ctx */
function findInvite(ctx) {
	requireOrgMember(ctx.state, ctx.principal, ctx.params.orgId);
	const invite = ctx.state.invites.get(ctx.params.inviteId);
	if (!invite || invite.parentId !== ctx.params.orgId) throw notFound('inviteId', ctx.params.inviteId, 'Invite not found');
	return invite;
}

/**
 * Seed op 17: 200 Invite.
 * @param {Ctx} ctx
 */
function getOrgInvite(ctx) {
	return ok(findInvite(ctx));
}

/**
 * Seed op 11: 204; the invite's status becomes 'revoked' (the record stays, so a later get
 * shows it). Revoking twice is a no-op; an accepted invite cannot be revoked (400, the
 * status op 11 declares).
 * @param {Ctx} ctx
 */
function deleteOrgInvite(ctx) {
	const invite = findInvite(ctx);
	if (invite.status === 'accepted') {
		throw invalid([issue('path', 'inviteId', 'The invite was already accepted and cannot be revoked', ctx.params.inviteId)]);
	}
	if (invite.status !== 'revoked') {
		invite.status = 'revoked';
		invite.updateTime = nowIso();
	}
	return noContent();
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{ id: 'getOrg', method: 'GET', path: '/v1/orgs/{orgId}', auth: 'bearer', handler: getOrg },
	{ id: 'updateOrg', method: 'PATCH', path: '/v1/orgs/{orgId}', auth: 'bearer', seedOp: 14, handler: updateOrg },
	{ id: 'listOrgInvites', method: 'GET', path: '/v1/orgs/{orgId}/invites', auth: 'bearer', handler: listOrgInvites },
	{ id: 'getOrgInvite', method: 'GET', path: '/v1/orgs/{orgId}/invites/{inviteId}', auth: 'bearer', seedOp: 17, handler: getOrgInvite },
	{ id: 'deleteOrgInvite', method: 'DELETE', path: '/v1/orgs/{orgId}/invites/{inviteId}', auth: 'bearer', seedOp: 11, handler: deleteOrgInvite },
];

module.exports = { routes };
