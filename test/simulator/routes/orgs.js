// @ts-check
'use strict';

/**
 * Organizations, their builders, invites and billing account, and the signed-in builder's own info
 * (docs/api-notes.md, "deleteOrgInvite", "updateOrg", "getOrgInvite", "Organizations and builders").
 * Every route here except createOrg is BEARER ONLY ("Only bearer auth works for this endpoint";
 * docs/api-notes.md, "Credentials per operation"): they act on a builder and their org role, which a project API key does not have.
 * createOrg declares no security of its own, so it takes either credential; the bearer's builder becomes its owner.
 *
 * Org: id, label, defaultTeamId, createTime, updateTime?.
 * Invite: id, invitedEmail, parentType ('org'), parentId, status
 * (pending|accepted|revoked|expired), createTime, updateTime?.
 */

const { ok, created, noContent, requireBody } = require('./common');
const { invalid, issue, notFound, problem } = require('../problems');
const { requireOrgMember } = require('../auth');
const { newId } = require('../state');
const { nowIso } = require('../time');
const { SEED } = require('../seed');

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
		org: {
			type: 'object',
			properties: { label: { type: 'string', minLength: 1, maxLength: 128 } },
		},
	},
};

/** @type {Schema} */
const CREATE_ORG = {
	type: 'object',
	required: ['label'],
	properties: { label: { type: 'string', minLength: 1, maxLength: 128 } },
};

/** @type {Schema} */
const CREATE_INVITE = {
	type: 'object',
	required: ['email'],
	properties: {
		email: {
			type: 'string',
			minLength: 3,
			maxLength: 254,
			pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
			patternText: 'an email address',
		},
	},
};

/** @type {Schema} */
const ADD_MEMBER = {
	type: 'object',
	required: ['builderId'],
	properties: { builderId: { type: 'string', minLength: 1 } },
};

/**
 * The billing account of each seeded org that has one (BillingAccount: id, displayName,
 * billingProvider, billingProviderRef, createTime?, updateTime?). Orgs created later have none: 404.
 * @type {Record<string, Record<string, string>>}
 */
const BILLING_ACCOUNTS = {
	[SEED.orgId]: {
		id: SEED.billingAccountId,
		displayName: `${SEED.orgLabel} billing`,
		billingProvider: 'stripe',
		billingProviderRef: 'cus_SimDemoOrg0001',
		createTime: SEED.createTime,
	},
};

/**
 * A user as a Builder (id, idpProvider, idpRef, createTime required; names and primaryEmail optional).
 * @param {import('../state').Rec} user
 */
function builderView(user) {
	return {
		id: user.id,
		idpProvider: user.idpProvider || 'clerk',
		idpRef: user.idpRef || `user_${String(user.id).slice(0, 8)}`,
		createTime: user.createTime || SEED.createTime,
		...(user.firstName ? { firstName: user.firstName } : {}),
		...(user.lastName ? { lastName: user.lastName } : {}),
		...(user.firstName || user.lastName
			? { fullName: [user.firstName, user.lastName].filter(Boolean).join(' ') }
			: {}),
		primaryEmail: user.email,
	};
}

/**
 * 201 Org. With a bearer token the builder becomes the new org's owner; an API key creates an org
 * without members (the schema declares no owner field).
 * @param {Ctx} ctx
 */
function createOrg(ctx) {
	const { label } = requireBody(ctx, CREATE_ORG);
	const org = { id: newId(), label, defaultTeamId: newId(), createTime: nowIso() };
	ctx.state.orgs.set(org.id, org);
	if (ctx.principal.kind === 'bearer') ctx.principal.user.orgRoles[org.id] = 'owner';
	return created(org);
}

/** @param {Ctx} ctx */
function listOrgBuilders(ctx) {
	requireOrgMember(ctx.state, ctx.principal, ctx.params.orgId);
	return ok(
		[...ctx.state.users.values()].filter((u) => u.orgRoles[ctx.params.orgId]).map(builderView),
	);
}

/**
 * 201 with no body. Only an owner may add members (403 "Requires org:owner permission"); an unknown
 * builder is a 404; an existing membership a 400 ("Membership already exists").
 * @param {Ctx} ctx
 */
function addUserToOrg(ctx) {
	const orgId = ctx.params.orgId;
	requireOrgMember(ctx.state, ctx.principal, orgId);
	if (ctx.principal.user.orgRoles[orgId] !== 'owner')
		throw problem(403, 'Requires org:owner permission');
	const { builderId } = requireBody(ctx, ADD_MEMBER);
	const builder = ctx.state.users.get(builderId);
	if (!builder)
		throw problem(404, 'Builder not found', {
			issues: [issue('body', 'builderId', 'Builder not found', builderId, 'Not found')],
		});
	if (builder.orgRoles[orgId]) {
		throw invalid([
			issue('body', 'builderId', 'Membership already exists', builderId, 'Already a member'),
		]);
	}
	builder.orgRoles[orgId] = 'member';
	return created();
}

/** @param {Ctx} ctx */
function createOrgInvite(ctx) {
	const orgId = ctx.params.orgId;
	requireOrgMember(ctx.state, ctx.principal, orgId);
	const { email } = requireBody(ctx, CREATE_INVITE);
	const invite = {
		id: newId(),
		invitedEmail: email,
		parentType: 'org',
		parentId: orgId,
		status: 'pending',
		createTime: nowIso(),
	};
	ctx.state.invites.set(invite.id, invite);
	return created(invite);
}

/** @param {Ctx} ctx */
function getOrgBillingAccount(ctx) {
	const orgId = ctx.params.orgId;
	requireOrgMember(ctx.state, ctx.principal, orgId);
	const account = BILLING_ACCOUNTS[orgId];
	if (!account) throw notFound('orgId', orgId, 'Billing account not found');
	return ok(account);
}

/**
 * BuilderInfo: the builder, their roles on projects (keyed by project ID) and their role in an org.
 * @param {Ctx} ctx
 */
function getMyInfo(ctx) {
	const user = ctx.principal.user;
	const orgIds = Object.keys(user.orgRoles);
	/** @type {Record<string, unknown>} */
	const projectRoles = {};
	for (const project of ctx.state.projects.values()) {
		const role = user.orgRoles[project.orgId];
		if (!role) continue;
		const { entitlements, ...view } = project;
		projectRoles[project.id] = {
			role,
			principalType: 'builder',
			principalId: user.id,
			project: view,
		};
	}
	const org = orgIds.length ? ctx.state.orgs.get(orgIds[0]) : undefined;
	return ok({
		builder: builderView(user),
		projectRoles,
		...(org
			? {
					orgRole: {
						role: user.orgRoles[org.id],
						principalType: 'builder',
						principalId: user.id,
						org,
					},
				}
			: {}),
	});
}

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
		throw invalid([
			issue(
				'body',
				'org.label',
				'org.label is required when updateMask contains label',
				undefined,
				'Missing required field',
			),
		]);
	}
	org.label = body.org.label;
	org.updateTime = nowIso();
	return ok(org);
}

/** @param {Ctx} ctx */
function listOrgInvites(ctx) {
	requireOrgMember(ctx.state, ctx.principal, ctx.params.orgId);
	return ok(
		[...ctx.state.invites.values()].filter(
			(i) => i.parentType === 'org' && i.parentId === ctx.params.orgId,
		),
	);
}

/** @param {Ctx} ctx */
function findInvite(ctx) {
	requireOrgMember(ctx.state, ctx.principal, ctx.params.orgId);
	const invite = ctx.state.invites.get(ctx.params.inviteId);
	if (!invite || invite.parentId !== ctx.params.orgId)
		throw notFound('inviteId', ctx.params.inviteId, 'Invite not found');
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
		throw invalid([
			issue(
				'path',
				'inviteId',
				'The invite was already accepted and cannot be revoked',
				ctx.params.inviteId,
			),
		]);
	}
	if (invite.status !== 'revoked') {
		invite.status = 'revoked';
		invite.updateTime = nowIso();
	}
	return noContent();
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{ id: 'createOrg', method: 'POST', path: '/v1/orgs', handler: createOrg },
	{
		id: 'listOrgBuilders',
		method: 'GET',
		path: '/v1/orgs/{orgId}/builders',
		auth: 'bearer',
		handler: listOrgBuilders,
	},
	{
		id: 'addUserToOrg',
		method: 'POST',
		path: '/v1/orgs/{orgId}/memberships',
		auth: 'bearer',
		handler: addUserToOrg,
	},
	{
		id: 'createOrgInvite',
		method: 'POST',
		path: '/v1/orgs/{orgId}/invites',
		auth: 'bearer',
		handler: createOrgInvite,
	},
	{
		id: 'getOrgBillingAccount',
		method: 'GET',
		path: '/v1/orgs/{orgId}/billingAccount',
		auth: 'bearer',
		handler: getOrgBillingAccount,
	},
	{ id: 'getMyInfo', method: 'GET', path: '/v1/my-info', auth: 'bearer', handler: getMyInfo },
	{ id: 'getOrg', method: 'GET', path: '/v1/orgs/{orgId}', auth: 'bearer', handler: getOrg },
	{
		id: 'updateOrg',
		method: 'PATCH',
		path: '/v1/orgs/{orgId}',
		auth: 'bearer',
		seedOp: 14,
		handler: updateOrg,
	},
	{
		id: 'listOrgInvites',
		method: 'GET',
		path: '/v1/orgs/{orgId}/invites',
		auth: 'bearer',
		handler: listOrgInvites,
	},
	{
		id: 'getOrgInvite',
		method: 'GET',
		path: '/v1/orgs/{orgId}/invites/{inviteId}',
		auth: 'bearer',
		seedOp: 17,
		handler: getOrgInvite,
	},
	{
		id: 'deleteOrgInvite',
		method: 'DELETE',
		path: '/v1/orgs/{orgId}/invites/{inviteId}',
		auth: 'bearer',
		seedOp: 11,
		handler: deleteOrgInvite,
	},
];

module.exports = { routes };
