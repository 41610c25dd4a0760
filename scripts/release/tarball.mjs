// @ts-check
/**
 * The checks of the packed tarball: contents, size and n8n's scan
 * (scripts/release-check.mjs describes each), and the packing itself.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { some } from './dist.mjs';
import { fail, kB, pass } from './results.mjs';

/** @typedef {import('./results.mjs').Result} Result */
/** @typedef {import('./dist.mjs').BuildOutputs} BuildOutputs */

/**
 * Size limits. At 0.1.0 (2026-06) the tarball was 195 kB packed, 952 kB unpacked, 280 files, the
 * largest file README.md (52 kB), once TypeScript's build cache (280 kB unpacked) is left out; the
 * limits leave room for the package to grow by half or more. Raise them deliberately, with the
 * new figures here. With the action node's output schemas (2026-11: 88 files, 410 kB unpacked per
 * node version, two versions) it is 277 kB packed, 1.83 MB unpacked and 483 files; the limits
 * leave room for half as much again. Without source maps and dist/package.json (2026-11, the
 * triggers' schemas included): 211 kB packed, 1.45 MB unpacked, 395 files.
 */
export const LIMITS = {
	packedBytes: 450_000,
	unpackedBytes: 2_800_000,
	files: 720,
	largestFileBytes: 100_000,
};

// ---------------------------------------------------------------------------------------------
// pack

/**
 * @typedef {{ path: string, size: number }} PackedFile
 * @typedef {{ tarball: string, unpacked: string, size: number, unpackedSize: number, files: PackedFile[] }} Pack
 * @param {string} root @param {string} work @returns {Pack}
 */
export function pack(root, work) {
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
export const FORBIDDEN = [
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
export const DOCUMENTS = [
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
export async function checkScan(root, unpacked) {
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
