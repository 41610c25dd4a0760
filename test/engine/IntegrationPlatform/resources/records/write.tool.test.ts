/**
 * Record → Write as an AI tool, called through n8n-core's own tool invocation (test/harness/
 * toolCall.ts), as the MCP Server Trigger calls it: every try of a call runs under a new run
 * index, and in a single n8n process without an execution ID. A record is still written at most
 * once per call, and the record comes from the tool's arguments ($fromAI), never from an input
 * item the tool does not have.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	credentialsFor,
	rl,
	SEED,
	startSimulator,
	type Simulator,
} from '../../../../harness/actionEngine';
import { toolSession, type ToolOptions } from '../../../../harness/toolCall';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.reset();
	sim.faults.clear();
	sim.journal.clear();
});

/** The MCP example's write_records: the record is the tool argument `record` (JSON). */
const writeTool = {
	resource: 'records',
	operation: 'write',
	writeType: 'create',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	groupRef: rl(SEED.groupRef),
	object: rl('contacts'),
	recordSource: 'json',
	recordJson: "={{ $fromAI('record', 'The new record as a JSON object', 'json') }}",
};
const retryOnFail = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };

const session = (options: Partial<ToolOptions> = {}) =>
	toolSession({
		parameters: writeTool,
		credentials: credentialsFor(sim) as never,
		nodeSettings: retryOnFail,
		...options,
	});

/** Contacts the simulator holds with this email. */
function stored(email: string): number {
	const records = (sim.state.records as Map<string, Map<string, { fields: IDataObject }>>).get(
		`${SEED.installationId}/contacts`,
	);
	return [...(records?.values() ?? [])].filter((record) => record.fields.email === email).length;
}
const writes = () => sim.journal.entries.filter((entry) => entry.routeId === 'writeRecords');

describe('Retry On Fail of one tool call (a new run index per try, no execution ID)', () => {
	test('written, then answered 500: one request, one record, and the answer says it may have been written', async () => {
		sim.faults.add({ route: 'writeRecords', processFirst: true, status: 500, times: 1 });
		const tool = session();
		const answer = await tool.call({ record: { email: 'tool-500@example.com' } });
		expect(tool.tries()).toBe(3);
		expect(writes()).toHaveLength(1);
		expect(stored('tool-500@example.com')).toBe(1);
		expect(answer.text).toBeUndefined();
		expect(answer.error?.message).toMatch(
			/^The record may have been written: the service answered Internal Server Error/,
		);
		expect(answer.error?.message).toContain('This node does not send them again');
	});

	test('written, then the connection reset: one request, one record, "may have been written"', async () => {
		sim.faults.add({ route: 'writeRecords', processFirst: true, reset: true, times: 1 });
		const tool = session();
		const answer = await tool.call({ record: { email: 'tool-reset@example.com' } });
		expect(writes()).toHaveLength(1);
		expect(stored('tool-reset@example.com')).toBe(1);
		expect(answer.error?.message).toMatch(
			/^The record may have been written: the Integration Platform API at .* closed the connection before answering/,
		);
	});

	test('with an execution ID (queue mode runs the tool in an execution) the same holds', async () => {
		sim.faults.add({ route: 'writeRecords', processFirst: true, status: 502, times: 1 });
		const tool = session({ executionId: 'tool-execution-1' });
		const answer = await tool.call({ record: { email: 'tool-502@example.com' } });
		expect(writes()).toHaveLength(1);
		expect(stored('tool-502@example.com')).toBe(1);
		expect(answer.error?.message).toMatch(/^The record may have been written/);
	});

	test('a request refused as a whole (400) is sent again by the next try, and written once', async () => {
		sim.faults.add({ route: 'writeRecords', status: 400, body: 'try later', times: 1 });
		const tool = session();
		const answer = await tool.call({ record: { email: 'tool-400@example.com' } });
		expect(writes().map((entry) => entry.status)).toEqual([400, 200]);
		expect(stored('tool-400@example.com')).toBe(1);
		expect(JSON.parse(answer.text ?? 'null')).toEqual([
			expect.objectContaining({ success: true, recordId: expect.any(String) }),
		]);
	});
});

describe('separate calls are separate writes', () => {
	test('two calls with the same arguments write two records (each call is its own request of the model)', async () => {
		const tool = session();
		const args = { record: { email: 'tool-twice@example.com' } };
		const first = await tool.call(args);
		const second = await tool.call({ ...args });
		expect([first.error, second.error]).toEqual([undefined, undefined]);
		expect(writes()).toHaveLength(2);
		expect(stored('tool-twice@example.com')).toBe(2);
	});
});

describe('the record comes from the tool arguments', () => {
	test('Records From → JSON with $fromAI: the argument is the record sent', async () => {
		const answer = await session().call({
			record: { email: 'tool-json@example.com', firstname: 'Ada' },
		});
		expect(answer.error).toBeUndefined();
		expect(writes().map((entry) => (entry.body as IDataObject).record)).toEqual([
			{ email: 'tool-json@example.com', firstname: 'Ada' },
		]);
	});

	test('Field Mapping with $fromAI in a value: the argument is the field', async () => {
		const answer = await session({
			parameters: {
				...writeTool,
				recordSource: 'mapper',
				columns: {
					mappingMode: 'defineBelow',
					value: { email: "={{ $fromAI('email', 'The contact email', 'string') }}" },
					matchingColumns: [],
					schema: [{ id: 'email', displayName: 'Email', type: 'string', display: true }],
				},
			},
		}).call({ email: 'tool-mapped@example.com' });
		expect(answer.error).toBeUndefined();
		expect(writes().map((entry) => (entry.body as IDataObject).record)).toEqual([
			{ email: 'tool-mapped@example.com' },
		]);
	});

	test('Records From → Each Input Item: refused before sending, naming Records From and what to use instead', async () => {
		const answer = await session({
			parameters: { ...writeTool, recordSource: 'input', recordJson: undefined } as never,
			typeVersion: 1,
		}).call({ email: 'tool-input@example.com' });
		expect(writes()).toEqual([]);
		expect(answer.error?.message).toMatch(/^"Records From" → "Each Input Item" does not work/);
		expect(answer.error?.message).toContain('$fromAI');
		expect(answer.error?.message).toContain('No request was sent');
	});

	test('Field Mapping → Map Automatically: refused the same way', async () => {
		const answer = await session({
			parameters: {
				...writeTool,
				recordSource: 'mapper',
				columns: { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] },
			},
		}).call({ email: 'tool-auto@example.com' });
		expect(writes()).toEqual([]);
		expect(answer.error?.message).toMatch(/^"Fields" → "Map Automatically" does not work/);
		// The other mode by the name n8n's editor gives it.
		expect(answer.error?.message).toContain(
			"Choose Map Each Column Manually and give each field's value with $fromAI()",
		);
	});
});
