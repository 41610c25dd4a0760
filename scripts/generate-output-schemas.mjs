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
 * The triggers get one schema per node version too (outputSchemas/triggers.mjs): their items do not
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
 *   versions and every Resource → Operation option; and each operation's definition
 *   (resources/<resource>/index.ts), whose `outputShape` says what one item is.
 *
 * How an answer becomes an item: an operation that declares no `outputShape` passes its JSON
 * answer through as one item; every other shape (one item per entry of a list, secrets hidden,
 * the item of an answer without a body…) has its schema in outputSchemas/shapes.mjs. An operation
 * with output steps, a text answer or code of its own but no `outputShape`, or a shape without a
 * schema, stops the script, so that a new output cannot go without its schema.
 *
 * The schemas are plain JSON Schema (draft-07) that n8n's editor can walk: every $ref inlined,
 * allOf of objects merged into one object, OpenAPI 3.0's `nullable` written as a type list, and
 * oneOf written as anyOf (docs/api-notes.md, "Where the specification differs": some of the
 * documented alternatives overlap, so a real answer may match two of them). Validation keywords
 * (required, enum, format, additionalProperties) are kept: test/engine/IntegrationPlatform/
 * outputSchemas.test.ts validates the node's items against these files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	itemSchema,
	NODE_DIR,
	nodeOperations,
	versionFolder,
} from './outputSchemas/operations.mjs';
import { ROOT } from './outputSchemas/schemas.mjs';
import { triggerSchemaFiles } from './outputSchemas/triggers.mjs';

export const SCHEMA_DIR = path.join(NODE_DIR, '__schema__');

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
