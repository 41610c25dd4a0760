/**
 * The output schemas (nodes/IntegrationPlatform/__schema__/ and one per trigger version,
 * docs/architecture.md, "Output schemas"): the committed files are what
 * scripts/generate-output-schemas.mjs writes today, there is one for every operation of every
 * version of the action node and none for anything else, and each is a schema n8n's editor can
 * show. Whether the nodes' items match them is the engine tests' question
 * (test/engine/IntegrationPlatform/outputSchemas.test.ts, and the triggers' node tests).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import Ajv from 'ajv';

import {
	nodeVersions,
	operationsOf,
	paddedVersion,
	SCHEMA_DIR,
	schemaFile,
} from '../../harness/outputSchemas';
import { RESOURCE_DEFINITIONS } from '../../../nodes/IntegrationPlatform/resources';

const ROOT = path.join(__dirname, '..', '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'generate-output-schemas.mjs');

const expectedFiles = nodeVersions()
	.flatMap((version) =>
		operationsOf(version).map(({ resource, operation }) =>
			schemaFile(version, resource, operation),
		),
	)
	.sort();

/** The triggers' schemas: one per version of each trigger, where n8n's server looks for them. */
const triggerFiles = [
	['IntegrationPlatformLogTrigger', [1, 2, 3]],
	['IntegrationPlatformTrigger', [2, 3, 4]],
].flatMap(([folder, versions]) =>
	(versions as number[]).map((v) =>
		path.join(ROOT, 'nodes', folder as string, '__schema__', `v${paddedVersion(v)}.json`),
	),
);

function committedFiles(dir = SCHEMA_DIR, prefix = ''): string[] {
	return fs
		.readdirSync(dir, { withFileTypes: true })
		.flatMap((entry) =>
			entry.isDirectory()
				? committedFiles(path.join(dir, entry.name), path.join(prefix, entry.name))
				: [path.join(prefix, entry.name)],
		)
		.sort();
}

test('the committed schemas are what the generator writes from the API documents and the node', () => {
	const result = spawnSync(process.execPath, [SCRIPT, '--check'], { cwd: ROOT, encoding: 'utf8' });
	expect(result.stderr).toBe('');
	expect(result.status).toBe(0);
	expect(result.stdout).toBe(
		`${expectedFiles.length} output schemas up to date, ${triggerFiles.length} of the triggers\n`,
	);
});

test('every operation of every node version has a schema, and nothing else has one', () => {
	// 88 operations per version today: a selector read wrongly would make both lists empty.
	expect(expectedFiles.length).toBeGreaterThanOrEqual(80 * nodeVersions().length);
	expect(committedFiles()).toEqual(expectedFiles);
});

describe.each([...expectedFiles.map((file) => path.join(SCHEMA_DIR, file)), ...triggerFiles])(
	'%s',
	(file) => {
		test('is a JSON Schema of an object with properties, as n8n’s editor needs to show it', () => {
			const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
			// The editor shows a preview only for `type` and a non-empty `properties` at the top.
			expect(schema.type).toBe('object');
			expect(Object.keys(schema.properties as object).length).toBeGreaterThan(0);
			// The editor follows no $ref: every one is inlined.
			expect(JSON.stringify(schema)).not.toContain('"$ref"');
			// A schema a validator accepts (draft-07, what the file declares).
			expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
			expect(() => new Ajv({ strict: false }).compile(schema)).not.toThrow();
		});
	},
);

test('every operation that makes its own items declares their shape with its definition', () => {
	// The generator writes a schema from the declared shape; an operation whose output steps, text
	// answer or code make items the JSON answer does not describe must name what they make.
	const undeclared = RESOURCE_DEFINITIONS.flatMap((resource) =>
		resource.operations
			.filter((op) => (op.output?.length || op.textAnswer || op.custom) && !op.outputShape)
			.map((op) => `${resource.value}/${op.value}`),
	);
	expect(undeclared).toEqual([]);
	// A definition list read wrongly would make the first list empty (50 declare a shape today).
	const declared = RESOURCE_DEFINITIONS.flatMap((r) => r.operations.filter((op) => op.outputShape));
	expect(declared.length).toBeGreaterThanOrEqual(45);
});
