#!/usr/bin/env node
// @ts-check
/**
 * `npm run release:check`: is this checkout fit to be published? The publish workflow
 * (.github/workflows/publish.yml) runs it before `npm publish`; CI runs it with
 * `--allow-unreleased`. It packs the package as npm would publish it and checks:
 *
 *   changelog  CHANGELOG.md has a `## <version>` heading with entries ("Unreleased" does not count)
 *   tag        the tag being released is `v<version>` or `<version>`
 *   manifest   package.json: name, keywords, repository, no runtime dependencies, n8n-workflow as
 *              the only peer dependency, an `n8n` section naming every node and credential source
 *   links      every link to the repository that users see (package.json's homepage and bugs, the
 *              README's clone command, the codex Docs links, credentials' documentationUrl) is
 *              written from package.json's repository.url and resolves (scripts/generate-links.mjs)
 *   dist       dist/ holds exactly what the build emits (see buildOutputs below), each file current
 *   contents   the tarball holds what the build emits (nothing forbidden: no source maps, build
 *              cache or copy of package.json), the top-level documents and the entry file, and
 *              nothing else; every file the `n8n` section names, a codex file next to each node,
 *              every icon the code points at
 *   size       packed and unpacked size, file count and largest file under the limits below
 *   scan       the lint legs of n8n's verification scan, on the source and on the packed tarball
 *              (as scripts/scan.mjs, with the scanner's own code)
 *
 * Prints one line per check and exits 1 if any failed. Builds nothing: run `npm run build` first.
 *
 * Options: --allow-unreleased (a dry run, for an untagged commit such as main in CI: see DRY RUN
 * below), --tag <name> (check this tag; on GitHub Actions the pushed tag is used by default),
 * --only <check,…> (run some checks only), --root <dir> (check another package folder; tests).
 *
 * DRY RUN (--allow-unreleased). Only two things need a tagged release, and only they are skipped,
 * each with a `skipped` line saying why: the `## <version>` heading of CHANGELOG.md (between
 * releases an `## Unreleased` section stands in; it must exist) and the comparison of the tag with
 * the version (there is no tag; given one with --tag, it is compared). Everything else runs as on
 * the release. Without --allow-unreleased a run without a tag fails: a release is checked on its
 * tag.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { linkProblems } from './generate-links.mjs';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Size limits. At 0.1.0 (2026-06) the tarball was 195 kB packed, 952 kB unpacked, 280 files, the
 * largest file README.md (52 kB), once TypeScript's build cache (280 kB unpacked) is left out; the
 * limits leave room for the package to grow by half or more. Raise them deliberately, with the
 * new figures here. With the action node's output schemas (2026-11: 88 files, 410 kB unpacked per
 * node version, two versions) it is 277 kB packed, 1.83 MB unpacked and 483 files; the limits
 * leave room for half as much again. Without source maps and dist/package.json (2026-11, the
 * triggers' schemas included): 211 kB packed, 1.45 MB unpacked, 395 files.
 */
const LIMITS = {
	packedBytes: 450_000,
	unpackedBytes: 2_800_000,
	files: 720,
	largestFileBytes: 100_000,
};

const CHECKS = ['changelog', 'tag', 'manifest', 'links', 'dist', 'contents', 'size', 'scan'];

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
 * @typedef {{ ok: boolean, detail: string, fix?: string, skipped?: boolean }} Result
 * @param {string} detail @returns {Result}
 */
const pass = (detail) => ({ ok: true, detail });
/** @param {string} detail @param {string} [fix] @returns {Result} */
const fail = (detail, fix) => ({ ok: false, detail, fix });
/** Not run: what it needs does not exist in a dry run. @param {string} why @returns {Result} */
const skip = (why) => ({ ok: true, skipped: true, detail: why });

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
			`version ${version} not released yet; "## Unreleased" accepted (--allow-unreleased); ` +
				`skipped (dry run): the "## ${version}" heading, which only the tagged release needs`,
		);
	}
	return fail(
		`no "## ${version}" heading in CHANGELOG.md${unreleased ? ' (only "## Unreleased")' : ''}: version ${version} is not released`,
		howTo,
	);
}

// ---------------------------------------------------------------------------------------------
// tag

/**
 * @param {string} version @param {string | undefined} tag
 * @param {boolean} dryRun  --allow-unreleased: an untagged commit is expected
 * @returns {Result}
 */
export function checkTag(version, tag, dryRun) {
	if (tag === undefined || tag === '') {
		if (dryRun)
			return skip(
				`dry run on an untagged commit: there is no tag to compare with version ${version} ` +
					'(publish.yml runs this check on the pushed tag)',
			);
		return fail(
			'no tag: a release is checked on its tag',
			`Run on the tag (publish.yml does), pass --tag v${version}, or add --allow-unreleased for a dry run.`,
		);
	}
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
// links

/** @param {string} root @returns {Result} */
export function checkLinks(root) {
	let problems;
	try {
		problems = linkProblems(root);
	} catch (error) {
		return fail(/** @type {Error} */ (error).message, 'Fix package.json repository.url.');
	}
	if (problems.length)
		return fail(
			problems.join('; '),
			'Run node scripts/generate-links.mjs (it writes them from package.json repository.url); ' +
				'a link naming a missing file or README anchor needs that file or heading.',
		);
	return pass(
		"every link to the repository users see is written from package.json's repository.url and resolves",
	);
}

// ---------------------------------------------------------------------------------------------
// dist (before packing: the build is complete and current)

/**
 * @typedef {{ files: Map<string, string>, tsc: number, assets: number }} BuildOutputs
 *   files: what `npm run build` puts into dist/ (path from the package root) → the source it comes
 *   from; tsc and assets: how many of them each step emits
 */

/** @param {string} root @param {string} file */
const relative = (root, file) => path.relative(root, file).split(path.sep).join('/');

/**
 * What `npm run build` (rimraf dist && tsc -p tsconfig.json && gulp build:assets) puts into
 * dist/, derived from the build's own configuration instead of a hand-kept list:
 *
 *  - tsc: every output TypeScript's emitter gives the files of tsconfig.json's program (its own
 *    include, plus whatever they import outside node_modules), with its options (declarations,
 *    JSON files such as the codex files, source maps if it were asked for them, the build cache);
 *    computed with TypeScript's API (ts.getOutputFileNames), nothing is written;
 *  - gulp: the files gulpfile.js's ASSETS globs match (icons, every node's __schema__ files),
 *    expanded by gulp's own src() with the same options, as they land in dist/.
 *
 * @param {string} root @returns {Promise<BuildOutputs>}
 */
export async function buildOutputs(root) {
	/** @type {Map<string, string>} */
	const files = new Map();
	const ts = createRequire(import.meta.url)('typescript');
	const configPath = path.join(root, 'tsconfig.json');
	if (!fs.existsSync(configPath))
		throw new Error('no tsconfig.json, so no way to know what tsc emits');
	/** @type {string[]} */
	const configErrors = [];
	const parsed = ts.getParsedCommandLineOfConfigFile(
		configPath,
		{},
		{
			...ts.sys,
			onUnRecoverableConfigFileDiagnostic: (/** @type {any} */ d) =>
				configErrors.push(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
		},
	);
	if (!parsed || configErrors.length || parsed.errors.length)
		throw new Error(
			`tsconfig.json: ${[...configErrors, ...(parsed?.errors ?? []).map((/** @type {any} */ d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))].join('; ')}`,
		);
	const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
	const ignoreCase = !ts.sys.useCaseSensitiveFileNames;
	for (const source of program.getSourceFiles()) {
		if (
			source.isDeclarationFile ||
			program.isSourceFileFromExternalLibrary(source) ||
			program.isSourceFileDefaultLibrary(source)
		)
			continue;
		for (const out of ts.getOutputFileNames(parsed, source.fileName, ignoreCase))
			files.set(relative(root, out), relative(root, source.fileName));
	}
	const buildInfo = ts.getTsBuildInfoEmitOutputFilePath(parsed.options);
	if (buildInfo) files.set(relative(root, buildInfo), 'tsconfig.json');
	const tsc = files.size;

	const gulpfile = path.join(root, 'gulpfile.js');
	if (fs.existsSync(gulpfile)) {
		const requireThere = createRequire(gulpfile);
		const { ASSETS } = requireThere(gulpfile);
		if (!ASSETS || typeof ASSETS !== 'object')
			throw new Error('gulpfile.js exports no ASSETS, so no way to know what it copies into dist/');
		const { src } = requireThere('gulp');
		for (const { globs, options } of Object.values(ASSETS)) {
			await new Promise((resolve, reject) => {
				src(globs, {
					...options,
					// gulp resolves a relative base against the process's folder, not against cwd.
					...(typeof options?.base === 'string' ? { base: path.resolve(root, options.base) } : {}),
					cwd: root,
					read: false,
				})
					.on('data', (/** @type {{ relative: string, path: string }} */ file) =>
						files.set(`dist/${file.relative.split(path.sep).join('/')}`, relative(root, file.path)),
					)
					.on('error', reject)
					.on('end', resolve);
			});
		}
	}
	return { files, tsc, assets: files.size - tsc };
}

/** @param {string[]} list */
const some = (list) =>
	list.slice(0, 5).join(', ') + (list.length > 5 ? `, … (${list.length})` : '');

/** @param {string} root @param {BuildOutputs} outputs @returns {Result} */
export function checkDist(root, outputs) {
	const dist = path.join(root, 'dist');
	if (!fs.existsSync(dist)) return fail('dist/ is missing', 'Run npm run build first.');
	const missing = [];
	const stale = [];
	for (const [out, source] of outputs.files) {
		const built = path.join(root, out);
		if (!fs.existsSync(built)) missing.push(`${source} (${out})`);
		// gulp's dest() gives a copy its source's modification time, to the millisecond: newer by
		// more than that is a change since the build.
		else if (fs.statSync(path.join(root, source)).mtimeMs > fs.statSync(built).mtimeMs + 1)
			stale.push(source);
	}
	const leftOver = fs
		.readdirSync(dist, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => relative(root, path.join(entry.parentPath ?? entry.path, entry.name)))
		.filter((file) => !outputs.files.has(file))
		.sort();
	/** @type {string[]} */
	const problems = [];
	if (missing.length) problems.push(`not built: ${some(missing)}`);
	if (stale.length) problems.push(`changed since the build: ${some(stale)}`);
	if (leftOver.length)
		problems.push(
			`files the build does not emit (left over from an older build): ${some(leftOver)}`,
		);
	if (problems.length)
		return fail(problems.join('; '), 'Run npm run build (it empties dist/ first).');
	return pass(
		`the ${outputs.files.size} files the build emits (${outputs.tsc} by tsc, ${outputs.assets} copied by gulpfile.js), each current, nothing else`,
	);
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

/** Why a file must not be published, even if the build emits it. */
const FORBIDDEN = [
	[/(^|\/)[^/]*\.tsbuildinfo$/, "TypeScript's incremental build cache"],
	[/\.map$/, 'a source map (it points at TypeScript sources the tarball does not ship)'],
	[
		/^dist\/(.+\/)?package\.json$/,
		'a copy of package.json (scripts and devDependencies) inside dist/',
	],
	[/(^|\/)\.env(\.|$)/, 'an environment file (secrets)'],
	[/(^|\/)\.npmrc$/, 'npm settings'],
	[/(^|\/)(test|tests|__tests__|spec)\//, 'tests'],
	[/\.(test|spec)\.[cm]?[jt]s$/, 'a test'],
	[/(^|\/)examples?\//, 'examples (not listed in "files")'],
	[/(^|\/)node_modules\//, 'a dependency'],
	[/\.tgz$/, 'a tarball'],
	[/(^|\/)(?!.*\.d\.ts$)[^/]+\.ts$/, 'TypeScript source'],
];

/** Besides the build and the entry file: the top-level documents a user reads. */
const DOCUMENTS = [
	/^package\.json$/,
	/^README(\.md)?$/i,
	/^LICEN[CS]E(\.md|\.txt)?$/i,
	/^CHANGELOG\.md$/i,
];

/**
 * @param {Record<string, any>} pkg
 * @param {PackedFile[]} files
 * @param {string} unpacked  the unpacked tarball's package/ folder
 * @param {BuildOutputs} outputs  what the build emits (buildOutputs)
 * @returns {Result}
 */
export function checkContents(pkg, files, unpacked, outputs) {
	const paths = new Set(files.map((f) => f.path));
	const main = typeof pkg.main === 'string' ? path.posix.normalize(pkg.main) : undefined;
	const forbidden = (/** @type {string} */ file) =>
		FORBIDDEN.find(([pattern]) => /** @type {RegExp} */ (pattern).test(file));
	/** @type {string[]} */
	const problems = [];
	const unexpected = [];
	for (const file of files) {
		const why = forbidden(file.path);
		if (why) problems.push(`${file.path} is ${why[1]}`);
		else if (
			!outputs.files.has(file.path) &&
			file.path !== main &&
			!DOCUMENTS.some((pattern) => pattern.test(file.path))
		)
			unexpected.push(file.path);
	}
	if (unexpected.length)
		problems.push(
			`not part of the package (neither emitted by the build nor a top-level document): ${unexpected.join(', ')}`,
		);
	const shipped = [...outputs.files.keys()].filter((file) => !forbidden(file));
	const left = shipped.filter((file) => !paths.has(file));
	if (left.length)
		problems.push(`emitted by the build but not in the tarball: ${some(left.sort())}`);
	if (
		!paths.has('package.json') ||
		!paths.has('README.md') ||
		![...paths].some((p) => /^LICEN[CS]E/i.test(p))
	)
		problems.push('package.json, README.md and LICENSE must all be in the tarball');
	if (main && !paths.has(main)) problems.push(`main ${pkg.main} is not in the tarball`);

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
	const neverShipped = [...outputs.files.keys()].filter((file) => forbidden(file));
	return pass(
		`${files.length} files: the ${shipped.length} the build emits` +
			(neverShipped.length ? ` (not ${neverShipped.join(', ')})` : '') +
			`, and ${files.length - shipped.length} top-level documents and entry file; ${entries.length} n8n entry points, ` +
			`${(n8n.nodes ?? []).length} codex files, ${icons} icon references`,
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
		const status = result.skipped ? 'skipped' : result.ok ? 'ok' : 'FAILED';
		process.stdout.write(`release-check ${name}: ${status}: ${result.detail}\n`);
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
	if (only.includes('tag'))
		report('tag', checkTag(pkg.version, options.tag, options.allowUnreleased));
	if (only.includes('manifest'))
		report('manifest', checkManifest(pkg, root, process.env.GITHUB_REPOSITORY));
	if (only.includes('links')) report('links', checkLinks(root));

	/** @type {BuildOutputs | Error | undefined} */
	let outputs;
	if (only.includes('dist') || only.includes('contents')) {
		try {
			outputs = await buildOutputs(root);
		} catch (error) {
			outputs = /** @type {Error} */ (error);
		}
	}
	const cannotDerive = (/** @type {Error} */ error) =>
		fail(
			`cannot tell what the build emits: ${error.message}`,
			'The build is tsc -p tsconfig.json, then gulpfile.js (which exports ASSETS); fix the one named.',
		);
	if (only.includes('dist'))
		report(
			'dist',
			outputs instanceof Error
				? cannotDerive(outputs)
				: checkDist(root, /** @type {BuildOutputs} */ (outputs)),
		);

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
						outputs instanceof Error
							? cannotDerive(outputs)
							: checkContents(
									pkg,
									packed.files,
									packed.unpacked,
									/** @type {BuildOutputs} */ (outputs),
								),
					);
				if (only.includes('size')) report('size', checkSize(packed));
				if (only.includes('scan')) report('scan', await checkScan(root, packed.unpacked));
			} finally {
				fs.rmSync(work, { recursive: true, force: true });
			}
		}
	}

	const failed = results.filter(([, r]) => !r.ok).map(([name]) => name);
	const skipped = results.filter(([, r]) => r.skipped).map(([name]) => name);
	const ran = results.length - skipped.length;
	const skippedNote = skipped.length
		? ` (skipped, as they need a tagged release: ${skipped.join(', ')})`
		: '';
	process.stdout.write(
		failed.length
			? `release-check: FAILED (${failed.join(', ')}); ${ran - failed.length} of ${ran} checks passed${skippedNote}\n`
			: `release-check: all ${ran} checks passed for ${pkg.name}@${pkg.version}${skippedNote}\n`,
	);
	process.exitCode = failed.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
	await main();
