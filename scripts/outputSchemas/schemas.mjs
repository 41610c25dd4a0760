// @ts-check
/**
 * The documented answers of docs/api-responses.json as JSON Schema n8n's editor can walk, and the
 * few helpers the node's own shapes are built with (scripts/generate-output-schemas.mjs says how
 * an answer is rewritten).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const readJson = (/** @type {string} */ file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** @typedef {Record<string, any>} Schema */

const responses = readJson(path.join(ROOT, 'docs', 'api-responses.json'));
/** @type {Record<string, Schema>} */
const DEFINITIONS = responses.definitions;

/** A definition of docs/api-responses.json by its key (e.g. `api.Connection`), converted. */
export function definition(/** @type {string} */ key) {
	if (!(key in DEFINITIONS)) throw new Error(`docs/api-responses.json has no definition ${key}`);
	return convert({ $ref: `#/definitions/${key}` });
}

/**
 * The schema with every $ref inlined and the OpenAPI-only forms rewritten (see the header).
 * @param {any} schema
 * @param {string[]} seen definitions being inlined (a cycle would never end)
 * @returns {any}
 */
function convert(schema, seen = []) {
	if (Array.isArray(schema)) return schema.map((entry) => convert(entry, seen));
	if (schema === null || typeof schema !== 'object') return schema;
	if (typeof schema.$ref === 'string') {
		const key = schema.$ref.replace('#/definitions/', '');
		if (seen.includes(key)) throw new Error(`recursive schema ${[...seen, key].join(' → ')}`);
		return convert(DEFINITIONS[key], [...seen, key]);
	}
	/** @type {Schema} */
	let out = {};
	for (const [keyword, value] of Object.entries(schema)) {
		if (keyword === 'properties') {
			out.properties = Object.fromEntries(
				Object.entries(value).map(([name, property]) => [name, convert(property, seen)]),
			);
		} else if (keyword === 'oneOf') {
			out.anyOf = convert(value, seen);
		} else if (keyword === 'nullable') {
			// Applied below, once the type is known.
		} else {
			out[keyword] = convert(value, seen);
		}
	}
	if (schema.nullable === true) out = nullable(out);
	if (Array.isArray(out.allOf)) out = mergeAllOf(out);
	return out;
}

/** OpenAPI 3.0's `nullable: true` in JSON Schema: null joins the type (and the enum). */
export function nullable(/** @type {Schema} */ schema) {
	if (typeof schema.type !== 'string') throw new Error('nullable without a type');
	const out = { ...schema, type: [schema.type, 'null'] };
	if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
	return out;
}

/**
 * allOf of object schemas as one object: the editor reads `type` and `properties` only. Merged
 * only when that changes nothing a validator would say (each part names properties, required
 * fields and at most a type and title); otherwise the allOf stays.
 */
function mergeAllOf(/** @type {Schema} */ schema) {
	const { allOf, ...rest } = schema;
	const mergeable = (/** @type {Schema} */ part) =>
		Object.keys(part).every((k) => ['type', 'title', 'properties', 'required'].includes(k)) &&
		(part.type === undefined || part.type === 'object');
	if (!allOf.every(mergeable) || !Object.keys(rest).every((k) => k === 'title')) {
		// Still an object when one part says so: the editor then shows it as one.
		const object = allOf.some((/** @type {Schema} */ part) => part.type === 'object');
		return object && rest.type === undefined ? { type: 'object', ...schema } : schema;
	}
	/** @type {Schema} */
	const properties = {};
	const required = new Set();
	for (const part of allOf) {
		for (const [name, property] of Object.entries(part.properties ?? {})) {
			properties[name] =
				name in properties ? mergeAllOf({ allOf: [properties[name], property] }) : property;
		}
		for (const name of part.required ?? []) required.add(name);
	}
	return {
		...(rest.title ? { title: rest.title } : {}),
		type: 'object',
		properties,
		...(required.size ? { required: [...required] } : {}),
	};
}

/** The documented success answer of an API operation, converted. */
export function answerOf(/** @type {string} */ operationId, contentType = 'application/json') {
	const operation = responses.operations.find(
		(/** @type {Schema} */ o) => o.operationId === operationId,
	);
	const documented = operation.responses.filter((/** @type {Schema} */ r) => r.content);
	if (documented.length !== 1 || !documented[0].content[contentType]) {
		throw new Error(`${operationId}: expected one success answer of ${contentType}`);
	}
	return convert(documented[0].content[contentType]);
}

/** The entries of a list answer. */
export function entriesOf(/** @type {Schema} */ answer, /** @type {string} */ operationId) {
	if (answer.type !== 'array') throw new Error(`${operationId}: the answer is not a list`);
	return answer.items;
}

// ---------------------------------------------------------------------------------------------
// Building blocks of the shapes the node makes itself
// ---------------------------------------------------------------------------------------------

export const STRING = { type: 'string' };
export const TRUE = { type: 'boolean', const: true };

/** An object with these properties, all of them required. */
export const made = (/** @type {Schema} */ properties) => ({
	type: 'object',
	properties,
	required: Object.keys(properties),
});

/** The schema without `names` among the required properties at `at` (a property path). */
export function optional(/** @type {Schema} */ schema, /** @type {string[]} */ names, at = []) {
	const copy = structuredClone(schema);
	const target = at.reduce((node, name) => node.properties[name], copy);
	target.required = (target.required ?? []).filter((/** @type {string} */ n) => !names.includes(n));
	if (target.required.length === 0) delete target.required;
	return copy;
}

/** An object schema with more properties after its own (and more required ones). */
export function extended(
	/** @type {Schema} */ schema,
	/** @type {Schema} */ properties,
	required = [],
) {
	const added = Object.entries(properties).filter(([name]) => !(name in schema.properties));
	return {
		...schema,
		properties: { ...schema.properties, ...Object.fromEntries(added) },
		required: [...new Set([...required, ...(schema.required ?? [])])],
	};
}

/** An object schema whose required properties are exactly `required`. */
export const requiring = (/** @type {Schema} */ schema, /** @type {string[]} */ required) => ({
	...schema,
	required,
});
