// @ts-check
'use strict';

/**
 * A small schema validator that produces InputValidationProblem issues (docs/api-notes.md, "Problem documents").
 * It reports every invalid input, not just the first, because the real API lists
 * them all in one 400 ("issues lists each invalid input").
 *
 * Schema (a JSON-Schema-like subset):
 *   { type: 'object', required?: string[], properties?: {...}, additionalProperties?: Schema }
 *   { type: 'map', values: Schema }           object with free keys (e.g. `fields`, `providerMetadata`)
 *   { type: 'array', items?: Schema, minItems?, maxItems? }
 *   { type: 'string', enum?, minLength?, maxLength?, pattern?, patternText? }
 *   { type: 'integer' | 'number', minimum?, maximum? }
 *   { type: 'boolean' } | { type: 'any' }
 *   nullable?: true        null is accepted
 *   check?: (value) => string | undefined   extra rule; returns e.g. 'must be https' when invalid
 *
 * Issue names use the body path style of the real API: `latestRevision.content.name`,
 * `fields.contact[0].fieldName`.
 */

const { issue } = require('./problems');

/**
 * @typedef {import('./problems').Issue} Issue
 * @typedef {import('./problems').IssueLocation} IssueLocation
 * @typedef {{
 *   type: 'object' | 'map' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'any',
 *   required?: string[],
 *   properties?: Record<string, Schema>,
 *   additionalProperties?: Schema,
 *   values?: Schema,
 *   items?: Schema,
 *   minItems?: number,
 *   maxItems?: number,
 *   enum?: readonly unknown[],
 *   minLength?: number,
 *   maxLength?: number,
 *   pattern?: RegExp,
 *   patternText?: string,
 *   minimum?: number,
 *   maximum?: number,
 *   nullable?: boolean,
 *   check?: (value: any) => string | undefined,
 * }} Schema
 */

/**
 * @param {string} base
 * @param {string} key
 */
function child(base, key) {
	return base ? `${base}.${key}` : key;
}

/** @param {unknown} value */
function describeType(value) {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value;
}

/**
 * @param {unknown} value
 * @param {Schema['type']} type
 */
function hasType(value, type) {
	switch (type) {
		case 'object':
		case 'map':
			return value !== null && typeof value === 'object' && !Array.isArray(value);
		case 'array':
			return Array.isArray(value);
		case 'string':
			return typeof value === 'string';
		case 'integer':
			return typeof value === 'number' && Number.isInteger(value);
		case 'number':
			return typeof value === 'number' && Number.isFinite(value);
		case 'boolean':
			return typeof value === 'boolean';
		default:
			return true;
	}
}

const TYPE_WORDS = {
	object: 'an object',
	map: 'an object',
	array: 'an array',
	string: 'a string',
	integer: 'an integer',
	number: 'a number',
	boolean: 'a boolean',
	any: 'a value',
};

/**
 * Validates `value` against `schema` and returns the issues found (empty when valid).
 * @param {unknown} value
 * @param {Schema} schema
 * @param {{ in?: IssueLocation, name?: string }} [where]
 * @returns {Issue[]}
 */
function validate(value, schema, where = {}) {
	/** @type {Issue[]} */
	const issues = [];
	walk(value, schema, where.in || 'body', where.name || '', issues);
	return issues;
}

/**
 * @param {unknown} value
 * @param {Schema} schema
 * @param {IssueLocation} loc
 * @param {string} name
 * @param {Issue[]} issues
 */
function walk(value, schema, loc, name, issues) {
	const label = name || 'the request body';
	if (value === null && schema.nullable) return;
	if (!hasType(value, schema.type)) {
		issues.push(
			issue(
				loc,
				name,
				`${label} must be ${TYPE_WORDS[schema.type]}, got ${describeType(value)}`,
				value,
				'Invalid type',
			),
		);
		return;
	}
	if (schema.type === 'object') {
		const obj = /** @type {Record<string, unknown>} */ (value);
		for (const key of schema.required || []) {
			if (obj[key] === undefined) {
				issues.push(
					issue(
						loc,
						child(name, key),
						`${child(name, key)} is required`,
						undefined,
						'Missing required field',
					),
				);
			}
		}
		for (const [key, sub] of Object.entries(obj)) {
			if (sub === undefined) continue;
			const propSchema =
				(schema.properties && schema.properties[key]) || schema.additionalProperties;
			if (propSchema) walk(sub, propSchema, loc, child(name, key), issues);
		}
	} else if (schema.type === 'map') {
		for (const [key, sub] of Object.entries(/** @type {Record<string, unknown>} */ (value))) {
			if (schema.values) walk(sub, schema.values, loc, child(name, key), issues);
		}
	} else if (schema.type === 'array') {
		const arr = /** @type {unknown[]} */ (value);
		if (schema.minItems !== undefined && arr.length < schema.minItems) {
			issues.push(
				issue(loc, name, `${label} must have at least ${schema.minItems} item(s)`, value),
			);
		}
		if (schema.maxItems !== undefined && arr.length > schema.maxItems) {
			issues.push(issue(loc, name, `${label} must have at most ${schema.maxItems} item(s)`, value));
		}
		if (schema.items) {
			const items = schema.items;
			arr.forEach((item, index) => walk(item, items, loc, `${name}[${index}]`, issues));
		}
	} else if (schema.type === 'string') {
		const str = /** @type {string} */ (value);
		if (schema.minLength !== undefined && str.length < schema.minLength) {
			issues.push(
				issue(
					loc,
					name,
					schema.minLength === 1
						? `${label} must not be empty`
						: `${label} must be at least ${schema.minLength} characters`,
					value,
				),
			);
		} else if (schema.maxLength !== undefined && str.length > schema.maxLength) {
			issues.push(
				issue(loc, name, `${label} must be at most ${schema.maxLength} characters`, value),
			);
		} else if (schema.pattern && !schema.pattern.test(str)) {
			issues.push(
				issue(
					loc,
					name,
					`${label} must contain ${schema.patternText || `text matching ${schema.pattern}`}`,
					value,
				),
			);
		}
	} else if (schema.type === 'integer' || schema.type === 'number') {
		const num = /** @type {number} */ (value);
		if (schema.minimum !== undefined && num < schema.minimum) {
			issues.push(issue(loc, name, `${label} must be at least ${schema.minimum}`, value));
		} else if (schema.maximum !== undefined && num > schema.maximum) {
			issues.push(issue(loc, name, `${label} must be at most ${schema.maximum}`, value));
		}
	}
	if (schema.enum && !schema.enum.includes(value)) {
		issues.push(issue(loc, name, `${label} must be one of: ${schema.enum.join(', ')}`, value));
	}
	if (schema.check) {
		const detail = schema.check(value);
		if (detail) issues.push(issue(loc, name, `${label} ${detail}`, value));
	}
}

/**
 * Parses a boolean query parameter the way a Go server does (strconv.ParseBool:
 * 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False). Absent or empty → fallback.
 * @param {Record<string, string | string[]>} query
 * @param {string} name
 * @param {boolean} fallback
 * @param {Issue[]} issues collects an issue when the value is not a boolean
 */
function queryBool(query, name, fallback, issues) {
	const raw = query[name];
	const text = Array.isArray(raw) ? raw[0] : raw;
	if (text === undefined || text === '') return fallback;
	if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
	if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
	issues.push(issue('query', name, `${name} must be a boolean (true or false)`, text));
	return fallback;
}

/**
 * @param {Record<string, string | string[]>} query
 * @param {string} name
 * @returns {string | undefined} the first value of a query parameter
 */
function queryString(query, name) {
	const raw = query[name];
	return Array.isArray(raw) ? raw[0] : raw;
}

module.exports = { validate, queryBool, queryString };
