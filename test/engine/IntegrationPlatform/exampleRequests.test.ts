/**
 * Every example workflow of examples/ sends only requests the real API accepts: each workflow's
 * Integration Platform node (the action node, its AI-tool variant in the MCP example, the log
 * trigger and the event trigger) runs in-process against the simulator, on the seeded world, and
 * every request is checked against the request contract (test/openapi/requestContract.ts;
 * docs/testing.md, "Default and example requests"). The e2e suites run the same examples in a real
 * n8n for their outputs; this file is about what they send, and runs without a server.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { run, SEED, startSimulator, type Simulator } from '../../harness/actionEngine';
import { TriggerHarness } from '../../harness/eventTriggerEngine';
import { runner } from '../../harness/logTriggerEngine';
import { RequestContract } from '../../openapi/requestContract';

const contract = RequestContract.load();
const FOLDER = path.join(__dirname, '..', '..', '..', 'examples');
const PACKAGE = 'n8n-nodes-integration-platform.';

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion?: number;
	parameters: IDataObject;
}

/** What the model would answer for each `$fromAI` key of the MCP example's tools. */
const FROM_AI: Record<string, unknown> = {
	project: SEED.projectName,
	limit: 20,
	connection_id: SEED.connectionId,
	operation_id: SEED.operationId,
	integration: SEED.integrationId,
	group_ref: SEED.groupRef,
	installation_id: SEED.installationId,
	object: 'contacts',
	record: '{"email": "agent@acme.example"}',
	field_name: 'email',
	value: SEED.contactEmail,
	path: 'crm/v3/objects/contacts',
};
const FROM_AI_CALL = /^=\{\{\s*\$fromAI\('([^']+)'[\s\S]*\)\s*\}\}$/;

/** Parameters with each `$fromAI(…)` expression replaced by the value a model would give. */
function answered(value: unknown): unknown {
	if (typeof value === 'string') {
		const key = FROM_AI_CALL.exec(value)?.[1];
		if (key === undefined) return value;
		if (!(key in FROM_AI)) throw new Error(`no value for $fromAI('${key}'): add it to FROM_AI`);
		return FROM_AI[key];
	}
	if (Array.isArray(value)) return value.map(answered);
	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, answered(v)]));
	}
	return value;
}

/** The items a Code node of an example returns (its code is the example's own, plain JavaScript). */
function codeItems(node: WorkflowNode): IDataObject[] {
	// eslint-disable-next-line @typescript-eslint/no-implied-eval
	const items = new Function(String(node.parameters.jsCode))() as Array<{ json: IDataObject }>;
	return items.map((item) => item.json);
}

const examples = fs
	.readdirSync(FOLDER)
	.filter((file) => file.endsWith('.json'))
	.sort()
	.map((file) => {
		const workflow = JSON.parse(fs.readFileSync(path.join(FOLDER, file), 'utf8')) as {
			nodes: WorkflowNode[];
		};
		return { file, nodes: workflow.nodes.filter((n) => n.type.startsWith(PACKAGE)), workflow };
	});

let sim: Simulator;
// The event trigger registers its local (http) endpoint as a destination.
beforeAll(async () => (sim = await startSimulator({ httpsWebhooksOnly: false })));
afterAll(async () => await sim.close());

/** Runs one node of the package as its workflow would, on a freshly seeded simulator. */
async function runNodeOf(node: WorkflowNode, workflow: { nodes: WorkflowNode[] }): Promise<void> {
	const kind = node.type.slice(PACKAGE.length);
	const {
		descriptionType: _d,
		toolDescription: _t,
		...parameters
	} = answered(node.parameters) as IDataObject;
	if (kind === 'integrationPlatform' || kind === 'integrationPlatformTool') {
		const code = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.code');
		const result = await run(sim, parameters as INodeParameters, {
			items: code ? codeItems(code) : undefined,
			// The example's node version: defaults differ between versions (records-write-mapped).
			...(node.typeVersion ? { nodeSettings: { typeVersion: node.typeVersion } } : {}),
		});
		if (result.error) throw new Error(`${node.name}: ${result.error.message}`);
		return;
	}
	if (kind === 'integrationPlatformLogTrigger') {
		await runner(sim as never, parameters).poll('manual');
		return;
	}
	if (kind === 'integrationPlatformTrigger') {
		const harness = new TriggerHarness(sim as never, {
			parameters: parameters as INodeParameters,
		});
		await harness.listen();
		try {
			await harness.activate();
			await harness.deactivate();
		} finally {
			await harness.close();
		}
		return;
	}
	throw new Error(`${node.name}: no way to run ${node.type} here; teach runNodeOf`);
}

let requests = 0;
let invalid = 0;
afterAll(() => {
	process.stdout.write(
		`[example requests] ${examples.length} examples, ${requests} requests, ${invalid} invalid\n`,
	);
});

test('every example has a node of the package', () => {
	expect(examples.filter((e) => e.nodes.length === 0).map((e) => e.file)).toEqual([]);
});

describe.each(examples)('examples/$file', ({ nodes, workflow }) => {
	test('sends requests, each one the real API accepts', async () => {
		const violations: string[] = [];
		let sent = 0;
		for (const node of nodes) {
			sim.reset();
			await runNodeOf(node, workflow);
			for (const request of sim.journal.entries) {
				sent++;
				const verdict = contract.check(request as never);
				if (verdict.violations.length > 0) {
					violations.push(
						`${node.name}: ${request.method} ${request.pathname}: ${verdict.violations.join('; ')}`,
					);
				}
			}
		}
		requests += sent;
		invalid += violations.length;
		expect(violations).toEqual([]);
		expect(sent).toBeGreaterThan(0);
	});
});
