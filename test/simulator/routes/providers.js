// @ts-check
'use strict';

/**
 * The provider catalog (docs/api-notes.md, "The wider API"): NO auth (`security: []`).
 * `GET /v1/providers` answers an object keyed by provider name → ProviderInfo.
 */

const { ok } = require('./common');
const { problem } = require('../problems');
const { PROVIDERS } = require('../catalog');

/** @typedef {import('../router').Ctx} Ctx */

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'listProviders',
		method: 'GET',
		path: '/v1/providers',
		auth: 'none',
		handler: () => ok(PROVIDERS),
	},
	{
		id: 'getProvider',
		method: 'GET',
		path: '/v1/providers/{provider}',
		auth: 'none',
		handler: (ctx) => {
			const info = PROVIDERS[ctx.params.provider];
			if (!info) throw problem(404, `Provider '${ctx.params.provider}' not found`);
			return ok(info);
		},
	},
];

module.exports = { routes };
