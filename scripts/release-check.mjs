#!/usr/bin/env node
// @ts-check
/**
 * `npm run release:check`: is this checkout fit to be published? The publish workflow
 * (.github/workflows/publish.yml) runs it before `npm publish`; CI runs it with
 * `--allow-unreleased`. It packs the package as npm would publish it and checks:
 *
 *   changelog  CHANGELOG.md has a `## <version>` heading with entries ("Unreleased" does not count)
 *   tag        on a tag build, the tag is `v<version>` or `<version>`
 *   manifest   package.json: name, keywords, repository, no runtime dependencies, n8n-workflow as
 *              the only peer dependency, an `n8n` section naming every node and credential source
 *   dist       dist/ is a complete, current build of nodes/ and credentials/
 *   contents   the tarball holds only what the package ships (see ALLOWED below), every file the
 *              `n8n` section names, a codex file next to each node, every icon the code points at
 *   size       packed and unpacked size, file count and largest file under the limits below
 *   scan       the lint legs of n8n's verification scan, on the source and on the packed tarball
 *              (as scripts/scan.mjs, with the scanner's own code)
 *
 * Prints one line per check and exits 1 if any failed. Builds nothing: run `npm run build` first.
 *
 * Options: --allow-unreleased (a dry run: an `## Unreleased` section stands in for the version's
 * heading), --tag <name> (check this tag; on GitHub Actions the pushed tag is used by default),
 * --only <check,…> (run some checks only), --root <dir> (check another package folder; tests).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Size limits. At 0.1.0 (2026-06) the tarball was 195 kB packed, 952 kB unpacked, 280 files, the
 * largest file README.md (52 kB), once TypeScript's build cache (280 kB unpacked) is left out; the
 * limits leave room for the package to grow by half or more. Raise them deliberately, with the
 * new figures here. With the action node's output schemas (2026-11: 88 files, 410 kB unpacked per
 * node version, two versions) it is 277 kB packed, 1.83 MB unpacked and 483 files; the limits
 * leave room for half as much again.
 */
const LIMITS = {
	packedBytes: 450_000,
	unpackedBytes: 2_800_000,
	files: 720,
	largestFileBytes: 100_000,
};

const CHECKS = ['changelog', 'tag', 'manifest', 'dist', 'contents', 'size', 'scan'];

// ---------------------------------------------------------------------------------------------
// Arguments

/** @param {string[]} argv */
function parseArgs(argv) {
	const options = {
		allowUnreleased: false,
		/** @type {string | undefined} */ tag: undefined,
		/** @type {string[]} */ only: CHECKS,
		root: HERE,
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const value = () => {
			const next = argv[++i];
			if (next === undefined) throw new Error(`${arg} needs a value`);
			return next;
		};
		if (arg === '--allow-unreleased') options.allowUnreleased = true;
		else if (arg === '--tag') options.tag = value();
		else if (arg === '--root') options.root = path.resolve(value());
		else if (arg === '--only') {
			options.only = value()
				.split(',')
				.map((s) => s.trim())
				.filter(Boolean);
			const unknown = options.only.filter((c) => !CHECKS.includes(c));
			if (unknown.length)
				throw new Error(`unknown check(s) ${unknown.join(', ')}; known: ${CHECKS.join(', ')}`);
		} else throw new Error(`unknown option ${arg}`);
	}
	if (options.tag === undefined && process.env.GITHUB_REF_TYPE === 'tag') {
		options.tag = process.env.GITHUB_REF_NAME;
	}
	return options;
}

// ---------------------------------------------------------------------------------------------
// Results

/**
 * @typedef {{ ok: boolean, detail: string, fix?: string }} Result
 * @param {string} detail @returns {Result}
 */
const pass = (detail) => ({ ok: true, detail });
/** @param {string} detail @param {string} [fix] @returns {Result} */
const fail = (detail, fix) => ({ ok: false, detail, fix });

/** @param {Result[]} parts  all must pass; details joined */
function combine(parts) {
	const failed = parts.filter((p) => !p.ok);
	if (failed.length === 0) return pass(parts.map((p) => p.detail).join('; '));
	return fail(
		failed.map((p) => p.detail).join('; '),
		failed
			.map((p) => p.fix)
			.filter(Boolean)
			.join('\n'),
	);
}

const escapeRegExp = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const kB = (/** @type {number} */ n) => `${(n / 1000).toFixed(1)} kB`;

// ---------------------------------------------------------------------------------------------
// changelog

/**
 * The body of each `## ` section of a changelog, keyed by its heading text.
 * @param {string} text
 */
function changelogSections(text) {
	/** @type {{ heading: string, body: string }[]} */
	const sections = [];
	for (const line of text.split(/\r?\n/)) {
		const heading = /^##\s+(.*?)\s*$/.exec(line);
		if (heading) sections.push({ heading: heading[1], body: '' });
		else if (sections.length) sections[sections.length - 1].body += `${line}\n`;
	}
	return sections;
}

/**
 * @param {string} version
 * @param {string | undefined} text  CHANGELOG.md, undefined when missing
 * @param {boolean} allowUnreleased
 * @returns {Result}
 */
export function checkChangelog(version, text, allowUnreleased) {
	if (text === undefined)
		return fail('CHANGELOG.md is missing', 'Add a CHANGELOG.md with a "## <version>" section.');
	const sections = changelogSections(text);
	// `## 1.2.0`, `## [1.2.0]`, `## v1.2.0`, optionally followed by a date: ` - 2026-06-01`, ` (2026-06-01)`.
	const versionHeading = new RegExp(`^\\[?v?${escapeRegExp(version)}\\]?(?:\\s|$)`);
	const released = sections.find((s) => versionHeading.test(s.heading));
	const unreleased = sections.find((s) => /^\[?unreleased\]?$/i.test(s.heading));
	const hasEntries = (/** @type {{ body: string }} */ s) => /\S/.test(s.body);
	const howTo =
		`Rename the "## Unreleased" heading of CHANGELOG.md to "## ${version}" (a date may follow: ` +
		`"## ${version} - YYYY-MM-DD"), or bump package.json's version first ` +
		'(npm version <major|minor|patch> --no-git-tag-version), and add a new empty "## Unreleased" above it.';

	if (released) {
		if (!hasEntries(released))
			return fail(
				`"## ${released.heading}" has no entries`,
				'List the changes of this version under its heading.',
			);
		if (unreleased && hasEntries(unreleased) && !allowUnreleased) {
			return fail(
				`"## ${released.heading}" found, but "## Unreleased" still lists changes that this tarball ships`,
				`Move the entries of "## Unreleased" into "## ${version}" (or release them as a new version).`,
			);
		}
		return pass(`"## ${released.heading}" found`);
	}
	if (allowUnreleased && unreleased) {
		return pass(
			`version ${version} not released yet; "## Unreleased" accepted (--allow-unreleased)`,
		);
	}
	return fail(
		`no "## ${version}" heading in CHANGELOG.md${unreleased ? ' (only "## Unreleased")' : ''}: version ${version} is not released`,
		howTo,
	);
}

// ---------------------------------------------------------------------------------------------
// tag

/** @param {string} version @param {string | undefined} tag @returns {Result} */
export function checkTag(version, tag) {
	if (tag === undefined || tag === '') return pass('not a tag build, nothing to compare');
	if (tag === `v${version}` || tag === version)
		return pass(`tag ${tag} matches version ${version}`);
	return fail(
		`tag ${tag} does not match package.json's version ${version}`,
		`Tag the commit whose package.json says the version you release: git tag v${version}.`,
	);
}

// ---------------------------------------------------------------------------------------------
// manifest

/**
 * The node and credential sources a package folder has, as the dist paths n8n would load.
 * @param {string} root
 */
function sourceEntryPoints(root) {
	/** @param {string} dir @param {RegExp} pattern @returns {string[]} */
	const find = (dir, pattern) => {
		const abs = path.join(root, dir);
		if (!fs.existsSync(abs)) return [];
		return fs
			.readdirSync(abs, { recursive: true, encoding: 'utf8' })
			.map((f) => f.split(path.sep).join('/'))
			.filter((f) => pattern.test(f))
			.map((f) => `dist/${dir}/${f.replace(/\.ts$/, '.js')}`)
			.sort();
	};
	return {
		nodes: find('nodes', /(^|\/)[^/]+\.node\.ts$/),
		credentials: find('credentials', /(^|\/)[^/]+\.credentials\.ts$/),
	};
}

/**
 * @param {Record<string, any>} pkg
 * @param {string} root
 * @param {string | undefined} githubRepository  owner/name when running on GitHub Actions
 * @returns {Result}
 */
export function checkManifest(pkg, root, githubRepository) {
	/** @type {string[]} */
	const problems = [];
	const isObject = (/** @type {unknown} */ v) =>
		typeof v === 'object' && v !== null && !Array.isArray(v);

	if (
		typeof pkg.name !== 'string' ||
		!/^(@[a-z0-9-~][a-z0-9-._~]*\/)?n8n-nodes-[a-z0-9-._~]+$/.test(pkg.name)
	)
		problems.push(`name ${JSON.stringify(pkg.name)} must be n8n-nodes-… or @scope/n8n-nodes-…`);
	if (typeof pkg.version !== 'string' || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(pkg.version))
		problems.push(`version ${JSON.stringify(pkg.version)} is not a semantic version`);
	if (pkg.private) problems.push('"private": true would refuse to publish');
	if (!pkg.license) problems.push('no license');
	if (!Array.isArray(pkg.keywords) || !pkg.keywords.includes('n8n-community-node-package'))
		problems.push('keywords lack n8n-community-node-package (n8n finds community packages by it)');

	const repoUrl = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
	const repo = /github\.com[/:]([^/]+)\/([^/#]+?)(?:\.git)?\/?$/.exec(repoUrl ?? '');
	if (!repo)
		problems.push(
			`repository.url ${JSON.stringify(repoUrl)} is not a GitHub repository (npm provenance needs it)`,
		);
	else if (
		githubRepository &&
		`${repo[1]}/${repo[2]}`.toLowerCase() !== githubRepository.toLowerCase()
	)
		problems.push(
			`repository.url names ${repo[1]}/${repo[2]} but this runs in ${githubRepository}; npm rejects provenance that does not match`,
		);
	if (typeof pkg.homepage !== 'string' || !/^https:\/\//.test(pkg.homepage))
		problems.push('no https homepage');

	if (
		pkg.dependencies !== undefined &&
		(!isObject(pkg.dependencies) || Object.keys(pkg.dependencies).length > 0)
	)
		problems.push(
			`dependencies must be empty, found ${Object.keys(pkg.dependencies ?? {}).join(', ')}`,
		);
	for (const field of ['optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
		const v = pkg[field];
		if (v !== undefined && (Array.isArray(v) ? v.length : Object.keys(v ?? {}).length))
			problems.push(`${field} must be empty`);
	}
	if (JSON.stringify(pkg.peerDependencies) !== JSON.stringify({ 'n8n-workflow': '*' }))
		problems.push(
			`peerDependencies must be exactly {"n8n-workflow": "*"}, found ${JSON.stringify(pkg.peerDependencies)}`,
		);
	for (const hook of ['preinstall', 'install', 'postinstall']) {
		if (pkg.scripts?.[hook]) problems.push(`scripts.${hook} would run on users' machines`);
	}

	const n8n = pkg.n8n;
	let counts = '';
	if (!isObject(n8n)) problems.push('no "n8n" section');
	else {
		if (n8n.n8nNodesApiVersion !== 1) problems.push('n8n.n8nNodesApiVersion must be 1');
		const expected = sourceEntryPoints(root);
		for (const kind of /** @type {const} */ (['nodes', 'credentials'])) {
			const listed = n8n[kind];
			if (!Array.isArray(listed) || listed.length === 0) {
				problems.push(`n8n.${kind} is empty`);
				continue;
			}
			for (const entry of listed) {
				if (typeof entry !== 'string' || !/^dist\/.+\.js$/.test(entry))
					problems.push(`n8n.${kind}: ${entry} is not a dist/….js path`);
				else if (!expected[kind].includes(entry))
					problems.push(
						`n8n.${kind}: ${entry} has no source (${entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')})`,
					);
			}
			const missing = expected[kind].filter((e) => !listed.includes(e));
			if (missing.length) problems.push(`n8n.${kind} does not list ${missing.join(', ')}`);
		}
		counts = `, ${n8n.nodes?.length ?? 0} nodes, ${n8n.credentials?.length ?? 0} credentials`;
	}

	if (problems.length)
		return fail(
			problems.join('; '),
			'Fix package.json (the fields n8n and npm read when publishing and installing).',
		);
	return pass(`${pkg.name}@${pkg.version}, no dependencies, peer n8n-workflow *${counts}`);
}

// ---------------------------------------------------------------------------------------------
// dist (before packing: the build is complete and current)

/** @param {string} root @returns {Result} */
export function checkDist(root) {
	const dist = path.join(root, 'dist');
	if (!fs.existsSync(dist)) return fail('dist/ is missing', 'Run npm run build first.');
	/** @type {string[]} */
	const sources = [];
	for (const dir of ['nodes', 'credentials']) {
		const abs = path.join(root, dir);
		if (!fs.existsSync(abs)) continue;
		for (const f of fs.readdirSync(abs, { recursive: true, encoding: 'utf8' }))
			if (f.endsWith('.ts') && !f.endsWith('.d.ts')) sources.push(path.join(dir, f));
	}
	const missing = [];
	const stale = [];
	for (const source of sources) {
		const built = path.join(dist, source.replace(/\.ts$/, '.js'));
		if (!fs.existsSync(built)) missing.push(source);
		else if (fs.statSync(path.join(root, source)).mtimeMs > fs.statSync(built).mtimeMs)
			stale.push(source);
	}
	const orphans = [];
	for (const dir of ['nodes', 'credentials']) {
		const abs = path.join(dist, dir);
		if (!fs.existsSync(abs)) continue;
		for (const f of fs.readdirSync(abs, { recursive: true, encoding: 'utf8' })) {
			if (!f.endsWith('.js')) continue;
			if (!fs.existsSync(path.join(root, dir, f.replace(/\.js$/, '.ts'))))
				orphans.push(path.join('dist', dir, f));
		}
	}
	/** @type {string[]} */
	const problems = [];
	const some = (/** @type {string[]} */ list) =>
		list.slice(0, 5).join(', ') + (list.length > 5 ? `, … (${list.length})` : '');
	if (missing.length) problems.push(`not built: ${some(missing)}`);
	if (stale.length) problems.push(`changed since the build: ${some(stale)}`);
	if (orphans.length)
		problems.push(
			`compiled files without a source (left over from an older build): ${some(orphans)}`,
		);
	if (problems.length)
		return fail(problems.join('; '), 'Run npm run build (it empties dist/ first).');
	return pass(`${sources.length} sources, each built and current`);
}

// ---------------------------------------------------------------------------------------------
// pack

/**
 * @typedef {{ path: string, size: number }} PackedFile
 * @typedef {{ tarball: string, unpacked: string, size: number, unpackedSize: number, files: PackedFile[] }} Pack
 * @param {string} root @param {string} work @returns {Pack}
 */
function pack(root, work) {
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		// npm run exports this package's own settings as npm_config_*; they belong to the outer npm.
		env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
	});
	const [info] = JSON.parse(out.slice(out.indexOf('[')));
	const tarball = path.join(work, info.filename);
	execFileSync('tar', ['-xzf', tarball, '-C', work]);
	return {
		tarball,
		unpacked: path.join(work, 'package'),
		size: info.size,
		unpackedSize: info.unpackedSize,
		files: info.files.map((/** @type {PackedFile} */ f) => ({ path: f.path, size: f.size })),
	};
}

// ---------------------------------------------------------------------------------------------
// contents

/** Why a file must not be published, or undefined if it may be. */
const FORBIDDEN = [
	[/(^|\/)[^/]*\.tsbuildinfo$/, "TypeScript's incremental build cache"],
	[/(^|\/)\.env(\.|$)/, 'an environment file (secrets)'],
	[/(^|\/)\.npmrc$/, 'npm settings'],
	[/(^|\/)(test|tests|__tests__|spec)\//, 'tests'],
	[/\.(test|spec)\.[cm]?[jt]s$/, 'a test'],
	[/(^|\/)examples?\//, 'examples (not listed in "files")'],
	[/(^|\/)node_modules\//, 'a dependency'],
	[/\.tgz$/, 'a tarball'],
	[/(^|\/)(?!.*\.d\.ts$)[^/]+\.ts$/, 'TypeScript source'],
];

/** What the package ships: top-level documents, the entry file, and the build. */
const ALLOWED = [
	/^package\.json$/,
	/^README(\.md)?$/i,
	/^LICEN[CS]E(\.md|\.txt)?$/i,
	/^CHANGELOG\.md$/i,
	/^dist\/.+\.js$/,
	/^dist\/.+\.d\.ts$/,
	/^dist\/.+\.node\.json$/, // codex files
	/^dist\/package\.json$/, // tsc copies it (tsconfig.json includes package.json, as n8n's starter does)
	/^dist\/.+\.(svg|png)$/,
	/^dist\/nodes\/[^/]+\/__schema__\/v\d+\.\d+\.\d+\/[^/]+\/[^/]+\.json$/, // output schemas
];

/**
 * @param {Record<string, any>} pkg
 * @param {PackedFile[]} files
 * @param {string} unpacked  the unpacked tarball's package/ folder
 * @param {{ sourceMaps: boolean }} intended
 * @returns {Result}
 */
export function checkContents(pkg, files, unpacked, intended) {
	const paths = new Set(files.map((f) => f.path));
	/** @type {string[]} */
	const problems = [];
	const unexpected = [];
	for (const file of files) {
		const forbidden = FORBIDDEN.find(([pattern]) =>
			/** @type {RegExp} */ (pattern).test(file.path),
		);
		if (forbidden) {
			problems.push(`${file.path} is ${forbidden[1]}`);
			continue;
		}
		if (/\.js\.map$/.test(file.path)) {
			if (!intended.sourceMaps)
				problems.push(`${file.path}: a source map, but tsconfig.json does not ask for them`);
			else if (!paths.has(file.path.replace(/\.map$/, '')))
				problems.push(`${file.path}: a source map without its .js`);
			continue;
		}
		if (file.path === pkg.main) continue;
		if (!ALLOWED.some((pattern) => pattern.test(file.path))) unexpected.push(file.path);
	}
	if (unexpected.length) problems.push(`not part of the package: ${unexpected.join(', ')}`);
	if (
		!paths.has('package.json') ||
		!paths.has('README.md') ||
		![...paths].some((p) => /^LICEN[CS]E/i.test(p))
	)
		problems.push('package.json, README.md and LICENSE must all be in the tarball');
	if (pkg.main && !paths.has(pkg.main.replace(/^\.\//, '')))
		problems.push(`main ${pkg.main} is not in the tarball`);

	const n8n = pkg.n8n ?? {};
	const entries = [...(n8n.nodes ?? []), ...(n8n.credentials ?? [])];
	for (const entry of entries)
		if (!paths.has(entry))
			problems.push(`${entry} (package.json n8n section) is not in the tarball`);
	for (const node of n8n.nodes ?? []) {
		const codex = `${node}on`; // X.node.js → X.node.json, as n8n's loader looks for it
		if (!paths.has(codex)) {
			problems.push(`${codex} (the codex of ${node}) is not in the tarball`);
			continue;
		}
		try {
			const json = JSON.parse(fs.readFileSync(path.join(unpacked, codex), 'utf8'));
			// n8n's loader destructures `resources`; without it the codex is dropped silently.
			if (!Array.isArray(json.categories) || !json.resources)
				problems.push(`${codex} lacks categories or resources`);
		} catch (error) {
			problems.push(`${codex} is not valid JSON: ${/** @type {Error} */ (error).message}`);
		}
	}
	// Icons: every `file:` path the node and credential code points at.
	let icons = 0;
	for (const entry of entries.filter((e) => paths.has(e))) {
		const code = fs.readFileSync(path.join(unpacked, entry), 'utf8');
		for (const [, rel] of code.matchAll(/['"]file:([^'"]+)['"]/g)) {
			const target = path.posix.normalize(path.posix.join(path.posix.dirname(entry), rel));
			icons++;
			if (!paths.has(target))
				problems.push(`${entry} points at ${target}, which is not in the tarball`);
		}
	}
	if (problems.length)
		return fail(
			problems.join('; '),
			'Keep package.json "files" to what users need (a negated entry such as "!dist/tsconfig.tsbuildinfo" ' +
				'excludes a file), rebuild, and check the list with npm pack --dry-run.',
		);
	const maps = files.filter((f) => f.path.endsWith('.map')).length;
	return pass(
		`${files.length} files as "files" ${JSON.stringify(pkg.files)} says; ${entries.length} n8n entry points, ` +
			`${(n8n.nodes ?? []).length} codex files, ${icons} icon references` +
			(maps ? `, ${maps} source maps (tsconfig.json sourceMap)` : ''),
	);
}

// ---------------------------------------------------------------------------------------------
// size

/** @param {Pack} packed @param {typeof LIMITS} limits @returns {Result} */
export function checkSize(packed, limits = LIMITS) {
	const largest = packed.files.reduce((a, b) => (b.size > a.size ? b : a), { path: '-', size: 0 });
	const figures = [
		['packed', packed.size, limits.packedBytes, kB],
		['unpacked', packed.unpackedSize, limits.unpackedBytes, kB],
		['files', packed.files.length, limits.files, String],
		[`largest file (${largest.path})`, largest.size, limits.largestFileBytes, kB],
	];
	const text = figures
		.map(
			([name, value, limit, fmt]) =>
				`${name} ${fmt(value)} of ${fmt(limit)}${value > limit ? ' (OVER)' : ''}`,
		)
		.join(', ');
	const over = figures.filter(([, value, limit]) => value > limit);
	if (over.length)
		return fail(
			`over the limit: ${text}`,
			'Find what grew (npm pack --dry-run); if the growth is intended, raise LIMITS in scripts/release-check.mjs with the new figures.',
		);
	return pass(text);
}

// ---------------------------------------------------------------------------------------------
// scan

/** @param {string} root @param {string} unpacked @returns {Promise<Result>} */
async function checkScan(root, unpacked) {
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
		'@n8n/scan-community-package/scanner/scanner.mjs'
	);
	const legs = [
		['source', await analyzePackage(root, SOURCE_FILE_PATTERNS)],
		['tarball', await analyzePackage(unpacked, ['**/*.js', 'package.json'])],
	];
	// The scanner passes a leg that matched no files; here that means a broken layout.
	const failed = legs.filter(([, r]) => !r.passed || r.message !== undefined);
	if (failed.length) {
		return fail(
			failed
				.map(([what, r]) => `${what} leg: ${r.message}${r.details ? `\n${r.details}` : ''}`)
				.join('\n'),
			'Run npm run scan for the same checks while developing.',
		);
	}
	return pass(
		'source and tarball legs passed (@n8n/scan-community-package rules, inline disables ignored)',
	);
}

// ---------------------------------------------------------------------------------------------

/** @param {string} file */
function readIfExists(file) {
	return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
}

/** @param {string} root */
function sourceMapsIntended(root) {
	const text = readIfExists(path.join(root, 'tsconfig.json'));
	if (!text) return false;
	try {
		return JSON.parse(text).compilerOptions?.sourceMap === true;
	} catch {
		return /"sourceMap"\s*:\s*true/.test(text);
	}
}

async function main() {
	let options;
	try {
		options = parseArgs(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`release-check: ${/** @type {Error} */ (error).message}\n`);
		process.exit(2);
	}
	const { root, only } = options;
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	/** @type {[string, Result][]} */
	const results = [];
	const report = (/** @type {string} */ name, /** @type {Result} */ result) => {
		results.push([name, result]);
		process.stdout.write(
			`release-check ${name}: ${result.ok ? 'ok' : 'FAILED'}: ${result.detail}\n`,
		);
		if (!result.ok && result.fix)
			process.stdout.write(`  fix: ${result.fix.split('\n').join('\n  fix: ')}\n`);
	};

	if (only.includes('changelog'))
		report(
			'changelog',
			checkChangelog(
				pkg.version,
				readIfExists(path.join(root, 'CHANGELOG.md')),
				options.allowUnreleased,
			),
		);
	if (only.includes('tag')) report('tag', checkTag(pkg.version, options.tag));
	if (only.includes('manifest'))
		report('manifest', checkManifest(pkg, root, process.env.GITHUB_REPOSITORY));
	if (only.includes('dist')) report('dist', checkDist(root));

	const packing = ['contents', 'size', 'scan'].filter((c) => only.includes(c));
	if (packing.length) {
		if (!fs.existsSync(path.join(root, 'dist'))) {
			for (const c of packing)
				report(c, fail('dist/ is missing, nothing to pack', 'Run npm run build first.'));
		} else {
			const work = fs.mkdtempSync(path.join(os.tmpdir(), 'release-check-'));
			try {
				const packed = pack(root, work);
				if (only.includes('contents'))
					report(
						'contents',
						checkContents(pkg, packed.files, packed.unpacked, {
							sourceMaps: sourceMapsIntended(root),
						}),
					);
				if (only.includes('size')) report('size', checkSize(packed));
				if (only.includes('scan')) report('scan', await checkScan(root, packed.unpacked));
			} finally {
				fs.rmSync(work, { recursive: true, force: true });
			}
		}
	}

	const failed = results.filter(([, r]) => !r.ok).map(([name]) => name);
	process.stdout.write(
		failed.length
			? `release-check: FAILED (${failed.join(', ')}); ${results.length - failed.length} of ${results.length} checks passed\n`
			: `release-check: all ${results.length} checks passed for ${pkg.name}@${pkg.version}\n`,
	);
	process.exitCode = failed.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
	await main();
