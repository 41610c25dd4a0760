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
 *   dist       dist/ holds exactly what the build emits (release/dist.mjs, buildOutputs), each file current
 *   contents   the tarball holds what the build emits (nothing forbidden: no source maps, build
 *              cache or copy of package.json), the top-level documents and the entry file, and
 *              nothing else; every file the `n8n` section names, a codex file next to each node,
 *              every icon the code points at
 *   size       packed and unpacked size, file count and largest file under the limits (release/tarball.mjs)
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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildOutputs, checkDist } from './release/dist.mjs';
import { checkChangelog, checkLinks, checkManifest, checkTag } from './release/metadata.mjs';
import { fail } from './release/results.mjs';
import { checkContents, checkScan, checkSize, pack } from './release/tarball.mjs';

export { buildOutputs };

/** @typedef {import('./release/results.mjs').Result} Result */
/** @typedef {import('./release/dist.mjs').BuildOutputs} BuildOutputs */

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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
