/**
 * The action node's output schemas (nodes/IntegrationPlatform/__schema__/, docs/architecture.md,
 * "Output schemas"): the committed files are what scripts/generate-output-schemas.mjs writes
 * today, there is one for every operation of every version of the node and none for anything
 * else, and each is a schema n8n's editor can show. Whether the node's items match them is
 * test/engine/IntegrationPlatform/outputSchemas.test.ts's question.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import Ajv from 'ajv';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';

const ROOT = path.join(__dirname, '..', '..', '..');
const SCHEMA_DIR = path.join(ROOT, 'nodes', 'IntegrationPlatform', '__schema__');
const SCRIPT = path.join(ROOT, 'scripts', 'generate-output-schemas.mjs');

const { description } = new IntegrationPlatform();
const versions = Array.isArray(description.version) ? description.version : [description.version];

/** n8n's folder name for a node version: 1 → v1.0.0, 2.1 → v2.1.0. */
const folderOf = (version: number) =>
	`v${String(version).split('.').concat(['0', '0']).slice(0, 3).join('.')}`;

/** `<version folder>/<resource>/<operation>.json` for every option of the node's selectors. */
function expectedFiles(): string[] {
	const resources = description.properties.find((p) => p.name === 'resource')!
		.options as INodePropertyOptions[];
	const files: string[] = [];
	for (const version of versions) {
		for (const { value: resource } of resources) {
			const selector = description.properties.find(
				(p: INodeProperties) =>
					p.name === 'operation' &&
					(p.displayOptions?.show?.resource as string[] | undefined)?.includes(String(resource)),
			)!;
			for (const { value: operation } of selector.options as INodePropertyOptions[]) {
				files.push(path.join(folderOf(version), String(resource), `${String(operation)}.json`));
			}
		}
	}
	return files.sort();
}

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

const readSchema = (file: string) =>
	JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8')) as Record<string, unknown>;

test('the committed schemas are what the generator writes from the API documents and the node', () => {
	const result = spawnSync(process.execPath, [SCRIPT, '--check'], { cwd: ROOT, encoding: 'utf8' });
	expect(result.stderr).toBe('');
	expect(result.status).toBe(0);
	expect(result.stdout).toBe(`${expectedFiles().length} output schemas up to date\n`);
});

test('every operation of every node version has a schema, and nothing else has one', () => {
	const expected = expectedFiles();
	// 87 operations today: a selector read wrongly would make both lists empty.
	expect(expected.length).toBeGreaterThanOrEqual(80 * versions.length);
	expect(committedFiles()).toEqual(expected);
});

describe.each(expectedFiles())('%s', (file) => {
	test('is a JSON Schema of an object with properties, as n8n’s editor needs to show it', () => {
		const schema = readSchema(file);
		// The editor shows a preview only for `type` and a non-empty `properties` at the top.
		expect(schema.type).toBe('object');
		expect(Object.keys(schema.properties as object).length).toBeGreaterThan(0);
		// The editor follows no $ref: every one is inlined.
		expect(JSON.stringify(schema)).not.toContain('"$ref"');
		// A schema a validator accepts (draft-07, what the file declares).
		expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
		expect(() => new Ajv({ strict: false }).compile(schema)).not.toThrow();
	});
});
