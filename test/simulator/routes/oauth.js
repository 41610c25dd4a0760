// @ts-check
'use strict';

/**
 * OAuth connect (docs/api-notes.md, "OAuth connect and upload URLs"). `POST /oauth-connect` takes
 * the project in the BODY (`projectIdOrName`), with `provider`, `groupRef`, `consumerRef`
 * (required) and optional `groupName`, `consumerName`, `providerWorkspaceRef`,
 * `providerMetadata`, `providerAppId`, `enableCSRFProtection`. It answers 200 with the
 * authorization URL as **text/plain**, not JSON. The consumer opens that URL in a browser; the
 * connection appears when they approve at the provider (the simulator does not model that step).
 *
 * - The project is checked against the credential like a path parameter (403 for another
 *   project's API key, 404 for an unknown project).
 * - The provider must exist and use OAuth 2 (400 otherwise); providers whose base URL has a
 *   `{{.workspace}}` need `providerWorkspaceRef` (400).
 * - A `providerAppId` must name a provider app of the project for that provider (400).
 */

const { randomBytes } = require('node:crypto');
const { requireBody } = require('./common');
const { invalid, issue } = require('../problems');
const { resolveProject } = require('../auth');
const { PROVIDERS } = require('../catalog');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 */

/** @type {Schema} */
const OAUTH_CONNECT = {
	type: 'object',
	required: ['projectIdOrName', 'groupRef', 'consumerRef', 'provider'],
	properties: {
		projectIdOrName: { type: 'string', minLength: 1 },
		provider: { type: 'string', minLength: 1 },
		groupRef: { type: 'string', minLength: 1 },
		groupName: { type: 'string' },
		consumerRef: { type: 'string', minLength: 1 },
		consumerName: { type: 'string' },
		providerWorkspaceRef: { type: 'string' },
		providerMetadata: {
			type: 'map',
			values: {
				type: 'object',
				properties: {
					value: { type: 'string' },
					source: { type: 'string' },
					displayName: { type: 'string' },
				},
			},
		},
		providerAppId: { type: 'string' },
		enableCSRFProtection: { type: 'boolean' },
	},
};

/** @param {Ctx} ctx */
function oauthConnect(ctx) {
	const body = requireBody(ctx, OAUTH_CONNECT);
	const project = resolveProject(ctx.state, ctx.principal, body.projectIdOrName);
	const info = PROVIDERS[body.provider];
	if (!info)
		throw invalid([
			issue('body', 'provider', `Unknown provider '${body.provider}'`, body.provider),
		]);
	if (info.authType !== 'oauth2') {
		throw invalid([
			issue(
				'body',
				'provider',
				`${info.displayName} does not use OAuth 2 (auth type ${info.authType}); create the connection with generateConnection instead`,
				body.provider,
			),
		]);
	}
	if (info.baseURL.includes('{{.workspace}}') && !body.providerWorkspaceRef) {
		throw invalid([
			issue(
				'body',
				'providerWorkspaceRef',
				`${info.displayName} needs providerWorkspaceRef (the account's subdomain)`,
				undefined,
				'Missing required field',
			),
		]);
	}
	if (body.providerAppId !== undefined) {
		const app = ctx.state.providerApps && ctx.state.providerApps.get(body.providerAppId);
		if (!app || app.projectId !== project.id || app.provider !== body.provider) {
			throw invalid([
				issue(
					'body',
					'providerAppId',
					`No ${info.displayName} provider app with this ID in the project`,
					body.providerAppId,
				),
			]);
		}
	}
	const query = new URLSearchParams({
		provider: body.provider,
		project: project.id,
		groupRef: body.groupRef,
		consumerRef: body.consumerRef,
		state: randomBytes(12).toString('hex'),
	});
	if (body.providerWorkspaceRef) query.set('workspace', body.providerWorkspaceRef);
	return {
		status: 200,
		raw: `https://oauth.simulator.example/v1/authorize?${query}`,
		contentType: 'text/plain; charset=utf-8',
	};
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{ id: 'oauthConnect', method: 'POST', path: '/v1/oauth-connect', handler: oauthConnect },
];

module.exports = { routes };
