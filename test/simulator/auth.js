// @ts-check
'use strict';

/**
 * Authentication and access checks (docs/api-notes.md, "Credentials per operation").
 *
 * Management host: every route accepts `X-Api-Key` or `Authorization: Bearer`, except
 *   - `GET /v1/providers[/{provider}]`: no auth at all (`security: []`);
 *   - the bearer-only routes (orgs, invites, claimed domains: "Only bearer auth works for
 *     this endpoint"), where an API key gets a 401.
 * Read and write hosts: `X-Api-Key` only (their documents' global security); a bearer token gets a 401.
 * Search host: either, like the management host. The proxy host checks its own headers (proxy.js).
 *
 * When both headers are sent to a route that accepts either, the API key wins (the amp-labs
 * CLI sends one or the other, never both, so the real precedence is unknown).
 *
 * An API key belongs to one project and can reach only that project (by id or name);
 * a bearer token reaches the projects and orgs of its builder's organizations. Credential
 * values are never echoed in a response.
 */

const { problem, notFound } = require('./problems');

/**
 * @typedef {import('./state').State} State
 * @typedef {import('./state').Rec} Rec
 * @typedef {{ kind: 'none' } | { kind: 'apiKey', apiKey: Rec, projectId: string } | { kind: 'bearer', user: Rec }} Principal
 * @typedef {'none' | 'any' | 'bearer' | 'apiKey'} AuthMode
 */

/** @param {string} detail @param {string} [remedy] */
function unauthorized(detail, remedy) {
	return problem(401, detail, { title: 'Unauthorized', remedy });
}

/**
 * @param {Record<string, string | string[] | undefined>} headers lower-cased request headers
 * @returns {{ apiKey?: string, bearer?: string, badAuthorization?: boolean }}
 */
function readCredentials(headers) {
	const apiKeyHeader = headers['x-api-key'];
	const apiKey = Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader;
	const authorization = headers.authorization;
	/** @type {{ apiKey?: string, bearer?: string, badAuthorization?: boolean }} */
	const creds = {};
	if (apiKey && apiKey.trim()) creds.apiKey = apiKey.trim();
	if (typeof authorization === 'string' && authorization.trim()) {
		const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim());
		if (match) creds.bearer = match[1];
		else creds.badAuthorization = true;
	}
	return creds;
}

/**
 * @param {State} state
 * @param {string} key
 * @returns {Principal}
 */
function apiKeyPrincipal(state, key) {
	const record = state.apiKeys.get(key);
	if (!record || record.active === false)
		throw unauthorized(
			'Invalid API key',
			'Check the X-Api-Key header: the key may have been deleted or deactivated.',
		);
	return { kind: 'apiKey', apiKey: record, projectId: record.projectId };
}

/**
 * @param {State} state
 * @param {string} token
 * @returns {Principal}
 */
function bearerPrincipal(state, token) {
	const session = state.sessions.get(token);
	const user = session && !session.expired ? state.users.get(session.userId) : undefined;
	if (!user)
		throw unauthorized(
			'Invalid or expired bearer token',
			'Sign in again to get a fresh builder session token.',
		);
	return { kind: 'bearer', user };
}

/**
 * Works out who is calling, or throws a 401 problem.
 * @param {{ state: State, host: import('./router').Host, headers: Record<string, any> }} ctx
 * @param {AuthMode} mode
 * @returns {Principal}
 */
function authenticate(ctx, mode) {
	if (mode === 'none') return { kind: 'none' };
	const creds = readCredentials(ctx.headers);

	if (mode === 'apiKey') {
		// The read and write APIs apply APIKeyHeader only (docs/api-notes.md, "unpauseReads", "Data plane").
		if (creds.apiKey) return apiKeyPrincipal(ctx.state, creds.apiKey);
		if (creds.bearer || creds.badAuthorization) {
			throw unauthorized(
				`The ${ctx.host === 'write' ? 'write' : 'read'} API accepts only X-Api-Key; an Authorization header is not accepted here`,
				'Send the project API key in the X-Api-Key header.',
			);
		}
		throw unauthorized(
			'Missing X-Api-Key header',
			'Send the project API key in the X-Api-Key header.',
		);
	}

	if (mode === 'bearer') {
		// "Only bearer auth works for this endpoint" (docs/api-notes.md, "Credentials per operation").
		if (creds.bearer) return bearerPrincipal(ctx.state, creds.bearer);
		if (creds.badAuthorization)
			throw unauthorized('Authorization header must use the Bearer scheme');
		if (creds.apiKey) {
			throw unauthorized(
				'Only bearer auth works for this endpoint; an X-Api-Key is not accepted',
				'Send a builder session token as Authorization: Bearer <token>.',
			);
		}
		throw unauthorized(
			'Missing Authorization header: only bearer auth works for this endpoint',
			'Send a builder session token as Authorization: Bearer <token>.',
		);
	}

	if (creds.apiKey) return apiKeyPrincipal(ctx.state, creds.apiKey);
	if (creds.bearer) return bearerPrincipal(ctx.state, creds.bearer);
	if (creds.badAuthorization) throw unauthorized('Authorization header must use the Bearer scheme');
	throw unauthorized(
		'Missing credentials: send an X-Api-Key header or an Authorization: Bearer header',
	);
}

/**
 * Finds a project by id or name (docs/api-notes.md, "Hosts and base URLs": projectIdOrName) and checks the caller may use it.
 * @param {State} state
 * @param {Principal} principal
 * @param {string} projectIdOrName
 * @returns {Rec}
 */
function resolveProject(state, principal, projectIdOrName) {
	let project = state.projects.get(projectIdOrName);
	if (!project) project = [...state.projects.values()].find((p) => p.name === projectIdOrName);
	if (!project) throw notFound('projectIdOrName', projectIdOrName, 'Project not found');
	if (principal.kind === 'apiKey' && principal.projectId !== project.id) {
		throw problem(403, 'This API key does not have access to the requested project', {
			remedy: 'An API key belongs to one project: use a key of the project you address.',
		});
	}
	if (principal.kind === 'bearer' && !principal.user.orgRoles[project.orgId]) {
		throw problem(403, 'You do not have access to the requested project', {
			remedy: "Ask an owner of the project's organization for access.",
		});
	}
	return project;
}

/**
 * For the bearer-only org routes: the org must exist and the builder must belong to it.
 * @param {State} state
 * @param {Principal} principal
 * @param {string} orgId
 * @returns {Rec}
 */
function requireOrgMember(state, principal, orgId) {
	const org = state.orgs.get(orgId);
	if (!org) throw notFound('orgId', orgId, 'Organization not found');
	if (principal.kind !== 'bearer' || !principal.user.orgRoles[orgId]) {
		throw problem(403, 'You are not a member of this organization');
	}
	return org;
}

/**
 * Org ids the caller can see: its builder's orgs, or the org of its API key's project.
 * @param {State} state
 * @param {Principal} principal
 * @returns {string[]}
 */
function orgIdsOf(state, principal) {
	if (principal.kind === 'bearer') return Object.keys(principal.user.orgRoles);
	if (principal.kind === 'apiKey') {
		const project = state.projects.get(principal.projectId);
		return project ? [project.orgId] : [];
	}
	return [];
}

module.exports = { authenticate, resolveProject, requireOrgMember, orgIdsOf, readCredentials };
