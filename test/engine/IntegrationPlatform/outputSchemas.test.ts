/**
 * The node's items match the output schemas n8n's editor previews (nodes/IntegrationPlatform/
 * __schema__/, written by scripts/generate-output-schemas.mjs; docs/architecture.md, "Output
 * schemas"). Every operation runs in-process against the simulator, whose answers are checked
 * against the API's documented answers elsewhere (test/unit/simulator/responseContract.test.ts):
 * with every variant of the operation table's valid parameters (test/harness/operationTable.ts)
 * once per node version, and as every example workflow sets it up (examples/, at its own version),
 * and each item it outputs is validated against that version's file for its resource and operation.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import Ajv, { type ValidateFunction } from 'ajv';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { run, SEED, startSimulator, type Simulator } from '../../harness/actionEngine';
import { allOperations } from '../../harness/operationTable';
import { NODE_TYPE, nodeVersions, SCHEMA_DIR, schemaFile } from '../../harness/outputSchemas';
import { withFormats } from '../../openapi/requestContract';

const EXAMPLES = path.join(__dirname, '..', '..', '..', 'examples');
const versions = nodeVersions();

/**
 * Operations no run here gets an item from, and why. Each is still run: one that starts giving
 * items is validated like the others and fails here until it is taken off the list.
 */
const NO_ITEMS: Record<string, string> = {};

/**
 * Runs that fail, by `<operation> <variant>`, and must fail so: a run that fails otherwise, or
 * stops failing, fails here. The other variants of the same operations give items.
 */
const FAILS: Record<string, RegExp> = {
	// The simulator downloads nothing, so a source given as a zip URL is refused.
	'integration.upsertMany source=zipUrl': /Could not download the source zip/,
	'revision.create source=zipUrl': /Could not download the source zip/,
	// The operation table fills none of these types' required settings.
	'destination.create destinationType=pubsub': /is required for pubsub destinations/,
	'destination.create destinationType=rabbitmq': /is required for rabbitmq destinations/,
	'destination.create destinationType=sqs': /is required for sqs destinations/,
	// The simulated provider's contacts endpoint answers only GET (and POST with a body the table
	// does not give); Send Request fails on the provider's error answer.
	'providerApi.sendRequest proxyMethod=DELETE': /The provider answered HTTP 405/,
	'providerApi.sendRequest proxyMethod=PATCH': /The provider answered HTTP 405/,
	'providerApi.sendRequest proxyMethod=PUT': /The provider answered HTTP 405/,
	'providerApi.sendRequest proxyMethod=POST': /The provider answered HTTP 400/,
};

/** Runs that set up what an operation of the table lists, before each of its variants. */
const BEFORE: Record<string, INodeParameters[]> = {
	// A custom field of the object the table lists (a plain group ref: version 1's text and version 2's list take it).
	'customField.getAll': [
		{
			resource: 'customField',
			operation: 'upsert',
			project: { __rl: true, mode: 'id', value: SEED.projectId },
			provider: 'hubspot',
			groupRef: SEED.groupRef,
			definedWith: 'fields',
			objectName: 'companies',
			fieldDefinitions: {
				field: [{ fieldName: 'tier', displayName: 'Tier', valueType: 'string' }],
			},
		},
	],
};

/** Variants of the table a version does not offer (version 2 added Field Mapping). */
const offeredIn = (v: number, variant: string) => !(v === 1 && /recordSource=mapper/.test(variant));

/** The record Update and Delete act on, which the table's parameters cannot name: a seeded contact. */
const RECORD = { id: SEED.contactId, email: SEED.contactEmail };
/** The record Create writes from its input item or its mapped fields. */
const NEW_RECORD = { email: 'schema-preview@acme.example' };
/** Record → Write takes its record from the input item, mapped or as it is: the table gives none. */
function recordFor(variant: { name: string; parameters: INodeParameters }): Partial<Setup> {
	const record = /writeType=(update|delete)/.test(variant.name) ? RECORD : NEW_RECORD;
	return {
		parameters: {
			...variant.parameters,
			recordJson: JSON.stringify(record),
			// Version 3 takes Update's and Delete's record ID in a parameter of its own.
			recordId: '={{ $json.id }}',
			// Map Automatically: the input item's fields, as named in the object's metadata.
			columns: {
				mappingMode: 'autoMapInputData',
				value: {},
				matchingColumns: ['id'],
				schema: [],
			},
		},
		items: [record],
	};
}

const ajv = withFormats(new Ajv({ strict: false, allErrors: true }));
const validators = new Map<string, ValidateFunction>();
function validatorFor(v: number, resource: string, operation: string): ValidateFunction {
	const file = path.join(SCHEMA_DIR, schemaFile(v, resource, operation));
	if (!validators.has(file)) {
		validators.set(file, ajv.compile(JSON.parse(fs.readFileSync(file, 'utf8')) as object));
	}
	return validators.get(file)!;
}

interface Setup {
	source: string;
	/** The node version an example is written for. */
	version?: number;
	/** The run must fail with this message (FAILS). */
	fails?: RegExp;
	/** Runs of the node that set up the world first (their items are not checked here). */
	before?: INodeParameters[];
	parameters: INodeParameters;
	items?: IDataObject[];
}

/**
 * The action nodes of the example workflows (the MCP example's tools are AI-tool variants), each
 * after the action nodes its workflow runs before it (e.g. a custom field created, then listed).
 */
function exampleSetups(): Setup[] {
	const setups: Setup[] = [];
	for (const file of fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'))) {
		const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8')) as {
			nodes: Array<{ name: string; type: string; typeVersion: number; parameters: IDataObject }>;
			connections: Record<string, { main?: Array<Array<{ node: string }>> }>;
		};
		// The items of the example's Code node (plain JavaScript written for the example), if any.
		const code = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.code');
		const items = code
			? // eslint-disable-next-line @typescript-eslint/no-implied-eval
				(new Function(String(code.parameters.jsCode))() as Array<{ json: IDataObject }>).map(
					(item) => item.json,
				)
			: undefined;
		const feeding = (name: string) =>
			Object.entries(workflow.connections)
				.filter(([, { main }]) => (main ?? []).flat().some((c) => c.node === name))
				.map(([from]) => from);
		/** The nodes that run before `name`, the first one first. */
		const upstream = (name: string): string[] =>
			feeding(name).flatMap((from) => [...upstream(from), from]);
		const actions = workflow.nodes.filter((n) => n.type === NODE_TYPE);
		for (const node of actions) {
			const earlier = upstream(node.name);
			setups.push({
				source: `examples/${file}`,
				version: node.typeVersion,
				parameters: node.parameters as INodeParameters,
				items,
				before: actions
					.filter((n) => earlier.includes(n.name))
					.sort((a, b) => earlier.indexOf(a.name) - earlier.indexOf(b.name))
					.map((n) => n.parameters as INodeParameters),
			});
		}
	}
	return setups;
}

const operations = allOperations();
const examples = exampleSetups();

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator({ httpsWebhooksOnly: false })));
afterAll(async () => await sim.close());

const figures = { runs: 0, items: 0, operations: 0 };
afterAll(() => {
	process.stdout.write(
		`[output schemas] ${figures.operations} operation × version pairs with items (versions ${versions.join(', ')}): ${figures.runs} runs, ${figures.items} items checked\n`,
	);
});

describe.each(versions)('node version %s', (v) => {
	describe.each(operations.map((op) => ({ key: op.key, op })))('$key', ({ op }) => {
		test("every item the node outputs matches the operation's schema", async () => {
			const setups: Setup[] = [
				...op.variants
					.filter((variant) => offeredIn(v, variant.name))
					.map((variant) => ({
						source: `operation table, ${variant.name}`,
						fails: FAILS[`${op.key} ${variant.name}`],
						before: BEFORE[op.key],
						parameters: variant.parameters,
						...(op.key === 'records.write' ? recordFor(variant) : {}),
					})),
				// An example runs at the version it is written for: defaults differ between versions.
				...examples.filter(
					(e) =>
						e.version === v &&
						e.parameters.resource === op.resource &&
						e.parameters.operation === op.operation,
				),
			];
			const validate = validatorFor(v, op.resource, op.operation);
			const problems: string[] = [];
			let items = 0;
			for (const setup of setups) {
				sim.reset();
				for (const parameters of setup.before ?? []) {
					const earlier = await run(sim, parameters, { nodeSettings: { typeVersion: v } });
					if (earlier.error) problems.push(`${setup.source}: ${earlier.error.message}`);
				}
				const result = await run(sim, setup.parameters, {
					items: setup.items,
					nodeSettings: { typeVersion: v },
				});
				figures.runs++;
				if (setup.fails) {
					if (!setup.fails.test(result.error?.message ?? '')) {
						problems.push(`${setup.source}: expected to fail with ${setup.fails}`);
					}
					continue;
				}
				if (result.error) {
					problems.push(`${setup.source}: the run failed: ${result.error.message}`);
					continue;
				}
				for (const [index, json] of result.json.entries()) {
					items++;
					if (!validate(json)) {
						problems.push(
							`${setup.source}, item ${index}: ${ajv.errorsText(validate.errors, { separator: '; ' })}`,
						);
					}
				}
			}
			figures.items += items;
			expect(problems).toEqual([]);
			if (op.key in NO_ITEMS) {
				expect(items).toBe(0);
			} else {
				expect(items).toBeGreaterThan(0);
				figures.operations++;
			}
		});
	});
});

test('the seed the runs rely on is there', () => {
	// A guard against a harness that changed under this file: the table's values come from it.
	expect(SEED.projectId).toEqual(expect.any(String));
});
