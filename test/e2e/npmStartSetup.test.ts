/**
 * `npm start`'s set-up (scripts/start.js) in a real n8n: the credentials and every example
 * workflow, imported by importMissing (test/harness/n8n/bootstrap.js), keyed by name. Stopped
 * half-way (twice) and started again, it leaves exactly one copy of each, and the workflows use
 * the one credential of their type. Names carry a tag of this run: the other e2e files create
 * workflows named after the examples in the same n8n.
 */
import { n8nClient, type N8nClient } from '../harness/e2eContext';

interface Credential {
	type: string;
	name: string;
	data: Record<string, unknown>;
}
interface Imported {
	credentials: Record<string, { id: string; name: string }>;
	created: { credentials: number; workflows: number };
}
interface Workflow {
	id: string;
	name: string;
	nodes: Array<{ credentials?: Record<string, { id: string }> }>;
}
type Client = N8nClient & {
	listCredentials(): Promise<Array<{ id: string; name: string; type: string }>>;
	listWorkflows(): Promise<Workflow[]>;
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { importMissing, readExamples } = require('../harness/n8n/bootstrap') as {
	readExamples(): Array<{ name: string; nodes: unknown[] }>;
	importMissing(
		client: Client,
		wanted: {
			credentials: Credential[];
			workflows: unknown[];
			onCreated?: (kind: 'credential' | 'workflow', name: string) => void;
		},
	): Promise<Imported>;
};

// One request per example and run: more than jest's default 5 s on a busy machine.
jest.setTimeout(120_000);

const tag = `[npm start ${Date.now().toString(36)}]`;
const credentials: Credential[] = [
	{
		type: 'integrationPlatformApi',
		name: `${tag} Integration Platform (simulator)`,
		data: { apiKey: 'not-used', baseUrl: 'http://127.0.0.1:9', readUrl: 'http://127.0.0.1:9' },
	},
	{
		type: 'integrationPlatformTokenApi',
		name: `${tag} Integration Platform token (simulator)`,
		data: { accessToken: 'not-used', baseUrl: 'http://127.0.0.1:9' },
	},
];
const workflows = readExamples().map((w) => ({ ...w, name: `${tag} ${w.name}` }));

/** Like Ctrl-C: the set-up stops after `count` creations. */
function interruptAfter(count: number) {
	let created = 0;
	return () => {
		if (++created === count) throw new Error('interrupted');
	};
}

test('stopped half-way and run again, the set-up leaves one copy of each credential and example', async () => {
	const n8n = n8nClient() as Client;
	const started = Date.now();
	const setUp = (onCreated?: () => void) =>
		importMissing(n8n, { credentials, workflows, onCreated });

	// Stopped after the first credential, then after four example workflows.
	await expect(setUp(interruptAfter(1))).rejects.toThrow('interrupted');
	await expect(setUp(interruptAfter(5))).rejects.toThrow('interrupted');
	const third = await setUp();
	const fourth = await setUp();

	expect(third.created).toEqual({ credentials: 0, workflows: workflows.length - 4 });
	expect(fourth.created).toEqual({ credentials: 0, workflows: 0 });
	expect(fourth.credentials).toEqual(third.credentials);

	const stored = (await n8n.listCredentials()).filter((c) => c.name.startsWith(tag));
	expect(stored.map((c) => c.name).sort()).toEqual(credentials.map((c) => c.name).sort());
	const ours = (await n8n.listWorkflows()).filter((w) => w.name.startsWith(tag));
	expect(ours.map((w) => w.name).sort()).toEqual(workflows.map((w) => w.name).sort());
	// Created in the second or third run, every workflow uses the credentials the first two made.
	const ids = new Set(Object.values(third.credentials).map((c) => c.id));
	const refs = ours.flatMap((w) => w.nodes.flatMap((n) => Object.values(n.credentials ?? {})));
	expect(refs.length).toBeGreaterThan(0);
	for (const ref of refs) expect(ids).toContain(ref.id);
	process.stderr.write(
		`[e2e] npm start set-up: ${credentials.length} credentials, ${workflows.length} examples, 4 runs (2 interrupted) in ${Date.now() - started} ms\n`,
	);
});
