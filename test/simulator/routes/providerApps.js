// @ts-check
'use strict';

/**
 * Provider apps (docs/api-notes.md, "Provider apps"): a builder's OAuth app at a provider.
 * ProviderApp: id, projectId, provider, clientId, createTime (required), externalRef?, scopes?,
 * metadata? ({ authQueryParams?: map of string lists, providerParams?: map of strings }),
 * updateTime?. The client secret is write-only: kept as `_clientSecret`, never returned and never
 * echoed in issues (secretLog remembers it). The API documents no uniqueness rule (e.g. one app
 * per provider), so the simulator enforces none.
 */

const { ok, noContent, requireBody, findInProject } = require('./common');
const { maskedChanges } = require('./updateMask');
const { newId, publicView } = require('../state');
const { nowIso } = require('../time');
const { remember } = require('../secretLog');
const { PROVIDERS } = require('../catalog');
const { seedWorld } = require('../seed');

/** @typedef {import('../router').Ctx} Ctx @typedef {import('../validate').Schema} Schema */

for (const app of seedWorld().providerApps) remember(app._clientSecret);

/** @type {Schema} */
const TEXT = { type: 'string', minLength: 1 };
/** @type {Schema} */
const PROVIDER = {
	type: 'string',
	minLength: 1,
	check: (value) => (PROVIDERS[value] ? undefined : 'is not a provider of the catalog'),
};
/** @type {Schema} */
const SCOPES = { type: 'array', items: { type: 'string' } };
/** @type {Schema} */
const METADATA = {
	type: 'object',
	properties: {
		authQueryParams: { type: 'map', values: { type: 'array', items: { type: 'string' } } },
		providerParams: { type: 'map', values: { type: 'string' } },
	},
};

/** @type {Schema} */
const CREATE_PROVIDER_APP = {
	type: 'object',
	required: ['clientId', 'clientSecret', 'provider'],
	properties: {
		externalRef: { type: 'string' },
		provider: PROVIDER,
		clientId: TEXT,
		clientSecret: TEXT,
		scopes: SCOPES,
		metadata: METADATA,
	},
};

/** Issues never carry the client secret's value. @param {Ctx} ctx @param {Schema} schema */
function bodyWithoutEchoedSecret(ctx, schema) {
	try {
		return requireBody(ctx, schema);
	} catch (err) {
		const issues = err?.options?.issues;
		if (Array.isArray(issues)) {
			for (const entry of issues) if (/clientSecret/.test(entry.name ?? '')) delete entry.value;
		}
		throw err;
	}
}

/** @param {Ctx} ctx */
function listProviderApps(ctx) {
	return ok(
		[...ctx.state.providerApps.values()]
			.filter((a) => a.projectId === ctx.project.id)
			.map(publicView),
	);
}

/** 200 ProviderApp (the API documents 200, not 201). @param {Ctx} ctx */
function createProviderApp(ctx) {
	const body = bodyWithoutEchoedSecret(ctx, CREATE_PROVIDER_APP);
	remember(body.clientSecret);
	const app = {
		id: newId(),
		projectId: ctx.project.id,
		provider: body.provider,
		clientId: body.clientId,
		...(body.externalRef !== undefined ? { externalRef: body.externalRef } : {}),
		...(body.scopes !== undefined ? { scopes: body.scopes } : {}),
		...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
		createTime: nowIso(),
		_clientSecret: body.clientSecret,
	};
	ctx.state.providerApps.set(app.id, app);
	return ok(publicView(app));
}

/** Mask of externalRef, clientId, clientSecret, provider, scopes, metadata; 200 ProviderApp. @param {Ctx} ctx */
function updateProviderApp(ctx) {
	const app = findInProject(ctx.state.providerApps, ctx, 'providerAppId', 'Provider app not found');
	const secret = ctx.body?.providerApp?.clientSecret;
	if (typeof secret === 'string') remember(secret);
	const changes = maskedChanges(
		ctx,
		'providerApp',
		{
			externalRef: { type: 'string' },
			clientId: TEXT,
			clientSecret: TEXT,
			provider: PROVIDER,
			scopes: SCOPES,
			metadata: METADATA,
		},
		{ secretFields: ['clientSecret'] },
	);
	const { clientSecret, ...rest } = changes;
	Object.assign(app, rest, clientSecret !== undefined ? { _clientSecret: clientSecret } : {}, {
		updateTime: nowIso(),
	});
	return ok(publicView(app));
}

/** 204. @param {Ctx} ctx */
function deleteProviderApp(ctx) {
	const app = findInProject(ctx.state.providerApps, ctx, 'providerAppId', 'Provider app not found');
	ctx.state.providerApps.delete(app.id);
	return noContent();
}

const BASE = '/v1/projects/{projectIdOrName}/provider-apps';

/** @type {import('../router').RouteDef[]} */
const routes = [
	{ id: 'listProviderApps', method: 'GET', path: BASE, handler: listProviderApps },
	{ id: 'createProviderApp', method: 'POST', path: BASE, handler: createProviderApp },
	{
		id: 'updateProviderApp',
		method: 'PATCH',
		path: `${BASE}/{providerAppId}`,
		handler: updateProviderApp,
	},
	{
		id: 'deleteProviderApp',
		method: 'DELETE',
		path: `${BASE}/{providerAppId}`,
		handler: deleteProviderApp,
	},
];

module.exports = { routes };
