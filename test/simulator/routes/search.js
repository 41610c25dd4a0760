// @ts-check
'use strict';

/**
 * The search host (docs/api-notes.md, "Data plane", "Search"): searchRecords, X-Api-Key or Bearer.
 *
 * `POST /v1/projects/{p}/integrations/{i}?groupRef=…` with `{objectName, fieldFilters: [{fieldName,
 * operator: "eq", value}]}` → 200 `{result: [{fields, mappedFields, raw}]}` over the installation's
 * stored records (dataStore.js), oldest first. Every filter must match. A filter's fieldName may be
 * a mapped name (compared with mappedFields) or the provider's (compared with fields, ignoring
 * case); values compare as text, so 5 matches "5". An empty fieldFilters list matches every
 * record (the API does not say; chosen as the plain reading of "all filters must match").
 *
 * The 400 is declared `application/json` (router: `badRequest: 'json'`), issues naming the field.
 * An unknown groupRef is a 404 problem document.
 */

const { ok } = require('./common');
const { invalid, issue } = require('../problems');
const { validate, queryString } = require('../validate');
const { findIntegration } = require('./integrations');
const store = require('../dataStore');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 */

/** SearchRequest. @type {Schema} */
const SEARCH_REQUEST = {
	type: 'object',
	required: ['objectName', 'fieldFilters'],
	properties: {
		objectName: { type: 'string', minLength: 1 },
		fieldFilters: {
			type: 'array',
			items: {
				type: 'object',
				required: ['fieldName', 'operator', 'value'],
				properties: {
					fieldName: { type: 'string', minLength: 1 },
					operator: { type: 'string', enum: ['eq'] },
					value: {
						type: 'any',
						check: (v) =>
							['string', 'boolean', 'number'].includes(typeof v)
								? undefined
								: 'must be a string, a boolean or a number',
					},
				},
			},
		},
	},
};

/**
 * @param {Rec} entry a result entry
 * @param {{ fieldName: string, value: unknown }} filter
 */
function matches(entry, filter) {
	/** @type {unknown} */
	let have;
	if (Object.prototype.hasOwnProperty.call(entry.mappedFields, filter.fieldName)) {
		have = entry.mappedFields[filter.fieldName];
	} else {
		const wanted = filter.fieldName.toLowerCase();
		const key = Object.keys(entry.fields).find((k) => k.toLowerCase() === wanted);
		have = key === undefined ? undefined : entry.fields[key];
	}
	if (have === undefined || have === null || typeof have === 'object') return false;
	return String(have) === String(filter.value);
}

/** @param {Ctx} ctx */
function searchRecords(ctx) {
	const groupRef = queryString(ctx.query, 'groupRef');
	const issues = [];
	if (groupRef === undefined || groupRef === '')
		issues.push(issue('query', 'groupRef', 'groupRef is required', groupRef));
	if (ctx.body === undefined)
		issues.push(issue('body', undefined, 'A JSON request body is required'));
	else issues.push(...validate(ctx.body, SEARCH_REQUEST));
	if (issues.length) throw invalid(issues);

	const integration = findIntegration(ctx, 'integrationId');
	const installation = store.installationForGroup(
		ctx.state,
		integration,
		/** @type {string} */ (groupRef),
		'query',
	);
	const objectName = store.providerObjectName(ctx.state, installation, ctx.body.objectName);
	const filters = ctx.body.fieldFilters;
	const result = [...store.objectStore(ctx.state, installation.id, objectName).values()]
		.sort((a, b) => String(a.createTime).localeCompare(String(b.createTime)))
		.map((record) => store.resultEntry(installation, objectName, record))
		.filter((entry) => filters.every((/** @type {any} */ f) => matches(entry, f)));
	return ok({ result });
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'searchRecords',
		method: 'POST',
		host: 'search',
		auth: 'any',
		badRequest: 'json',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}',
		handler: searchRecords,
	},
];

module.exports = { routes };
