/**
 * The action node in a real n8n 2.41.1: every example workflow of examples/ imported and run
 * against the simulator, the credential tests, and the messages users see.
 */
import { SEED } from '../harness/actionEngine';
import { actionExamples, expectations, runExample } from '../harness/actionExpectations';
import { setUpE2e, type E2eContext } from '../harness/e2eContext';
import { fieldLabel } from '../harness/fieldLabel';

let ctx: E2eContext;
beforeAll(async () => (ctx = await setUpE2e('action node')));
afterAll(async () => await ctx.sim.close());

describe('every example workflow runs in real n8n against the simulator', () => {
	test('there is an expectation for every action-node example', () => {
		expect(actionExamples.sort()).toEqual(Object.keys(expectations).sort());
	});

	test.each(actionExamples)('%s', async (name) => await runExample(ctx, name));
});

describe('credentials', () => {
	test('the API key credential test passes with the right key and fails clearly with a wrong one', async () => {
		expect(await ctx.n8n.testCredential(ctx.credentials.integrationPlatformApi.id)).toEqual(
			expect.objectContaining({ status: 'OK' }),
		);
		const wrong = await ctx.n8n.createCredential({
			type: 'integrationPlatformApi',
			name: 'Wrong key',
			data: { apiKey: 'amp_wrong_key', baseUrl: ctx.sim.apiUrl, readUrl: ctx.sim.readUrl },
		});
		const result = await ctx.n8n.testCredential(wrong.id);
		process.stderr.write(
			`\n[e2e] credential test with a wrong API key: ${JSON.stringify(result)}\n`,
		);
		expect(result).toEqual({
			status: 'Error',
			message:
				'The service refused the API key (HTTP 401). Check that it is a current API key of the project, and that the API Base URL is right.',
		});
		expect(result.message).not.toContain('amp_wrong_key');
	});

	test('the token credential test passes with the right token and fails with a wrong one', async () => {
		expect(await ctx.n8n.testCredential(ctx.credentials.integrationPlatformTokenApi.id)).toEqual(
			expect.objectContaining({ status: 'OK' }),
		);
		const wrong = await ctx.n8n.createCredential({
			type: 'integrationPlatformTokenApi',
			name: 'Wrong token',
			data: { accessToken: 'expired-token', baseUrl: `${ctx.sim.apiUrl}/` },
		});
		expect(await ctx.n8n.testCredential(wrong.id)).toEqual({
			status: 'Error',
			message:
				'The service refused the bearer token (HTTP 401). Builder tokens are short-lived: paste a fresh one, and check the API Base URL.',
		});
	});
});

describe('errors in real n8n', () => {
	const workflow = (
		parameters: Record<string, unknown>,
		settings: Record<string, unknown> = {},
	) => ({
		name: 'error case',
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters,
				name: 'Integration Platform',
				type: 'n8n-nodes-integration-platform.integrationPlatform',
				typeVersion: 1,
				position: [240, 0],
				credentials: { integrationPlatformApi: { id: '1', name: 'x' } },
				...settings,
			},
		],
		connections: { Start: { main: [[{ node: 'Integration Platform', type: 'main', index: 0 }]] } },
	});

	test('a 400 with two invalid fields: the exact text n8n shows', async () => {
		const run = await ctx.n8n.runWorkflow(
			workflow({
				resource: 'connection',
				operation: 'generate',
				project: { __rl: true, mode: 'name', value: SEED.projectName },
				provider: 'hubspot',
				groupRef: '={{ 42 }}',
				consumerRef: '={{ ["user-7"] }}',
				providerCredentials: 'none',
			}),
			ctx.credentials,
		);
		expect(run.status).toBe('error');
		const error = run.errors['Integration Platform'];
		process.stderr.write(
			`\n[e2e] 400 with two invalid fields, as n8n shows it:\n  message: ${error.message}\n  description: ${String(error.description).replace(/\n/g, '\n               ')}\n`,
		);
		// Each input named by its field's label; the description does not repeat them.
		const group = fieldLabel('connection', 'generate', 'groupRef');
		const consumer = fieldLabel('connection', 'generate', 'consumerRef');
		expect(error.message).toMatch(/^Bad Request: 2 inputs are invalid: groupRef, consumerRef — /);
		expect(error.message).toContain(
			`"${group}": must be a string, got number (got 42); "${consumer}": must be a string, got array (got ["user-7"])`,
		);
		expect(error.message).toMatch(/\[HTTP 400, request [0-9a-f-]{36}\]$/);
		expect(String(error.description)).not.toContain('must be a string');
		expect(error.httpCode).toBe('400');
	});

	test('the wrong credential for the operation: refused before sending, saying which one it needs', async () => {
		ctx.sim.journal.clear();
		const run = await ctx.n8n.runWorkflow(
			workflow({
				resource: 'invite',
				operation: 'get',
				orgId: SEED.orgId,
				inviteId: SEED.inviteId,
			}),
			ctx.credentials,
		);
		expect(run.errors['Integration Platform'].message).toBe(
			'Invite → Get needs an Integration Platform Token API credential (bearer token)',
		);
		expect(ctx.sim.journal.entries).toHaveLength(0);
	});

	test('Continue On Fail: the failing item becomes an error item and the others run', async () => {
		// An ID the service does not know (a name would be refused before sending, By ID).
		const UNKNOWN_TOPIC = '00000000-0000-4000-8000-0000000000aa';
		const run = await ctx.n8n.runWorkflow(
			{
				...workflow(
					{
						resource: 'topic',
						operation: 'delete',
						project: { __rl: true, mode: 'name', value: SEED.projectName },
						topic: { __rl: true, mode: 'id', value: '={{ $json.topic }}' },
					},
					{ onError: 'continueRegularOutput' },
				),
				nodes: [
					{
						parameters: {},
						name: 'Start',
						type: 'n8n-nodes-base.manualTrigger',
						typeVersion: 1,
						position: [0, 0],
					},
					{
						parameters: {
							jsCode: `return [{ json: { topic: '${SEED.deletableTopicId}' } }, { json: { topic: '${UNKNOWN_TOPIC}' } }, { json: { topic: '${SEED.topicId}' } }];`,
						},
						name: 'Topics',
						type: 'n8n-nodes-base.code',
						typeVersion: 2,
						position: [120, 0],
					},
					{
						parameters: {
							resource: 'topic',
							operation: 'delete',
							project: { __rl: true, mode: 'name', value: SEED.projectName },
							topic: { __rl: true, mode: 'id', value: '={{ $json.topic }}' },
						},
						name: 'Integration Platform',
						type: 'n8n-nodes-integration-platform.integrationPlatform',
						typeVersion: 1,
						position: [240, 0],
						credentials: { integrationPlatformApi: { id: '1', name: 'x' } },
						onError: 'continueRegularOutput',
					},
				],
				connections: {
					Start: { main: [[{ node: 'Topics', type: 'main', index: 0 }]] },
					Topics: { main: [[{ node: 'Integration Platform', type: 'main', index: 0 }]] },
				},
			},
			ctx.credentials,
		);
		ctx.sim.reset();
		expect(run.status).toBe('success');
		const items = run.output('Integration Platform');
		expect(items).toHaveLength(3);
		expect(items[0]).toEqual({ deleted: true, topicId: SEED.deletableTopicId });
		// n8n stores the error of a Continue On Fail item as its message.
		expect(items[1].error).toContain(
			`Not Found — "${fieldLabel('topic', 'delete', 'topic')}": Topic not found (got "${UNKNOWN_TOPIC}")`,
		);
		expect(items[2]).toEqual({ deleted: true, topicId: SEED.topicId });
	});
});

describe('Record → Write with Retry On Fail in real n8n', () => {
	test('a batch written, then answered 500: n8n retries the node, no record is created twice', async () => {
		const tag = `e2e-once-${Date.now()}-`;
		ctx.sim.faults.add({
			route: 'writeRecords',
			processFirst: true,
			status: 500,
			skip: 1,
			times: 1,
		});
		const run = await ctx.n8n.runWorkflow(
			{
				name: 'write once',
				nodes: [
					{
						parameters: {},
						name: 'Start',
						type: 'n8n-nodes-base.manualTrigger',
						typeVersion: 1,
						position: [0, 0],
					},
					{
						parameters: {
							jsCode: `return Array.from({ length: 250 }, (_, i) => ({ json: { email: '${tag}' + i + '@example.com' } }));`,
						},
						name: 'Contacts',
						type: 'n8n-nodes-base.code',
						typeVersion: 2,
						position: [120, 0],
					},
					{
						parameters: {
							resource: 'records',
							operation: 'write',
							writeType: 'create',
							project: { __rl: true, mode: 'id', value: SEED.projectId },
							integration: { __rl: true, mode: 'id', value: SEED.integrationId },
							groupRef: { __rl: true, mode: 'id', value: SEED.groupRef },
							object: { __rl: true, mode: 'id', value: 'contacts' },
						},
						name: 'Integration Platform',
						type: 'n8n-nodes-integration-platform.integrationPlatform',
						typeVersion: 1,
						position: [240, 0],
						credentials: { integrationPlatformApi: { id: '1', name: 'x' } },
						retryOnFail: true,
						maxTries: 3,
						waitBetweenTries: 0,
					},
				],
				connections: {
					Start: { main: [[{ node: 'Contacts', type: 'main', index: 0 }]] },
					Contacts: { main: [[{ node: 'Integration Platform', type: 'main', index: 0 }]] },
				},
			},
			ctx.credentials,
		);
		const store = (
			ctx.sim.state.records as Map<string, Map<string, { fields: { email?: string } }>>
		).get(`${SEED.installationId}/contacts`);
		const emails = [...(store?.values() ?? [])]
			.map((record) => String(record.fields.email))
			.filter((email) => email.startsWith(tag));
		const writes = ctx.sim.journal.entries.filter((entry) => entry.routeId === 'writeRecords');
		process.stderr.write(
			`\n[e2e] write once: ${writes.length} write requests, ${emails.length} records created, ${new Set(emails).size} distinct\n`,
		);
		ctx.sim.faults.clear();
		expect({ created: emails.length, distinct: new Set(emails).size }).toEqual({
			created: 250,
			distinct: 250,
		});
		expect(writes).toHaveLength(3);
		expect(run.status).toBe('error');
		expect(run.errors['Integration Platform'].message).toMatch(
			/^The record may have been written: the service answered Internal Server Error/,
		);
		expect(run.errors['Integration Platform'].description).toMatch(
			/written: 150 \(items [0-9–, ]+\); may have been written: 100 \(items \d+–\d+\)/,
		);
	});
});
