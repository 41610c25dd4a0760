#!/usr/bin/env node
// @ts-check
/**
 * Writes the action node's output schemas: one JSON Schema per operation, describing one item the
 * node outputs, which n8n's editor shows as a preview (and offers fields to map from) before the
 * node has run (docs/architecture.md, "Output schemas").
 *
 *   node scripts/generate-output-schemas.mjs           rewrite the files
 *   node scripts/generate-output-schemas.mjs --check   exit 1, naming each file that differs, is
 *                                                      missing or is left over
 *
 * The triggers get one schema per node version too (TRIGGER_SCHEMAS below): their items do not
 * depend on a resource or an operation, so n8n's server looks for `__schema__/v<x.y.z>.json` in
 * their folders.
 *
 * Where: nodes/IntegrationPlatform/__schema__/v<major.minor.patch>/<resource>/<operation>.json,
 * one folder per version the node's description lists (1 → v1.0.0), named by the values of the
 * Resource and Operation parameters. That is where n8n looks for them, next to the compiled node
 * file (the build copies them into dist/). Same inputs → same bytes (tab-indented JSON, one
 * trailing newline).
 *
 * From what:
 * - docs/api-responses.json: the documented success answer of every API operation, bundled from
 *   the API's OpenAPI documents by scripts/generate-api-catalog.mjs (so this script needs no copy
 *   of the documents, and the answers it starts from are the ones the simulator is checked
 *   against);
 * - docs/api-catalog.json: which API operation each node operation sends (`nodeOperations`);
 * - the node's description, read from the TypeScript sources (transpiled on the fly): its
 *   versions, every Resource → Operation option, each operation's output steps (the routing's
 *   postReceive functions, by name) and which operations run in code (customOperations).
 *
 * How an answer becomes an item: the node passes a JSON answer through as one item, or splits a
 * list answer into one item per entry (the routing step `listEntries`). Every other output step
 * makes its own shape: OWN_SHAPES below writes each of them down, with the step names it stands
 * for. An operation whose steps are neither the plain ones nor those its OWN_SHAPES entry names
 * stops the script, so that a changed output cannot keep a stale schema.
 *
 * The schemas are plain JSON Schema (draft-07) that n8n's editor can walk: every $ref inlined,
 * allOf of objects merged into one object, OpenAPI 3.0's `nullable` written as a type list, and
 * oneOf written as anyOf (docs/api-notes.md, "Where the specification differs": some of the
 * documented alternatives overlap, so a real answer may match two of them). Validation keywords
 * (required, enum, format, additionalProperties) are kept: test/engine/IntegrationPlatform/
 * outputSchemas.test.ts validates the node's items against these files.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NODE_DIR = path.join(ROOT, 'nodes', 'IntegrationPlatform');
export const SCHEMA_DIR = path.join(NODE_DIR, '__schema__');

const require = createRequire(import.meta.url);
const readJson = (/** @type {string} */ file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** @typedef {Record<string, any>} Schema */

// ---------------------------------------------------------------------------------------------
// The documented answers, as JSON Schema the editor can walk
// ---------------------------------------------------------------------------------------------

const responses = readJson(path.join(ROOT, 'docs', 'api-responses.json'));
const catalog = readJson(path.join(ROOT, 'docs', 'api-catalog.json'));
/** @type {Record<string, Schema>} */
const DEFINITIONS = responses.definitions;

/** A definition of docs/api-responses.json by its key (e.g. `api.Connection`), converted. */
function definition(/** @type {string} */ key) {
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
function nullable(/** @type {Schema} */ schema) {
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
function answerOf(/** @type {string} */ operationId, contentType = 'application/json') {
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
function entriesOf(/** @type {Schema} */ answer, /** @type {string} */ operationId) {
	if (answer.type !== 'array') throw new Error(`${operationId}: the answer is not a list`);
	return answer.items;
}

// ---------------------------------------------------------------------------------------------
// Shapes the node makes itself
// ---------------------------------------------------------------------------------------------

const STRING = { type: 'string' };
const TRUE = { type: 'boolean', const: true };

/** An object with these properties, all of them required. */
const made = (/** @type {Schema} */ properties) => ({
	type: 'object',
	properties,
	required: Object.keys(properties),
});

/** The schema without `names` among the required properties at `at` (a property path). */
function optional(/** @type {Schema} */ schema, /** @type {string[]} */ names, at = []) {
	const copy = structuredClone(schema);
	const target = at.reduce((node, name) => node.properties[name], copy);
	target.required = (target.required ?? []).filter((/** @type {string} */ n) => !names.includes(n));
	if (target.required.length === 0) delete target.required;
	return copy;
}

/** An object schema with more properties after its own (and more required ones). */
function extended(/** @type {Schema} */ schema, /** @type {Schema} */ properties, required = []) {
	const added = Object.entries(properties).filter(([name]) => !(name in schema.properties));
	return {
		...schema,
		properties: { ...schema.properties, ...Object.fromEntries(added) },
		required: [...new Set([...required, ...(schema.required ?? [])])],
	};
}

/** An object schema whose required properties are exactly `required`. */
const requiring = (/** @type {Schema} */ schema, /** @type {string[]} */ required) => ({
	...schema,
	required,
});

/**
 * @typedef {object} Context
 * @property {string | undefined} operationId the API operation the node operation sends
 * @property {() => Schema} answer its documented JSON answer
 * @property {() => Schema} entry one entry of its list answer
 */

/**
 * Operations whose items the node shapes itself: `steps` names their output steps (the
 * routing's postReceive functions besides the error check and the item pairing; `anonymous` for
 * a function without a name, `in code` for an operation run in code), `item` the item.
 *
 * @type {Record<string, { steps: string[]; item: (context: Context) => Schema }>}
 */
const OWN_SHAPES = {
	// Options → Include Secrets off (the default): `key` becomes `keyEnding`, its last four
	// characters. With the option on, `key` is there: it stays a property, not a required one.
	'apiKey/get': { steps: ['hideKeys'], item: ({ answer }) => hiddenKey(answer()) },
	'apiKey/getAll': {
		steps: ['listEntries', 'hideKeys'],
		item: ({ entry }) => hiddenKey(entry()),
	},
	'apiKey/update': { steps: ['hideKeys'], item: ({ answer }) => hiddenKey(answer()) },

	// Options → Include Secrets off: the provider's API key and the OAuth tokens are left out.
	'connection/generate': {
		steps: ['hideProviderSecrets'],
		item: ({ answer }) => hiddenProviderSecrets(answer()),
	},
	'connection/get': {
		steps: ['hideProviderSecrets'],
		item: ({ answer }) => hiddenProviderSecrets(answer()),
	},
	'connection/update': {
		steps: ['hideProviderSecrets'],
		item: ({ answer }) => hiddenProviderSecrets(answer()),
	},

	// Answers without a body (201 or 204): the item says what was done, with the path values.
	'apiKey/delete': deleted('project'),
	'connection/delete': deleted('connectionId'),
	'destination/delete': deleted('destinationId'),
	'installation/delete': deleted('installationId'),
	'integration/delete': deleted('integration'),
	'jwtKey/delete': deleted('jwtKeyId'),
	'notificationEventTopicRoute/delete': deleted('routeId'),
	'providerApp/delete': deleted('providerAppId'),
	'topic/delete': deleted('topicId'),
	'topicDestinationRoute/delete': deleted('routeId'),
	'claimedDomain/claim': {
		steps: ['anonymous'],
		item: () => made({ claimed: TRUE, domain: STRING, parentType: STRING, parentId: STRING }),
	},
	'invite/revoke': {
		steps: ['anonymous'],
		item: () => made({ revoked: TRUE, orgId: STRING, inviteId: STRING }),
	},
	'organization/addMember': {
		steps: ['anonymous'],
		item: () => made({ added: TRUE, orgId: STRING, builderId: STRING }),
	},
	'installation/pauseReads': readsResult('paused'),
	'installation/unpauseReads': readsResult('unpaused'),
	'records/deliverResults': {
		steps: ['anonymous'],
		item: () =>
			made({ requested: TRUE, object: STRING, groupRef: STRING, pages: { type: 'integer' } }),
	},

	// Answers in text/plain: the text becomes `url` (and Reauthorization adds the connection ID).
	'oauth/getAuthorizationUrl': {
		steps: ['text answer'],
		item: ({ operationId }) => made({ url: answerOf(String(operationId), 'text/plain') }),
	},
	'connection/getReauthorizationUrl': {
		steps: ['text answer', 'anonymous'],
		item: ({ operationId }) =>
			made({ url: answerOf(String(operationId), 'text/plain'), connectionId: STRING }),
	},

	// createIntegration answers 201 without a body: the node reads the new integration and adds
	// `created: true`; when that read fails, the item has only the name and provider it sent.
	'integration/create': {
		steps: ['returnCreatedIntegration'],
		item: () =>
			requiring(extended(definition('api.Integration'), { created: TRUE }), [
				'created',
				'name',
				'provider',
			]),
	},
	// createRevision answers 201 without a body: the node reads the integration and gives its
	// latest revision (the new one) with `created: true` and the integration's ID; when that read
	// fails, only those two.
	'revision/create': {
		steps: ['returnLatestRevision'],
		item: () =>
			requiring(extended(definition('api.Revision'), { created: TRUE, integrationId: STRING }), [
				'created',
				'integrationId',
			]),
	},
	// One item per integration of the batch answer (a list).
	'integration/upsertMany': { steps: ['splitIntegrations'], item: ({ entry }) => entry() },
	// One item per field of the answer's `fields` (object → field → result), with the overall
	// success and the object's and field's names; an answer without fields gives `{ success }`.
	'customField/upsert': { steps: ['splitFieldResults'], item: fieldResult },
	'customField/upsertForInstallation': { steps: ['splitFieldResults'], item: fieldResult },
	// The object's metadata `{ name, fields: { <field>: metadata } }`: one item per field marked
	// `isCustom`, with the object's name.
	'customField/getAll': {
		steps: ['customFieldsOf'],
		item: ({ answer }) => {
			const { name, fields } = answer().properties;
			const field = extended(fields.additionalProperties, { objectName: name }, ['isCustom']);
			return { ...field, properties: { ...field.properties, isCustom: TRUE } };
		},
	},
	// A paged answer `{ results, pagination }`: one item per entry of `results`, over all pages.
	'operation/getAll': {
		steps: ['anonymous'],
		item: ({ answer }) => answer().properties.results.items,
	},
	// A list answer, filtered and sorted: one item per log entry.
	'operation/getLogs': { steps: ['logEntries'], item: ({ entry }) => entry() },
	// The catalog is an object keyed by provider name: one item per provider, its name added.
	'provider/getAll': {
		steps: ['catalogEntries'],
		item: ({ answer }) => extended(answer().additionalProperties, { name: STRING }, ['name']),
	},
	// `{ result: [record, …] }`: one item per record.
	'records/search': {
		steps: ['searchResults'],
		item: ({ answer }) => answer().properties.result.items,
	},
	'records/write': { steps: ['in code'], item: writeResult },
	'providerApi/sendRequest': { steps: ['in code'], item: providerAnswer },
};

function hiddenKey(/** @type {Schema} */ apiKey) {
	return optional(extended(apiKey, { keyEnding: STRING }), ['key']);
}

function hiddenProviderSecrets(/** @type {Schema} */ connection) {
	let schema = optional(connection, ['apiKey']);
	for (const token of ['accessToken', 'refreshToken']) {
		schema = optional(schema, ['token'], ['oauth2AuthorizationCode', token]);
	}
	return schema;
}

/** A delete answered 204: `{ deleted: true, <the ID's name>: … }`. */
function deleted(/** @type {string} */ idName) {
	return { steps: ['anonymous'], item: () => made({ deleted: TRUE, [idName]: STRING }) };
}

/** Pause Reads and Unpause Reads (204): the objects asked for, or "all". */
function readsResult(/** @type {string} */ flag) {
	const objects = {
		type: ['array', 'string'],
		items: STRING,
		anyOf: [{ type: 'array' }, { const: 'all' }],
	};
	return {
		steps: ['anonymous'],
		item: () => made({ [flag]: TRUE, installationId: STRING, objects }),
	};
}

function fieldResult(/** @type {Context} */ { answer }) {
	const { success, fields } = answer().properties;
	const result = fields.additionalProperties.additionalProperties;
	return requiring(
		extended(result, { success, objectName: STRING, fieldName: result.properties.fieldName }),
		['success'],
	);
}

/**
 * Records → Write runs in code (records/write.ts): one item per input item, in its order. A
 * record written: `success: true`, its ID, `deleted: true` for a delete, the operation ID and the
 * provider's data when the answer has them. An asynchronous write taken on: `accepted`. With
 * Continue On Fail, a record not written: `success: false` and the error's message.
 */
function writeResult() {
	const result = definition('write.WriteResult').properties;
	const { operationId } = definition('write.WriteResponseSingleSuccess').properties;
	const written = {
		type: 'object',
		properties: {
			success: TRUE,
			recordId: result.recordId,
			deleted: TRUE,
			operationId,
			data: result.data,
		},
		required: ['success', 'operationId'],
	};
	const accepted = made({
		accepted: TRUE,
		mode: { type: 'string', const: 'asynchronous' },
		operationId,
	});
	const failed = made({ success: { type: 'boolean', const: false }, error: STRING });
	// The three shapes' fields side by side for the editor; `success` is true or false there, and
	// the anyOf says which fields go together.
	return {
		type: 'object',
		properties: {
			...written.properties,
			...accepted.properties,
			...failed.properties,
			success: { type: 'boolean' },
		},
		anyOf: [written, accepted, failed],
	};
}

/**
 * Provider API → Send Request (providerApi/sendRequest.ts) passes the provider's own answer
 * through, which no document here describes: a JSON object as it is, a list as one item per
 * entry. Only the node's own fields can be named: Full Response's `statusCode`, `headers` and
 * `body`, a redirect's `location`, and `data` for an answer that is not an object.
 */
function providerAnswer() {
	return {
		type: 'object',
		description:
			"The provider's JSON answer as it is (its fields are the provider's); the fields below are the node's own, present only with Full Response, a redirect or an answer that is not a JSON object.",
		properties: {
			statusCode: { type: 'integer' },
			headers: { type: 'object', additionalProperties: STRING },
			body: {},
			location: { type: ['string', 'null'] },
			data: {},
		},
	};
}

// ---------------------------------------------------------------------------------------------
// The node's operations
// ---------------------------------------------------------------------------------------------

/** The node's TypeScript sources, transpiled (not type-checked). */
const { requireTypeScript } = require('./tsRequire.cjs');

/** 1 → "v1.0.0", 1.1 → "v1.1.0": n8n pads a node version to three parts for the folder name. */
export const versionFolder = (/** @type {number} */ version) =>
	`v${String(version).split('.').concat(['0', '0']).slice(0, 3).join('.')}`;

/**
 * The routing's output steps of an operation by function name, without the error check and the
 * item pairing every operation has. A step before the error check can only be the text answer's
 * (defineOperation.ts), named so here.
 */
function outputSteps(/** @type {Schema} */ option, /** @type {boolean} */ inCode) {
	if (inCode) return ['in code'];
	const names = (option.routing?.output?.postReceive ?? []).map(
		(/** @type {Function} */ step) => step.name || 'anonymous',
	);
	const check = names.indexOf('throwOnProblem');
	if (check === -1) throw new Error(`${option.value}: an operation without the error check`);
	return [
		...names.slice(0, check).map(() => 'text answer'),
		...names.slice(check + 1).filter((/** @type {string} */ name) => name !== 'pairWithInput'),
	];
}

/**
 * Whether a selector with these `@version` conditions shows in `version`: plain version numbers,
 * or `{ _cnd: { gte: 2 } }`-style comparisons; none means every version.
 * @param {number} version @param {unknown[] | undefined} conditions
 */
function shownIn(version, conditions) {
	if (!conditions) return true;
	/** @type {Record<string, (a: number, b: number) => boolean>} */
	const compare = {
		eq: (a, b) => a === b,
		gt: (a, b) => a > b,
		gte: (a, b) => a >= b,
		lt: (a, b) => a < b,
		lte: (a, b) => a <= b,
	};
	return conditions.some((condition) => {
		if (typeof condition === 'number') return condition === version;
		const cnd = /** @type {{ _cnd?: Record<string, number> }} */ (condition)._cnd ?? {};
		const entries = Object.entries(cnd);
		if (entries.length === 0 || entries.some(([op]) => !compare[op])) {
			throw new Error(`unknown @version condition ${JSON.stringify(condition)}`);
		}
		return entries.every(([op, value]) => compare[op](version, value));
	});
}

/** Every operation of the node: `{ version, resource, operation, steps, operationId }`. */
export function nodeOperations() {
	const { IntegrationPlatform } = requireTypeScript(
		path.join(NODE_DIR, 'IntegrationPlatform.node.ts'),
	);
	const node = new IntegrationPlatform();
	const { description } = node;
	const versions = Array.isArray(description.version) ? description.version : [description.version];
	const resources = description.properties.find((/** @type {Schema} */ p) => p.name === 'resource');
	const operations = [];
	for (const version of versions) {
		for (const { value: resource } of resources.options) {
			// One Operation selector per resource, or one per range of versions (`@version`).
			const selectors = description.properties.filter(
				(/** @type {Schema} */ p) =>
					p.name === 'operation' &&
					p.displayOptions?.show?.resource?.includes(resource) &&
					shownIn(version, p.displayOptions.show['@version']),
			);
			if (selectors.length !== 1) throw new Error(`${resource}: not one selector in v${version}`);
			const [selector] = selectors;
			for (const option of selector.options) {
				const inCode = Boolean(node.customOperations?.[resource]?.[option.value]);
				const sent = catalog.operations.filter((/** @type {Schema} */ entry) =>
					(entry.nodeOperations ?? []).some(
						(/** @type {Schema} */ n) => n.resource === resource && n.operation === option.value,
					),
				);
				operations.push({
					version,
					resource,
					operation: option.value,
					steps: outputSteps(option, inCode),
					operationId: sent.length === 1 ? sent[0].operationId : undefined,
				});
			}
		}
	}
	return operations;
}

/** The item schema of one operation (see the header). */
function itemSchema(/** @type {ReturnType<typeof nodeOperations>[number]} */ op) {
	const key = `${op.resource}/${op.operation}`;
	const { operationId } = op;
	const need = () => {
		if (!operationId)
			throw new Error(`${key}: docs/api-catalog.json names no API operation for it`);
		return operationId;
	};
	/** @type {Context} */
	const context = {
		operationId,
		answer: () => answerOf(need()),
		entry: () => entriesOf(answerOf(need()), need()),
	};
	const own = OWN_SHAPES[key];
	if (own) {
		if (JSON.stringify(own.steps) !== JSON.stringify(op.steps)) {
			throw new Error(
				`${key}: its output steps are [${op.steps}], OWN_SHAPES describes [${own.steps}]: describe the new output`,
			);
		}
		return own.item(context);
	}
	if (op.steps.length === 0) return context.answer();
	if (JSON.stringify(op.steps) === '["listEntries"]') return context.entry();
	throw new Error(`${key}: output steps [${op.steps}] make their own shape: add it to OWN_SHAPES`);
}

// ---------------------------------------------------------------------------------------------
// The triggers
// ---------------------------------------------------------------------------------------------

const NULLABLE_STRING = { type: ['string', 'null'] };

/**
 * One item of each trigger, written from what its output code builds: the log trigger's
 * (IntegrationPlatformLogTrigger/output.ts `toItem`, plus the installation when it watches one)
 * starts from the API's log entry; the event trigger's (IntegrationPlatformTrigger/events.ts
 * `buildItems`) depends on the message, so its schema names what every item carries and leaves
 * the rest open.
 *
 * @type {Record<string, () => Schema>}
 */
const TRIGGER_SCHEMAS = {
	IntegrationPlatformLogTrigger: () => {
		const entry = entriesOf(answerOf('listOperationLogs'), 'listOperationLogs');
		const item = extended(
			{
				...entry,
				properties: Object.fromEntries(
					Object.entries(entry.properties).map(([name, schema]) => [name, nullable(schema)]),
				),
			},
			{
				timestampIso: NULLABLE_STRING,
				operationId: STRING,
				projectId: STRING,
				entryKey: STRING,
				installationId: NULLABLE_STRING,
			},
			['timestamp', 'severity', 'message', 'timestampIso', 'operationId', 'projectId', 'entryKey'],
		);
		return { ...item, title: 'Log entry' };
	},
	IntegrationPlatformTrigger: () => ({
		title: 'Delivered message',
		type: 'object',
		properties: {
			event: {
				type: 'string',
				description:
					'read, subscribe, schema.watch or the notification type; with one item per record, the message is under `message`',
			},
			delivery: {
				type: 'object',
				properties: {
					id: STRING,
					timestamp: STRING,
					verified: { type: 'boolean' },
					receivedAt: STRING,
					headers: { type: 'object', additionalProperties: STRING },
				},
				required: ['verified', 'receivedAt', 'headers'],
			},
		},
		required: ['event', 'delivery'],
		additionalProperties: true,
	}),
};

/** The versions a trigger's description lists. */
function triggerVersions(/** @type {string} */ name) {
	const module = requireTypeScript(path.join(ROOT, 'nodes', name, `${name}.node.ts`));
	const { version } = new module[name]().description;
	return Array.isArray(version) ? version : [version];
}

/** The triggers' files: trigger folder → (path relative to its __schema__ → contents). */
export function triggerSchemaFiles() {
	/** @type {Record<string, Map<string, string>>} */
	const byTrigger = {};
	for (const [name, item] of Object.entries(TRIGGER_SCHEMAS)) {
		const schema = { $schema: 'http://json-schema.org/draft-07/schema#', ...item() };
		byTrigger[name] = new Map(
			triggerVersions(name).map((version) => [
				`${versionFolder(version)}.json`,
				`${JSON.stringify(schema, null, '\t')}\n`,
			]),
		);
	}
	return byTrigger;
}

/** Every file to write: path relative to SCHEMA_DIR → contents. */
export function schemaFiles() {
	/** @type {Map<string, string>} */
	const files = new Map();
	for (const op of nodeOperations()) {
		const item = itemSchema(op);
		if (item.type !== 'object' || Object.keys(item.properties ?? {}).length === 0) {
			// n8n's editor shows no preview for a schema without properties.
			throw new Error(`${op.resource}/${op.operation}: the item schema names no properties`);
		}
		const schema = { $schema: 'http://json-schema.org/draft-07/schema#', ...item };
		const file = path.join(versionFolder(op.version), op.resource, `${op.operation}.json`);
		files.set(file, `${JSON.stringify(schema, null, '\t')}\n`);
	}
	return files;
}

/** Files under SCHEMA_DIR now, relative to it. */
function existingFiles(dir = SCHEMA_DIR, prefix = '') {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir, { withFileTypes: true })
		.flatMap((entry) =>
			entry.isDirectory()
				? existingFiles(path.join(dir, entry.name), path.join(prefix, entry.name))
				: [path.join(prefix, entry.name)],
		);
}

/**
 * Makes the schema folder `dir` (below ROOT) hold exactly `files` (paths relative to it), or with
 * `check` lists what differs. Returns the problems found.
 * @param {string} dir @param {Map<string, string>} files @param {boolean} check
 */
function sync(dir, files, check) {
	const problems = [];
	const base = path.join(ROOT, dir);
	for (const [file, text] of files) {
		const target = path.join(base, file);
		const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined;
		if (current === text) continue;
		if (check)
			problems.push(`${current === undefined ? 'missing' : 'differs'}: ${path.join(dir, file)}`);
		else {
			fs.mkdirSync(path.dirname(target), { recursive: true });
			fs.writeFileSync(target, text);
		}
	}
	for (const file of existingFiles(base).filter((f) => !files.has(f))) {
		if (check) problems.push(`left over: ${path.join(dir, file)}`);
		else fs.rmSync(path.join(base, file));
	}
	if (!check) {
		// Folders of operations or versions that went away.
		for (const folder of existingDirs(base).reverse()) {
			if (fs.readdirSync(folder).length === 0) fs.rmdirSync(folder);
		}
	}
	return problems;
}

function main() {
	const check = process.argv.includes('--check');
	const wanted = schemaFiles();
	const triggers = triggerSchemaFiles();
	const problems = [
		...sync(path.relative(ROOT, SCHEMA_DIR), wanted, check),
		...Object.entries(triggers).flatMap(([name, files]) =>
			sync(path.join('nodes', name, '__schema__'), files, check),
		),
	];
	const triggerCount = Object.values(triggers).reduce((n, files) => n + files.size, 0);
	if (!check) {
		process.stdout.write(
			`${wanted.size} output schemas in ${path.relative(ROOT, SCHEMA_DIR)}, ${triggerCount} of the triggers\n`,
		);
		return;
	}
	if (problems.length) {
		process.stderr.write(
			`${problems.join('\n')}\nThe output schemas are stale: run node scripts/generate-output-schemas.mjs\n`,
		);
		process.exitCode = 1;
	} else {
		process.stdout.write(
			`${wanted.size} output schemas up to date, ${triggerCount} of the triggers\n`,
		);
	}
}

function existingDirs(dir = SCHEMA_DIR) {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir, { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.flatMap((entry) => [path.join(dir, entry.name), ...existingDirs(path.join(dir, entry.name))]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
