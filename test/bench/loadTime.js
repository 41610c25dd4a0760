// @ts-check
'use strict';
/**
 * P4: cold load time of the package's nodes and credentials, as n8n's loader does it (one
 * require per file listed in package.json#n8n, in a fresh Node 24 process). Prints JSON ms.
 * Usage: node loadTime.js <unpacked package dir> <n8n node_modules dir>
 */
const path = require('node:path');
const Module = require('node:module');

const [dir, n8nModules] = process.argv.slice(2);
// n8n resolves n8n-workflow from its own node_modules (NODE_PATH), as for installed packages.
process.env.NODE_PATH = n8nModules;
// @ts-expect-error private but stable: re-read NODE_PATH
Module._initPaths();
require('n8n-workflow'); // loaded by n8n before any package; not part of the package's cost
const manifest = require(path.join(dir, 'package.json'));
const files = [...manifest.n8n.credentials, ...manifest.n8n.nodes];
const started = process.hrtime.bigint();
for (const file of files) {
	const exported = require(path.join(dir, file));
	const name = path.basename(file).split('.')[0];
	const instance = new exported[name]();
	if (!instance.description && !instance.properties) throw new Error(`${file}: nothing loaded`);
}
process.stdout.write(
	JSON.stringify({ ms: Number(process.hrtime.bigint() - started) / 1e6, files: files.length }),
);
