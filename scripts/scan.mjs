#!/usr/bin/env node
// @ts-check
/**
 * `npm run scan`: the lint legs of n8n's verification scan (`@n8n/scan-community-package`), run
 * with the scanner's own code and rules on what it would check once the package is published:
 * the source (package.json, nodes/ and credentials/) and the packed tarball (every .js and the
 * package.json, built from dist/). Inline eslint-disable comments count for nothing there, as in
 * the real scan. The scan's other two steps need a published version and are not reproducible
 * here: the npm provenance check and the download of the attested GitHub commit.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Built = every file package.json's n8n section names is in dist/ (no package.json is copied there).
const { nodes = [], credentials = [] } =
	JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).n8n ?? {};
if (![...nodes, ...credentials].every((entry) => fs.existsSync(path.join(ROOT, entry)))) {
	execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-'));
try {
	const tgz = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
		cwd: ROOT,
		encoding: 'utf8',
	})
		.trim()
		.split('\n')
		.pop();
	const unpacked = path.join(work, 'package');
	execFileSync('tar', ['-xzf', path.join(work, tgz ?? ''), '-C', work]);

	const legs = [
		[
			'source (package.json, nodes/, credentials/)',
			await analyzePackage(ROOT, SOURCE_FILE_PATTERNS),
		],
		[
			'tarball (every .js, package.json)',
			await analyzePackage(unpacked, ['**/*.js', 'package.json']),
		],
	];
	let failed = false;
	for (const [what, result] of legs) {
		// The scanner passes a leg that matched no files; here that means a broken layout.
		const passed = result.passed && result.message === undefined;
		process.stdout.write(`scan ${what}: ${passed ? 'passed' : `FAILED: ${result.message}`}\n`);
		if (result.details) process.stdout.write(`${result.details}\n`);
		failed ||= !passed;
	}
	process.exitCode = failed ? 1 : 0;
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
