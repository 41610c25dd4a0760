/**
 * Releasing (docs/testing.md, "Releasing"), checked without network: the nodes' codex files, the
 * two GitHub workflows (CI runs CONTRIBUTING.md's test command; publish sends to npm with
 * provenance only after `npm run release:check`), and scripts/release-check.mjs itself, run as a
 * child process on small throw-away packages (npm pack works offline).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';
import { parse } from 'yaml';

import { IntegrationPlatform } from '../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { IntegrationPlatformLogTrigger } from '../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node';
import { IntegrationPlatformTrigger } from '../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import { IntegrationPlatformApi } from '../../credentials/IntegrationPlatformApi.credentials';
import { IntegrationPlatformSigningSecretApi } from '../../credentials/IntegrationPlatformSigningSecretApi.credentials';
import { IntegrationPlatformTokenApi } from '../../credentials/IntegrationPlatformTokenApi.credentials';

const ROOT = path.join(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'release-check.mjs');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json'));

// ------------------------------------------------------------------------------------------------
// Codex files

/**
 * The categories n8n's documentation on codex files lets a node choose from, plus "Marketing",
 * which n8n's own nodes use for "Marketing & Content". n8n-nodes-base also uses internal ones
 * ("Core Nodes", "HITL", "AI", …) that are not meant for community nodes.
 */
const N8N_CATEGORIES = [
	'Analytics',
	'Communication',
	'Data & Storage',
	'Development',
	'Finance & Accounting',
	'Marketing',
	'Marketing & Content',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
];

/** The anchors GitHub gives README.md: heading slugs and explicit `<a id>`/`<a name>`. */
function readmeAnchors(): Set<string> {
	const text = read('README.md');
	const anchors = new Set<string>();
	for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm))
		anchors.add(
			heading
				.toLowerCase()
				.replace(/[^\p{L}\p{N}\s_-]/gu, '')
				.replace(/\s/g, '-'),
		);
	for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
	return anchors;
}

const descriptions: INodeTypeDescription[] = [
	new IntegrationPlatform().description,
	new IntegrationPlatformLogTrigger().description,
	new IntegrationPlatformTrigger().description,
];

describe('codex files', () => {
	test('package.json lists the three nodes whose descriptions this test loads', () => {
		expect(pkg.n8n.nodes).toHaveLength(descriptions.length);
	});

	const codexOf = (entry: string) => entry.replace(/^dist\//, '').replace(/\.js$/, '.json');

	test.each(pkg.n8n.nodes as string[])('%s has a codex file next to its source', (entry) => {
		expect(fs.existsSync(path.join(ROOT, codexOf(entry)))).toBe(true);
		expect(
			fs.existsSync(path.join(ROOT, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts'))),
		).toBe(true);
	});

	describe.each(descriptions.map((d) => [d.name, d] as const))('%s', (name, description) => {
		const entry = (pkg.n8n.nodes as string[]).find((e) =>
			e.toLowerCase().endsWith(`/${name.toLowerCase()}.node.js`),
		);
		const codex = () => JSON.parse(read(codexOf(entry ?? 'missing')));

		test('names the node as n8n registers it: <package>.<description name>', () => {
			expect(entry).toBeDefined();
			expect(codex().node).toBe(`${pkg.name}.${description.name}`);
		});

		test('has only the fields of n8n codex format, with versions "1.0"', () => {
			const allowed = [
				'node',
				'nodeVersion',
				'codexVersion',
				'categories',
				'subcategories',
				'alias',
				'resources',
				'details',
			];
			expect(Object.keys(codex()).filter((k) => !allowed.includes(k))).toEqual([]);
			expect(codex()).toMatchObject({ nodeVersion: '1.0', codexVersion: '1.0' });
		});

		test("lists categories from n8n's own list", () => {
			const { categories } = codex();
			expect(categories.length).toBeGreaterThan(0);
			expect(categories.filter((c: string) => !N8N_CATEGORIES.includes(c))).toEqual([]);
			expect(categories).toContain('Development');
		});

		test('has the alias "Ampersand", and no empty or repeated alias', () => {
			const { alias } = codex();
			expect(alias).toContain('Ampersand');
			expect(alias.every((a: unknown) => typeof a === 'string' && a.trim() === a && a !== '')).toBe(
				true,
			);
			expect(new Set(alias).size).toBe(alias.length);
		});

		// n8n 2.41's editor opens `${primaryDocumentation[0].url}?utm_source=…` for the node's Docs
		// link, written after the URL as it is (docs/n8n-notes.md, "The nodes panel and the Docs
		// link"): an anchor there would swallow the query and never resolve.
		test('its Docs link is a page of this repository without anchor or query, which exists', () => {
			const { resources } = codex();
			expect(resources.primaryDocumentation.length).toBeGreaterThan(0);
			const repo = pkg.homepage.replace(/#.*$/, '');
			for (const { url } of resources.primaryDocumentation as Array<{ url: string }>) {
				expect(url).not.toMatch(/[#?]/);
				expect(url.startsWith(`${repo}/blob/main/`)).toBe(true);
				const file = url.slice(`${repo}/blob/main/`.length);
				expect({ url, exists: fs.existsSync(path.join(ROOT, file)) }).toEqual({
					url,
					exists: true,
				});
			}
		});

		// The editor uses credentialDocumentation nowhere; it is kept on the README's Credentials
		// section, an anchor the README has.
		test("its credential documentation points at the README's anchors", () => {
			const { resources } = codex();
			const repo = pkg.homepage.replace(/#.*$/, '');
			const anchors = readmeAnchors();
			for (const { url } of (resources.credentialDocumentation ?? []) as Array<{ url: string }>) {
				const [base, anchor] = url.split('#');
				expect(base).toBe(repo);
				expect({ url, exists: anchors.has(anchor) }).toEqual({ url, exists: true });
			}
		});
	});
});

// ------------------------------------------------------------------------------------------------
// Links users see: one source, package.json's repository.url (scripts/generate-links.mjs)

describe('links shown to users', () => {
	const LINKS_SCRIPT = path.join(ROOT, 'scripts', 'generate-links.mjs');
	const links = (args: string[]) => {
		const result = spawnSync(process.execPath, [LINKS_SCRIPT, ...args], {
			cwd: ROOT,
			encoding: 'utf8',
			timeout: 30_000,
		});
		return { status: result.status, out: `${result.stdout}${result.stderr}` };
	};
	// The one source, read here independently of the script.
	const repoUrl: string = pkg.repository.url;
	const web = repoUrl.replace(/^git\+/, '').replace(/\.git$/, '');
	const files = [
		'package.json',
		'README.md',
		...(pkg.n8n.nodes as string[]).map((e) => e.replace(/^dist\//, '').replace(/\.js$/, '.json')),
		...fs.readdirSync(path.join(ROOT, 'credentials')).map((f) => `credentials/${f}`),
	];
	const nodeSources = fs
		.readdirSync(path.join(ROOT, 'nodes'), { recursive: true, encoding: 'utf8' })
		.filter((f) => f.endsWith('.ts'))
		.map((f) => `nodes/${f.split(path.sep).join('/')}`);

	test('package.json: repository is a GitHub repository; homepage and bugs are its README and issues', () => {
		expect(web).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+$/);
		expect(pkg.homepage).toBe(`${web}#readme`);
		expect(pkg.bugs).toEqual({ url: `${web}/issues` });
	});

	test.each([...files, ...nodeSources])(
		'every GitHub or npm link in %s is this repository or this package',
		(file) => {
			const text = read(file);
			for (const [url] of text.matchAll(
				/https?:\/\/(?:www\.)?(?:github\.com|npmjs\.com)[^\s'"`)<>]*/g,
			)) {
				const ours =
					url === repoUrl.replace(/^git\+/, '') ||
					url === web ||
					url.startsWith(`${web}/`) ||
					url.startsWith(`${web}#`) ||
					url === `https://www.npmjs.com/package/${pkg.name}`;
				expect({ url, ours }).toEqual({ url, ours: true });
			}
		},
	);

	test("the README's clone command clones the repository into a folder of its name", () => {
		expect(read('README.md')).toContain(`git clone ${web}.git\ncd ${web.split('/').pop()}\n`);
	});

	test.each(
		[
			new IntegrationPlatformApi(),
			new IntegrationPlatformTokenApi(),
			new IntegrationPlatformSigningSecretApi(),
		].map((c) => [c.name, c.documentationUrl] as const),
	)("%s's documentationUrl is an anchor of the repository's README, which exists", (_name, url) => {
		const [base, anchor] = String(url).split('#');
		expect(base).toBe(web);
		expect({ url, exists: readmeAnchors().has(anchor) }).toEqual({ url, exists: true });
	});

	test('scripts/generate-links.mjs --check passes: nothing to rewrite, every link resolves', () => {
		expect(links(['--check'])).toEqual({
			status: 0,
			out: 'generate-links: every link agrees with package.json\n',
		});
	});

	test('a drifted link is found and named; the script rewrites it, and all of them for another repository', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'links-test-'));
		tmpDirs.push(dir);
		for (const file of [...files, 'docs/operations.md', 'docs/triggers.md']) {
			fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
			fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
		}
		const codex = files.find((f) => f.endsWith('IntegrationPlatform.node.json'))!;
		fs.writeFileSync(
			path.join(dir, codex),
			read(codex).replace(
				`${web}/blob/main/docs/operations.md`,
				'https://github.com/old-owner/old-name/blob/main/docs/operations.md',
			),
		);
		const drift = links(['--root', dir, '--check']);
		expect(drift.status).toBe(1);
		expect(drift.out).toContain(
			`${codex}: has "url": "https://github.com/old-owner/old-name/blob/main/docs/operations.md"`,
		);
		expect(links(['--root', dir]).status).toBe(0);
		expect(links(['--root', dir, '--check']).status).toBe(0);

		expect(links(['--root', dir, '--repository', 'acme/n8n-nodes-renamed']).status).toBe(0);
		expect(links(['--root', dir, '--check']).status).toBe(0);
		const all = files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
		expect(all).not.toContain(web);
		const moved = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
		expect(moved.repository.url).toBe('git+https://github.com/acme/n8n-nodes-renamed.git');
		expect(moved.homepage).toBe('https://github.com/acme/n8n-nodes-renamed#readme');
		expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain(
			'git clone https://github.com/acme/n8n-nodes-renamed.git\ncd n8n-nodes-renamed\n',
		);
	});

	test('a link into the repository that does not resolve fails the check', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'links-test-'));
		tmpDirs.push(dir);
		for (const file of files) {
			fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
			fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
		}
		const { status, out } = links(['--root', dir, '--check']);
		expect(status).toBe(1);
		expect(out).toMatch(/names docs\/operations\.md, which this checkout does not have/);
	});
});

// ------------------------------------------------------------------------------------------------
// Workflows

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; name?: string };
type Job = {
	'runs-on'?: string;
	uses?: string;
	needs?: string | string[];
	permissions?: Record<string, string>;
	steps?: Step[];
};
type Workflow = {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
};

const workflow = (file: string): Workflow => parse(read(`.github/workflows/${file}`));
const runs = (job: Job) => (job.steps ?? []).map((s) => s.run ?? '');
const stepIndex = (job: Job, pattern: RegExp) => runs(job).findIndex((r) => pattern.test(r));
const nodeVersion = (job: Job) =>
	String(job.steps?.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']);

describe('.github/workflows/ci.yml', () => {
	const ci = workflow('ci.yml');
	const jobs = Object.values(ci.jobs);

	test('runs on pushes, pull requests, by hand and when publish.yml calls it', () => {
		expect(Object.keys(ci.on)).toEqual(
			expect.arrayContaining(['push', 'pull_request', 'workflow_dispatch', 'workflow_call']),
		);
		expect(ci.permissions).toEqual({ contents: 'read' });
	});

	test("a job runs CONTRIBUTING.md's test command through .ci/run, on Node 20", () => {
		// The command CONTRIBUTING.md's set-up gives…
		const setUp =
			read('CONTRIBUTING.md')
				.split(/^## Set-up$/m)[1]
				?.split(/^## /m)[0] ?? '';
		expect(setUp).toMatch(/```bash\nnpm install && npm test\n```/);
		// …is what .ci/run runs, after installing Redis and PostgreSQL when missing.
		const ciRun = read('.ci/run');
		expect(ciRun).toMatch(/^npm install\b/m);
		expect(ciRun).toMatch(/apt-get install .*"\$\{missing\[@\]\}"/);
		expect(ciRun).toMatch(/missing\+=\(redis-server\)/);
		expect(ciRun).toMatch(/missing\+=\(postgresql\)/);
		expect(ciRun).toMatch(/^(?:[A-Z_]+=\S+ )*REQUIRE_QUEUE=1 (?:[A-Z_]+=\S+ )*npm test$/m);

		const testJob = jobs.find((job) => runs(job).some((r) => /(^|\s)(bash )?\.ci\/run$/.test(r)));
		expect(testJob).toBeDefined();
		expect(nodeVersion(testJob!)).toBe('20');
		expect(testJob!['runs-on']).toBe('ubuntu-latest');
		// n8n's 2.9 GB runtime is cached between runs, keyed on what provisions it.
		const cache = testJob!.steps!.find((s) => s.uses?.startsWith('actions/cache@'));
		expect(cache?.with?.path).toBe('~/.cache/n8n-nodes-integration-platform');
		expect(String(cache?.with?.key)).toContain('test/harness/runtime/package-lock.json');
	});

	test('a job builds and runs the release check as a dry run', () => {
		const dry = jobs.find((job) => stepIndex(job, /npm run release:check/) >= 0);
		expect(dry).toBeDefined();
		expect(runs(dry!)[stepIndex(dry!, /npm run release:check/)]).toBe(
			'npm run release:check -- --allow-unreleased',
		);
		expect(stepIndex(dry!, /^npm run build$/)).toBeGreaterThanOrEqual(0);
		expect(stepIndex(dry!, /^npm run build$/)).toBeLessThan(stepIndex(dry!, /release:check/));
		expect(nodeVersion(dry!)).toBe('20');
	});
});

describe('.github/workflows/publish.yml', () => {
	const publish = workflow('publish.yml');
	const [publishJobName, publishJob] =
		Object.entries(publish.jobs).find(([, job]) => stepIndex(job, /npm publish/) >= 0) ?? [];

	/** GitHub's tag filter syntax, for the patterns used here: `*`, `[0-9]`, `+`. */
	const tagFilter = (pattern: string) =>
		new RegExp(
			`^${pattern
				.replace(/[.]/g, '\\.')
				.replace(/\*/g, '.*')
				.replace(/\[0-9\]\+/g, '[0-9]+')}$`,
		);

	test('triggers on version tags (v1.2.3) and nothing else', () => {
		expect(Object.keys(publish.on)).toEqual(['push']);
		const push = publish.on.push as { tags?: string[]; branches?: unknown };
		expect(push.branches).toBeUndefined();
		expect(push.tags?.length).toBeGreaterThan(0);
		const matches = (tag: string) => push.tags!.some((p) => tagFilter(p).test(tag));
		expect(matches('v0.1.0')).toBe(true);
		expect(matches('v1.12.3-rc.1')).toBe(true);
		expect(matches('latest')).toBe(false);
		expect(matches('v1')).toBe(false);
	});

	test('publishes with `npm publish --provenance --access public`', () => {
		expect(publishJob).toBeDefined();
		expect(runs(publishJob!).join('\n')).toMatch(/^\s*npm publish --provenance --access public$/m);
	});

	test('the publishing job may mint an OIDC token (id-token: write) and only read the repository', () => {
		expect(publishJob!.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		expect(publish.permissions).toEqual({ contents: 'read' });
	});

	test('builds, then runs `npm run release:check` (no dry-run flag), then publishes', () => {
		const build = stepIndex(publishJob!, /^npm run build$/);
		const check = stepIndex(publishJob!, /npm run release:check/);
		const send = stepIndex(publishJob!, /npm publish/);
		expect(build).toBeGreaterThanOrEqual(0);
		expect(build).toBeLessThan(check);
		expect(check).toBeLessThan(send);
		expect(runs(publishJob!)[check]).toBe('npm run release:check');
		expect(runs(publishJob!).join('\n')).not.toMatch(/--allow-unreleased/);
	});

	test('publishes only after the whole CI workflow passed on the tagged commit', () => {
		const needs = [publishJob!.needs ?? []].flat();
		expect(needs.length).toBeGreaterThan(0);
		expect(needs.map((n) => publish.jobs[n].uses)).toContain('./.github/workflows/ci.yml');
		expect(publishJobName).toBeDefined();
	});

	test('uses an npm that can do trusted publishing and no token placeholder', () => {
		// Trusted publishing needs npm 11.5.1 or later: Node 24 ships npm 11.
		expect(Number(nodeVersion(publishJob!))).toBeGreaterThanOrEqual(24);
		const setupNode = publishJob!.steps!.find((s) => s.uses?.startsWith('actions/setup-node@'));
		expect(setupNode?.with?.['registry-url']).toBeUndefined();
		expect(setupNode?.with?.cache).toBeUndefined();
	});
});

// ------------------------------------------------------------------------------------------------
// scripts/release-check.mjs

function releaseCheck(args: string[], env: Record<string, string> = {}) {
	const clean = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !/^(GITHUB_|npm_)/i.test(k)),
	);
	const result = spawnSync(process.execPath, [SCRIPT, ...args], {
		cwd: ROOT,
		encoding: 'utf8',
		env: { ...clean, ...env },
		timeout: 60_000,
	});
	return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

const tmpDirs: string[] = [];

const CODEX = JSON.stringify({ categories: ['Development'], resources: {} });
const FIXTURE_TSCONFIG = {
	compilerOptions: {
		module: 'commonjs',
		target: 'es2022',
		resolveJsonModule: true,
		incremental: true,
		rootDir: '.',
		outDir: './dist',
	},
	include: ['credentials/**/*', 'nodes/**/*', 'nodes/**/*.json'],
	exclude: ['nodes/**/__schema__'],
};
/** The shape of this package's gulpfile.js: ASSETS, copied into dist/ keeping paths. */
const FIXTURE_GULPFILE = (extra = '') => `const { src, dest } = require('gulp');
const ASSETS = {
	icons: { globs: ['nodes/**/*.svg'], options: { base: '.', encoding: false } },
	schemas: { globs: ['nodes/**/__schema__/**/*.json'], options: { base: '.' } },${extra}
};
exports.ASSETS = ASSETS;
exports['build:assets'] = () => src(ASSETS.icons.globs, ASSETS.icons.options).pipe(dest('dist'));
`;
afterAll(() => {
	for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A small package shaped like this one: one node, one credential, a tsconfig.json and a gulpfile.js
 * built like this package's (its node_modules is this repository's, for gulp), and dist/ as the
 * build would leave it (written by hand, after the sources, so that it is current).
 */
function fixture(overrides: Record<string, unknown> = {}, files: Record<string, string> = {}) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-check-test-'));
	tmpDirs.push(dir);
	const manifest = {
		name: 'n8n-nodes-fixture',
		version: '0.1.0',
		license: 'MIT',
		keywords: ['n8n-community-node-package'],
		homepage: 'https://github.com/example/n8n-nodes-fixture#readme',
		repository: { type: 'git', url: 'git+https://github.com/example/n8n-nodes-fixture.git' },
		files: ['dist', '!dist/tsconfig.tsbuildinfo'],
		n8n: {
			n8nNodesApiVersion: 1,
			nodes: ['dist/nodes/Foo/Foo.node.js'],
			credentials: ['dist/credentials/FooApi.credentials.js'],
		},
		dependencies: {},
		peerDependencies: { 'n8n-workflow': '*' },
		...overrides,
	};
	const all: Record<string, string> = {
		'package.json': JSON.stringify(manifest, null, 2),
		'README.md': '# fixture\n',
		LICENSE: 'MIT\n',
		'CHANGELOG.md': '# Changelog\n\n## Unreleased\n\n## 0.1.0\n\n- First.\n',
		'tsconfig.json': JSON.stringify(FIXTURE_TSCONFIG),
		'gulpfile.js': FIXTURE_GULPFILE(),
		'nodes/Foo/Foo.node.ts': 'export class Foo {}\n',
		'nodes/Foo/Foo.node.json': CODEX,
		'nodes/Foo/foo.svg': '<svg/>',
		'credentials/FooApi.credentials.ts': 'export class FooApi {}\n',
		'dist/tsconfig.tsbuildinfo': '{}',
		'dist/nodes/Foo/Foo.node.js': "exports.icon = 'file:foo.svg';\n",
		'dist/nodes/Foo/Foo.node.json': CODEX,
		'dist/nodes/Foo/foo.svg': '<svg/>',
		'dist/credentials/FooApi.credentials.js': "exports.icon = 'file:../nodes/Foo/foo.svg';\n",
		...files,
	};
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
	for (const [file, content] of Object.entries(all)) {
		fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
		fs.writeFileSync(path.join(dir, file), content);
	}
	return dir;
}

describe('release-check: changelog', () => {
	const changelog = (text: string, ...args: string[]) =>
		releaseCheck(['--root', fixture({}, { 'CHANGELOG.md': text }), '--only', 'changelog', ...args]);
	const UNRELEASED = '# Changelog\n\n## Unreleased\n\n### Added\n\n- Everything.\n';

	test('an unreleased version fails and says how to release it', () => {
		const { status, out } = changelog(UNRELEASED);
		expect(status).toBe(1);
		expect(out).toMatch(/changelog: FAILED: no "## 0\.1\.0" heading .*\(only "## Unreleased"\)/);
		expect(out).toMatch(/fix: Rename the "## Unreleased" heading of CHANGELOG\.md to "## 0\.1\.0"/);
		expect(out).toMatch(/^release-check: FAILED \(changelog\)/m);
	});

	test('--allow-unreleased accepts the Unreleased section (CI dry runs)', () => {
		const { status, out } = changelog(UNRELEASED, '--allow-unreleased');
		expect(status).toBe(0);
		expect(out).toMatch(/changelog: ok: version 0\.1\.0 not released yet/);
		expect(out).toMatch(
			/skipped \(dry run\): the "## 0\.1\.0" heading, which only the tagged release needs/,
		);
	});

	test('--allow-unreleased still needs an Unreleased section or the version', () => {
		expect(changelog('# Changelog\n\n## 0.0.9\n\n- Old.\n', '--allow-unreleased').status).toBe(1);
	});

	test.each([
		'## 0.1.0\n\n- Done.\n',
		'## 0.1.0 - 2026-06-01\n\n- Done.\n',
		'## [0.1.0] (2026-06-01)\n\n- Done.\n',
		'## Unreleased\n\n## v0.1.0\n\n- Done.\n',
	])('a released version passes: %j', (text) => {
		expect(changelog(`# Changelog\n\n${text}`)).toMatchObject({ status: 0 });
	});

	test.each([
		['another version', '## 0.1.01\n\n- Done.\n## 10.1.0\n\n- Done.\n'],
		['a pre-release of it', '## 0.1.0-beta.1\n\n- Done.\n'],
		['an empty section', '## 0.1.0\n\n## 0.0.9\n\n- Old.\n'],
		['changes left under Unreleased', '## Unreleased\n\n- New.\n\n## 0.1.0\n\n- Done.\n'],
	])('fails on %s', (_what, text) => {
		expect(changelog(`# Changelog\n\n${text}`).status).toBe(1);
	});

	test("this repository's changelog passes as a dry run", () => {
		expect(releaseCheck(['--only', 'changelog', '--allow-unreleased']).status).toBe(0);
	});
});

describe('release-check: tag', () => {
	test('a tag must be v<version> or <version>', () => {
		const root = fixture();
		const tag = (t: string) => releaseCheck(['--root', root, '--only', 'tag', '--tag', t]).status;
		expect(tag('v0.1.0')).toBe(0);
		expect(tag('0.1.0')).toBe(0);
		expect(tag('v0.1.1')).toBe(1);
		expect(tag('v0.1.0-rc.1')).toBe(1);
	});

	test('a dry run on an untagged commit skips the tag check and says why; a release run without a tag fails', () => {
		const root = fixture();
		const dry = releaseCheck(['--root', root, '--only', 'tag', '--allow-unreleased']);
		expect(dry.status).toBe(0);
		expect(dry.out).toMatch(
			/tag: skipped: dry run on an untagged commit: there is no tag to compare with version 0\.1\.0/,
		);
		expect(dry.out).toMatch(
			/all 0 checks passed .* \(skipped, as they need a tagged release: tag\)/,
		);
		// Given a tag, a dry run compares it.
		expect(
			releaseCheck(['--root', root, '--only', 'tag', '--allow-unreleased', '--tag', 'v9.9.9'])
				.status,
		).toBe(1);
		const release = releaseCheck(['--root', root, '--only', 'tag']);
		expect(release.status).toBe(1);
		expect(release.out).toMatch(/tag: FAILED: no tag: a release is checked on its tag/);
	});

	test('on GitHub Actions the pushed tag is checked without being passed', () => {
		const root = fixture();
		const run = (name: string) =>
			releaseCheck(['--root', root, '--only', 'tag'], {
				GITHUB_REF_TYPE: 'tag',
				GITHUB_REF_NAME: name,
			});
		expect(run('v0.1.0').status).toBe(0);
		const wrong = run('v2.0.0');
		expect(wrong.status).toBe(1);
		expect(wrong.out).toMatch(/tag v2\.0\.0 does not match package\.json's version 0\.1\.0/);
	});
});

describe('release-check: manifest', () => {
	test("this repository's package.json passes", () => {
		const { status, out } = releaseCheck(['--only', 'manifest']);
		expect(out).toMatch(/manifest: ok: n8n-nodes-integration-platform@/);
		expect(status).toBe(0);
	});

	test('the fixture passes, so the failures below are the changed field', () => {
		expect(releaseCheck(['--root', fixture(), '--only', 'manifest']).status).toBe(0);
	});

	test.each([
		['a runtime dependency', { dependencies: { axios: '1.0.0' } }, /dependencies must be empty/],
		[
			'a pinned peer',
			{ peerDependencies: { 'n8n-workflow': '^2.0.0' } },
			/peerDependencies must be exactly/,
		],
		[
			'a second peer',
			{ peerDependencies: { 'n8n-workflow': '*', 'n8n-core': '*' } },
			/peerDependencies/,
		],
		['no community keyword', { keywords: ['n8n'] }, /n8n-community-node-package/],
		['no repository', { repository: undefined }, /repository\.url/],
		[
			'a non-GitHub repository',
			{ repository: 'https://gitlab.com/a/b' },
			/not a GitHub repository/,
		],
		['no homepage', { homepage: undefined }, /homepage/],
		['a wrong name', { name: 'integration-platform' }, /must be n8n-nodes-/],
		['an install script', { scripts: { postinstall: 'node x.js' } }, /postinstall/],
		[
			'an entry without source',
			{
				n8n: {
					n8nNodesApiVersion: 1,
					nodes: ['dist/nodes/Bar/Bar.node.js'],
					credentials: ['dist/credentials/FooApi.credentials.js'],
				},
			},
			/dist\/nodes\/Bar\/Bar\.node\.js has no source.*does not list dist\/nodes\/Foo\/Foo\.node\.js/,
		],
	])('fails on %s', (_what, overrides, message) => {
		const { status, out } = releaseCheck(['--root', fixture(overrides), '--only', 'manifest']);
		expect(status).toBe(1);
		expect(out).toMatch(message);
	});

	test('on GitHub Actions, repository.url must name the repository that publishes', () => {
		const root = fixture();
		const run = (repo: string) =>
			releaseCheck(['--root', root, '--only', 'manifest'], { GITHUB_REPOSITORY: repo }).status;
		expect(run('example/n8n-nodes-fixture')).toBe(0);
		expect(run('someone-else/n8n-nodes-fixture')).toBe(1);
	});
});

describe('release-check: dist, contents and size (npm pack of a fixture)', () => {
	test('a clean fixture passes', () => {
		const { status, out } = releaseCheck(['--root', fixture(), '--only', 'dist,contents,size']);
		expect(out).toMatch(
			/dist: ok: the 5 files the build emits \(4 by tsc, 1 copied by gulpfile\.js\), each current, nothing else/,
		);
		expect(out).toMatch(
			/contents: ok: 7 files: the 4 the build emits \(not dist\/tsconfig\.tsbuildinfo\), and 3 top-level documents .* 2 n8n entry points, 1 codex files, 2 icon references/,
		);
		expect(out).toMatch(/size: ok: packed .* files 7 of /);
		expect(status).toBe(0);
	});

	test('the build cache, tests, sources, env files and strays fail, each named', () => {
		const root = fixture(
			{ files: ['dist'] },
			{
				'dist/nodes/Foo/Foo.node.test.js': '',
				'dist/nodes/Foo/Foo.node.ts': '',
				'dist/.env': 'TOKEN=x',
				'dist/notes.txt': '',
				'dist/nodes/Foo/Foo.node.js.map': '{}',
			},
		);
		const { status, out } = releaseCheck(['--root', root, '--only', 'contents']);
		expect(status).toBe(1);
		expect(out).toMatch(/dist\/tsconfig\.tsbuildinfo is TypeScript's incremental build cache/);
		expect(out).toMatch(/dist\/nodes\/Foo\/Foo\.node\.test\.js is a test/);
		expect(out).toMatch(/dist\/nodes\/Foo\/Foo\.node\.ts is TypeScript source/);
		expect(out).toMatch(/dist\/\.env is an environment file/);
		expect(out).toMatch(
			/not part of the package \(neither emitted by the build nor a top-level document\): dist\/notes\.txt/,
		);
		expect(out).toMatch(/Foo\.node\.js\.map is a source map/);
	});

	// What may be shipped follows from the build: tsc's outputs for tsconfig.json and the files
	// gulpfile.js's ASSETS copy, not a list kept in the script.
	test("a trigger's output schema (__schema__/v<version>.json) passes because gulpfile.js copies it", () => {
		const schema = '{"type":"object"}';
		const root = fixture(
			{},
			{
				'nodes/Foo/__schema__/v1.0.0.json': schema,
				'nodes/Foo/__schema__/v1.0.0/thing/get.json': schema,
				'dist/nodes/Foo/__schema__/v1.0.0.json': schema,
				'dist/nodes/Foo/__schema__/v1.0.0/thing/get.json': schema,
			},
		);
		const { status, out } = releaseCheck(['--root', root, '--only', 'dist,contents']);
		expect(out).toMatch(/dist: ok: the 7 files the build emits \(4 by tsc, 3 copied/);
		expect(out).toMatch(/contents: ok: 9 files: the 6 the build emits/);
		expect(status).toBe(0);
	});

	test('a new kind of asset in gulpfile.js ASSETS is allowed without touching the script; a stray of that kind is not', () => {
		const extra = "\n\tnotes: { globs: ['nodes/**/*.md'], options: { base: '.' } },";
		const root = fixture(
			{},
			{
				'gulpfile.js': FIXTURE_GULPFILE(extra),
				'nodes/Foo/NOTES.md': '# notes\n',
				'dist/nodes/Foo/NOTES.md': '# notes\n',
			},
		);
		expect(releaseCheck(['--root', root, '--only', 'dist,contents']).status).toBe(0);
		fs.writeFileSync(path.join(root, 'dist/nodes/Foo/OLD.md'), '# left over\n');
		const { status, out } = releaseCheck(['--root', root, '--only', 'dist,contents']);
		expect(status).toBe(1);
		expect(out).toMatch(
			/dist: FAILED: files the build does not emit .*: dist\/nodes\/Foo\/OLD\.md/,
		);
		expect(out).toMatch(/not part of the package .*: dist\/nodes\/Foo\/OLD\.md/);
	});

	test('a file the build emits that the tarball leaves out fails', () => {
		const schema = '{"type":"object"}';
		const root = fixture(
			{ files: ['dist', '!dist/tsconfig.tsbuildinfo', '!dist/**/__schema__'] },
			{
				'nodes/Foo/__schema__/v1.0.0.json': schema,
				'dist/nodes/Foo/__schema__/v1.0.0.json': schema,
			},
		);
		const { status, out } = releaseCheck(['--root', root, '--only', 'contents']);
		expect(status).toBe(1);
		expect(out).toMatch(
			/emitted by the build but not in the tarball: dist\/nodes\/Foo\/__schema__\/v1\.0\.0\.json/,
		);
	});

	test('source maps and a copy of package.json fail even when the build emits them', () => {
		const root = fixture(
			{},
			{
				'tsconfig.json': JSON.stringify({
					...FIXTURE_TSCONFIG,
					compilerOptions: { ...FIXTURE_TSCONFIG.compilerOptions, sourceMap: true },
					include: [...FIXTURE_TSCONFIG.include, 'package.json'],
				}),
				'dist/nodes/Foo/Foo.node.js.map': '{}',
				'dist/credentials/FooApi.credentials.js.map': '{}',
				'dist/package.json': '{}',
			},
		);
		const { status, out } = releaseCheck(['--root', root, '--only', 'dist,contents']);
		expect(out).toMatch(/dist: ok: the 8 files the build emits/);
		expect(status).toBe(1);
		expect(out).toMatch(
			/dist\/nodes\/Foo\/Foo\.node\.js\.map is a source map \(it points at TypeScript sources the tarball does not ship\)/,
		);
		expect(out).toMatch(/dist\/package\.json is a copy of package\.json/);
	});

	test('without tsconfig.json or gulpfile.js ASSETS it cannot tell what the build emits, and says so', () => {
		const noConfig = fixture();
		fs.rmSync(path.join(noConfig, 'tsconfig.json'));
		expect(releaseCheck(['--root', noConfig, '--only', 'contents']).out).toMatch(
			/contents: FAILED: cannot tell what the build emits: no tsconfig\.json/,
		);
		const noAssets = fixture({}, { 'gulpfile.js': 'exports.build = () => {};\n' });
		expect(releaseCheck(['--root', noAssets, '--only', 'dist']).out).toMatch(
			/dist: FAILED: cannot tell what the build emits: gulpfile\.js exports no ASSETS/,
		);
	});

	test('a missing codex file, entry point or icon fails', () => {
		const noCodex = fixture({}, {});
		fs.rmSync(path.join(noCodex, 'dist/nodes/Foo/Foo.node.json'));
		expect(releaseCheck(['--root', noCodex, '--only', 'contents']).out).toMatch(
			/dist\/nodes\/Foo\/Foo\.node\.json \(the codex of dist\/nodes\/Foo\/Foo\.node\.js\) is not in the tarball/,
		);
		const noIcon = fixture({}, {});
		fs.rmSync(path.join(noIcon, 'dist/nodes/Foo/foo.svg'));
		const icon = releaseCheck(['--root', noIcon, '--only', 'contents']);
		expect(icon.status).toBe(1);
		expect(icon.out).toMatch(/points at dist\/nodes\/Foo\/foo\.svg, which is not in the tarball/);
		const noEntry = fixture({}, {});
		fs.rmSync(path.join(noEntry, 'dist/credentials/FooApi.credentials.js'));
		expect(releaseCheck(['--root', noEntry, '--only', 'contents']).out).toMatch(
			/dist\/credentials\/FooApi\.credentials\.js \(package\.json n8n section\) is not in the tarball/,
		);
	});

	test('a stale or incomplete build fails the dist check', () => {
		const stale = fixture();
		const later = new Date(Date.now() + 60_000);
		fs.utimesSync(path.join(stale, 'nodes/Foo/Foo.node.ts'), later, later);
		expect(releaseCheck(['--root', stale, '--only', 'dist']).out).toMatch(
			/dist: FAILED: changed since the build: nodes\/Foo\/Foo\.node\.ts/,
		);
		const orphan = fixture({}, { 'dist/nodes/Old/Old.node.js': '' });
		expect(releaseCheck(['--root', orphan, '--only', 'dist']).out).toMatch(
			/files the build does not emit \(left over from an older build\): dist\/nodes\/Old\/Old\.node\.js/,
		);
		const unbuilt = fixture({}, { 'nodes/Foo/more.ts': 'export {};\n' });
		expect(releaseCheck(['--root', unbuilt, '--only', 'dist']).out).toMatch(
			/not built: nodes\/Foo\/more\.ts \(dist\/nodes\/Foo\/more\.js\)/,
		);
	});

	test('a file over the size limit fails and is named', () => {
		const root = fixture({}, { 'dist/nodes/Foo/huge.js': 'x'.repeat(150_000) });
		const { status, out } = releaseCheck(['--root', root, '--only', 'size']);
		expect(status).toBe(1);
		expect(out).toMatch(
			/largest file \(dist\/nodes\/Foo\/huge\.js\) 150\.0 kB of 100\.0 kB \(OVER\)/,
		);
	});

	test('without dist/ the packing checks fail and say to build', () => {
		const root = fixture();
		fs.rmSync(path.join(root, 'dist'), { recursive: true });
		const { status, out } = releaseCheck(['--root', root, '--only', 'contents,size']);
		expect(status).toBe(1);
		expect(out).toMatch(
			/contents: FAILED: dist\/ is missing, nothing to pack\n {2}fix: Run npm run build first\./,
		);
	});
});

describe("release-check: what this repository's build emits", () => {
	// buildOutputs() as the script computes it (no build needed: TypeScript's API and gulp's src()).
	const derived = (): Record<string, string> => {
		const code =
			"import { buildOutputs } from './scripts/release-check.mjs';" +
			'const { files } = await buildOutputs(process.cwd());' +
			'process.stdout.write(JSON.stringify(Object.fromEntries(files)));';
		const result = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
			cwd: ROOT,
			encoding: 'utf8',
			timeout: 60_000,
		});
		expect(result.stderr).toBe('');
		return JSON.parse(result.stdout);
	};
	const walk = (dir: string): string[] =>
		fs
			.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
			.map((f) => `${dir}/${f.split(path.sep).join('/')}`)
			.filter((f) => fs.statSync(path.join(ROOT, f)).isFile());

	test('is every source compiled (.js, .d.ts), every codex, icon and __schema__ file, and the build cache; no source map, no package.json', () => {
		const outputs = derived();
		const sources = [...walk('nodes'), ...walk('credentials'), ...walk('icons')];
		const expected = new Set<string>(['dist/tsconfig.tsbuildinfo']);
		for (const file of sources) {
			if (/\.ts$/.test(file) && !file.endsWith('.d.ts')) {
				expected.add(`dist/${file.replace(/\.ts$/, '.js')}`);
				expected.add(`dist/${file.replace(/\.ts$/, '.d.ts')}`);
			} else if (/\.(json|svg|png)$/.test(file)) expected.add(`dist/${file}`);
		}
		expect(Object.keys(outputs).sort()).toEqual([...expected].sort());
		// The triggers' output schemas, which a hand-kept list once left out.
		for (const trigger of ['IntegrationPlatformLogTrigger', 'IntegrationPlatformTrigger']) {
			const schemas = walk(`nodes/${trigger}/__schema__`);
			expect(schemas.length).toBeGreaterThan(0);
			for (const schema of schemas) expect(outputs[`dist/${schema}`]).toBe(schema);
		}
		expect(Object.keys(outputs).filter((f) => /\.map$|(^|\/)package\.json$/.test(f))).toEqual([]);
	});
});

test('release-check refuses unknown options and checks', () => {
	expect(releaseCheck(['--only', 'everything']).status).toBe(2);
	expect(releaseCheck(['--fast']).status).toBe(2);
});
