'use strict';

// These tests wait for the simulator's processes, timers and sockets: a deadline only a hang
// reaches (Jest's default of 5 s can be reached by a loaded machine).
jest.setTimeout(60_000);

// cli.js starts both listeners, prints the real URLs and stops cleanly on SIGTERM.

const { spawn } = require('node:child_process');
const path = require('node:path');
const axios = require('axios');
const { SEED } = require('../../simulator');

const CLI = path.join(__dirname, '../../simulator/cli.js');

test('cli.js --port 0 prints the URLs, answers, and exits 0 on SIGTERM', async () => {
	const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet'], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let out = '';
	child.stdout.on('data', (chunk) => {
		out += chunk;
	});
	child.stderr.on('data', (chunk) => {
		out += chunk;
	});
	const exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => resolve({ code, signal })),
	);
	try {
		await new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`cli did not start:\n${out}`)), 30_000);
			child.stdout.on('data', () => {
				if (/Press Ctrl-C/.test(out)) {
					clearTimeout(timer);
					resolve();
				}
			});
		});
		const apiUrl = /api:\s+(http:\/\/\S+)/.exec(out)[1];
		const readUrl = /read:\s+(http:\/\/\S+)/.exec(out)[1];
		expect(out).toContain(SEED.apiKey);
		expect(out).toContain(SEED.bearerToken);
		expect(apiUrl).not.toBe(readUrl);
		const projects = await axios.get(`${apiUrl}/v1/projects`, {
			headers: { 'X-Api-Key': SEED.apiKey },
		});
		expect(projects.data[0].name).toBe(SEED.projectName);
		const unpause = await axios.post(
			`${readUrl}/v1/projects/${SEED.projectName}/integrations/${SEED.integrationId}/installations/${SEED.installationId}:unpause`,
			undefined,
			{ headers: { 'X-Api-Key': SEED.apiKey } },
		);
		expect(unpause.status).toBe(204);
	} finally {
		child.kill('SIGTERM');
	}
	expect(await exited).toEqual({ code: 0, signal: null });
});

test('cli.js rejects unknown arguments', async () => {
	const child = spawn(process.execPath, [CLI, '--bogus'], { stdio: ['ignore', 'pipe', 'pipe'] });
	let err = '';
	child.stderr.on('data', (chunk) => {
		err += chunk;
	});
	const code = await new Promise((resolve) => child.on('exit', resolve));
	expect(code).toBe(1);
	expect(err).toMatch(/Unknown argument --bogus/);
});
