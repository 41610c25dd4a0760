// @ts-check
'use strict';

/**
 * Installations (docs/api-notes.md, "The wider API") and the read host's pause/unpause
 * ("unpauseReads").
 *
 * The paused state of a read is the per-object `disabled: true` flag in the installation
 * config (`config.content.read.objects.<name>.disabled`; "Enumerations").
 * pauseReads and unpauseReads live on the READ host only and accept only X-Api-Key; the
 * same path on the management host is a 404 (router: host 'read', auth 'apiKey').
 */

const { ok, created, noContent, filter, requireBody } = require('./common');
const { invalid, issue, notFound, problem } = require('../problems');
const { validate, queryString } = require('../validate');
const { publicView, newId } = require('../state');
const { nowIso } = require('../time');
const { findIntegration } = require('./integrations');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 * @typedef {import('../state').State} State
 */

/** Optional body of pause/unpause: `{objects?: string[], note?: string}`. @type {Schema} */
const PAUSE_BODY = {
	type: 'object',
	properties: {
		objects: { type: 'array', items: { type: 'string', minLength: 1 } },
		note: { type: 'string' },
	},
};

/**
 * Installation as the API returns it: the stored record with its connection embedded.
 * @param {State} state
 * @param {Rec} installation
 */
function toInstallation(state, installation) {
	const connection = state.connections.get(installation._connectionId);
	return {
		...publicView(installation),
		connection: connection ? publicView(connection) : undefined,
	};
}

/** @param {Ctx} ctx */
function listInstallationsForProject(ctx) {
	const groupRef = queryString(ctx.query, 'groupRef');
	const list = filter(
		ctx.state.installations.values(),
		(i) => i.projectId === ctx.project.id && (!groupRef || i.group.groupRef === groupRef),
	);
	return ok(list.map((i) => toInstallation(ctx.state, i)));
}

/** @param {Ctx} ctx */
function listInstallations(ctx) {
	const integration = findIntegration(ctx, 'integrationId');
	const groupRef = queryString(ctx.query, 'groupRef');
	const list = filter(
		ctx.state.installations.values(),
		(i) => i.integrationId === integration.id && (!groupRef || i.group.groupRef === groupRef),
	);
	return ok(list.map((i) => toInstallation(ctx.state, i)));
}

/**
 * The installation named by the path, which must belong to the integration named by the path.
 * @param {Ctx} ctx
 * @returns {{ integration: Rec, installation: Rec }}
 */
function findInstallation(ctx) {
	const integration = findIntegration(ctx, 'integrationId');
	const installation = ctx.state.installations.get(ctx.params.installationId);
	if (!installation || installation.integrationId !== integration.id) {
		throw notFound('installationId', ctx.params.installationId, 'Installation not found');
	}
	return { integration, installation };
}

/** @param {Ctx} ctx */
function getInstallation(ctx) {
	return ok(toInstallation(ctx.state, findInstallation(ctx).installation));
}

/**
 * Pauses (disabled = true) or unpauses (false) the scheduled reads of some or all objects.
 * Object names may be the provider's name or the mapped name (read.yaml pauseReads).
 * Without `objects` (or with an empty list) every read object is affected.
 * @param {Ctx} ctx
 * @param {boolean} disabled
 */
function setReadsPaused(ctx, disabled) {
	const { integration, installation } = findInstallation(ctx);
	const body = ctx.body === undefined ? {} : ctx.body;
	const shapeIssues = validate(body, PAUSE_BODY);
	if (shapeIssues.length) throw invalid(shapeIssues);

	const readObjects =
		(installation.config.content.read && installation.config.content.read.objects) || {};
	/** @type {Record<string, string>} mapped name → provider object name */
	const mapped = {};
	const revision =
		ctx.state.revisions.get(installation.config.revisionId) || integration.latestRevision;
	for (const obj of (revision.content.read && revision.content.read.objects) || []) {
		if (obj.mapToName) mapped[obj.mapToName] = obj.objectName;
	}
	/** @type {string[]} */
	const requested = body.objects && body.objects.length ? body.objects : Object.keys(readObjects);
	const names = requested.map((name) => (readObjects[name] ? name : mapped[name]));
	const unknown = requested
		.map((name, index) => ({ name, index }))
		.filter(({ index }) => !names[index] || !readObjects[names[index]]);
	if (unknown.length) {
		throw invalid(
			unknown.map(({ name, index }) =>
				issue(
					'body',
					`objects[${index}]`,
					`Object '${name}' is not read by this installation`,
					name,
				),
			),
		);
	}
	for (const name of names) readObjects[name].disabled = disabled;
	installation.updateTime = nowIso();
	(installation._readNotes || (installation._readNotes = [])).push({
		action: disabled ? 'pause' : 'unpause',
		objects: names,
		note: body.note,
		time: installation.updateTime,
	});
	return noContent();
}

/** @param {Schema} object @returns {Schema} */
const objectMap = (object) => ({ type: 'map', values: object });

/**
 * ConfigContent, as far as the simulator checks it: provider, and object maps per action whose
 * objects have the fields the API requires (docs/api-notes.md, "Installations"): a read object
 * both field maps, even when it reads every field.
 * @type {Schema}
 */
const CONFIG_CONTENT = {
	type: 'object',
	required: ['provider'],
	properties: {
		provider: { type: 'string', minLength: 1 },
		read: {
			type: 'object',
			required: ['objects'],
			properties: {
				objects: objectMap({
					type: 'object',
					required: ['objectName', 'selectedFields', 'selectedFieldMappings'],
					properties: {
						objectName: { type: 'string', minLength: 1 },
						selectedFields: { type: 'map', values: { type: 'boolean' } },
						selectedFieldMappings: { type: 'map', values: { type: 'string' } },
						selectedFieldsAuto: { type: 'string', enum: ['all'] },
					},
				}),
			},
		},
		write: {
			type: 'object',
			properties: {
				objects: objectMap({
					type: 'object',
					required: ['objectName'],
					properties: { objectName: { type: 'string', minLength: 1 } },
				}),
			},
		},
		subscribe: {
			type: 'object',
			required: ['objects'],
			properties: {
				objects: objectMap({
					type: 'object',
					required: ['objectName', 'destination', 'inheritFieldsAndMappings'],
					properties: {
						objectName: { type: 'string', minLength: 1 },
						destination: { type: 'string' },
						inheritFieldsAndMappings: { type: 'boolean' },
					},
				}),
			},
		},
		proxy: { type: 'object', properties: { enabled: { type: 'boolean' } } },
	},
};

/** Request body of createInstallation (docs/api-notes.md, "Installations"). @type {Schema} */
const CREATE_INSTALLATION = {
	type: 'object',
	required: ['groupRef', 'config'],
	properties: {
		groupRef: { type: 'string', minLength: 1 },
		connectionId: { type: 'string', minLength: 1 },
		config: {
			type: 'object',
			required: ['content'],
			properties: {
				revisionId: { type: 'string' },
				createdBy: { type: 'string' },
				content: CONFIG_CONTENT,
			},
		},
	},
};

/** `?skipSampling=` must be a boolean when given. @param {Ctx} ctx */
function checkSkipSampling(ctx) {
	const value = queryString(ctx.query, 'skipSampling');
	if (value !== undefined && value !== 'true' && value !== 'false') {
		throw invalid([issue('query', 'skipSampling', 'skipSampling must be true or false', value)]);
	}
}

/**
 * 201 Installation. The connection is the one named, or the group's (the first for the
 * integration's provider); none is a 422. One installation per group and integration (409).
 * The config's revision is always the integration's latest (revisionId is deprecated).
 * @param {Ctx} ctx
 */
function createInstallation(ctx) {
	const integration = findIntegration(ctx, 'integrationId');
	checkSkipSampling(ctx);
	const body = requireBody(ctx, CREATE_INSTALLATION);
	const issues = [];
	if (body.config.content.provider !== integration.provider) {
		issues.push(
			issue(
				'body',
				'config.content.provider',
				`The integration is for ${integration.provider}, the config for ${body.config.content.provider}`,
				body.config.content.provider,
			),
		);
	}
	const candidates = [...ctx.state.connections.values()].filter(
		(c) =>
			c.projectId === ctx.project.id &&
			c.group.groupRef === body.groupRef &&
			c.provider === integration.provider,
	);
	const connection = body.connectionId
		? candidates.find((c) => c.id === body.connectionId)
		: candidates[0];
	if (!connection) {
		issues.push(
			body.connectionId
				? issue(
						'body',
						'connectionId',
						`No ${integration.provider} connection '${body.connectionId}' for group '${body.groupRef}'`,
						body.connectionId,
					)
				: issue(
						'body',
						'groupRef',
						`Group '${body.groupRef}' has no ${integration.provider} connection; create one first`,
						body.groupRef,
					),
		);
	}
	if (issues.length) throw invalid(issues, { status: 422 });
	const exists = [...ctx.state.installations.values()].some(
		(i) => i.integrationId === integration.id && i.group.groupRef === body.groupRef,
	);
	if (exists)
		throw problem(409, `Group '${body.groupRef}' already has an installation of this integration`);

	const now = nowIso();
	const createdBy = body.config.createdBy || 'api:create-installation';
	/** @type {Rec} */
	const installation = {
		id: newId(),
		projectId: ctx.project.id,
		integrationId: integration.id,
		group: { ...connection.group },
		_connectionId: connection.id,
		createTime: now,
		createdBy,
		healthStatus: 'healthy',
		config: {
			id: newId(),
			revisionId: integration.latestRevision.id,
			createTime: now,
			createdBy,
			content: body.config.content,
		},
	};
	ctx.state.installations.set(installation.id, installation);
	return created(toInstallation(ctx.state, installation));
}

/** updateMask paths of updateInstallation (docs/api-notes.md, "Installations"). */
const UPDATE_MASKS = [
	/^connectionId$/,
	/^config\.createdBy$/,
	/^config\.content\.read\.objects\.[^.]+$/,
	/^config\.content\.write\.objects(\.[^.]+)?$/,
	/^config\.content\.subscribe\.objects(\.[^.]+)?$/,
	/^config\.content\.proxy\.enabled$/,
];

/** @param {any} root @param {string[]} path */
function valueAt(root, path) {
	return path.reduce(
		(node, key) => (node && typeof node === 'object' ? node[key] : undefined),
		root,
	);
}

/**
 * 200 Installation. Each mask path must be allowed (400) and have its value under
 * `installation` (400); values not named by the mask are ignored.
 * @param {Ctx} ctx
 */
function updateInstallation(ctx) {
	const { integration, installation } = findInstallation(ctx);
	checkSkipSampling(ctx);
	const body = requireBody(ctx, {
		type: 'object',
		required: ['updateMask', 'installation'],
		properties: {
			updateMask: { type: 'array', minItems: 1, items: { type: 'string' } },
			installation: { type: 'object' },
		},
	});
	const issues = [];
	body.updateMask.forEach((/** @type {string} */ mask, /** @type {number} */ index) => {
		if (!UPDATE_MASKS.some((re) => re.test(mask)))
			issues.push(
				issue('body', `updateMask[${index}]`, `Unrecognized update mask path '${mask}'`, mask),
			);
		else if (valueAt(body.installation, mask.split('.')) === undefined)
			issues.push(
				issue(
					'body',
					`installation.${mask}`,
					`updateMask names ${mask}, but installation.${mask} is missing`,
				),
			);
	});
	if (issues.length) throw invalid(issues);
	if (body.updateMask.includes('connectionId')) {
		const connection = ctx.state.connections.get(body.installation.connectionId);
		if (
			!connection ||
			connection.projectId !== ctx.project.id ||
			connection.provider !== integration.provider
		) {
			throw invalid(
				[
					issue(
						'body',
						'installation.connectionId',
						`No ${integration.provider} connection '${body.installation.connectionId}' in this project`,
						body.installation.connectionId,
					),
				],
				{ status: 422 },
			);
		}
		installation._connectionId = connection.id;
	}
	const content = installation.config.content;
	for (const mask of body.updateMask) {
		const path = mask.split('.');
		const value = valueAt(body.installation, path);
		if (mask === 'connectionId') continue;
		if (mask === 'config.createdBy') {
			installation.config.createdBy = value;
			continue;
		}
		// config.content.<action>.objects[.<name>] or config.content.proxy.enabled
		let node = content;
		for (const key of path.slice(2, -1))
			node = node[key] && typeof node[key] === 'object' ? node[key] : (node[key] = {});
		node[path[path.length - 1]] = value;
	}
	installation.updateTime = nowIso();
	return ok(toInstallation(ctx.state, installation));
}

/**
 * 204. The connection goes too when no other installation uses it (docs/api-notes.md, "Installations").
 * @param {Ctx} ctx
 */
function deleteInstallation(ctx) {
	const { installation } = findInstallation(ctx);
	ctx.state.installations.delete(installation.id);
	const stillUsed = [...ctx.state.installations.values()].some(
		(i) => i._connectionId === installation._connectionId,
	);
	if (!stillUsed) ctx.state.connections.delete(installation._connectionId);
	return noContent();
}

/**
 * BackfillProgress of the installation's latest read of the object that reports progress
 * (`metadata.progress` of a read operation); 404 ApiProblem without one.
 * @param {Ctx} ctx
 */
function getBackfillProgress(ctx) {
	const { installation } = findInstallation(ctx);
	const objectName = ctx.params.objectName;
	const reads = [...ctx.state.operations.values()]
		.filter(
			(op) =>
				op.installationId === installation.id &&
				op.actionType === 'read' &&
				op.metadata &&
				op.metadata.progress &&
				op.metadata.progress.objectName === objectName,
		)
		.sort((a, b) => String(b.createTime).localeCompare(String(a.createTime)));
	if (!reads.length) throw problem(404, `No backfill operation found for object '${objectName}'`);
	const latest = reads[0];
	return ok({
		...latest.metadata.progress,
		createTime: latest.createTime,
		updateTime: latest.updateTime || latest.createTime,
	});
}

/** Body of patchObjectConfigContent: an installation (by ID or group), the action, JSON Patch. @type {Schema} */
const PATCH_OBJECT_CONFIG = {
	type: 'object',
	required: ['action', 'changes'],
	properties: {
		groupRef: { type: 'string', minLength: 1 },
		installationId: { type: 'string', minLength: 1 },
		action: { type: 'string', enum: ['read', 'subscribe', 'write'] },
		changes: {
			type: 'array',
			minItems: 1,
			items: {
				type: 'object',
				required: ['op', 'path'],
				properties: {
					op: { type: 'string', enum: ['add', 'remove', 'replace'] },
					path: { type: 'string', pattern: /^\//, patternText: 'a JSON Pointer starting with /' },
					value: { type: 'any' },
				},
			},
		},
	},
};

/**
 * Applies one RFC 6902 operation (add, remove, replace) to `target`; a message when it cannot.
 * @param {Rec} target @param {{ op: string, path: string, value?: unknown }} change
 * @returns {string | undefined}
 */
function applyChange(target, change) {
	const keys = change.path
		.slice(1)
		.split('/')
		.map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
	const last = /** @type {string} */ (keys.pop());
	let node = target;
	for (const key of keys) {
		if (!node[key] || typeof node[key] !== 'object')
			return `path ${change.path}: /${key} does not exist`;
		node = node[key];
	}
	if (change.op !== 'remove' && change.value === undefined) return `${change.op} needs a value`;
	if (change.op !== 'add' && !(last in node)) return `path ${change.path} does not exist`;
	if (change.op === 'remove') delete node[last];
	else node[last] = change.value;
	return undefined;
}

/**
 * 200 Installation with the object's config changed. The installation is named by ID or by
 * group (one of them; 400); it must be of the integration (404) and have a config of that action
 * for the object (422). All changes apply, or none (422 naming the failing change).
 * @param {Ctx} ctx
 */
function patchObjectConfigContent(ctx) {
	const integration = findIntegration(ctx, 'integrationId');
	const body = requireBody(ctx, PATCH_OBJECT_CONFIG);
	if ((body.groupRef === undefined) === (body.installationId === undefined)) {
		throw invalid([
			issue(
				'body',
				body.groupRef === undefined ? 'installationId' : 'groupRef',
				'Give exactly one of groupRef or installationId',
			),
		]);
	}
	const installation = [...ctx.state.installations.values()].find(
		(i) =>
			i.integrationId === integration.id &&
			(body.installationId ? i.id === body.installationId : i.group.groupRef === body.groupRef),
	);
	if (!installation) {
		const name = body.installationId ? 'installationId' : 'groupRef';
		throw problem(404, 'Installation not found', {
			issues: [issue('body', name, 'Installation not found', body[name], 'Not found')],
		});
	}
	const objectName = ctx.params.objectName;
	const objects = (installation.config.content[body.action] || {}).objects || {};
	if (!objects[objectName]) {
		throw invalid(
			[
				issue(
					'path',
					'objectName',
					`The installation has no ${body.action} config for object '${objectName}'`,
					objectName,
				),
			],
			{ status: 422 },
		);
	}
	const draft = JSON.parse(JSON.stringify(objects[objectName]));
	const issues = [];
	body.changes.forEach((/** @type {any} */ change, /** @type {number} */ i) => {
		const failure = applyChange(draft, change);
		if (failure) issues.push(issue('body', `changes[${i}]`, failure, change.path));
	});
	if (issues.length) throw invalid(issues, { status: 422 });
	objects[objectName] = draft;
	installation.updateTime = nowIso();
	return ok(toInstallation(ctx.state, installation));
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'listInstallationsForProject',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/installations',
		handler: listInstallationsForProject,
	},
	{
		id: 'listInstallations',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations',
		handler: listInstallations,
	},
	{
		id: 'getInstallation',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}',
		handler: getInstallation,
	},
	{
		id: 'createInstallation',
		method: 'POST',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations',
		handler: createInstallation,
	},
	{
		id: 'updateInstallation',
		method: 'PATCH',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}',
		handler: updateInstallation,
	},
	{
		id: 'deleteInstallation',
		method: 'DELETE',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}',
		handler: deleteInstallation,
	},
	{
		id: 'patchObjectConfigContent',
		method: 'PATCH',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/objects/{objectName}/config-content',
		handler: patchObjectConfigContent,
	},
	{
		id: 'getBackfillProgress',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}/objects/{objectName}/backfill-progress',
		handler: getBackfillProgress,
	},
	{
		id: 'unpauseReads',
		method: 'POST',
		host: 'read',
		auth: 'apiKey',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}:unpause',
		seedOp: 5,
		handler: (ctx) => setReadsPaused(ctx, false),
	},
	{
		id: 'pauseReads',
		method: 'POST',
		host: 'read',
		auth: 'apiKey',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}:pause',
		handler: (ctx) => setReadsPaused(ctx, true),
	},
];

module.exports = { routes, toInstallation, findInstallation };
