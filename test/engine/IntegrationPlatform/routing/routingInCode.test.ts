/**
 * In a workflow every routed operation runs its routing in code (routing/routingInCode.ts); as an
 * AI tool n8n still runs the same routing through its declarative engine (RoutingNode). Both must
 * send the same requests and give the same items and errors. Each operation's variants run both
 * ways against a freshly reset simulator: once with the node as a workflow runs it, once with the
 * node's customOperations removed, which is how n8n runs a tool call (operations written in code
 * then run through routing's request hook, customAsRouting.ts).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	credentialsFor,
	SEED,
	startSimulator,
	type JournalEntry,
	type Simulator,
} from '../../../harness/actionEngine';
import { runNode, type NodeRun } from '../../../harness/engine';
import { allOperations, type OperationSpec } from '../../../harness/operationTable';
import { IntegrationPlatform } from '../../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { RESOURCES } from '../../../../nodes/IntegrationPlatform/resources';

jest.setTimeout(120_000);

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());

/** The node as n8n runs it for a tool call: routing only. */
function routedNode(): IntegrationPlatform {
	const node = new IntegrationPlatform();
	node.customOperations = {};
	return node;
}

/** Values the simulator makes up on each run (IDs, times, request IDs), replaced by their kind. */
function normalized(value: unknown): unknown {
	return JSON.parse(
		JSON.stringify(value ?? null)
			.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
			.replace(/[0-9a-f]{16,}/g, '<hex>')
			.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
			.replace(/127\.0\.0\.1:\d+/g, '<host>'),
	);
}

interface Seen {
	requests: unknown[];
	items: unknown[];
	errorPairs: unknown[];
	error?: unknown;
}

function seen(run: NodeRun, requests: JournalEntry[]): Seen {
	return {
		requests: requests.map((r) =>
			normalized({
				host: r.host,
				method: r.method,
				path: r.pathname,
				query: r.query,
				body: r.body,
				status: r.status,
				accept: r.headers.accept,
				contentType: r.headers['content-type'],
				apiKey: r.headers['x-api-key'] !== undefined,
				bearer: r.headers.authorization !== undefined,
			}),
		),
		// n8n's engine leaves an error item of a list operation unpaired (it pairs items itself
		// only when each input gave one output); in code it is paired with its input: compared
		// apart, in the test.
		items: run.items.map((item: INodeExecutionData) =>
			normalized({
				json: item.json,
				...(item.error
					? { error: { message: item.error.message, description: item.error.description } }
					: { pairedItem: item.pairedItem }),
			}),
		),
		errorPairs: run.items.filter((item) => item.error).map((item) => item.pairedItem),
		error:
			run.error &&
			normalized({
				message: run.error.message,
				description: run.error.description,
				httpCode: run.error.httpCode,
				itemIndex: run.error.context?.itemIndex,
			}),
	};
}

async function bothWays(
	parameters: IDataObject,
	options: { items?: IDataObject[]; continueOnFail?: boolean; fault?: IDataObject } = {},
): Promise<{ inCode: Seen; routed: Seen }> {
	const once = async (nodeType?: IntegrationPlatform) => {
		sim.reset();
		if (options.fault) sim.faults.add(options.fault);
		sim.journal.clear();
		const run = await runNode({
			parameters: parameters as never,
			credentials: credentialsFor(sim) as never,
			items: options.items,
			continueOnFail: options.continueOnFail,
			...(nodeType ? { nodeType } : {}),
		});
		return seen(run, [...sim.journal.entries]);
	};
	return { inCode: await once(), routed: await once(routedNode()) };
}

/** The routed operations (those written in code, such as Records → Write, have their own tests). */
const OPERATIONS = allOperations().filter(
	(op) =>
		!RESOURCES.find((r) => r.value === op.resource)?.customRequests.some(
			(c) => c.value === op.operation,
		),
);

test('every operation has a workflow path (its own code, or its routing in code)', () => {
	const node = new IntegrationPlatform();
	const all = allOperations();
	const missing = all.filter((op) => !node.customOperations[op.resource]?.[op.operation]);
	expect(missing.map((op) => op.key)).toEqual([]);
	expect(OPERATIONS.length).toBeGreaterThan(all.length - 5);
});

test('a workflow run reads the credential once for all items; n8n routing reads it per request', async () => {
	const parameters = {
		resource: 'topic',
		operation: 'getAll',
		project: { __rl: true, mode: 'id', value: SEED.projectId },
		returnAll: true,
	};
	const items = [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }];
	const credentials = credentialsFor(sim) as never;
	const inCode = await runNode({ parameters, credentials, items });
	const routed = await runNode({ parameters, credentials, items, nodeType: routedNode() });
	expect(inCode.items.length).toBe(routed.items.length);
	expect(inCode.credentialReads).toBe(1);
	expect(routed.credentialReads).toBeGreaterThanOrEqual(items.length);
});

const cases = OPERATIONS.flatMap((op: OperationSpec) =>
	op.variants.map((variant) => [`${op.label} (${variant.name})`, op, variant.parameters] as const),
);

describe.each(cases)('%s', (_label, op, parameters) => {
	test('the same requests, items and errors both ways', async () => {
		const { inCode, routed } = await bothWays(parameters);
		expect(inCode).toEqual(routed);
		expect(inCode.requests.length).toBeGreaterThan(0);
	});

	test('two items, the first refused by the service, with Continue On Fail: the same both ways', async () => {
		// Items one after the other (Request Options → Batching), so that the first request is the
		// first item's both ways.
		const batched = {
			...parameters,
			requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 40 } } },
		};
		const { inCode, routed } = await bothWays(batched, {
			items: [{ item: 1 }, { item: 2 }],
			continueOnFail: true,
			fault: {
				route: op.routeId,
				status: 400,
				body: { title: 'Bad Request', status: 400, detail: 'Refused on purpose' },
				times: 1,
			},
		});
		const { errorPairs, ...rest } = inCode;
		expect(rest).toEqual({ ...routed, errorPairs: undefined });
		expect(JSON.stringify(inCode.items)).toContain('Refused on purpose');
		// Item 1 may fail as well (a second create of the same name): each error is its own item's.
		expect(errorPairs).toEqual([{ item: 0 }, { item: 1 }].slice(0, errorPairs.length));
	});
});
