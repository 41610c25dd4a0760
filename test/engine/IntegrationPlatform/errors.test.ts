import * as net from 'node:net';

import { rl, run, SEED, startSimulator, type Simulator } from '../../harness/actionEngine';
import { fieldLabel } from '../../harness/fieldLabel';
import { timedOutRequests } from '../../harness/hangs';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.reset();
	sim.faults.clear();
});

const everything = (error: unknown) =>
	JSON.stringify(error, Object.getOwnPropertyNames(error ?? {}));

describe('problem documents become errors that say what is wrong', () => {
	test('400 with several invalid fields: each field and reason in the message, status and request id', async () => {
		const result = await run(sim, {
			resource: 'connection',
			operation: 'generate',
			project: rl(SEED.projectId),
			provider: 'hubspot',
			groupRef: '={{ 42 }}',
			consumerRef: '={{ [1] }}',
			providerCredentials: 'none',
		});
		expect(result.requests[0].status).toBe(400);
		const { message, description, httpCode } = result.error!;
		expect(httpCode).toBe('400');
		expect(message).toMatch(/^Bad Request: /);
		// Named by the fields' labels, not by the API's body field names.
		const group = fieldLabel('connection', 'generate', 'groupRef');
		const consumer = fieldLabel('connection', 'generate', 'consumerRef');
		expect(message).toContain(`"${group}": must be a string, got number (got 42)`);
		expect(message).toContain(`"${consumer}": must be a string, got array (got [1])`);
		expect(message).not.toContain('body field');
		expect(message).toMatch(/\[HTTP 400, request [0-9a-f-]{36}\]$/);
		// Said in the message, not again in the description.
		expect(description).not.toContain('must be a string');
		expect(description).toMatch(/HTTP status 400, request ID [0-9a-f-]{36}\.$/);
	});

	test('401: the service refused the credential; the key is not shown', async () => {
		const result = await run(
			sim,
			{ resource: 'project', operation: 'getAll', returnAll: true },
			{
				credentials: {
					integrationPlatformApi: {
						apiKey: 'amp_wrong_key_123',
						baseUrl: sim.apiUrl,
						readUrl: sim.readUrl,
					},
				},
			},
		);
		expect(result.error?.message).toMatch(
			/^Unauthorized: Invalid API key \[HTTP 401, request [0-9a-f-]{36}\]$/,
		);
		expect(result.error?.description).toContain('What to do:');
		expect(everything(result.error)).not.toContain('amp_wrong_key_123');
	});

	test('404: the unknown resource is named', async () => {
		const result = await run(sim, {
			resource: 'topic',
			operation: 'delete',
			project: rl(SEED.projectId),
			topic: rl('00000000-0000-4000-8000-0000000000aa'),
		});
		expect(result.error?.message).toMatch(
			/^Not Found — "Topic": Topic not found \(got "00000000-0000-4000-8000-0000000000aa"\) \[HTTP 404/,
		);
	});

	test('a wrong project name: the Project field named by its label, the reason said once', async () => {
		const result = await run(sim, {
			resource: 'topic',
			operation: 'getAll',
			returnAll: true,
			project: { __rl: true, mode: 'name', value: 'no-such-project' },
		});
		const { message, description } = result.error!;
		expect(message).toMatch(
			/^Not Found — "Project": Project not found \(got "no-such-project"\) \[HTTP 404, request [0-9a-f-]{36}\]$/,
		);
		expect(`${message}\n${description}`.match(/Project not found/g)).toHaveLength(1);
		expect(`${message}\n${description}`).not.toContain('projectIdOrName');
	});

	test('409: domain already claimed', async () => {
		const result = await run(sim, {
			authentication: 'bearerToken',
			resource: 'claimedDomain',
			operation: 'claim',
			domain: 'taken.example',
			parentId: SEED.orgId,
			parentType: 'org',
		});
		expect(result.error?.message).toMatch(
			/^Conflict: Domain already claimed by another organization \[HTTP 409/,
		);
		expect(result.error?.httpCode).toBe('409');
	});

	test('422: semantic errors in the manifest, each field listed', async () => {
		const result = await run(sim, {
			resource: 'integration',
			operation: 'create',
			project: rl(SEED.projectId),
			name: 'invalid-manifest',
			provider: 'hubspot',
			content: '{"read": 1}',
		});
		const message = result.error?.message ?? '';
		expect(message).toMatch(/^Unprocessable Entity: /);
		expect(message).toContain('body field latestRevision.content.name: is required');
		expect(message).toContain('body field latestRevision.content.provider: is required');
		expect(message).toContain('body field latestRevision.content.read: must be an object');
	});

	test('JWT-key variant (validationIssues, application/json): field, reason and remedy', async () => {
		sim.faults.add({
			route: 'updateJWTKey',
			status: 400,
			headers: { 'content-type': 'application/json' },
			body: {
				type: 'https://httpstatuses.com/400',
				title: 'Bad Request',
				status: 400,
				detail: 'Invalid update mask',
				validationIssues: [
					{
						field: 'updateMask',
						value: ['label'],
						detail: 'unsupported mask entry',
						remedy: "Allowed masks: 'active' and 'name'",
					},
				],
			},
			times: 1,
		});
		const result = await run(sim, {
			resource: 'jwtKey',
			operation: 'update',
			project: rl(SEED.projectId),
			jwtKey: rl(SEED.jwtKeyId),
			updateFields: { label: 'x' },
		});
		expect(result.error?.message).toMatch(
			/^Bad Request: Invalid update mask — updateMask: unsupported mask entry \(got \["label"\]\) \[HTTP 400, request [0-9a-f-]{36}\]$/,
		);
		// The remedy once, under the input it is about; the reason is in the message only.
		expect(result.error?.description).toContain("updateMask: Allowed masks: 'active' and 'name'");
		expect(result.error?.description).not.toContain('unsupported mask entry');
	});

	test('404 on a JWT key: the simulator answers the validationIssues variant', async () => {
		const result = await run(sim, {
			resource: 'jwtKey',
			operation: 'update',
			project: rl(SEED.projectId),
			jwtKey: rl('00000000-0000-4000-8000-0000000000aa'),
			updateFields: { active: true },
		});
		expect(result.error?.message).toContain(
			`Not Found: JWT key not found — "${fieldLabel('jwtKey', 'update', 'jwtKey')}": No JWT key with this id in the project (got "00000000-0000-4000-8000-0000000000aa")`,
		);
	});
});

describe('Continue On Fail', () => {
	test('a failing item becomes an error item; the other items still run', async () => {
		const result = await run(
			sim,
			{
				resource: 'destination',
				operation: 'get',
				project: rl(SEED.projectId),
				destination: { __rl: true, mode: 'name', value: '={{ $json.name }}' },
			},
			{
				items: [
					{ name: SEED.destinationName },
					{ name: 'missing-destination' },
					{ name: SEED.kinesisDestinationName },
				],
				continueOnFail: true,
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.requests.map((r) => r.status)).toEqual([200, 404, 200]);
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json.name).toBe(SEED.destinationName);
		expect(result.items[1].error?.message).toContain(
			`Not Found — "${fieldLabel('destination', 'get', 'destination')}": Destination not found`,
		);
		expect(result.items[2].json.name).toBe(SEED.kinesisDestinationName);
	});

	test('without it, the first failure stops the node with the item index', async () => {
		const result = await run(
			sim,
			{
				resource: 'destination',
				operation: 'get',
				project: rl(SEED.projectId),
				destination: { __rl: true, mode: 'name', value: '={{ $json.name }}' },
			},
			{ items: [{ name: SEED.destinationName }, { name: 'missing-destination' }] },
		);
		expect(result.error?.message).toContain(
			`Not Found — "${fieldLabel('destination', 'get', 'destination')}": Destination not found`,
		);
		expect((result.error?.context as { itemIndex?: number }).itemIndex).toBe(1);
	});
});

describe('network failures name the host', () => {
	test('connection refused', async () => {
		const closed = await new Promise<number>((resolve) => {
			const server = net.createServer().listen(0, '127.0.0.1', () => {
				const { port } = server.address() as net.AddressInfo;
				server.close(() => resolve(port));
			});
		});
		const result = await run(
			sim,
			{ resource: 'project', operation: 'getAll', returnAll: true },
			{
				credentials: {
					integrationPlatformApi: {
						apiKey: SEED.apiKey,
						baseUrl: `http://127.0.0.1:${closed}`,
						readUrl: sim.readUrl,
					},
				},
			},
		);
		expect(result.error?.message).toBe(
			`The Integration Platform API at 127.0.0.1:${closed} refused the connection`,
		);
		expect(result.error?.description).toContain('ECONNREFUSED');
		expect(result.error?.description).toContain('Check the base URL in the credential');
	});

	test('timeout (Options → Timeout)', async () => {
		sim.faults.add({ route: 'listProjects', hang: true });
		const host = new URL(sim.apiUrl).host;
		const result = await run(sim, {
			resource: 'project',
			operation: 'getAll',
			returnAll: true,
			// The harness ends the hung request at once through this timeout (test/harness/hangs.ts):
			// a long one, as nothing else in the run may hit it.
			requestOptions: { timeout: 30_000 },
		});
		expect(result.error?.message).toBe(
			`The Integration Platform API at ${host} did not answer in time`,
		);
		// ended by the node's timeout (n8n words the error without its value): the hung request
		// had the node's 30 s, and the harness fired it (test/harness/hangs.ts)
		expect(timedOutRequests(sim).map((r) => r.timeoutMs)).toEqual([30_000]);
	});

	test('connection reset', async () => {
		sim.faults.add({ route: 'listProjects', reset: true });
		const host = new URL(sim.apiUrl).host;
		const result = await run(sim, { resource: 'project', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe(
			`The Integration Platform API at ${host} closed the connection before answering`,
		);
	});

	test('the deleted API key in the path never reaches an error message', async () => {
		sim.faults.add({ route: 'deleteApiKey', reset: true });
		const result = await run(sim, {
			resource: 'apiKey',
			operation: 'delete',
			project: rl(SEED.projectId),
			apiKey: 'amp_key_in_path_42',
		});
		expect(result.error?.message).toMatch(/closed the connection/);
		expect(everything(result.error)).not.toContain('amp_key_in_path_42');
	});
});

describe('malformed answers', () => {
	test('a 200 with a body that is not JSON', async () => {
		sim.faults.add({ route: 'listProjects', malformed: true });
		const result = await run(sim, { resource: 'project', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe(
			'The service answered HTTP 200 with a body that is not valid JSON',
		);
	});

	test('a 502 HTML page from a proxy', async () => {
		sim.faults.add({
			route: 'listProjects',
			status: 502,
			headers: { 'content-type': 'text/html' },
			body: '<html><h1>502 Bad Gateway</h1></html>',
		});
		const result = await run(sim, { resource: 'project', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toMatch(
			/^Bad Gateway: 502 Bad Gateway \[HTTP 502, request [0-9a-f-]{36}\]$/,
		);
	});

	test('429 with Retry-After: the wait is in the description', async () => {
		sim.faults.add({ route: 'listProjects', status: 429, retryAfterSeconds: 3 });
		// The node would wait and retry by itself (test/engine/retries.test.ts); here the message counts.
		const result = await run(sim, {
			resource: 'project',
			operation: 'getAll',
			returnAll: true,
			requestOptions: { retryOnRateLimit: false },
		});
		expect(result.error?.httpCode).toBe('429');
		expect(result.error?.description).toContain('retry after 3 s');
	});
});

describe('no secret in any error', () => {
	test('bearer token refused: the token is not in the error', async () => {
		const result = await run(
			sim,
			{ authentication: 'bearerToken', resource: 'project', operation: 'getAll', returnAll: true },
			{
				credentials: {
					integrationPlatformTokenApi: { accessToken: 'tok_secret_abcdef', baseUrl: sim.apiUrl },
				},
			},
		);
		expect(result.error?.message).toMatch(/^Unauthorized: /);
		expect(everything(result.error)).not.toContain('tok_secret_abcdef');
	});
});
