// @ts-check
'use strict';
/** Lets plain Node require this repository's TypeScript (test harness, node sources) for benchmarks. */
const fs = require('node:fs');
const ts = require('typescript');

require.extensions['.ts'] = (module, filename) => {
	const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
		compilerOptions: {
			module: ts.ModuleKind.CommonJS,
			target: ts.ScriptTarget.ES2022,
			esModuleInterop: true,
		},
		fileName: filename,
	});
	// @ts-expect-error Module#_compile is Node's own loader step
	module._compile(outputText, filename);
};
