/**
 * Records: dates and numbers from fields or expressions are checked, never coerced. JavaScript's
 * Date reads -1 as 2001-01-01 and "42" as 2042; Number() and clamping turned any Batch Size into
 * a valid one. Each refusal names the field and what is wrong, and nothing is sent.
 */
import type { IDataObject } from 'n8n-workflow';

import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const target = {
	resource: 'records',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	groupRef: rl(SEED.groupRef),
	object: rl('contacts'),
};

describe('Record → Trigger Read: Since and Until', () => {
	test.each([
		['the number -1', '={{ -1 }}', /^"Since" must be a date and time .*not the number -1$/],
		['the list [1,2]', '={{ [1, 2] }}', /^"Since" must be a date and time .*not a list$/],
		['the text "42"', '={{ "42" }}', /^"Since" is not an ISO 8601 date and time .*: "42"$/],
		['the text "-1"', '-1', /^"Since" is not an ISO 8601 date and time .*: "-1"$/],
		['the text "1,2"', '1,2', /^"Since" is not an ISO 8601 date and time .*: "1,2"$/],
		['February 30th', '2024-02-30T00:00:00Z', /^"Since" is not a real date and time/],
		['epoch milliseconds', '={{ 1714552200000 }}', /not the number 1714552200000$/],
		['true', '={{ true }}', /not the boolean true$/],
	])('Since as %s is refused, nothing sent', async (_label, since, message) => {
		const result = await run(sim, { ...target, operation: 'triggerRead', readOptions: { since } });
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(/^No request was sent/);
		expect(result.requests).toHaveLength(0);
	});

	test('Until is checked the same way', async () => {
		const result = await run(sim, {
			...target,
			operation: 'triggerRead',
			readOptions: { since: '2024-05-01T00:00:00Z', until: '={{ [2024, 6] }}' },
		});
		expect(result.error?.message).toMatch(/^"Until" must be a date and time .*not a list$/);
		expect(result.requests).toHaveLength(0);
	});

	test.each([
		['a zone offset', '2024-05-01T10:30:00+02:00', '2024-05-01T08:30:00.000Z'],
		['a date alone', '2024-05-01', '2024-05-01T00:00:00.000Z'],
		[
			'a Luxon DateTime',
			'={{ DateTime.fromISO("2024-05-01T08:30:00Z") }}',
			'2024-05-01T08:30:00.000Z',
		],
		[
			'a JavaScript Date',
			'={{ new Date(Date.UTC(2024, 4, 1, 8, 30)) }}',
			'2024-05-01T08:30:00.000Z',
		],
	])('Since as %s is sent as the instant it names', async (_label, since, sent) => {
		const result = await run(sim, { ...target, operation: 'triggerRead', readOptions: { since } });
		expect(result.error).toBeUndefined();
		expect((result.requests[0].body as IDataObject).sinceTimestamp).toBe(sent);
	});
});

describe('Record → Write: Batch Size and Retry Deadline', () => {
	const items = [
		{ email: 'a@example.com' },
		{ email: 'b@example.com' },
		{ email: 'c@example.com' },
	];

	test.each([
		['text', '={{ "AAAA" }}', 'not the text "AAAA"'],
		['NaN', '={{ 0/0 }}', 'not the number NaN'],
		['0', 0, 'not 0'],
		['101', 101, 'not 101'],
		['2.5', 2.5, 'not the number 2.5'],
		['empty text', '={{ "" }}', 'not the text ""'],
		['a list', '={{ [5] }}', 'not a list'],
	])('Batch Size as %s is refused for every item, nothing sent', async (_label, batchSize, why) => {
		const result = await run(
			sim,
			{ ...target, operation: 'write', writeType: 'create', writeOptions: { batchSize } },
			{ items },
		);
		expect(result.error?.message).toBe(`"Batch Size" must be a whole number from 1 to 100, ${why}`);
		expect(result.error?.description).toMatch(/^No request was sent for this item/);
		expect(result.requests).toHaveLength(0);
	});

	test('Batch Size "2" from an expression over text data cuts 3 records into batches of 2 and 1', async () => {
		const result = await run(
			sim,
			{
				...target,
				operation: 'write',
				writeType: 'create',
				writeOptions: { batchSize: '={{ "2" }}' },
			},
			{ items },
		);
		expect(result.error).toBeUndefined();
		const writes = result.requests.filter((r) => r.routeId === 'writeRecords');
		expect(
			writes.map((r) => ((r.body as IDataObject).batch as unknown[] | undefined)?.length ?? 1),
		).toEqual([2, 1]);
	});

	test.each([
		['text', '={{ "soon" }}', 'not the text "soon"'],
		['0', 0, 'not 0'],
		['49', 49, 'not 49'],
	])(
		'Retry Deadline (Hours) as %s is refused in asynchronous mode',
		async (_label, deadlineHours, why) => {
			const result = await run(
				sim,
				{
					...target,
					operation: 'write',
					writeType: 'create',
					writeMode: 'asynchronous',
					writeOptions: { deadlineHours },
				},
				{ items: items.slice(0, 1) },
			);
			expect(result.error?.message).toBe(
				`"Retry Deadline (Hours)" must be a whole number from 1 to 48, ${why}`,
			);
			expect(result.requests).toHaveLength(0);
		},
	);

	test('a valid Retry Deadline (Hours) is sent as the number given', async () => {
		const result = await run(
			sim,
			{
				...target,
				operation: 'write',
				writeType: 'create',
				writeMode: 'asynchronous',
				writeOptions: { deadlineHours: '={{ "5" }}' },
			},
			{ items: items.slice(0, 1) },
		);
		expect(result.error).toBeUndefined();
		expect((result.requests[0].body as IDataObject).retryPolicy).toEqual({ deadlineHours: 5 });
	});
});
