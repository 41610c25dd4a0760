// @ts-check
'use strict';

/**
 * Destinations (docs/api-notes.md, "getDestination", "The wider API", "Enumerations").
 *
 * - The `{destination}` path parameter matches a destination's name OR its id (GET calls
 *   it a name, PATCH/DELETE an id; "getDestination").
 * - Destination has no projectId field. `secrets` is only returned by getDestination with
 *   includeSecrets=true, and only holds `webhookSigningKey` (webhook destinations); other
 *   types answer `secrets: {}` because their stored secrets are write-only.
 * - Webhook destinations get a generated Svix-style signing key, `whsec_` + base64 of 24
 *   random bytes (docs/api-notes.md, "Webhook signatures (Svix)"). `rotate=true` on the GET issues a new one (a side
 *   effect on a GET, as in the real API).
 * - Webhook URLs must be https (docs/api-notes.md, "Webhook signatures (Svix)") unless the
 *   simulator was started with httpsWebhooksOnly: false (handy for local n8n over http).
 */

const { randomBytes } = require('node:crypto');
const { remember } = require('../secretLog');
const { ok, created, noContent, requireBody } = require('./common');
const { problem, invalid, issue, notFound } = require('../problems');
const { queryBool } = require('../validate');
const { publicView, newId } = require('../state');
const { nowIso } = require('../time');
const {
	DESTINATION_TYPES,
	DESTINATION_METADATA_FIELDS,
	DESTINATION_SECRET_FIELDS,
} = require('../catalog');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 * @typedef {import('../problems').Issue} Issue
 */

/** @type {Schema} */
const NAME = {
	type: 'string',
	minLength: 1,
	maxLength: 64,
	pattern: /^[A-Za-z0-9-]+$/,
	patternText: 'only letters, digits and dashes',
};

/** @type {Record<string, Schema>} */
const METADATA_PROPERTIES = Object.fromEntries(
	DESTINATION_METADATA_FIELDS.map((f) => [f, /** @type {Schema} */ ({ type: 'string' })]),
);
METADATA_PROPERTIES.headers = { type: 'map', nullable: true, values: { type: 'string' } };
METADATA_PROPERTIES.tls = { type: 'boolean' };
METADATA_PROPERTIES.batchSize = { type: 'integer', minimum: 1 };
METADATA_PROPERTIES.maxWaitSecs = { type: 'integer', minimum: 0 };

/** @type {Schema} */
const CREATE_DESTINATION = {
	type: 'object',
	required: ['name', 'type', 'metadata'],
	properties: {
		name: NAME,
		type: { type: 'string', enum: Object.keys(DESTINATION_TYPES) },
		metadata: { type: 'object', properties: METADATA_PROPERTIES },
		secrets: { type: 'map', values: { type: 'string' } },
	},
};

/** @type {Schema} */
const UPDATE_DESTINATION = {
	type: 'object',
	required: ['updateMask', 'destination'],
	properties: {
		updateMask: { type: 'array', minItems: 1, items: { type: 'string' } },
		destination: {
			type: 'object',
			properties: {
				name: NAME,
				metadata: { type: 'object', properties: METADATA_PROPERTIES },
				secrets: { type: 'map', values: { type: 'string' } },
			},
		},
	},
};

/** A fresh Svix-style signing secret. */
function newSigningKey() {
	const key = `whsec_${randomBytes(24).toString('base64')}`;
	remember(key);
	return key;
}

/**
 * Issues for a webhook (or Slack) URL.
 * @param {unknown} url
 * @param {string} name issue name, e.g. 'metadata.url' or 'destination.metadata.url'
 * @param {boolean} httpsOnly
 * @returns {Issue[]}
 */
function urlIssues(url, name, httpsOnly) {
	if (typeof url !== 'string') return [];
	let parsed;
	try {
		parsed = new URL(url);
	} catch {
		return [issue('body', name, 'Webhook URL is not a valid URL', url)];
	}
	if (httpsOnly && parsed.protocol !== 'https:')
		return [issue('body', name, 'Webhook URLs must use https', url)];
	if (!httpsOnly && parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
		return [issue('body', name, 'Webhook URLs must use http or https', url)];
	return [];
}

/**
 * @param {Ctx} ctx
 * @returns {Rec}
 */
function findDestination(ctx) {
	const ref = ctx.params.destination;
	const inProject = [...ctx.state.destinations.values()].filter(
		(d) => d._projectId === ctx.project.id,
	);
	const found = inProject.find((d) => d.id === ref) || inProject.find((d) => d.name === ref);
	if (!found) throw notFound('destination', ref, 'Destination not found');
	return found;
}

/**
 * @param {Ctx} ctx
 * @param {string} name
 * @param {string} [exceptId]
 */
function assertNameFree(ctx, name, exceptId) {
	const taken = [...ctx.state.destinations.values()].some(
		(d) => d._projectId === ctx.project.id && d.name === name && d.id !== exceptId,
	);
	if (taken) throw problem(409, `A destination named '${name}' already exists in this project`);
}

/** @param {Ctx} ctx */
function createDestination(ctx) {
	const body = requireBody(ctx, CREATE_DESTINATION);
	const rules = DESTINATION_TYPES[body.type];
	const secrets = body.secrets || {};
	/** @type {Issue[]} */
	const issues = [];
	for (const field of rules.metadata) {
		if (body.metadata[field] === undefined)
			issues.push(
				issue(
					'body',
					`metadata.${field}`,
					`metadata.${field} is required for ${body.type} destinations`,
					undefined,
					'Missing required field',
				),
			);
	}
	for (const field of rules.secrets) {
		if (secrets[field] === undefined)
			issues.push(
				issue(
					'body',
					`secrets.${field}`,
					`secrets.${field} is required for ${body.type} destinations`,
					undefined,
					'Missing required field',
				),
			);
	}
	if (body.type === 'webhook' || body.type === 'slack')
		issues.push(...urlIssues(body.metadata.url, 'metadata.url', ctx.options.httpsWebhooksOnly));
	if (issues.length) throw invalid(issues);
	assertNameFree(ctx, body.name);

	const destination = {
		id: newId(),
		name: body.name,
		type: body.type,
		metadata: body.type === 'webhook' ? { headers: {}, ...body.metadata } : body.metadata,
		createTime: nowIso(),
		_projectId: ctx.project.id,
		// webhookSigningKey is generated, never set (docs/api-notes.md, "Enumerations"); other secrets are write-only.
		_secrets: body.type === 'webhook' ? { webhookSigningKey: newSigningKey() } : { ...secrets },
	};
	ctx.state.destinations.set(destination.id, destination);
	return created(publicView(destination));
}

/**
 * No secrets and no parameters (docs/api-notes.md, "The wider API").
 * @param {Ctx} ctx
 */
function listDestinations(ctx) {
	return ok(
		[...ctx.state.destinations.values()]
			.filter((d) => d._projectId === ctx.project.id)
			.map(publicView),
	);
}

/**
 * Seed op 7: 200 Destination; `secrets` only with includeSecrets=true.
 * @param {Ctx} ctx
 */
function getDestination(ctx) {
	/** @type {Issue[]} */
	const issues = [];
	const includeSecrets = queryBool(ctx.query, 'includeSecrets', false, issues);
	const rotate = queryBool(ctx.query, 'rotate', false, issues);
	if (issues.length) throw invalid(issues);
	const destination = findDestination(ctx);
	if (rotate && destination.type === 'webhook') {
		destination._secrets = { ...destination._secrets, webhookSigningKey: newSigningKey() };
		destination.updateTime = nowIso();
	}
	const view = publicView(destination);
	if (includeSecrets) {
		view.secrets =
			destination.type === 'webhook'
				? { webhookSigningKey: destination._secrets.webhookSigningKey }
				: {};
	}
	return ok(view);
}

/**
 * PATCH with an update mask: `name`, `metadata.<field>` or `secrets.<field>` (docs/api-notes.md, "The wider API").
 * A mask entry whose value is missing from `destination` is a 422, as for JWT keys.
 * @param {Ctx} ctx
 */
function updateDestination(ctx) {
	const destination = findDestination(ctx);
	const body = requireBody(ctx, UPDATE_DESTINATION);
	const patch = body.destination;
	/** @type {Issue[]} */
	const maskIssues = [];
	/** @type {Issue[]} */
	const valueIssues = [];
	/** @type {[string, string | undefined, unknown][]} */
	const changes = [];
	body.updateMask.forEach((/** @type {string} */ path, /** @type {number} */ index) => {
		const [section, field, ...more] = path.split('.');
		const valid =
			more.length === 0 &&
			((section === 'name' && field === undefined) ||
				(section === 'metadata' && DESTINATION_METADATA_FIELDS.includes(field)) ||
				(section === 'secrets' && DESTINATION_SECRET_FIELDS.includes(field)));
		if (!valid) {
			maskIssues.push(
				issue(
					'body',
					`updateMask[${index}]`,
					`'${path}' is not an updatable field; use name, metadata.<field> or secrets.<field>`,
					path,
				),
			);
			return;
		}
		const value = field === undefined ? patch[section] : (patch[section] || {})[field];
		if (value === undefined) {
			valueIssues.push(
				issue(
					'body',
					`destination.${path}`,
					`value not found for mask '${path}'`,
					undefined,
					'Missing value',
				),
			);
			return;
		}
		changes.push([section, field, value]);
	});
	if (maskIssues.length) throw invalid(maskIssues);
	if (valueIssues.length) throw invalid(valueIssues, { status: 422 });

	for (const [section, field, value] of changes) {
		if (section === 'name') assertNameFree(ctx, String(value), destination.id);
		if (
			section === 'metadata' &&
			field === 'url' &&
			(destination.type === 'webhook' || destination.type === 'slack')
		) {
			const issues = urlIssues(value, 'destination.metadata.url', ctx.options.httpsWebhooksOnly);
			if (issues.length) throw invalid(issues);
		}
	}
	for (const [section, field, value] of changes) {
		if (section === 'name') destination.name = value;
		else if (section === 'metadata')
			destination.metadata = { ...destination.metadata, [String(field)]: value };
		else if (field !== 'webhookSigningKey')
			destination._secrets = { ...destination._secrets, [String(field)]: value };
	}
	destination.updateTime = nowIso();
	return ok(publicView(destination));
}

/**
 * 204. Topic-destination routes that point at the destination go with it.
 * @param {Ctx} ctx
 */
function deleteDestination(ctx) {
	const destination = findDestination(ctx);
	ctx.state.destinations.delete(destination.id);
	for (const [id, route] of ctx.state.topicDestinationRoutes) {
		if (route.destinationId === destination.id) ctx.state.topicDestinationRoutes.delete(id);
	}
	return noContent();
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'createDestination',
		method: 'POST',
		path: '/v1/projects/{projectIdOrName}/destinations',
		handler: createDestination,
	},
	{
		id: 'listDestinations',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/destinations',
		handler: listDestinations,
	},
	{
		id: 'getDestination',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/destinations/{destination}',
		seedOp: 7,
		handler: getDestination,
	},
	{
		id: 'updateDestination',
		method: 'PATCH',
		path: '/v1/projects/{projectIdOrName}/destinations/{destination}',
		handler: updateDestination,
	},
	{
		id: 'deleteDestination',
		method: 'DELETE',
		path: '/v1/projects/{projectIdOrName}/destinations/{destination}',
		handler: deleteDestination,
	},
];

module.exports = { routes, findDestination, newSigningKey };
