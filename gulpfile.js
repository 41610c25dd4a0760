// Copies what tsc does not emit into dist/, keeping paths: every icon (svg, png) from icons/,
// nodes/ and credentials/ (nodes reference theirs relative to the compiled files), and every node's
// output schemas (the action node's __schema__/v<version>/<resource>/<operation>.json, each
// trigger's __schema__/v<version>.json), which n8n looks for in the __schema__ folder next to the
// compiled node file (docs/architecture.md, "Output schemas"; tsconfig.json leaves them out of
// tsc's program).
//
// ASSETS is also read by scripts/release-check.mjs, which expands the same globs with gulp's own
// src() to know what the build puts into dist/ (and so what the tarball may hold); gulp registers
// only exported functions as tasks.
const { parallel, src, dest } = require('gulp');

const ASSETS = {
	icons: {
		globs: ['icons/**/*.{png,svg}', 'nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'],
		options: { base: '.', encoding: false },
	},
	schemas: {
		globs: ['nodes/**/__schema__/**/*.json'],
		options: { base: '.' },
	},
};

const copy = ({ globs, options }) => src(globs, options).pipe(dest('dist'));
const buildIcons = () => copy(ASSETS.icons);
const buildSchemas = () => copy(ASSETS.schemas);

exports.ASSETS = ASSETS;
exports['build:icons'] = buildIcons;
exports['build:schemas'] = buildSchemas;
exports['build:assets'] = parallel(buildIcons, buildSchemas);
