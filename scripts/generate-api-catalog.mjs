#!/usr/bin/env node
// @ts-check
/**
 * Writes docs/api-catalog.json: every operation of the Integration Platform API (Ampersand-
 * compatible), read from its four OpenAPI documents, with what this package does about it.
 *
 *   node scripts/generate-api-catalog.mjs [openapi-dir]          regenerate the file
 *   node scripts/generate-api-catalog.mjs --check [openapi-dir]  exit 1, saying what differs, when
 *                                                                 the committed file is not what
 *                                                                 the generator would write
 *
 * openapi-dir holds api.yaml, read.yaml, write.yaml and search.yaml: the api/ folder of a checkout
 * of the API's public OpenAPI documents (github.com/amp-labs/openapi, MIT). Give it as the
 * argument or in OPENAPI_DIR (a relative path is taken relative to the current directory).
 *
 * The file is `{ "$comment": …, "operations": [ … ] }`, one entry per operation, sorted by
 * document (api, read, write, search), then path, then method (plain string order), written as
 * 2-space JSON with a trailing newline. Same documents and same curated fields → same bytes.
 *
 * Fields taken from the documents (rewritten on every run):
 *   operationId  the document's operationId (unique across the four documents)
 *   document     which document declares it: api | read | write | search
 *   host         the host it is sent to, from the document's servers (a path's or operation's own
 *                servers override them): management (api.…) | read | write | search
 *   method       HTTP method, uppercase
 *   path         the path below /v1 exactly as the document writes it, placeholders included,
 *                e.g. /projects/{projectIdOrName}/destinations/{destination}
 *   summary      the operation's summary ("" when it has none)
 *   credentials  which of the package's credentials the operation's effective security (its own
 *                `security`, else the document's) accepts, in this order: "apiKey" (an apiKey
 *                scheme sent in the X-Api-Key header) and "bearerToken" (an http bearer scheme).
 *                [] when the operation needs none (`security: []`, or an empty alternative `{}`).
 *                Other schemes (e.g. an API key in the query string) count for neither; an
 *                operation that only they could call stops the generator.
 *
 * Curated fields (kept from the existing file, matched by operationId; edit them by hand):
 *   status          covered | planned | excluded | not yet covered. New operations get
 *                   "not yet covered".
 *                     covered          the action node routes it (nodeOperations says how)
 *                     planned          to be covered later
 *                     excluded         deliberately not covered; `reason` says why
 *                     not yet covered  no decision yet
 *   reason          why (required for excluded, allowed for any status)
 *   nodeOperations  [{ "resource": …, "operation": … }]: the action node's operations that send
 *                   this request, by the values of its Resource and Operation parameters. Required
 *                   for covered entries (several node operations may share one API operation, e.g.
 *                   Destination → Get and → Rotate Signing Secret); allowed for planned ones
 *                   (the names they will get); absent otherwise.
 *
 * Operations that are no longer in the documents are dropped (and named on stderr).
 *
 * It also writes docs/api-requests.json, the request contract of every operation (same order, no
 * curated fields), which test/openapi/requestContract.ts checks the node's requests against:
 *   operations  [{ operationId, document, host, method, path,
 *                  pathParameters:  [{ name, schema }]            (all required),
 *                  queryParameters: [{ name, required, schema }],
 *                  body: null | { required, contentType, schema } }]
 *                parameters declared on the path item and on the operation, the operation's winning
 *   definitions  every schema a body or parameter refers to, bundled from all the documents it
 *                reaches ($refs into ../problem, ../manifest, ../config and ../catalog included),
 *                keyed "<document>.<schema name>"; every $ref is rewritten to
 *                "#/definitions/<key>", so the file is self-contained (the documents are not in CI).
 * And docs/api-responses.json, the documented success answers of every operation (same order),
 * which test/openapi/responseContract.ts checks the simulator's answers against:
 *   operations  [{ operationId, document, host, method, path,
 *                  responses: [{ status, content: null | { <content type>: schema } }] }]
 *                every 2xx response the operation declares (content null when it has none)
 *   definitions  as above, bundled separately (the two files do not share keys)
 * Schemas keep their validation keywords and OpenAPI 3.0's `nullable`; annotations that do not
 * validate (description, example(s), externalDocs, xml, discriminator, x-* extensions) are left
 * out. --check compares all three files.
 * test/unit/IntegrationPlatform/coverage.test.ts checks the committed file against the node, the
 * simulator and the example workflows; this script's --check keeps it in step with the documents.
 *
 * Needs the `yaml` package (a devDependency).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(ROOT, 'docs', 'api-catalog.json');
const REQUESTS_OUTPUT = path.join(ROOT, 'docs', 'api-requests.json');
const RESPONSES_OUTPUT = path.join(ROOT, 'docs', 'api-responses.json');

/** Documents in catalogue order. */
const DOCUMENTS = /** @type {const} */ (['api', 'read', 'write', 'search']);
/** First label of the server's host name → catalogue host. */
const HOSTS = /** @type {Record<string, string>} */ ({
	api: 'management',
	read: 'read',
	write: 'write',
	search: 'search',
});
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const CREDENTIALS = /** @type {const} */ (['apiKey', 'bearerToken']);
const STATUSES = ['covered', 'planned', 'excluded', 'not yet covered'];

const REQUESTS_COMMENT =
	'The request contract of every operation of the Integration Platform API: path and query parameters and the JSON body schema, all $refs bundled into definitions. Generated by scripts/generate-api-catalog.mjs from the OpenAPI documents; do not edit. test/openapi/requestContract.ts checks recorded requests against it.';

const RESPONSES_COMMENT =
	"The documented success answers (2xx) of every operation of the Integration Platform API: per status, no content or the schema of each content type, all $refs bundled into definitions. Generated by scripts/generate-api-catalog.mjs from the OpenAPI documents; do not edit. test/openapi/responseContract.ts checks the simulator's answers against it.";

const COMMENT =
	'Every operation of the Integration Platform API with what this package does about it. Generated by scripts/generate-api-catalog.mjs (fields explained there): edit only status, reason and nodeOperations by hand, then rerun it.';

/** @param {string} a @param {string} b */
const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * @param {any} doc
 * @param {any} value
 */
function deref(doc, value) {
	if (value && typeof value.$ref === 'string') {
		if (!value.$ref.startsWith('#/')) throw new Error(`external $ref not supported: ${value.$ref}`);
		return value.$ref
			.slice(2)
			.split('/')
			.reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
	}
	return value;
}

/**
 * @param {string} document
 * @param {Array<{ url?: string }> | undefined} servers
 */
function hostOf(document, servers) {
	if (!Array.isArray(servers) || servers.length === 0) {
		throw new Error(`${document}.yaml: no servers, so no host`);
	}
	const hosts = new Set(
		servers.map(({ url }) => {
			const label = new URL(String(url)).hostname.split('.')[0];
			const host = HOSTS[label];
			if (!host) throw new Error(`${document}.yaml: unknown server ${url}`);
			return host;
		}),
	);
	if (hosts.size !== 1) throw new Error(`${document}.yaml: servers on several hosts`);
	return [...hosts][0];
}

/**
 * Which credentials an operation's effective security accepts.
 * @param {any} doc
 * @param {string} where for messages
 * @param {Array<Record<string, unknown>> | undefined} security
 */
function credentialsOf(doc, where, security) {
	const requirements = security ?? doc.security ?? [];
	if (requirements.length === 0) return [];
	if (requirements.some((/** @type {object} */ r) => Object.keys(r).length === 0)) return [];
	/** @param {string} name */
	const kindOf = (name) => {
		const scheme = deref(doc, doc.components?.securitySchemes?.[name]);
		if (!scheme) throw new Error(`${where}: unknown security scheme ${name}`);
		if (
			scheme.type === 'apiKey' &&
			scheme.in === 'header' &&
			String(scheme.name).toLowerCase() === 'x-api-key'
		) {
			return 'apiKey';
		}
		if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') {
			return 'bearerToken';
		}
		return undefined;
	};
	const accepted = new Set();
	for (const requirement of requirements) {
		// All schemes of one requirement are needed together: one credential serves only when
		// they are all of its kind.
		const kinds = new Set(Object.keys(requirement).map(kindOf));
		if (kinds.size === 1 && !kinds.has(undefined)) accepted.add([...kinds][0]);
	}
	if (accepted.size === 0) {
		throw new Error(
			`${where}: security ${JSON.stringify(requirements)} accepts neither an X-Api-Key header ` +
				'nor a bearer token; teach credentialsOf the scheme',
		);
	}
	return CREDENTIALS.filter((c) => accepted.has(c));
}

/** @param {string} dir */
function readOperations(dir) {
	/** @type {any[]} */
	const operations = [];
	for (const document of DOCUMENTS) {
		const file = path.join(dir, `${document}.yaml`);
		const doc = parse(fs.readFileSync(file, 'utf8'));
		for (const [apiPath, rawItem] of Object.entries(doc.paths ?? {})) {
			const item = deref(doc, rawItem);
			for (const method of METHODS) {
				const op = item[method];
				if (!op) continue;
				const where = `${document}.yaml ${method.toUpperCase()} ${apiPath}`;
				if (!op.operationId) throw new Error(`${where}: no operationId`);
				operations.push({
					operationId: op.operationId,
					document,
					host: hostOf(document, op.servers ?? item.servers ?? doc.servers),
					method: method.toUpperCase(),
					path: apiPath,
					summary: typeof op.summary === 'string' ? op.summary.trim() : '',
					credentials: credentialsOf(doc, where, op.security),
				});
			}
		}
	}
	operations.sort(
		(a, b) =>
			DOCUMENTS.indexOf(a.document) - DOCUMENTS.indexOf(b.document) ||
			compare(a.path, b.path) ||
			compare(a.method, b.method),
	);
	const seen = new Set();
	for (const { operationId } of operations) {
		if (seen.has(operationId)) throw new Error(`operationId ${operationId} appears twice`);
		seen.add(operationId);
	}
	return operations;
}

/** Schema keywords that only annotate: left out of the contract. */
const ANNOTATIONS = new Set([
	'description',
	'example',
	'examples',
	'externalDocs',
	'xml',
	'discriminator',
]);
/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties']);
/** Keywords whose value is one schema (or, for items, possibly boolean). */
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not']);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);

/**
 * Bundles schemas across documents: each referenced schema once, under a stable key, with every
 * $ref rewritten to "#/definitions/<key>".
 * @param {string} dir the folder of api.yaml; other documents are reached relative to it
 */
function createBundler(dir) {
	/** @type {Map<string, any>} absolute file → parsed document */
	const files = new Map();
	/** @type {Map<string, string>} "file#pointer" → key */
	const keys = new Map();
	/** @type {Record<string, any>} key → bundled schema */
	const definitions = {};

	/** @param {string} file */
	const load = (file) => {
		if (!files.has(file)) files.set(file, parse(fs.readFileSync(file, 'utf8')));
		return files.get(file);
	};
	/**
	 * @param {string} file
	 * @param {string} ref
	 * @returns {{ file: string, pointer: string, value: any }}
	 */
	const resolve = (file, ref) => {
		const hash = ref.indexOf('#');
		const target =
			hash === 0
				? file
				: path.resolve(path.dirname(file), ref.slice(0, hash < 0 ? undefined : hash));
		const pointer = hash < 0 ? '' : ref.slice(hash + 1);
		const value = pointer
			.split('/')
			.slice(1)
			.reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], load(target));
		if (value === undefined) throw new Error(`${path.basename(file)}: unresolved $ref ${ref}`);
		return { file: target, pointer, value };
	};
	/**
	 * The key of a referenced schema: "<document>.<last pointer segment>".
	 * @param {string} file
	 * @param {string} pointer
	 */
	const keyOf = (file, pointer) => {
		const id = `${file}#${pointer}`;
		const known = keys.get(id);
		if (known) return known;
		const base = `${path.basename(file).replace(/\.ya?ml$/, '')}.${pointer.split('/').pop()}`;
		let key = base;
		for (let n = 2; Object.values(Object.fromEntries(keys)).includes(key); n++)
			key = `${base}~${n}`;
		keys.set(id, key);
		return key;
	};

	/**
	 * @param {string} file the document the schema is written in ($refs are relative to it)
	 * @param {any} schema
	 * @returns {any}
	 */
	const bundle = (file, schema) => {
		if (typeof schema !== 'object' || schema === null) return schema;
		if (typeof schema.$ref === 'string') {
			const target = resolve(file, schema.$ref);
			const key = keyOf(target.file, target.pointer);
			if (!(key in definitions)) {
				definitions[key] = {}; // placeholder: a schema may refer to itself
				definitions[key] = bundle(target.file, target.value);
			}
			return { $ref: `#/definitions/${key}` };
		}
		/** @type {Record<string, any>} */
		const out = {};
		for (const [keyword, value] of Object.entries(schema)) {
			if (ANNOTATIONS.has(keyword) || keyword.startsWith('x-')) continue;
			if (SCHEMA_MAPS.has(keyword)) {
				out[keyword] = Object.fromEntries(
					Object.entries(value ?? {}).map(([name, sub]) => [name, bundle(file, sub)]),
				);
			} else if (SCHEMA_VALUES.has(keyword)) {
				out[keyword] = bundle(file, value);
			} else if (SCHEMA_LISTS.has(keyword)) {
				out[keyword] = value.map((/** @type {any} */ sub) => bundle(file, sub));
			} else {
				out[keyword] = value;
			}
		}
		return out;
	};

	return {
		/** @param {string} document */
		document: (document) => {
			const file = path.join(dir, `${document}.yaml`);
			return { file, doc: load(file) };
		},
		/**
		 * A parameter, request body or path item, following a $ref.
		 * @param {string} file
		 * @param {any} value
		 */
		deref: (file, value) =>
			value && typeof value.$ref === 'string' ? resolve(file, value.$ref) : { file, value },
		bundle,
		/** The definitions bundled so far, sorted by key. */
		definitions: () =>
			Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => compare(a, b))),
	};
}

/**
 * The request contract of every operation (docs/api-requests.json) and its documented success
 * answers (docs/api-responses.json).
 * @param {string} dir
 */
function readContracts(dir) {
	const bundler = createBundler(dir);
	const responseBundler = createBundler(dir);
	/** @type {any[]} */
	const operations = [];
	/** @type {any[]} */
	const answers = [];
	for (const document of DOCUMENTS) {
		const { file, doc } = bundler.document(document);
		for (const [apiPath, rawItem] of Object.entries(doc.paths ?? {})) {
			const itemRef = bundler.deref(file, rawItem);
			const item = itemRef.value;
			for (const method of METHODS) {
				const op = item[method];
				if (!op) continue;
				const where = `${document}.yaml ${method.toUpperCase()} ${apiPath}`;
				/** @type {Map<string, any>} "in:name" → parameter; the operation's own win */
				const parameters = new Map();
				for (const [owner, list] of [
					[itemRef.file, item.parameters],
					[file, op.parameters],
				]) {
					for (const raw of list ?? []) {
						const { file: at, value } = bundler.deref(owner, raw);
						parameters.set(`${value.in}:${value.name}`, { at, value });
					}
				}
				const pathParameters = [];
				const queryParameters = [];
				for (const { at, value } of parameters.values()) {
					const schema = bundler.bundle(at, value.schema ?? {});
					if (value.in === 'path') pathParameters.push({ name: value.name, schema });
					else if (value.in === 'query') {
						queryParameters.push({ name: value.name, required: value.required === true, schema });
					} else if (value.in !== 'header' && value.in !== 'cookie') {
						throw new Error(`${where}: parameter ${value.name} in ${value.in}`);
					}
				}
				const declared = [...apiPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
				const named = pathParameters.map((p) => p.name).sort();
				if (declared.join() !== named.join()) {
					throw new Error(`${where}: path placeholders ${declared} but path parameters ${named}`);
				}
				let body = null;
				if (op.requestBody) {
					const { file: at, value } = bundler.deref(file, op.requestBody);
					const types = Object.keys(value.content ?? {});
					const json =
						types.find((t) => t === 'application/json') ?? types.find((t) => /json/.test(t));
					if (!json) throw new Error(`${where}: no JSON request body (${types.join(', ')})`);
					body = {
						required: value.required === true,
						contentType: json,
						schema: bundler.bundle(at, value.content[json].schema ?? {}),
					};
				}
				const identity = {
					operationId: op.operationId,
					document,
					host: hostOf(document, op.servers ?? item.servers ?? doc.servers),
					method: method.toUpperCase(),
					path: apiPath,
				};
				operations.push({ ...identity, pathParameters, queryParameters, body });
				const responses = [];
				for (const [status, raw] of Object.entries(op.responses ?? {})) {
					if (!/^2(\d\d|XX)$/.test(status)) continue;
					const { file: at, value } = responseBundler.deref(file, raw);
					const types = Object.keys(value.content ?? {}).sort(compare);
					responses.push({
						status,
						content: types.length
							? Object.fromEntries(
									types.map((type) => [
										type,
										responseBundler.bundle(at, value.content[type].schema ?? {}),
									]),
								)
							: null,
					});
				}
				if (responses.length === 0) throw new Error(`${where}: no success response`);
				answers.push({ ...identity, responses });
			}
		}
	}
	/** @param {any} a @param {any} b */
	const order = (a, b) =>
		DOCUMENTS.indexOf(a.document) - DOCUMENTS.indexOf(b.document) ||
		compare(a.path, b.path) ||
		compare(a.method, b.method);
	operations.sort(order);
	answers.sort(order);
	return {
		requests: { $comment: REQUESTS_COMMENT, operations, definitions: bundler.definitions() },
		responses: {
			$comment: RESPONSES_COMMENT,
			operations: answers,
			definitions: responseBundler.definitions(),
		},
	};
}

/** @returns {Map<string, any>} the existing file's entries by operationId */
function readExisting() {
	if (!fs.existsSync(OUTPUT)) return new Map();
	const text = fs.readFileSync(OUTPUT, 'utf8');
	let json;
	try {
		json = JSON.parse(text);
	} catch (error) {
		throw new Error(
			`${path.relative(ROOT, OUTPUT)} is not valid JSON (${error}); fix or delete it`,
		);
	}
	const entries = Array.isArray(json) ? json : json.operations;
	if (!Array.isArray(entries)) throw new Error(`${path.relative(ROOT, OUTPUT)} has no operations`);
	return new Map(entries.map((entry) => [entry.operationId, entry]));
}

/**
 * @param {any} generated
 * @param {any} existing
 */
function curate(generated, existing) {
	const status = existing?.status ?? 'not yet covered';
	const where = `${generated.operationId}`;
	if (!STATUSES.includes(status)) {
		throw new Error(
			`${where}: status ${JSON.stringify(status)} is not one of ${STATUSES.join(', ')}`,
		);
	}
	const entry = { ...generated, status };
	if (existing?.reason !== undefined) entry.reason = existing.reason;
	if (existing?.nodeOperations !== undefined) {
		// Key order fixed, so that hand edits in another order still give the same bytes.
		entry.nodeOperations = existing.nodeOperations.map(
			(/** @type {{ resource: string, operation: string }} */ o) => ({
				resource: o.resource,
				operation: o.operation,
			}),
		);
	}
	if (status === 'excluded' && !entry.reason)
		throw new Error(`${where}: excluded without a reason`);
	if (status === 'covered' && !entry.nodeOperations?.length) {
		throw new Error(`${where}: covered without nodeOperations`);
	}
	return entry;
}

/** @param {string} dir */
function render(dir) {
	const existing = readExisting();
	const operations = readOperations(dir).map((op) => curate(op, existing.get(op.operationId)));
	const ids = new Set(operations.map((op) => op.operationId));
	const dropped = [...existing.values()].filter((entry) => !ids.has(entry.operationId));
	const text = `${JSON.stringify({ $comment: COMMENT, operations }, null, 2)}\n`;
	const { requests, responses } = readContracts(dir);
	const requestsText = `${JSON.stringify(requests, null, 2)}\n`;
	const responsesText = `${JSON.stringify(responses, null, 2)}\n`;
	return { text, operations, dropped, requestsText, requests, responsesText, responses };
}

/**
 * What differs between the committed file and the one the generator would write.
 * @param {string} committed
 * @param {any[]} operations
 */
function describeDifferences(committed, operations) {
	let json;
	try {
		json = JSON.parse(committed);
	} catch {
		return ['the committed file is not valid JSON'];
	}
	const entries = Array.isArray(json) ? json : (json?.operations ?? []);
	const before = new Map(entries.map((/** @type {any} */ e) => [e.operationId, e]));
	const after = new Map(operations.map((e) => [e.operationId, e]));
	const lines = [];
	for (const id of after.keys()) if (!before.has(id)) lines.push(`+ ${id}: new operation`);
	for (const id of before.keys()) {
		if (!after.has(id)) lines.push(`- ${id}: no longer in the documents`);
	}
	for (const [id, entry] of after) {
		const old = before.get(id);
		if (!old) continue;
		const keys = new Set([...Object.keys(old), ...Object.keys(entry)]);
		for (const key of keys) {
			const was = JSON.stringify(old[key]);
			const is = JSON.stringify(entry[key]);
			if (was !== is) lines.push(`~ ${id}.${key}: ${was ?? '(absent)'} → ${is ?? '(absent)'}`);
		}
	}
	if (lines.length === 0) {
		const order = entries.map((/** @type {any} */ e) => e.operationId).join();
		lines.push(
			order !== operations.map((e) => e.operationId).join()
				? 'the operations are in a different order'
				: 'the same content, formatted differently (rerun the generator)',
		);
	}
	return lines;
}

/**
 * What differs between the committed request contract and the generated one, by operation and
 * definition.
 * @param {string} committed
 * @param {any} generated
 */
function describeRequestDifferences(committed, generated) {
	let json;
	try {
		json = JSON.parse(committed);
	} catch {
		return ['the committed file is not valid JSON'];
	}
	const lines = [];
	for (const [what, id] of /** @type {const} */ ([
		['operations', 'operationId'],
		['definitions', undefined],
	])) {
		/** @param {any} container */
		const byId = (container) =>
			new Map(
				id
					? (container?.[what] ?? []).map((/** @type {any} */ e) => [e[id], e])
					: Object.entries(container?.[what] ?? {}),
			);
		const before = byId(json);
		const after = byId(generated);
		for (const key of new Set([...before.keys(), ...after.keys()])) {
			if (!before.has(key)) lines.push(`+ ${what} ${key}`);
			else if (!after.has(key)) lines.push(`- ${what} ${key}`);
			else if (JSON.stringify(before.get(key)) !== JSON.stringify(after.get(key))) {
				lines.push(`~ ${what} ${key}`);
			}
		}
	}
	if (lines.length === 0) lines.push('the same content, formatted or ordered differently');
	return lines;
}

function main() {
	const args = process.argv.slice(2);
	const check = args.includes('--check');
	const rest = args.filter((a) => a !== '--check');
	if (rest.length > 1 || rest.some((a) => a.startsWith('-'))) {
		console.error('usage: node scripts/generate-api-catalog.mjs [--check] [openapi-dir]');
		process.exit(2);
	}
	const given = rest[0] ?? process.env.OPENAPI_DIR;
	if (!given) {
		process.stderr.write(
			'Give the folder of the OpenAPI documents (api.yaml, read.yaml, write.yaml, search.yaml), as the argument or in OPENAPI_DIR: the api/ folder of github.com/amp-labs/openapi.\n',
		);
		process.exit(2);
	}
	const dir = path.resolve(given);
	const { text, operations, dropped, requestsText, requests, responsesText, responses } =
		render(dir);
	const relative = path.relative(process.cwd(), OUTPUT) || OUTPUT;
	const requestsRelative = path.relative(process.cwd(), REQUESTS_OUTPUT) || REQUESTS_OUTPUT;
	const responsesRelative = path.relative(process.cwd(), RESPONSES_OUTPUT) || RESPONSES_OUTPUT;

	if (check) {
		/** Whether the committed file is what the generator writes; says so, or how it differs. */
		const upToDate = (file, shown, generated, summary, differences) => {
			const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
			if (committed === generated) {
				console.log(`${shown} is up to date (${summary})`);
				return true;
			}
			if (committed === undefined) {
				console.error(`${shown} does not exist`);
				return false;
			}
			console.error(`${shown} is not what the generator writes:`);
			const lines = differences(committed);
			for (const line of lines.slice(0, 50)) console.error(`  ${line}`);
			if (lines.length > 50) console.error(`  … and ${lines.length - 50} more`);
			return false;
		};
		const catalogOk = upToDate(
			OUTPUT,
			relative,
			text,
			`${operations.length} operations`,
			(committed) => describeDifferences(committed, operations),
		);
		const requestsOk = upToDate(
			REQUESTS_OUTPUT,
			requestsRelative,
			requestsText,
			`${requests.operations.length} operations, ${Object.keys(requests.definitions).length} definitions`,
			(committed) => describeRequestDifferences(committed, requests),
		);
		const responsesOk = upToDate(
			RESPONSES_OUTPUT,
			responsesRelative,
			responsesText,
			`${responses.operations.length} operations, ${Object.keys(responses.definitions).length} definitions`,
			(committed) => describeRequestDifferences(committed, responses),
		);
		const failed = !catalogOk || !requestsOk || !responsesOk;
		if (failed) {
			console.error(`Run: node scripts/generate-api-catalog.mjs${rest[0] ? ` ${rest[0]}` : ''}`);
			process.exit(1);
		}
		return;
	}

	for (const entry of dropped) {
		console.error(
			`dropped ${entry.operationId} (status ${entry.status}): no longer in the documents`,
		);
	}
	fs.mkdirSync(path.dirname(OUTPUT), { recursive: true });
	fs.writeFileSync(OUTPUT, text);
	fs.writeFileSync(REQUESTS_OUTPUT, requestsText);
	fs.writeFileSync(RESPONSES_OUTPUT, responsesText);
	const counts = /** @type {Record<string, number>} */ ({});
	for (const { status } of operations) counts[status] = (counts[status] ?? 0) + 1;
	console.log(
		`wrote ${relative}: ${operations.length} operations (${Object.entries(counts)
			.map(([status, n]) => `${n} ${status}`)
			.join(', ')})`,
	);
	console.log(
		`wrote ${requestsRelative}: ${requests.operations.length} request contracts, ${Object.keys(requests.definitions).length} definitions`,
	);
	console.log(
		`wrote ${responsesRelative}: ${responses.operations.length} response contracts, ${Object.keys(responses.definitions).length} definitions`,
	);
}

try {
	main();
} catch (error) {
	console.error(`generate-api-catalog: ${error instanceof Error ? error.message : error}`);
	process.exit(1);
}
