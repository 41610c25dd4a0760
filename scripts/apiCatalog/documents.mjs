// @ts-check
/**
 * The API's four OpenAPI documents read into the catalogue's entries: each operation's ID,
 * document, host, method, path, summary and credentials (scripts/generate-api-catalog.mjs
 * describes the fields).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** Documents in catalogue order. */
export const DOCUMENTS = /** @type {const} */ (['api', 'read', 'write', 'search']);
/** First label of the server's host name → catalogue host. */
export const HOSTS = /** @type {Record<string, string>} */ ({
	api: 'management',
	read: 'read',
	write: 'write',
	search: 'search',
});
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
export const CREDENTIALS = /** @type {const} */ (['apiKey', 'bearerToken']);

/** @param {string} a @param {string} b */
export const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * @param {any} doc
 * @param {any} value
 */
export function deref(doc, value) {
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
export function hostOf(document, servers) {
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
export function credentialsOf(doc, where, security) {
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
export function readOperations(dir) {
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
