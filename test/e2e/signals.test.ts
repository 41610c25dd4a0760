/**
 * Everything a command starts, it stops: SIGTERM (what `timeout`, CI runners and process managers
 * send) to `npm start`, `npm test`, `npm run bench` and the queue-mode harness, at a point in
 * their start-up or once they are up, must leave no process behind: no n8n, simulator, Redis,
 * PostgreSQL, Chromium or npm install (test/harness/ownedProcess.js is the mechanism).
 *
 * Each case runs the command as a user would, in its own process (the real n8n of the pinned
 * version, so minutes at most), watches every process below it (test/harness/processTree.ts),
 * sends SIGTERM to the command alone when the case's point is reached, and then waits, with a
 * bound that only catches a hang, until the command has exited and every process it started is
 * gone. Nothing is rebuilt: dist/ is current in the e2e layer (E2E_BUILT=1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { watchTree, type ProcessInfo, type TreeWatch } from '../harness/processTree';
import { until } from '../harness/wait';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort, isPortFree } = require('../harness/n8n/launch') as {
	freePort(): Promise<number>;
	isPortFree(port: number): Promise<boolean>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { queuePrerequisites } = require('../harness/n8n/queueServers') as {
	queuePrerequisites(db: string): { missing: Array<{ reason: string }> };
};

jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, '..', '..');
const isN8n = (p: ProcessInfo) => /node_modules\/n8n\/bin\/n8n\b/.test(p.command);

interface Run {
	child: ChildProcess;
	tree: TreeWatch;
	output: () => string;
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(command: string, args: string[], env: Record<string, string> = {}): Run {
	const marker = `SIGNALS_TEST_RUN=${randomUUID()}`;
	const [name, value] = marker.split('=');
	const child = spawn(command, args, {
		cwd: ROOT,
		env: { ...process.env, E2E_BUILT: '1', ...env, [name]: value },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout!.on('data', (d) => (output = (output + d).slice(-20_000)));
	child.stderr!.on('data', (d) => (output = (output + d).slice(-20_000)));
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.on('exit', (code, signal) => resolve({ code, signal })),
	);
	return { child, tree: watchTree(child.pid!, marker), output: () => output, exited };
}

/**
 * Sends SIGTERM to the command alone, then waits until it exited and nothing it started runs.
 * Returns what it started (for the case's own checks) and the exit.
 */
async function terminate(run: Run) {
	run.child.kill('SIGTERM');
	let timer: NodeJS.Timeout | undefined;
	const exit = await Promise.race([
		run.exited,
		new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 120_000))),
	]);
	clearTimeout(timer);
	if (!exit) {
		run.child.kill('SIGKILL');
		throw new Error(`the command did not exit within 120 s of SIGTERM:\n${run.output()}`);
	}
	// The watchdog gives each group 10 s after its first signal, n8n 20 s to stop: 90 s catches a hang.
	let survivors: ProcessInfo[] = [];
	try {
		await until(
			'every process the command started to end',
			() => {
				survivors = run.tree.survivors();
				return survivors.length === 0;
			},
			90_000,
			250,
		);
	} catch {
		// reported below, with what survived
	}
	run.tree.stop();
	const seen = run.tree.seen();
	for (const p of survivors) {
		try {
			process.kill(p.pid, 'SIGKILL'); // do not leave them to the rest of the run
		} catch {
			// gone meanwhile
		}
	}
	expect(survivors.map((p) => `${p.pid} ${p.command.slice(0, 160)}`)).toEqual([]);
	return { exit, seen };
}

/** Waits until the command's tree holds a process that `match` accepts. */
async function reach(run: Run, what: string, match: (p: ProcessInfo) => boolean) {
	return await until(
		what,
		async () => {
			if (run.child.exitCode !== null)
				throw new Error(`the command ended before ${what}:\n${run.output()}`);
			return run.tree.seen().find(match);
		},
		300_000,
		100,
	);
}

let startFolder: string;
beforeAll(() => {
	startFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'signals-npm-start-'));
});
afterAll(() => {
	fs.rmSync(startFolder, { recursive: true, force: true });
});

/** SIM_PORT for npm start: it takes that port and the four after it. */
async function fiveFreePorts(): Promise<number> {
	for (let base = 20_000 + Math.floor(Math.random() * 20_000); ; base += 5) {
		const free = await Promise.all([0, 1, 2, 3, 4].map((i) => isPortFree(base + i)));
		if (free.every(Boolean)) return base;
	}
}

async function npmStart() {
	return start('npm', ['start'], {
		N8N_PORT: String(await freePort()),
		SIM_PORT: String(await fiveFreePorts()),
		N8N_START_FOLDER: startFolder,
	});
}

test('npm start, SIGTERM while n8n is starting: n8n, its runtime and the simulator all end', async () => {
	const run = await npmStart();
	await reach(run, 'n8n to be spawned', isN8n);
	const { seen } = await terminate(run);
	expect(seen.some(isN8n)).toBe(true);
	expect(run.output()).not.toMatch(/Ready in/); // stopped mid-start, not after it
});

test('npm start, SIGTERM once it is ready: it stops n8n and the simulator itself and leaves nothing running', async () => {
	const run = await npmStart();
	await until(
		'npm start to be ready',
		() => {
			if (run.child.exitCode !== null) throw new Error(`npm start ended:\n${run.output()}`);
			return /Ready in \d+ s/.test(run.output());
		},
		300_000,
		100,
	);
	const { exit, seen } = await terminate(run);
	// The script stopped n8n and the simulator itself (npm then ends by the signal it passed on).
	expect(run.output()).toContain('Stopped.');
	expect(exit).toEqual({ code: null, signal: 'SIGTERM' });
	expect(seen.some(isN8n)).toBe(true);
});

test('npm run bench, SIGTERM while its n8n is starting: nothing left', async () => {
	const run = start('npm', ['run', 'bench'], { BENCH_ONLY: 'p1', BENCH_ITEMS: '10' });
	await reach(run, "the benchmark's n8n to be spawned", isN8n);
	const { seen } = await terminate(run);
	expect(seen.some(isN8n)).toBe(true);
	expect(run.output()).not.toMatch(/P1 read/); // stopped before it measured anything
});

test("npm test (its e2e layer), SIGTERM while Jest's n8n is starting: Jest and n8n end, the summary says interrupted", async () => {
	const run = start('npm', ['test', '--', '--only=e2e', '--', 'test/e2e/credentials.test.ts']);
	await reach(run, "the e2e layer's n8n to be spawned", isN8n);
	const { exit, seen } = await terminate(run);
	expect(seen.some((p) => /jest/.test(p.command))).toBe(true);
	expect(exit.code).not.toBe(0);
	expect(run.output()).toMatch(/e2e\s+FAILED/);
});

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
const hasChromium = CHROMIUM.some((file) => file && fs.existsSync(file));
const browserRequired = ['CI', 'REQUIRE_QUEUE', 'REQUIRE_BROWSER'].some((name) =>
	['1', 'true'].includes(process.env[name] ?? ''),
);
if (!hasChromium && !browserRequired)
	process.stderr.write('[signals] the Chromium case is skipped: Chromium is not installed\n');

(hasChromium || browserRequired ? test : test.skip)(
	'npm test running a browser check, SIGTERM once Chromium runs: Chromium, Jest and n8n end',
	async () => {
		const run = start('npm', ['test', '--', '--only=e2e', '--', 'test/e2e/nodesPanel.test.ts']);
		await reach(run, 'Chromium to be launched', (p) => /chrom/i.test(p.command.split(' ')[0]));
		const { seen } = await terminate(run);
		expect(seen.some(isN8n)).toBe(true);
		expect(run.output()).toMatch(/e2e\s+FAILED/); // interrupted, not finished
	},
);

const queue = queuePrerequisites('postgres');
const queueRequired = ['CI', 'REQUIRE_QUEUE'].some((name) =>
	['1', 'true'].includes(process.env[name] ?? ''),
);
const queueCase = queue.missing.length && !queueRequired ? test.skip : test;
if (queue.missing.length && !queueRequired)
	process.stderr.write(
		`[signals] the queue-mode case is skipped: ${queue.missing.map((m) => m.reason).join(' ')}\n`,
	);

queueCase(
	'the queue-mode harness (npm run test:e2e:queue), SIGTERM once n8n processes run: Redis, PostgreSQL and every n8n end',
	async () => {
		const run = start('npm', [
			'run',
			'test:e2e:queue',
			'--',
			'test/e2e-queue/IntegrationPlatform.test.ts',
		]);
		await reach(run, 'an n8n process of the cluster', isN8n);
		const { seen } = await terminate(run);
		expect(seen.some((p) => /redis-server/.test(p.command))).toBe(true);
		expect(seen.some((p) => /postgres/.test(p.command))).toBe(true);
		expect(run.output()).not.toMatch(/Tests:\s+\d+/); // interrupted before any result
	},
);
