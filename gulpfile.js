// Copies what tsc does not emit into dist/, keeping paths: every icon (svg, png) from icons/,
// nodes/ and credentials/ (nodes reference theirs relative to the compiled files), and the action
// node's output schemas, which n8n looks for in the __schema__ folder next to the compiled node
// file (docs/architecture.md, "Output schemas"; tsconfig.json leaves them out of tsc's program).
const { parallel, src, dest } = require('gulp');

function buildIcons() {
	return src(['icons/**/*.{png,svg}', 'nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

function buildSchemas() {
	return src('nodes/**/__schema__/**/*.json', { base: '.' }).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
exports['build:schemas'] = buildSchemas;
exports['build:assets'] = parallel(buildIcons, buildSchemas);
