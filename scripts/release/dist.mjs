// @ts-check
/**
 * The dist check: dist/ holds exactly what the build emits, each file current
 * (scripts/release-check.mjs describes it).
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

import { fail, pass } from './results.mjs';

/** @typedef {import('./results.mjs').Result} Result */

// ---------------------------------------------------------------------------------------------
// dist (before packing: the build is complete and current)

/**
 * @typedef {{ files: Map<string, string>, tsc: number, assets: number }} BuildOutputs
 *   files: what `npm run build` puts into dist/ (path from the package root) → the source it comes
 *   from; tsc and assets: how many of them each step emits
 */

/** @param {string} root @param {string} file */
export const relative = (root, file) => path.relative(root, file).split(path.sep).join('/');

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
export const some = (list) =>
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
