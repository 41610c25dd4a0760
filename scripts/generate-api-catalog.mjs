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

import { readContracts } from './apiCatalog/contracts.mjs';
import { curate } from './apiCatalog/curation.mjs';
import { describeDifferences, describeRequestDifferences } from './apiCatalog/differences.mjs';
import { readOperations } from './apiCatalog/documents.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(ROOT, 'docs', 'api-catalog.json');
const REQUESTS_OUTPUT = path.join(ROOT, 'docs', 'api-requests.json');
const RESPONSES_OUTPUT = path.join(ROOT, 'docs', 'api-responses.json');

const COMMENT =
	'Every operation of the Integration Platform API with what this package does about it. Generated by scripts/generate-api-catalog.mjs (fields explained there): edit only status, reason and nodeOperations by hand, then rerun it.';

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
