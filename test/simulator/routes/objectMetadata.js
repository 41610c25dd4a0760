// @ts-check
'use strict';

/**
 * Custom fields on a connection's provider objects (docs/api-notes.md, "upsertMetadataForConnection").
 *
 * - Only HubSpot and Salesforce are supported; any other provider gets a 400.
 * - All errors here are plain ApiProblem documents, not InputValidationProblem: a 400 has
 *   no `issues[]`, so the detail names every invalid field and `causes[]` lists them.
 * - The group must have a connection to the provider in the project (the fields are
 *   created in that customer's provider account).
 * - The response maps object → field name → FieldUpsertResult {fieldName, action,
 *   metadata, warnings}. A field seen before for the same project, provider and group is
 *   reported as action 'update' (even if unchanged; the real API's 'none' case is not
 *   modelled).
 * Upserted fields show up, with isCustom: true, in hydrated revisions (op 6).
 */

const { ok, requireBody } = require('./common');
const { problem, ProblemError, invalid, issue } = require('../problems');
const { nowIso } = require('../time');
const { queryString } = require('../validate');
const {
	PROVIDERS,
	CUSTOM_FIELD_PROVIDERS,
	CUSTOM_FIELD_VALUE_TYPES,
	PROVIDER_TYPES,
	PROVIDER_OBJECTS,
} = require('../catalog');
const { findIntegration } = require('./integrations');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 */

/** @type {Schema} */
const str = { type: 'string' };
/** @type {Schema} */
const nonEmpty = { type: 'string', minLength: 1 };
/** @type {Schema} */
const bool = { type: 'boolean' };

/** FieldDefinition (docs/api-notes.md, "upsertMetadataForConnection"). @type {Schema} */
const FIELD_DEFINITION = {
	type: 'object',
	required: ['fieldName', 'displayName', 'valueType'],
	properties: {
		fieldName: {
			type: 'string',
			pattern: /^[A-Za-z][A-Za-z0-9_]*$/,
			patternText: 'only letters, digits and underscores, starting with a letter',
		},
		displayName: nonEmpty,
		description: str,
		// A plain string in the schema; its description lists these values (docs/api-notes.md, "Enumerations").
		valueType: { type: 'string', enum: CUSTOM_FIELD_VALUE_TYPES },
		required: bool,
		unique: bool,
		indexed: bool,
		stringOptions: {
			type: 'object',
			properties: {
				length: { type: 'integer', minimum: 1 },
				pattern: {
					type: 'string',
					check: (v) => {
						try {
							new RegExp(v);
							return undefined;
						} catch {
							return 'must be a valid regular expression';
						}
					},
				},
				values: { type: 'array', items: str },
				valuesRestricted: bool,
				defaultValue: str,
			},
		},
		numericOptions: {
			type: 'object',
			properties: {
				precision: { type: 'integer', minimum: 0 },
				scale: { type: 'integer', minimum: 0 },
				min: { type: 'number' },
				max: { type: 'number' },
				defaultValue: { type: 'number' },
			},
		},
		association: {
			type: 'object',
			required: ['associationType', 'targetObject'],
			properties: {
				associationType: nonEmpty,
				targetObject: nonEmpty,
				targetField: str,
				cardinality: str,
				onDelete: str,
				required: bool,
				reverseLookupFieldName: str,
				labels: { type: 'object', properties: { singular: str, plural: str } },
			},
		},
	},
};

/** UpsertMetadataRequest. @type {Schema} */
const UPSERT_METADATA = {
	type: 'object',
	required: ['groupRef', 'fields'],
	properties: {
		groupRef: nonEmpty,
		fields: { type: 'map', values: { type: 'array', items: FIELD_DEFINITION } },
	},
};

/**
 * Rules that need more than one field at a time.
 * @param {Record<string, Rec[]>} fields
 * @returns {string[]}
 */
function crossFieldProblems(fields) {
	/** @type {string[]} */
	const out = [];
	for (const [objectName, defs] of Object.entries(fields)) {
		const seen = new Set();
		defs.forEach((def, i) => {
			const at = `fields.${objectName}[${i}]`;
			if (seen.has(def.fieldName))
				out.push(`${at}.fieldName '${def.fieldName}' appears twice for ${objectName}`);
			seen.add(def.fieldName);
			if (
				(def.valueType === 'singleSelect' || def.valueType === 'multiSelect') &&
				!(def.stringOptions && def.stringOptions.values && def.stringOptions.values.length)
			) {
				out.push(`${at}.stringOptions.values is required for valueType ${def.valueType}`);
			}
			if (def.valueType === 'reference' && !def.association)
				out.push(`${at}.association is required for valueType reference`);
		});
	}
	return out;
}

/**
 * Seed op 3: 200 UpsertMetadataResponse.
 * @param {Ctx} ctx
 */
function upsertMetadataForConnection(ctx) {
	const provider = ctx.params.provider;
	if (!PROVIDERS[provider]) throw problem(404, `Provider '${provider}' not found`);
	return upsertFields(ctx, provider, (groupRef) => {
		const hasConnection = [...ctx.state.connections.values()].some(
			(c) =>
				c.projectId === ctx.project.id && c.provider === provider && c.group.groupRef === groupRef,
		);
		if (!hasConnection) {
			throw problem(404, `No ${provider} connection found for group '${groupRef}'`, {
				remedy: 'Create the connection first (generateConnection or the OAuth flow).',
			});
		}
	});
}

/**
 * 200 UpsertMetadataResponse, like upsertMetadataForConnection, in the provider account of the
 * group's installation of the integration (404 without one; docs/api-notes.md, "Object metadata").
 * @param {Ctx} ctx
 */
function upsertMetadataForInstallation(ctx) {
	const integration = findIntegration(ctx, 'integrationId');
	return upsertFields(ctx, integration.provider, (groupRef) => {
		const installed = [...ctx.state.installations.values()].some(
			(i) => i.integrationId === integration.id && i.group.groupRef === groupRef,
		);
		if (!installed)
			throw problem(404, `No installation of this integration for group '${groupRef}'`);
	});
}

/**
 * The upsert both routes share: provider support, body checks, then `requireTarget(groupRef)`.
 * @param {Ctx} ctx @param {string} provider @param {(groupRef: string) => void} requireTarget
 */
function upsertFields(ctx, provider, requireTarget) {
	if (!CUSTOM_FIELD_PROVIDERS.includes(provider)) {
		throw problem(
			400,
			`Provider '${provider}' does not support custom fields; only hubspot and salesforce do`,
		);
	}

	/** @type {Rec} */
	let body;
	try {
		body = requireBody(ctx, UPSERT_METADATA);
	} catch (err) {
		// 400 here is a plain ApiProblem (no issues), so flatten the issues into the detail.
		if (!(err instanceof ProblemError) || !err.options.issues) throw err;
		const causes = err.options.issues.map((i) => i.detail);
		throw problem(400, `Invalid request body: ${causes.join('; ')}`, { causes });
	}
	const causes = crossFieldProblems(body.fields);
	if (causes.length) throw problem(400, `Invalid request body: ${causes.join('; ')}`, { causes });

	const { state, project } = ctx;
	requireTarget(body.groupRef);

	const key = `${project.id}/${provider}/${body.groupRef}`;
	const stored = state.customFields.get(key) || {};
	state.customFields.set(key, stored);
	/** @type {Record<string, Record<string, Rec>>} */
	const results = {};
	for (const [objectName, defs] of Object.entries(
		/** @type {Record<string, Rec[]>} */ (body.fields),
	)) {
		const objectFields = stored[objectName] || (stored[objectName] = {});
		results[objectName] = {};
		for (const def of defs) {
			const previous = objectFields[def.fieldName];
			const now = nowIso();
			objectFields[def.fieldName] = {
				definition: def,
				createTime: previous ? previous.createTime : now,
				updateTime: now,
			};
			/** @type {string[]} */
			const warnings = [];
			if (provider === 'hubspot' && def.indexed)
				warnings.push('indexed is not supported by hubspot and was ignored');
			if (provider === 'hubspot' && def.numericOptions && def.numericOptions.scale !== undefined)
				warnings.push('numericOptions.scale is not supported by hubspot and was ignored');
			results[objectName][def.fieldName] = {
				fieldName: def.fieldName,
				action: previous ? 'update' : 'create',
				metadata: {
					objectName,
					displayName: def.displayName,
					valueType: def.valueType,
					providerType:
						PROVIDER_TYPES[/** @type {'hubspot' | 'salesforce'} */ (provider)][
							/** @type {'string'} */ (def.valueType)
						],
					// Salesforce names custom fields with a __c suffix.
					providerFieldName:
						provider === 'salesforce' && !def.fieldName.endsWith('__c')
							? `${def.fieldName}__c`
							: def.fieldName,
				},
				warnings,
			};
		}
	}
	return ok({ success: true, fields: results });
}

/**
 * `?groupRef=` (required) and `?excludeReadOnly=` of both metadata reads.
 * @param {Ctx} ctx
 */
function metadataQuery(ctx) {
	const groupRef = queryString(ctx.query, 'groupRef');
	const excludeReadOnly = queryString(ctx.query, 'excludeReadOnly');
	const issues = [];
	if (!groupRef)
		issues.push(
			issue('query', 'groupRef', 'groupRef is required', undefined, 'Missing required parameter'),
		);
	if (excludeReadOnly !== undefined && excludeReadOnly !== 'true' && excludeReadOnly !== 'false') {
		issues.push(
			issue('query', 'excludeReadOnly', 'excludeReadOnly must be true or false', excludeReadOnly),
		);
	}
	if (issues.length) throw invalid(issues);
	return {
		groupRef: /** @type {string} */ (groupRef),
		excludeReadOnly: excludeReadOnly === 'true',
	};
}

/**
 * ObjectMetadata `{ name, displayName, mappedObjectName?, fields }`: the catalog's fields and the
 * group's custom fields (upserted above), keyed by field name. 404 for an object the provider
 * does not have.
 * @param {Ctx} ctx @param {string} provider @param {string} objectName @param {string} groupRef
 * @param {boolean} excludeReadOnly @param {string} [mappedObjectName]
 */
function objectMetadata(ctx, provider, objectName, groupRef, excludeReadOnly, mappedObjectName) {
	const known = (PROVIDER_OBJECTS[provider] || {})[objectName];
	if (!known) throw problem(404, `Object '${objectName}' is not available in ${provider}`);
	const stored =
		(ctx.state.customFields.get(`${ctx.project.id}/${provider}/${groupRef}`) || {})[objectName] ||
		{};
	/** @type {Record<string, Rec>} */
	const fields = {};
	for (const f of known.fields) fields[f.fieldName] = { ...f };
	for (const { definition: d } of Object.values(stored)) {
		const fieldName =
			provider === 'salesforce' && !d.fieldName.endsWith('__c') ? `${d.fieldName}__c` : d.fieldName;
		const types =
			/** @type {Record<string, Record<string, string>>} */ (PROVIDER_TYPES)[provider] || {};
		fields[fieldName] = {
			fieldName,
			displayName: d.displayName,
			valueType: d.valueType,
			providerType: types[d.valueType] || d.valueType,
			readOnly: false,
			isCustom: true,
			isRequired: Boolean(d.required),
		};
	}
	if (excludeReadOnly)
		for (const [name, f] of Object.entries(fields)) if (f.readOnly) delete fields[name];
	return ok({
		name: objectName,
		displayName: known.displayName,
		...(mappedObjectName ? { mappedObjectName } : {}),
		fields,
	});
}

/** @param {Ctx} ctx */
function getObjectMetadataForConnection(ctx) {
	const provider = ctx.params.provider;
	if (!PROVIDERS[provider]) throw problem(404, `Provider '${provider}' not found`);
	const { groupRef, excludeReadOnly } = metadataQuery(ctx);
	const hasConnection = [...ctx.state.connections.values()].some(
		(c) =>
			c.projectId === ctx.project.id && c.provider === provider && c.group.groupRef === groupRef,
	);
	if (!hasConnection) throw problem(404, `No ${provider} connection found for group '${groupRef}'`);
	return objectMetadata(ctx, provider, ctx.params.objectName, groupRef, excludeReadOnly);
}

/**
 * The object may be named as the integration maps it (`mapToName` of a read object of the
 * latest revision); the answer then says `mappedObjectName`.
 * @param {Ctx} ctx
 */
function getObjectMetadataForInstallation(ctx) {
	const integration = findIntegration(ctx, 'integrationId');
	const { groupRef, excludeReadOnly } = metadataQuery(ctx);
	const installed = [...ctx.state.installations.values()].some(
		(i) => i.integrationId === integration.id && i.group.groupRef === groupRef,
	);
	if (!installed) throw problem(404, `No installation of this integration for group '${groupRef}'`);
	const name = ctx.params.objectName;
	const readObjects =
		(integration.latestRevision.content.read && integration.latestRevision.content.read.objects) ||
		[];
	const mapped = readObjects.find((/** @type {Rec} */ o) => o.mapToName === name);
	return mapped
		? objectMetadata(ctx, integration.provider, mapped.objectName, groupRef, excludeReadOnly, name)
		: objectMetadata(ctx, integration.provider, name, groupRef, excludeReadOnly);
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'upsertMetadataForConnection',
		method: 'PUT',
		path: '/v1/projects/{projectIdOrName}/providers/{provider}/object-metadata',
		seedOp: 3,
		handler: upsertMetadataForConnection,
	},
	{
		id: 'upsertMetadataForInstallation',
		method: 'PUT',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/object-metadata',
		handler: upsertMetadataForInstallation,
	},
	{
		id: 'getObjectMetadataForConnection',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/providers/{provider}/objects/{objectName}/metadata',
		handler: getObjectMetadataForConnection,
	},
	{
		id: 'getObjectMetadataForInstallation',
		method: 'GET',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/objects/{objectName}/metadata',
		handler: getObjectMetadataForInstallation,
	},
];

module.exports = { routes, UPSERT_METADATA, FIELD_DEFINITION };
