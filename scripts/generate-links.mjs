#!/usr/bin/env node
// @ts-check
/**
 * Every link to this package's repository that users see comes from one value: package.json's
 * `repository.url` (which npm's provenance must match anyway). This script writes the others
 * from it:
 *
 *   package.json                   homepage (<repository>#readme) and bugs.url (<repository>/issues)
 *   README.md                      the clone command (`git clone <repository>.git`, `cd <name>`)
 *                                  and any other link into the repository
 *   nodes/<Node>/<Node>.node.json  the codex's Docs link (primaryDocumentation) and
 *                                  credentialDocumentation
 *   credentials/*.credentials.ts   documentationUrl (a string literal, as n8n's lint wants)
 *   nodes/…/*.ts                   any link into the repository in a node's texts (none today)
 *
 * Every https://github.com/<owner>/<name> link in those files is taken to be this repository's;
 * the part after it (/blob/main/docs/triggers.md, #credentials) is kept. A link into the
 * repository must also resolve there: /blob/main/<path> names a file of this checkout, and
 * <repository>#<anchor> an anchor of README.md (a heading or an `<a id>`).
 *
 *   node scripts/generate-links.mjs                        rewrite the links from package.json
 *   node scripts/generate-links.mjs --repository <owner/name>
 *                                                          set repository.url first, then rewrite
 *   node scripts/generate-links.mjs --check                exit 1 naming each link that disagrees
 *                                                          or does not resolve; writes nothing
 *   --root <dir>                                           another package folder (tests)
 *
 * `npm run release:check` runs the check (its "links" check); test/unit/release.test.ts too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The branch the Docs links read files from (the repository's default branch). */
export const BRANCH = 'main';

/** A GitHub repository link: the repository part, up to .git, a path, an anchor or the end. */
const GITHUB_LINK =
	/https:\/\/github\.com\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+?(?=\.git\b|[/#?)\s'"`]|$)/g;

/**
 * The repository's web address, from package.json's repository.
 * @param {Record<string, any>} pkg @returns {{ web: string, name: string }}
 */
export function repositoryOf(pkg) {
	const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
	const match = /github\.com[/:]([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(
		url ?? '',
	);
	if (!match)
		throw new Error(
			`package.json repository.url ${JSON.stringify(url)} is not a GitHub repository`,
		);
	return { web: `https://github.com/${match[1]}/${match[2]}`, name: match[2] };
}

/** The files whose links are written, relative to the package folder. @param {string} root */
export function linkedFiles(root) {
	/** @param {string} dir @param {RegExp} pattern */
	const find = (dir, pattern) =>
		fs.existsSync(path.join(root, dir))
			? fs
					.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
					.map((f) => `${dir}/${f.split(path.sep).join('/')}`)
					.filter((f) => pattern.test(f))
					.sort()
			: [];
	return [
		'package.json',
		'README.md',
		...find('nodes', /^nodes\/[^/]+\/[^/]+\.node\.json$/),
		...find('credentials', /\.ts$/),
		...find('nodes', /\.ts$/),
	];
}

/**
 * A file's text with its links written from the repository.
 * @param {string} file @param {string} text @param {{ web: string, name: string }} repo
 */
function rewrite(file, text, repo) {
	if (file === 'package.json') {
		const pkg = JSON.parse(text);
		/** @type {Record<string, any>} */
		const out = {};
		for (const [key, value] of Object.entries(pkg)) {
			if (key === 'bugs') continue;
			out[key] = key === 'homepage' ? `${repo.web}#readme` : value;
			if (key === 'repository') out.bugs = { url: `${repo.web}/issues` };
		}
		if (!('homepage' in out)) out.homepage = `${repo.web}#readme`;
		if (!('bugs' in out)) out.bugs = { url: `${repo.web}/issues` };
		// npm writes package.json with two spaces.
		return `${JSON.stringify(out, null, 2)}\n`;
	}
	let result = text.replace(GITHUB_LINK, repo.web);
	if (file === 'README.md')
		result = result.replace(
			/^(git clone \S+\.git\n)cd \S+$/m,
			(_all, clone) => `${clone}cd ${repo.name}`,
		);
	return result;
}

/** GitHub's anchors of README.md: heading slugs and explicit `<a id>`/`<a name>`. @param {string} text */
export function readmeAnchors(text) {
	const anchors = new Set();
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

/** The repository package.json names in `root`. @param {string} root */
function repositoryIn(root) {
	return repositoryOf(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')));
}

/**
 * Each file of `root` that shows links, as it is and as this script writes it.
 * @param {string} root @param {ReturnType<typeof repositoryOf>} repo
 */
function* linkedTexts(root, repo) {
	for (const file of linkedFiles(root)) {
		const abs = path.join(root, file);
		if (!fs.existsSync(abs)) continue;
		const text = fs.readFileSync(abs, 'utf8');
		yield { file, text, expected: rewrite(file, text, repo) };
	}
}

/**
 * What is wrong with the links of a package folder: files whose links differ from what this
 * script writes, and links into the repository that do not resolve in this checkout.
 * @param {string} root @returns {string[]}
 */
export function linkProblems(root) {
	const readme = fs.existsSync(path.join(root, 'README.md'))
		? fs.readFileSync(path.join(root, 'README.md'), 'utf8')
		: '';
	// #readme is GitHub's own anchor for the README shown on the repository's page.
	const anchors = new Set(['readme', ...readmeAnchors(readme)]);
	const problems = [];
	const repo = repositoryIn(root);
	for (const { file, text, expected } of linkedTexts(root, repo)) {
		if (expected !== text) {
			const has = text.split('\n').map((l) => l.trim());
			const wants = expected.split('\n').map((l) => l.trim());
			const wrong = has.filter((l) => !wants.includes(l)).map((l) => `${file}: has ${l}`);
			const lacking = wants.filter((l) => !has.includes(l)).map((l) => `${file}: lacks ${l}`);
			problems.push(...wrong, ...lacking);
		}
		for (const [link] of text.matchAll(/https:\/\/github\.com\/[^\s'"`)<>]+/g)) {
			if (!link.startsWith(repo.web)) continue;
			const rest = link.slice(repo.web.length);
			const blob = new RegExp(`^/blob/${BRANCH}/([^#?]+)$`).exec(rest);
			if (blob && !fs.existsSync(path.join(root, blob[1])))
				problems.push(`${file}: ${link} names ${blob[1]}, which this checkout does not have`);
			const anchor = /^#([^#?]+)$/.exec(rest);
			if (anchor && !anchors.has(anchor[1]))
				problems.push(`${file}: ${link} names #${anchor[1]}, which README.md does not have`);
		}
	}
	return problems;
}

/** Rewrites the links of a package folder; returns the files it changed. @param {string} root */
export function writeLinks(root) {
	const changed = [];
	for (const { file, text, expected } of linkedTexts(root, repositoryIn(root))) {
		if (expected !== text) {
			fs.writeFileSync(path.join(root, file), expected);
			changed.push(file);
		}
	}
	return changed;
}

function main() {
	const args = process.argv.slice(2);
	let root = HERE;
	let check = false;
	/** @type {string | undefined} */
	let repository;
	for (let i = 0; i < args.length; i++) {
		if (args[i] === '--check') check = true;
		else if (args[i] === '--root') root = path.resolve(args[++i] ?? '.');
		else if (args[i] === '--repository') repository = args[++i];
		else {
			process.stderr.write(`generate-links: unknown option ${args[i]}\n`);
			process.exit(2);
		}
	}
	if (repository !== undefined) {
		if (check || !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository)) {
			process.stderr.write('generate-links: --repository <owner/name>, without --check\n');
			process.exit(2);
		}
		const file = path.join(root, 'package.json');
		const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
		pkg.repository = { type: 'git', url: `git+https://github.com/${repository}.git` };
		fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
	}
	if (check) {
		const problems = linkProblems(root);
		if (problems.length) {
			process.stdout.write(
				`generate-links: ${problems.length} link(s) disagree with package.json's repository or do not resolve:\n` +
					problems.map((p) => `  ${p}\n`).join('') +
					'Run node scripts/generate-links.mjs to write them from package.json.\n',
			);
			process.exitCode = 1;
		} else process.stdout.write('generate-links: every link agrees with package.json\n');
		return;
	}
	const changed = writeLinks(root);
	process.stdout.write(
		changed.length
			? `generate-links: wrote ${changed.join(', ')}\n`
			: 'generate-links: nothing to change\n',
	);
	const problems = linkProblems(root);
	if (problems.length) {
		process.stdout.write(problems.map((p) => `  ${p}\n`).join(''));
		process.exitCode = 1;
	}
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
