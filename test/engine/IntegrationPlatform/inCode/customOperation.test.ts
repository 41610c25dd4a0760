/**
 * One engine: n8n's routing runs every operation it can express; only Record → Write and
 * Provider API → Send Request are written in code (n8n's customOperations), and before they send
 * anything they apply what n8n's routing applies to a routed request (inCode/customOperation.ts):
 * the credential kind the service accepts and the credential's Allowed HTTP Request Domains, with
 * Continue On Fail giving each input item its own paired error.
 *
 * The domain restriction is checked for every operation, in a workflow (n8n runs customOperations
 * there) and as n8n runs an AI tool call (routing only: the node without customOperations).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { credentialsFor, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { runNode } from '../../../harness/engine';
import { allOperations } from '../../../harness/operationTable';
import { IntegrationPlatform } from '../../../../nodes/IntegrationPlatform/IntegrationPlatform.node';

jest.setTimeout(120_000);

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());

/** The node as n8n runs it for an AI tool call: routing only. */
function asToolNode(): IntegrationPlatform {
	const node = new IntegrationPlatform();
	node.customOperations = {};
	return node;
}

const RESTRICTED = { allowedHttpRequestDomains: 'domains', allowedDomains: 'other.example' };

test('customOperations hold only Record → Write and Provider API → Send Request', () => {
	const { customOperations } = new IntegrationPlatform();
	const inCode = Object.entries(customOperations).flatMap(([resource, operations]) =>
		Object.keys(operations).map((operation) => `${resource}.${operation}`),
	);
	expect(inCode.sort()).toEqual(['providerApi.sendRequest', 'records.write']);
	// Everything else is routed: each option carries n8n routing.
	const routedWithoutRouting = allOperations()
		.filter((op) => !inCode.includes(op.key))
		.filter((op) => {
			const selector = new IntegrationPlatform().description.properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(op.resource),
			);
			const option = (selector?.options as Array<{ value: string; routing?: unknown }>).find(
				(o) => o.value === op.operation,
			);
			return !option?.routing;
		});
	expect(routedWithoutRouting.map((op) => op.key)).toEqual([]);
});

const cases = allOperations().map((op) => [op.label, op.key, op.variants[0].parameters] as const);

describe.each(cases)('%s', (_label, key, parameters) => {
	const restrictedRun = async (nodeType?: IntegrationPlatform, items?: IDataObject[]) => {
		sim.reset();
		sim.journal.clear();
		const run = await runNode({
			parameters: parameters as INodeParameters,
			credentials: credentialsFor(sim, RESTRICTED) as never,
			items,
			...(nodeType ? { nodeType } : {}),
		});
		return { run, sent: [...sim.journal.entries].map((e) => `${e.method} ${e.pathname}`) };
	};

	test.each([
		['in a workflow', () => undefined],
		['as an AI tool (routing only)', asToolNode],
	])(
		'with the credential restricted to another domain, refused %s before anything is sent',
		async (_where, nodeType) => {
			const { run, sent } = await restrictedRun(nodeType());
			expect(sent).toEqual([]);
			expect(run.error?.message).toMatch(/Domain not allowed|needs an Integration Platform/);
			// A credential its service refuses is refused first (its own error); every other
			// operation names the domain rule.
			if (!/needs an Integration Platform/.test(run.error?.message ?? '')) {
				expect(run.error?.message).toContain('other.example');
			}
		},
	);

	test('the same credential unrestricted sends the request (the refusal is the restriction)', async () => {
		sim.reset();
		sim.journal.clear();
		await runNode({
			parameters: parameters as INodeParameters,
			credentials: credentialsFor(sim, { allowedHttpRequestDomains: 'all' }) as never,
		});
		expect(sim.journal.entries.length).toBeGreaterThan(0);
	});

	if (key === 'records.write' || key === 'providerApi.sendRequest') {
		test('with Continue On Fail each item gets its own refusal, paired, and nothing is sent', async () => {
			sim.reset();
			sim.journal.clear();
			const run = await runNode({
				parameters: parameters as INodeParameters,
				credentials: credentialsFor(sim, RESTRICTED) as never,
				items: [{ n: 1 }, { n: 2 }],
				continueOnFail: true,
			});
			expect(sim.journal.entries).toEqual([]);
			expect(run.error).toBeUndefined();
			expect(run.items.map((item) => [item.pairedItem, item.error?.message])).toEqual([
				[{ item: 0 }, expect.stringContaining('Domain not allowed')],
				[{ item: 1 }, expect.stringContaining('Domain not allowed')],
			]);
		});

		test('with the Token credential and Continue On Fail each item says so, paired; nothing is sent', async () => {
			sim.reset();
			sim.journal.clear();
			const run = await runNode({
				parameters: { ...(parameters as INodeParameters), authentication: 'bearerToken' },
				credentials: credentialsFor(sim) as never,
				items: [{ n: 1 }, { n: 2 }],
				continueOnFail: true,
			});
			expect(sim.journal.entries).toEqual([]);
			expect(run.error).toBeUndefined();
			expect(run.items.map((item) => [item.pairedItem, item.error?.message])).toEqual([
				[{ item: 0 }, expect.stringContaining('needs an Integration Platform API credential')],
				[{ item: 1 }, expect.stringContaining('needs an Integration Platform API credential')],
			]);
		});
	}
});

describe('lookups made in an operation’s own steps', () => {
	test('Revision → Get Hydrated without a revision: the latest-revision lookup is refused too', async () => {
		const op = allOperations().find((candidate) => candidate.key === 'revision.getHydrated')!;
		for (const nodeType of [undefined, asToolNode()]) {
			sim.reset();
			sim.journal.clear();
			const run = await runNode({
				parameters: { ...(op.variants[0].parameters as INodeParameters), revision: '' },
				credentials: credentialsFor(sim, RESTRICTED) as never,
				...(nodeType ? { nodeType } : {}),
			});
			expect(sim.journal.entries).toEqual([]);
			expect(run.error?.message).toContain('Domain not allowed');
		}
	});
});
