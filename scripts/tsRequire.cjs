// @ts-check
'use strict';
/**
 * Lets plain Node require this repository's TypeScript sources (transpiled, not type-checked):
 * the output-schema generator reads the nodes' descriptions with it, the benchmarks that run
 * without n8n load the test harness with it.
 */
const fs = require('node:fs');

/** Node's loader step for `.ts` files. @param {any} module @param {string} filename */
function loadTypeScript(module, filename) {
	const ts = require('typescript');
	const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
		compilerOptions: {
			module: ts.ModuleKind.CommonJS,
			target: ts.ScriptTarget.ES2022,
			esModuleInterop: true,
		},
		fileName: filename,
	});
	module._compile(outputText, filename);
}

/** From now on, `require` loads `.ts` files in this process. */
function registerTypeScript() {
	require.extensions['.ts'] = loadTypeScript;
}

/** Requires one TypeScript file (and what it imports), leaving `require` as it was afterwards. */
function requireTypeScript(/** @type {string} */ file) {
	const previous = require.extensions['.ts'];
	require.extensions['.ts'] = loadTypeScript;
	try {
		return require(file);
	} finally {
		require.extensions['.ts'] = previous;
	}
}

module.exports = { registerTypeScript, requireTypeScript };
