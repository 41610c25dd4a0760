/**
 * Get Many's Limit and Return All (routing/parameters.ts listLimit), checked rather than
 * coerced: a Limit of NaN or "AAAA" returned no item at all, and the text "false" in Return All
 * counted as true. Every list operation refuses before its first request (defineOperation.ts
 * adds the check to each operation that shows Return All).
 */
import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

const pagedList = {
	resource: 'operation',
	operation: 'getAll',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	installation: rl(SEED.installationId),
};
const wholeList = { resource: 'project', operation: 'getAll' };

const refusals: Array<[string, number | string, string]> = [
	['NaN', '={{ 0/0 }}', '"Limit" must be a whole number of at least 1, not the number NaN'],
	['"AAAA"', '={{ "AAAA" }}', '"Limit" must be a whole number of at least 1, not the text "AAAA"'],
	['0', 0, '"Limit" must be a whole number of at least 1, not 0'],
	['-3', -3, '"Limit" must be a whole number of at least 1, not -3'],
	['2.5', 2.5, '"Limit" must be a whole number of at least 1, not the number 2.5'],
	['a list', '={{ [2] }}', '"Limit" must be a whole number of at least 1, not a list'],
];

describe('Operation → Get Many (paged)', () => {
	test.each(refusals)('Limit %s is refused before any request', async (_label, limit, message) => {
		const result = await run(sim, { ...pagedList, returnAll: false, limit });
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toMatch(/^No request was sent/);
		expect(result.requests).toHaveLength(0);
	});

	test('Limit "1" from an expression over text data returns one item', async () => {
		const result = await run(sim, { ...pagedList, returnAll: false, limit: '={{ "1" }}' });
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(1);
		expect(result.requests[0].query.pageSize).toBe('1');
	});

	test('Return All as the text "false" is refused, not read as true', async () => {
		const result = await run(sim, { ...pagedList, returnAll: '={{ "false" }}', limit: 1 });
		expect(result.error?.message).toBe('"Return All" must be true or false, not the text "false"');
		expect(result.requests).toHaveLength(0);
	});
});

describe('Project → Get Many (the API answers the whole list)', () => {
	test.each(refusals)(
		'Limit %s is refused before any request, not an empty list',
		async (_label, limit, message) => {
			const result = await run(sim, { ...wholeList, returnAll: false, limit });
			expect(result.error?.message).toBe(message);
			expect(result.error?.description).toMatch(/^No request was sent/);
			expect(result.requests).toHaveLength(0);
		},
	);

	test('Return All as the text "false" is refused, not read as true', async () => {
		const result = await run(sim, { ...wholeList, returnAll: '={{ "false" }}', limit: 1 });
		expect(result.error?.message).toBe('"Return All" must be true or false, not the text "false"');
		expect(result.requests).toHaveLength(0);
	});

	test('Limit "1" from an expression over text data returns one item', async () => {
		const result = await run(sim, { ...wholeList, returnAll: false, limit: '={{ "1" }}' });
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(1);
	});
});
