// @ts-check
'use strict';

/**
 * Claimed domains (docs/api-notes.md, "claimDomain"). BEARER ONLY.
 *
 * claimDomain body: domain, parentId, parentType (all required strings). The domain may be
 * an email address (→ the part after the at sign), a URL (→ its hostname) or a bare domain; a leading
 * `www.` is dropped and the result lower-cased.
 *   - claimed by another org     → 409 "Domain already claimed by another organization"
 *   - claimed by the same org    → 201 again (idempotent: the conflict is about *another*
 *                                  organization, and retries stay safe)
 *   - parentId not an org of the caller → 403
 *   - parentType other than 'org' → 422 (not an enum in the schema; 'org' is the only parent
 *                                  that exists)
 * Success is 201 with no body.
 */

const { ok, created, requireBody } = require('./common');
const { problem, invalid, issue, notFound } = require('../problems');
const { requireOrgMember } = require('../auth');
const { queryString } = require('../validate');
const { newId, publicView } = require('../state');
const { nowIso } = require('../time');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 */

/** @type {Schema} */
const CLAIM_DOMAIN = {
	type: 'object',
	required: ['domain', 'parentId', 'parentType'],
	properties: {
		domain: { type: 'string', minLength: 1 },
		parentId: { type: 'string', minLength: 1 },
		parentType: { type: 'string', minLength: 1 },
	},
};

const DOMAIN_PATTERN =
	/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/**
 * Email → the part after the at sign; URL → hostname; then lower-case and drop a leading `www.`.
 * @param {string} input
 * @returns {string | undefined} undefined when no valid domain comes out
 */
function normaliseDomain(input) {
	let text = input.trim().toLowerCase();
	if (text.includes('@') && !text.includes('/')) {
		text = text.slice(text.lastIndexOf('@') + 1);
	} else if (/^[a-z][a-z0-9+.-]*:\/\//.test(text) || text.includes('/')) {
		try {
			text = new URL(text.includes('://') ? text : `http://${text}`).hostname;
		} catch {
			return undefined;
		}
	}
	text = text.replace(/\.$/, '').replace(/^www\./, '');
	return DOMAIN_PATTERN.test(text) ? text : undefined;
}

/**
 * Seed op 13: 201, no body.
 * @param {Ctx} ctx
 */
function claimDomain(ctx) {
	const body = requireBody(ctx, CLAIM_DOMAIN);
	const domain = normaliseDomain(body.domain);
	if (!domain)
		throw invalid([
			issue(
				'body',
				'domain',
				'domain must be an email address, a domain name or a URL',
				body.domain,
			),
		]);
	if (body.parentType !== 'org')
		throw invalid([issue('body', 'parentType', 'parentType must be org', body.parentType)], {
			status: 422,
		});
	const org = ctx.state.orgs.get(body.parentId);
	if (!org || ctx.principal.kind !== 'bearer' || !ctx.principal.user.orgRoles[org.id]) {
		throw problem(403, 'You can only claim domains for an organization you belong to');
	}
	const existing = [...ctx.state.claimedDomains.values()].find((c) => c.domain === domain);
	if (existing && existing.parentId !== org.id) {
		throw problem(409, 'Domain already claimed by another organization', { context: { domain } });
	}
	if (!existing) {
		const claim = {
			id: newId(),
			domain,
			parentType: 'org',
			parentId: org.id,
			createTime: nowIso(),
		};
		ctx.state.claimedDomains.set(claim.id, claim);
	}
	return created();
}

/**
 * `GET /claimed-domains?domain=` → ClaimedDomainResponse {id, parentType, parentId, domain}, 404 if unclaimed.
 * @param {Ctx} ctx
 */
function checkClaimedDomain(ctx) {
	const raw = queryString(ctx.query, 'domain');
	if (!raw)
		throw invalid([
			issue('query', 'domain', 'domain is required', undefined, 'Missing required parameter'),
		]);
	const domain = normaliseDomain(raw);
	const claim = domain && [...ctx.state.claimedDomains.values()].find((c) => c.domain === domain);
	if (!claim)
		throw problem(404, 'Domain is not claimed', {
			issues: [issue('query', 'domain', 'Domain is not claimed', raw, 'Not found')],
		});
	const { createTime, ...view } = publicView(claim);
	return ok(view);
}

/** @param {Ctx} ctx */
function listOrgClaimedDomains(ctx) {
	requireOrgMember(ctx.state, ctx.principal, ctx.params.orgId);
	return ok(
		[...ctx.state.claimedDomains.values()]
			.filter((c) => c.parentId === ctx.params.orgId)
			.map(({ id, parentType, parentId, domain }) => ({ id, parentType, parentId, domain })),
	);
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'claimDomain',
		method: 'POST',
		path: '/v1/claimed-domains',
		auth: 'bearer',
		seedOp: 13,
		handler: claimDomain,
	},
	{
		id: 'checkClaimedDomain',
		method: 'GET',
		path: '/v1/claimed-domains',
		auth: 'bearer',
		handler: checkClaimedDomain,
	},
	{
		id: 'listOrgClaimedDomains',
		method: 'GET',
		path: '/v1/orgs/{orgId}/claimed-domains',
		auth: 'bearer',
		handler: listOrgClaimedDomains,
	},
];

module.exports = { routes, normaliseDomain };
