// @ts-check
/**
 * The checks of what the package says about itself: changelog, tag, manifest and links
 * (scripts/release-check.mjs describes each).
 */
import fs from 'node:fs';
import path from 'node:path';

import { linkProblems } from '../generate-links.mjs';
import { escapeRegExp, fail, pass, skip } from './results.mjs';

/** @typedef {import('./results.mjs').Result} Result */

// ---------------------------------------------------------------------------------------------
// changelog

/**
 * The body of each `## ` section of a changelog, keyed by its heading text.
 * @param {string} text
 */
export function changelogSections(text) {
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
export function sourceEntryPoints(root) {
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
