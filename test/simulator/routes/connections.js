// @ts-check
'use strict';

/**
 * Connections (docs/api-notes.md, "generateConnection", "The wider API").
 *
 * generateConnection takes the group/consumer refs, the provider and at most one
 * credential form; the form decides the Connection's authScheme (docs/api-notes.md, "Enumerations"):
 *   apiKey                    → 'apiKey'
 *   basicAuth                 → 'basic'
 *   oauth2ClientCredentials   → 'oauth2/clientCredentials'
 *   oauth2PasswordCredentials → 'oauth2/password'
 *   oauth2AuthorizationCode   → 'oauth2/authorizationCode'
 *   customAuth, or nothing    → 'none' (the enum has no custom-auth value)
 * A new connection starts in status 'created' (docs/api-notes.md, "Enumerations").
 *
 * Secrets stay out of responses, except the two credential fields that are part of the
 * Connection schema itself, `apiKey` and `oauth2AuthorizationCode`: generateConnection
 * echoes them when they were sent; list/get never return them.
 */

const { rememberSecretFields } = require('../secretLog');
const { ok, created, noContent, requireBody, findInProject } = require('./common');
const { invalid, issue } = require('../problems');
const { queryString } = require('../validate');
const { publicView, newId } = require('../state');
const { nowIso } = require('../time');
const { PROVIDERS } = require('../catalog');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 */

/** @type {Schema} */
const str = { type: 'string' };
/** @type {Schema} */
const ref = { type: 'string', minLength: 1 };
/** @type {Schema} */
const dateTime = {
	type: 'string',
	check: (v) => (Number.isNaN(Date.parse(v)) ? 'must be an RFC 3339 date-time' : undefined),
};
/** @type {Schema} */
const scopes = { type: 'array', items: str };
/** @type {Schema} */
const tokenRecord = {
	type: 'object',
	required: ['token'],
	properties: { token: ref, issuedAt: dateTime, expiresAt: dateTime },
};

/** Request body of generateConnection (docs/api-notes.md, "generateConnection"). @type {Schema} */
const GENERATE_CONNECTION = {
	type: 'object',
	required: ['groupRef', 'consumerRef', 'provider'],
	properties: {
		groupRef: ref,
		consumerRef: ref,
		provider: ref,
		providerWorkspaceRef: str,
		providerMetadata: {
			type: 'map',
			values: {
				type: 'object',
				required: ['value', 'source'],
				properties: {
					value: str,
					source: { type: 'string', enum: ['input', 'token', 'provider'] },
					displayName: str,
				},
			},
		},
		groupName: str,
		consumerName: str,
		apiKey: ref,
		customAuth: { type: 'object' },
		basicAuth: {
			type: 'object',
			required: ['username', 'password'],
			properties: { username: str, password: str },
		},
		oauth2ClientCredentials: {
			type: 'object',
			required: ['clientId', 'clientSecret'],
			properties: { clientId: ref, clientSecret: ref, scopes },
		},
		oauth2PasswordCredentials: {
			type: 'object',
			required: ['username', 'password', 'clientId', 'clientSecret'],
			properties: { username: str, password: str, clientId: ref, clientSecret: ref, scopes },
		},
		oauth2AuthorizationCode: {
			type: 'object',
			properties: { accessToken: tokenRecord, refreshToken: tokenRecord, scopes },
		},
	},
};

/** Credential form → authScheme. */
const AUTH_SCHEMES = {
	apiKey: 'apiKey',
	basicAuth: 'basic',
	oauth2ClientCredentials: 'oauth2/clientCredentials',
	oauth2PasswordCredentials: 'oauth2/password',
	oauth2AuthorizationCode: 'oauth2/authorizationCode',
	customAuth: 'none',
};

/**
 * The project's group (or consumer) with this ref, created on first use.
 * @param {Map<string, Rec>} map
 * @param {string} projectId
 * @param {'group' | 'consumer'} kind
 * @param {string} refValue
 * @param {string | undefined} name
 */
function upsertParty(map, projectId, kind, refValue, name) {
	const key = `${projectId}/${refValue}`;
	const existing = map.get(key);
	if (existing) {
		if (name && existing[`${kind}Name`] !== name) {
			existing[`${kind}Name`] = name;
			existing.updateTime = nowIso();
		}
		return existing;
	}
	const party = {
		[`${kind}Ref`]: refValue,
		[`${kind}Name`]: name || refValue,
		projectId,
		createTime: nowIso(),
	};
	map.set(key, party);
	return party;
}

/**
 * Seed op 2: 201 Connection.
 * @param {Ctx} ctx
 */
function generateConnection(ctx) {
	const body = requireBody(ctx, GENERATE_CONNECTION);
	// Provider credentials the test sent: a leak check looks for them afterwards.
	rememberSecretFields({
		apiKey: body.apiKey,
		basicAuth: body.basicAuth,
		oauth2ClientCredentials: body.oauth2ClientCredentials,
		oauth2PasswordCredentials: body.oauth2PasswordCredentials,
		oauth2AuthorizationCode: body.oauth2AuthorizationCode,
		customAuthSecret: body.customAuth,
	});
	const issues = [];
	if (!PROVIDERS[body.provider]) {
		issues.push(issue('body', 'provider', `Unknown provider '${body.provider}'`, body.provider));
	}
	const forms = Object.keys(AUTH_SCHEMES).filter((form) => body[form] !== undefined);
	if (forms.length > 1) {
		for (const form of forms.slice(1)) {
			issues.push(issue('body', form, `Send only one credential form; got ${forms.join(', ')}`));
		}
	}
	const code = body.oauth2AuthorizationCode;
	if (code && !code.accessToken && !code.refreshToken) {
		issues.push(
			issue(
				'body',
				'oauth2AuthorizationCode',
				'oauth2AuthorizationCode needs an accessToken or a refreshToken',
				code,
			),
		);
	}
	// Semantically invalid input is a 422 InputValidationProblem (docs/api-notes.md, "generateConnection").
	if (issues.length) throw invalid(issues, { status: 422 });

	const projectId = ctx.project.id;
	const group = upsertParty(ctx.state.groups, projectId, 'group', body.groupRef, body.groupName);
	const consumer = upsertParty(
		ctx.state.consumers,
		projectId,
		'consumer',
		body.consumerRef,
		body.consumerName,
	);
	const form = /** @type {keyof typeof AUTH_SCHEMES | undefined} */ (forms[0]);
	/** @type {Rec} */
	const connection = {
		id: newId(),
		projectId,
		provider: body.provider,
		group: { ...group },
		consumer: { ...consumer },
		authScheme: form ? AUTH_SCHEMES[form] : 'none',
		status: 'created',
		createTime: nowIso(),
	};
	if (body.providerWorkspaceRef !== undefined)
		connection.providerWorkspaceRef = body.providerWorkspaceRef;
	if (body.providerMetadata !== undefined) connection.providerMetadata = body.providerMetadata;
	connection._credentials = form ? { [form]: body[form] } : {};
	ctx.state.connections.set(connection.id, connection);

	const response = publicView(connection);
	if (body.apiKey !== undefined) response.apiKey = body.apiKey;
	if (code) response.oauth2AuthorizationCode = code;
	return created(response);
}

/** @param {Ctx} ctx */
function listConnections(ctx) {
	const provider = queryString(ctx.query, 'provider');
	const groupRef = queryString(ctx.query, 'groupRef');
	const consumerRef = queryString(ctx.query, 'consumerRef');
	const list = [...ctx.state.connections.values()].filter(
		(c) =>
			c.projectId === ctx.project.id &&
			(!provider || c.provider === provider) &&
			(!groupRef || c.group.groupRef === groupRef) &&
			(!consumerRef || c.consumer.consumerRef === consumerRef),
	);
	return ok(list.map(publicView));
}

/** @param {Ctx} ctx */
function getConnection(ctx) {
	return ok(
		publicView(findInProject(ctx.state.connections, ctx, 'connectionId', 'Connection not found')),
	);
}

/** updateMask values of UpdateConnectionRequest (docs/api-notes.md, "Connections"). */
const UPDATE_MASKS = [
	'providerWorkspaceRef',
	'providerMetadata',
	'apiKey',
	'basicAuth',
	'oauth2ClientCredentials',
	'oauth2PasswordCredentials',
];

/** Request body of updateConnection. @type {Schema} */
const UPDATE_CONNECTION = {
	type: 'object',
	required: ['updateMask', 'connection'],
	properties: {
		updateMask: { type: 'array', minItems: 1, items: { type: 'string', enum: UPDATE_MASKS } },
		connection: {
			type: 'object',
			properties: {
				providerWorkspaceRef: str,
				providerMetadata: GENERATE_CONNECTION.properties?.providerMetadata,
				apiKey: ref,
				basicAuth: GENERATE_CONNECTION.properties?.basicAuth,
				oauth2ClientCredentials: GENERATE_CONNECTION.properties?.oauth2ClientCredentials,
				oauth2PasswordCredentials: GENERATE_CONNECTION.properties?.oauth2PasswordCredentials,
			},
		},
	},
};

/**
 * 200 Connection. Every mask entry needs its value in `connection` (400, the remedy lists the
 * allowed masks, as the API's example does); a credential form must be the connection's own auth
 * scheme (the API answers that with a plain problem, 400 here).
 * @param {Ctx} ctx
 */
function updateConnection(ctx) {
	const connection = findInProject(
		ctx.state.connections,
		ctx,
		'connectionId',
		'Connection not found',
	);
	let body;
	try {
		body = requireBody(ctx, UPDATE_CONNECTION);
	} catch (err) {
		if (err && err.options && err.options.issues)
			err.options.remedy = `Allowed masks: '${UPDATE_MASKS.join(', ')}'`;
		throw err;
	}
	const issues = [];
	body.updateMask.forEach((/** @type {string} */ mask, /** @type {number} */ index) => {
		if (body.connection[mask] === undefined)
			issues.push(
				issue(
					'body',
					`updateMask[${index}]`,
					`updateMask names ${mask}, but connection.${mask} is missing`,
					mask,
				),
			);
		else if (
			mask in AUTH_SCHEMES &&
			AUTH_SCHEMES[/** @type {keyof typeof AUTH_SCHEMES} */ (mask)] !== connection.authScheme
		) {
			issues.push(
				issue(
					'body',
					`connection.${mask}`,
					`The connection uses auth scheme '${connection.authScheme}'; ${mask} does not match it`,
				),
			);
		}
	});
	if (issues.length) throw invalid(issues);
	rememberSecretFields({
		apiKey: body.connection.apiKey,
		basicAuth: body.connection.basicAuth,
		oauth2ClientCredentials: body.connection.oauth2ClientCredentials,
		oauth2PasswordCredentials: body.connection.oauth2PasswordCredentials,
	});
	for (const mask of body.updateMask) {
		if (mask in AUTH_SCHEMES) connection._credentials = { [mask]: body.connection[mask] };
		else connection[mask] = body.connection[mask];
	}
	connection.updateTime = nowIso();
	return ok(publicView(connection));
}

/**
 * 204. Installations that used the connection keep their record; their connection is gone.
 * @param {Ctx} ctx
 */
function deleteConnection(ctx) {
	const connection = findInProject(
		ctx.state.connections,
		ctx,
		'connectionId',
		'Connection not found',
	);
	ctx.state.connections.delete(connection.id);
	return noContent();
}

/**
 * 200 text/plain: the URL of an OAuth flow that renews the connection's tokens. Only an
 * OAuth authorization-code connection can be renewed this way (400 otherwise).
 * @param {Ctx} ctx
 */
function oauthUpdate(ctx) {
	const connection = findInProject(
		ctx.state.connections,
		ctx,
		'connectionId',
		'Connection not found',
	);
	if (connection.authScheme !== 'oauth2/authorizationCode') {
		throw invalid([
			issue(
				'path',
				'connectionId',
				`The connection uses auth scheme '${connection.authScheme}'; only oauth2/authorizationCode connections are reauthorized with OAuth`,
				connection.id,
			),
		]);
	}
	const query = new URLSearchParams({
		provider: connection.provider,
		connectionId: connection.id,
		state: newId().replace(/-/g, ''),
	});
	return {
		status: 200,
		raw: `https://oauth.simulator.example/v1/authorize?${query}`,
		contentType: 'text/plain; charset=utf-8',
	};
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'generateConnection',
		method: 'POST',
		path: '/v1/projects/{projectIdOrName}/connections:generate',
		seedOp: 2,
		handler: generateConnection,
	},
	{
		id: 'listConnections',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/connections',
		handler: listConnections,
	},
	{
		id: 'getConnection',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/connections/{connectionId}',
		handler: getConnection,
	},
	{
		id: 'updateConnection',
		method: 'PATCH',
		path: '/v1/projects/{projectIdOrName}/connections/{connectionId}',
		handler: updateConnection,
	},
	{
		id: 'oauthUpdate',
		method: 'PATCH',
		path: '/v1/projects/{projectIdOrName}/connections/{connectionId}:oauth-update',
		handler: oauthUpdate,
	},
	{
		id: 'deleteConnection',
		method: 'DELETE',
		path: '/v1/projects/{projectIdOrName}/connections/{connectionId}',
		handler: deleteConnection,
	},
];

module.exports = { routes, GENERATE_CONNECTION, AUTH_SCHEMES };
