import { run, SEED, startSimulator, rl, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());

const base = {
	resource: 'operation',
	operation: 'getLogs',
	project: rl(SEED.projectId),
	operationId: SEED.operationId,
};

describe('Operation → Get Logs', () => {
	test('GET …/operations/{operationId}/logs; one item per entry, oldest first', async () => {
		const result = await run(sim, { ...base, returnAll: true });
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectId}/operations/${SEED.operationId}/logs`,
			query: {},
		});
		expect(result.json).toHaveLength(12);
		for (const entry of result.json) {
			expect(entry).toEqual({
				timestamp: expect.stringMatching(/\.\d{6}Z$/),
				severity: expect.any(String),
				message: expect.objectContaining({ msg: expect.any(String) }),
			});
		}
		const stamps = result.json.map((e) => e.timestamp as string);
		expect(stamps).toEqual([...stamps].sort());
	});

	test('ordering keeps microseconds even when the server answers shuffled', async () => {
		sim.appendLog(SEED.operationId, {
			timestamp: '2031-01-01T00:00:00.000002Z',
			severity: 'INFO',
			message: { msg: 'second' },
		});
		sim.appendLog(SEED.operationId, {
			timestamp: '2031-01-01T00:00:00.000001Z',
			severity: 'INFO',
			message: { msg: 'first' },
		});
		const result = await run(sim, {
			...base,
			returnAll: true,
			logOptions: { order: 'newestFirst' },
		});
		expect(result.json.slice(0, 2).map((e) => (e.message as { msg: string }).msg)).toEqual([
			'second',
			'first',
		]);
	});

	test('severity filter is case-insensitive; limit applies after filtering', async () => {
		const result = await run(sim, {
			...base,
			returnAll: false,
			limit: 2,
			logOptions: { severity: 'error, warning' },
		});
		expect(result.json.length).toBeLessThanOrEqual(2);
		expect(result.json.length).toBeGreaterThan(0);
		for (const entry of result.json)
			expect(['ERROR', 'WARNING']).toContain(String(entry.severity).toUpperCase());
	});
});

describe('Operation → Get, Get Many', () => {
	const project = rl(SEED.projectId);
	const list = {
		resource: 'operation',
		operation: 'getAll',
		project,
		integration: rl(SEED.integrationId),
		installation: rl(SEED.installationId),
	};
	const listPath = `/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/installations/${SEED.installationId}/operations`;
	const operations = () =>
		(sim.state as Record<string, any>).operations as Map<string, Record<string, unknown>>;

	/** `count` more operations of the seeded installation, created after the seeded ones. */
	function addOperations(count: number) {
		for (let i = 0; i < count; i++) {
			const id = `op-${String(i).padStart(5, '0')}`;
			operations().set(id, {
				id,
				projectId: SEED.projectId,
				integrationId: SEED.integrationId,
				installationId: SEED.installationId,
				configId: SEED.configId,
				actionType: 'write',
				status: 'success',
				createTime: `2026-01-01T00:00:00.${String(i).padStart(6, '0')}Z`,
			});
		}
	}

	beforeEach(() => sim.reset());

	test('Get returns the operation; an unknown ID is a 404', async () => {
		const result = await run(sim, {
			resource: 'operation',
			operation: 'get',
			project,
			operationId: SEED.secondOperationId,
		});
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectId}/operations/${SEED.secondOperationId}`,
			status: 200,
		});
		expect(result.json).toEqual([
			expect.objectContaining({ id: SEED.secondOperationId, status: 'in_progress' }),
		]);
		const missing = await run(sim, {
			resource: 'operation',
			operation: 'get',
			project,
			operationId: 'no-such-op',
		});
		expect(missing.requests[0].status).toBe(404);
		expect(String(missing.error?.message) + String(missing.error?.description)).toContain(
			'Operation not found',
		);
	});

	test('Get Many with a Limit asks for that many and stops after one page', async () => {
		addOperations(30);
		const result = await run(sim, { ...list, limit: 5 });
		expect(result.requests).toHaveLength(1);
		expect(result.requests[0]).toMatchObject({
			pathname: listPath,
			query: { pageSize: '5' },
			status: 200,
		});
		expect(result.json.map((o) => o.id)).toEqual([
			SEED.operationId,
			SEED.secondOperationId,
			'op-00000',
			'op-00001',
			'op-00002',
		]);
	});

	test('Return All follows nextPageToken (URL-encoded) in pages of 1000 until done', async () => {
		addOperations(2300);
		const result = await run(sim, { ...list, returnAll: true });
		expect(result.error).toBeUndefined();
		expect(
			result.requests.map((r) => [r.status, r.query.pageSize, r.query.pageToken !== undefined]),
		).toEqual([
			[200, '1000', false],
			[200, '1000', true],
			[200, '1000', true],
		]);
		expect(result.json).toHaveLength(2302);
		expect(new Set(result.json.map((o) => o.id)).size).toBe(2302);
		expect(result.json[2301].id).toBe('op-02299');
	});

	test('a Limit beyond one page asks the next page only for what is missing', async () => {
		addOperations(1500);
		const result = await run(sim, { ...list, limit: 1200 });
		expect(result.requests.map((r) => r.query.pageSize)).toEqual(['1000', '200']);
		expect(result.json).toHaveLength(1200);
	});

	test('a failing later page fails the item with the problem document', async () => {
		addOperations(1100);
		// An ApiProblem as the API answers one (RFC 9457 fields and the API's own).
		const problem = {
			type: 'https://httpstatuses.com/500',
			title: 'Internal Server Error',
			status: 500,
			detail: 'The operations store did not answer',
			instance: `/v1/projects/${SEED.projectId}/operations`,
			subsystem: 'api',
			time: '2026-11-29T01:00:00Z',
			requestId: 'req-second-page',
			remedy: 'Try again in a minute',
			retryable: true,
		};
		sim.faults.add({ route: 'listOperations', skip: 1, status: 500, body: problem, times: 1 });
		const result = await run(sim, { ...list, returnAll: true });
		expect(result.requests.map((r) => r.status)).toEqual([200, 500]);
		const error = result.error as NonNullable<typeof result.error> & { errorResponse?: unknown };
		expect(error.message).toBe(
			'Internal Server Error: The operations store did not answer [HTTP 500, request req-second-page]',
		);
		expect(error.description).toBe(
			[
				'What to do: Try again in a minute',
				'The service marks this error as retryable.',
				'HTTP status 500, request ID req-second-page.',
			].join('\n'),
		);
		expect(error.httpCode).toBe('500');
		// The details panel holds the problem document's fields the node keeps.
		expect(error.errorResponse).toEqual({
			status: 500,
			title: 'Internal Server Error',
			detail: 'The operations store did not answer',
			requestId: 'req-second-page',
		});
		expect(result.json).toEqual([]);
	});

	/** Answers of the list whose next-page tokens are `tokens`, one request each, in order. */
	function pagesWithTokens(tokens: string[]) {
		tokens.forEach((nextPageToken, index) =>
			sim.faults.add({
				route: 'listOperations',
				status: 200,
				body: {
					results: [{ id: `page-${index}`, status: 'success' }],
					pagination: { done: false, nextPageToken },
				},
				times: 1,
			}),
		);
	}

	test.each([
		['alternating', ['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B']],
		['unchanged', ['A', 'A', 'A', 'A', 'A', 'A']],
	])(
		'a next-page token the service gave before (%s) stops the list with an error naming the loop',
		async (_kind, tokens) => {
			pagesWithTokens(tokens);
			for (const limits of [{ returnAll: true }, { limit: 1000 }]) {
				const result = await run(sim, { ...list, ...limits });
				const repeated = tokens.findIndex((token, i) => tokens.indexOf(token) < i);
				// The first page, then one request per new token; none for the token seen again.
				expect(result.requests).toHaveLength(repeated + 1);
				expect(result.error?.message).toBe(
					`The service's pages go round in a loop: after ${repeated + 1} pages it gave the next-page token "${tokens[repeated]}" again, so reading on would never end`,
				);
				expect(result.json).toEqual([]);
				sim.reset();
				pagesWithTokens(tokens);
			}
		},
	);

	test('an unknown installation is a 404 naming it', async () => {
		const result = await run(sim, {
			...list,
			installation: rl('00000000-0000-4000-8000-0000000000aa'),
			returnAll: true,
		});
		expect(result.requests[0].status).toBe(404);
		expect(String(result.error?.message) + String(result.error?.description)).toContain(
			'Installation not found',
		);
	});
});
