#!/usr/bin/env node
// @ts-check
/**
 * `npm run test:busy`: runs a test command while every core of this machine is kept busy, as on a
 * laptop with a browser and an editor open or a CI runner shared with other jobs. A test that
 * passes only on an idle machine fails here (docs/testing.md, "A busy machine").
 *
 *   npm run test:busy                      the whole suite (scripts/test.mjs)
 *   npm run test:busy -- <command> [args]  any other command, e.g. `npx jest --selectProjects engine`
 *
 * One CPU burner per core (a Node process spinning at normal priority, which is what other work
 * on a laptop looks like to the scheduler; BUSY_BURNERS sets another count) starts first and stops
 * when the command ends, on Ctrl-C or SIGTERM, and, through test/harness/ownedProcess.js, even
 * when this process is killed outright. Exits with the command's code.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { followParent, killGroup, spawnOwned } = require('../test/harness/ownedProcess.js');

const burners = Number(process.env.BUSY_BURNERS ?? os.availableParallelism());
const [command, ...args] =
	process.argv.length > 2
		? process.argv.slice(2)
		: [process.execPath, path.join(ROOT, 'scripts', 'test.mjs')];

// Each burner spins in slices so that it notices its stdin closing (another way it ends).
const SPIN =
	'process.stdin.on("close",()=>process.exit(0));process.stdin.resume();(function spin(){const end=Date.now()+50;while(Date.now()<end);setImmediate(spin);})();';
const running = Array.from({ length: burners }, () =>
	spawnOwned(process.execPath, ['-e', SPIN], { stdio: ['pipe', 'ignore', 'inherit'] }),
);
process.stdout.write(
	`▸ test:busy: ${burners} CPU burner(s) on ${os.availableParallelism()} core(s) while running: ${[command, ...args].map((a) => (a === process.execPath ? 'node' : path.relative(ROOT, a) || a)).join(' ')}\n`,
);

const started = Date.now();
const child = spawnOwned(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });

function stopBurners() {
	for (const burner of running) killGroup(burner, 'SIGKILL');
}

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
	process.on(signal, () => {
		killGroup(child, signal);
		stopBurners();
	});
}
followParent();

child.on('error', (error) => {
	process.stderr.write(`test:busy: ${error.message}\n`);
	stopBurners();
	process.exitCode = 1;
});
child.on('exit', (code, signal) => {
	stopBurners();
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	process.stdout.write(
		`▸ test:busy: ${code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s under ${burners} CPU burner(s)\n`,
	);
	process.exitCode = code ?? 1;
});
