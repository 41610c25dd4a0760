// @ts-check
'use strict';

/**
 * Integrations and revisions (docs/api-notes.md, "createIntegration", "getHydratedRevision",
 * "listIntegrations", "The wider API").
 * Integration: id, projectId, name, provider, createTime, updateTime?, latestRevision
 * {id, specVersion, createTime, content} (the seed's "the service" field).
 */

const { ok, created, noContent, requireBody } = require('./common');
const { problem, invalid, issue, notFound } = require('../problems');
const { validate, queryString } = require('../validate');
const { newId } = require('../state');
const { nowIso } = require('../time');
const { PROVIDERS } = require('../catalog');
const { CONTENT, hydrateContent } = require('../manifest');
const YAML = require('yaml');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 */

/** Request body of createIntegration: all three fields required (docs/api-notes.md, "createIntegration"). @type {Schema} */
const CREATE_INTEGRATION = {
	type: 'object',
	required: ['name', 'provider', 'latestRevision'],
	properties: {
		name: { type: 'string', minLength: 1 },
		provider: { type: 'string', minLength: 1 },
		latestRevision: {
			type: 'object',
			required: ['specVersion', 'content'],
			properties: { specVersion: { type: 'string', minLength: 1 }, content: { type: 'object' } },
		},
	},
};

/**
 * An integration of the current project by id or name (getIntegration accepts either).
 * @param {Ctx} ctx
 * @param {string} param
 * @returns {Rec}
 */
function findIntegration(ctx, param) {
	const ref = ctx.params[param];
	const inProject = [...ctx.state.integrations.values()].filter(
		(i) => i.projectId === ctx.project.id,
	);
	const found = inProject.find((i) => i.id === ref) || inProject.find((i) => i.name === ref);
	if (!found) throw notFound(param, ref, 'Integration not found');
	return found;
}

/**
 * Seed op 4: 201 with an empty body. Shape errors of the request are 400; problems inside
 * the manifest content (e.g. a missing content.name) are 422 (docs/api-notes.md, "createIntegration").
 * @param {Ctx} ctx
 */
function createIntegration(ctx) {
	const body = requireBody(ctx, CREATE_INTEGRATION);
	const content = body.latestRevision.content;
	const issues = validate(content, CONTENT, { name: 'latestRevision.content' });
	if (!PROVIDERS[body.provider])
		issues.unshift(issue('body', 'provider', `Unknown provider '${body.provider}'`, body.provider));
	if (issues.length) throw invalid(issues, { status: 422 });

	// Not documented: names are unique per project (the batch upsert addresses integrations by
	// name), so a duplicate is answered like the other duplicate-name cases, with 409.
	const duplicate = [...ctx.state.integrations.values()].some(
		(i) => i.projectId === ctx.project.id && i.name === body.name,
	);
	if (duplicate)
		throw problem(409, `An integration named '${body.name}' already exists in this project`);

	const now = nowIso();
	const revision = {
		id: newId(),
		specVersion: body.latestRevision.specVersion,
		createTime: now,
		content,
	};
	const integration = {
		id: newId(),
		projectId: ctx.project.id,
		name: body.name,
		provider: body.provider,
		createTime: now,
		latestRevision: revision,
	};
	ctx.state.integrations.set(integration.id, integration);
	ctx.state.revisions.set(revision.id, { ...revision, _integrationId: integration.id });
	return created();
}

/**
 * Seed op 8: a bare array, no pagination.
 * @param {Ctx} ctx
 */
function listIntegrations(ctx) {
	return ok([...ctx.state.integrations.values()].filter((i) => i.projectId === ctx.project.id));
}

/** @param {Ctx} ctx */
function getIntegration(ctx) {
	return ok(findIntegration(ctx, 'integrationIdOrName'));
}

/** Body of createRevision and batchUpsertIntegrations: one of the two sources. @type {Schema} */
const SOURCE = {
	type: 'object',
	properties: {
		sourceYaml: { type: 'string', minLength: 1 },
		sourceZipUrl: { type: 'string', minLength: 1 },
	},
};

/**
 * The integrations of the request's source, checked like createIntegration's content.
 * `sourceYaml` is an amp.yaml (`specVersion`, `integrations: [...]`). The simulator cannot
 * download a `sourceZipUrl`: it answers 422 as the service does for a zip it cannot fetch.
 * `?destructive=` must be a boolean; the simulator has nothing destructive to do.
 * @param {Ctx} ctx
 * @returns {{ specVersion: string, integrations: Rec[] }}
 */
function readSource(ctx) {
	const destructive = queryString(ctx.query, 'destructive');
	if (destructive !== undefined && destructive !== 'true' && destructive !== 'false') {
		throw invalid([
			issue('query', 'destructive', 'destructive must be true or false', destructive),
		]);
	}
	const body = requireBody(ctx, SOURCE);
	const given = ['sourceYaml', 'sourceZipUrl'].filter((k) => body[k] !== undefined);
	if (given.length !== 1) {
		throw invalid([
			issue(
				'body',
				given.length ? 'sourceZipUrl' : 'sourceYaml',
				'Give exactly one of sourceYaml or sourceZipUrl',
			),
		]);
	}
	if (body.sourceZipUrl !== undefined) {
		throw invalid(
			[issue('body', 'sourceZipUrl', 'Could not download the source zip', body.sourceZipUrl)],
			{ status: 422 },
		);
	}
	let doc;
	try {
		doc = YAML.parse(body.sourceYaml);
	} catch (err) {
		throw invalid([
			issue(
				'body',
				'sourceYaml',
				`Invalid YAML: ${/** @type {Error} */ (err).message.split('\n')[0]}`,
			),
		]);
	}
	const issues = validate(
		doc,
		{
			type: 'object',
			required: ['specVersion', 'integrations'],
			properties: {
				specVersion: { type: 'string', minLength: 1 },
				integrations: { type: 'array', minItems: 1, items: CONTENT },
			},
		},
		{ name: 'sourceYaml' },
	);
	if (!issues.length) {
		doc.integrations.forEach((/** @type {Rec} */ content, /** @type {number} */ i) => {
			if (!PROVIDERS[content.provider])
				issues.push(
					issue(
						'body',
						`sourceYaml.integrations[${i}].provider`,
						`Unknown provider '${content.provider}'`,
						content.provider,
					),
				);
		});
	}
	if (issues.length) throw invalid(issues, { status: 422 });
	return doc;
}

/**
 * A new revision of `integration` with `content` becomes its latest.
 * @param {Ctx} ctx @param {Rec} integration @param {string} specVersion @param {Rec} content
 */
function addRevision(ctx, integration, specVersion, content) {
	const now = nowIso();
	const revision = { id: newId(), specVersion, createTime: now, content };
	integration.latestRevision = revision;
	integration.updateTime = now;
	ctx.state.revisions.set(revision.id, { ...revision, _integrationId: integration.id });
}

/**
 * 201 without a body. The source must define the integration (by its name); 422 otherwise.
 * @param {Ctx} ctx
 */
function createRevision(ctx) {
	const integration = findIntegration(ctx, 'integrationId');
	const doc = readSource(ctx);
	const content = doc.integrations.find((/** @type {Rec} */ i) => i.name === integration.name);
	if (!content) {
		throw invalid(
			[
				issue(
					'body',
					'sourceYaml',
					`The source defines no integration named '${integration.name}'`,
				),
			],
			{ status: 422 },
		);
	}
	if (content.provider !== integration.provider) {
		throw invalid(
			[
				issue(
					'body',
					'sourceYaml',
					`The integration is for ${integration.provider}, the source for ${content.provider}`,
					content.provider,
				),
			],
			{ status: 422 },
		);
	}
	addRevision(ctx, integration, doc.specVersion, content);
	return created();
}

/**
 * 200 with every integration of the source: created when its name is new in the project, else
 * given a new revision.
 * @param {Ctx} ctx
 */
function batchUpsertIntegrations(ctx) {
	const doc = readSource(ctx);
	const out = [];
	for (const content of doc.integrations) {
		let integration = [...ctx.state.integrations.values()].find(
			(i) => i.projectId === ctx.project.id && i.name === content.name,
		);
		if (!integration) {
			integration = {
				id: newId(),
				projectId: ctx.project.id,
				name: content.name,
				provider: content.provider,
				createTime: nowIso(),
			};
			ctx.state.integrations.set(integration.id, integration);
		} else if (integration.provider !== content.provider) {
			throw invalid(
				[
					issue(
						'body',
						'sourceYaml',
						`Integration '${content.name}' is for ${integration.provider}, the source for ${content.provider}`,
						content.provider,
					),
				],
				{ status: 422 },
			);
		}
		addRevision(ctx, integration, doc.specVersion, content);
		out.push(integration);
	}
	return ok(out);
}

/**
 * 204. The integration's installations and revisions go with it (docs/api-notes.md,
 * "Integrations and revisions").
 * @param {Ctx} ctx
 */
function deleteIntegration(ctx) {
	const integration = findIntegration(ctx, 'integrationIdOrName');
	ctx.state.integrations.delete(integration.id);
	for (const [id, installation] of ctx.state.installations)
		if (installation.integrationId === integration.id) ctx.state.installations.delete(id);
	for (const [id, revision] of ctx.state.revisions)
		if (revision._integrationId === integration.id) ctx.state.revisions.delete(id);
	return noContent();
}

/**
 * Seed op 6: the revision's content hydrated with the connection's field metadata.
 * @param {Ctx} ctx
 */
function getHydratedRevision(ctx) {
	const connectionId = queryString(ctx.query, 'connectionId');
	if (!connectionId) {
		throw invalid([
			issue(
				'query',
				'connectionId',
				'connectionId is required',
				undefined,
				'Missing required parameter',
			),
		]);
	}
	const integration = findIntegration(ctx, 'integrationId');
	const revision = ctx.state.revisions.get(ctx.params.revisionId);
	if (!revision || revision._integrationId !== integration.id)
		throw notFound('revisionId', ctx.params.revisionId, 'Revision not found');
	const connection = ctx.state.connections.get(connectionId);
	if (!connection || connection.projectId !== ctx.project.id) {
		throw problem(404, 'Connection not found', {
			issues: [issue('query', 'connectionId', 'Connection not found', connectionId, 'Not found')],
		});
	}
	if (connection.provider !== integration.provider) {
		throw invalid(
			[
				issue(
					'query',
					'connectionId',
					`The connection is for ${connection.provider}, the integration for ${integration.provider}`,
					connectionId,
				),
			],
			{ status: 422 },
		);
	}
	const customFields =
		ctx.state.customFields.get(
			`${ctx.project.id}/${connection.provider}/${connection.group.groupRef}`,
		) || {};
	return ok({
		id: revision.id,
		specVersion: revision.specVersion,
		createTime: revision.createTime,
		content: hydrateContent(revision.content, customFields),
	});
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'createIntegration',
		method: 'POST',
		path: '/v1/projects/{projectIdOrName}/integrations',
		seedOp: 4,
		handler: createIntegration,
	},
	{
		id: 'listIntegrations',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/integrations',
		seedOp: 8,
		handler: listIntegrations,
	},
	{
		id: 'getIntegration',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationIdOrName}',
		handler: getIntegration,
	},
	{
		id: 'createRevision',
		method: 'POST',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/revisions',
		handler: createRevision,
	},
	{
		id: 'batchUpsertIntegrations',
		method: 'PUT',
		path: '/v1/projects/{projectIdOrName}/integrations:batch',
		handler: batchUpsertIntegrations,
	},
	{
		id: 'deleteIntegration',
		method: 'DELETE',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationIdOrName}',
		handler: deleteIntegration,
	},
	{
		id: 'getHydratedRevision',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/revisions/{revisionId}:hydrate',
		seedOp: 6,
		handler: getHydratedRevision,
	},
];

module.exports = { routes, findIntegration, CREATE_INTEGRATION };
