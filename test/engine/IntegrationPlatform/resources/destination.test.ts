import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => sim.reset());

describe('Destination → Get', () => {
	test('by name, without secrets unless asked', async () => {
		const result = await run(sim, {
			resource: 'destination',
			operation: 'get',
			project: rl(SEED.projectName, 'name'),
			destination: rl(SEED.destinationName, 'name'),
		});
		expect(result.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectName}/destinations/${SEED.destinationName}`,
			query: {},
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				id: SEED.destinationId,
				name: SEED.destinationName,
				type: 'webhook',
				metadata: expect.any(Object),
			}),
		]);
		expect(result.json[0].secrets).toBeUndefined();
		expect(JSON.stringify(result.json)).not.toContain(SEED.webhookSigningKey);
	});

	test('Include Secrets sends includeSecrets=true and returns the signing key', async () => {
		const result = await run(sim, {
			resource: 'destination',
			operation: 'get',
			project: rl(SEED.projectId),
			destination: rl(SEED.destinationId),
			options: { includeSecrets: true },
		});
		expect(result.requests[0].query).toEqual({ includeSecrets: 'true' });
		expect(result.json[0].secrets).toEqual({ webhookSigningKey: SEED.webhookSigningKey });
	});
});

describe('Destination → Rotate Signing Secret', () => {
	test('sends rotate=true; the new secret is returned only with Include Secrets', async () => {
		const hidden = await run(sim, {
			resource: 'destination',
			operation: 'rotateSecret',
			project: rl(SEED.projectId),
			destination: rl(SEED.destinationName, 'name'),
		});
		expect(hidden.requests[0].query).toEqual({ rotate: 'true' });
		expect(hidden.json[0].secrets).toBeUndefined();

		const shown = await run(sim, {
			resource: 'destination',
			operation: 'rotateSecret',
			project: rl(SEED.projectId),
			destination: rl(SEED.destinationName, 'name'),
			options: { includeSecrets: true },
		});
		expect(shown.requests[0].query).toEqual({ rotate: 'true', includeSecrets: 'true' });
		const rotated = (shown.json[0].secrets as { webhookSigningKey: string }).webhookSigningKey;
		expect(rotated).toMatch(/^whsec_/);
		expect(rotated).not.toBe(SEED.webhookSigningKey);
	});
});

/** Everything an error shows the user: message, description and context. */
const shown = (result: {
	error?: { message?: string; description?: string | null; context?: unknown };
}) =>
	`${result.error?.message} ${result.error?.description} ${JSON.stringify(result.error?.context ?? {})}`;

const project = rl(SEED.projectName, 'name');

describe('Destination → Create, Get, Get Many, Update, Delete', () => {
	test('a webhook destination through its whole life; the signing secret never appears', async () => {
		const created = await run(sim, {
			resource: 'destination',
			operation: 'create',
			project,
			name: 'flow-webhook',
			destinationType: 'webhook',
			url: 'https://hooks.example.com/flow',
			additionalFields: { headers: '{"X-Team":"sales"}' },
		});
		expect(created.error).toBeUndefined();
		expect(created.requests[0]).toMatchObject({
			method: 'POST',
			pathname: `/v1/projects/${SEED.projectName}/destinations`,
			status: 201,
			body: {
				name: 'flow-webhook',
				type: 'webhook',
				metadata: { url: 'https://hooks.example.com/flow', headers: { 'X-Team': 'sales' } },
			},
		});
		const id = created.json[0].id as string;
		expect(created.json[0]).toMatchObject({ name: 'flow-webhook', type: 'webhook' });
		expect(created.json[0].secrets).toBeUndefined();

		const got = await run(sim, {
			resource: 'destination',
			operation: 'get',
			project,
			destination: rl('flow-webhook', 'name'),
		});
		expect(got.json[0]).toMatchObject({ id, name: 'flow-webhook' });

		const updated = await run(sim, {
			resource: 'destination',
			operation: 'update',
			project,
			destinationId: rl(id),
			updateFields: { name: 'flow-webhook-2', url: 'https://hooks.example.com/flow-2' },
		});
		expect(updated.error).toBeUndefined();
		expect(updated.requests[0]).toMatchObject({
			method: 'PATCH',
			pathname: `/v1/projects/${SEED.projectName}/destinations/${id}`,
			body: {
				updateMask: ['name', 'metadata.url'],
				destination: {
					name: 'flow-webhook-2',
					metadata: { url: 'https://hooks.example.com/flow-2' },
				},
			},
		});

		const listed = await run(sim, {
			resource: 'destination',
			operation: 'getAll',
			project,
			returnAll: true,
		});
		expect(listed.requests[0]).toMatchObject({
			method: 'GET',
			pathname: `/v1/projects/${SEED.projectName}/destinations`,
		});
		expect(listed.json).toEqual(
			expect.arrayContaining([
				expect.objectContaining({
					id,
					name: 'flow-webhook-2',
					metadata: expect.objectContaining({ url: 'https://hooks.example.com/flow-2' }),
				}),
			]),
		);
		const all = JSON.stringify([created.json, got.json, updated.json, listed.json]);
		expect(all).not.toContain('whsec_');

		const deleted = await run(sim, {
			resource: 'destination',
			operation: 'delete',
			project,
			destinationId: rl(id),
		});
		expect(deleted.requests[0]).toMatchObject({ method: 'DELETE', status: 204 });
		expect(deleted.json).toEqual([{ deleted: true, destinationId: id }]);

		const gone = await run(sim, {
			resource: 'destination',
			operation: 'get',
			project,
			destination: rl(id),
		});
		expect(gone.error?.message).toMatch(/404/);
	});

	test('Get Many honours Limit', async () => {
		const result = await run(sim, {
			resource: 'destination',
			operation: 'getAll',
			project,
			limit: 1,
		});
		expect(result.json).toHaveLength(1);
	});

	test('a non-webhook type sends its metadata and secrets; the secrets are masked in errors', async () => {
		const ok = await run(sim, {
			resource: 'destination',
			operation: 'create',
			project,
			name: 'orders-queue',
			destinationType: 'sqs',
			metadata: '{"queueUrl":"https://sqs.us-east-1.amazonaws.com/1/orders"}',
			secrets: '{"awsKeyId":"AKIAFLOW0001","awsSecretKey":"flow-secret-key-0001"}',
		});
		expect(ok.error).toBeUndefined();
		expect(ok.requests[0].body).toEqual({
			name: 'orders-queue',
			type: 'sqs',
			metadata: { queueUrl: 'https://sqs.us-east-1.amazonaws.com/1/orders' },
			secrets: { awsKeyId: 'AKIAFLOW0001', awsSecretKey: 'flow-secret-key-0001' },
		});
		expect(JSON.stringify(ok.json)).not.toContain('flow-secret-key-0001');

		const failed = await run(sim, {
			resource: 'destination',
			operation: 'create',
			project,
			name: 'orders-queue',
			destinationType: 'sqs',
			metadata: '{"queueUrl":"https://sqs.us-east-1.amazonaws.com/1/orders"}',
			secrets: '{"awsKeyId":"AKIAFLOW0001","awsSecretKey":"flow-secret-key-0001"}',
		});
		expect(failed.error?.message).toMatch(/409/);
		expect(shown(failed)).not.toContain('flow-secret-key-0001');
	});

	test('an http:// webhook URL: the validation problem names metadata.url', async () => {
		const result = await run(sim, {
			resource: 'destination',
			operation: 'create',
			project,
			name: 'plain-http',
			destinationType: 'webhook',
			url: 'http://hooks.example.com/plain',
		});
		expect(result.requests[0].status).toBe(400);
		expect(shown(result)).toContain('metadata.url');
		expect(shown(result)).toMatch(/https/);
	});

	test('Update with nothing to change fails before any request', async () => {
		const result = await run(sim, {
			resource: 'destination',
			operation: 'update',
			project,
			destinationId: rl(SEED.updatableDestinationId),
			updateFields: {},
		});
		expect(result.requests).toHaveLength(0);
		expect(result.error?.message).toMatch(/Add at least one field to update/);
	});

	test('Update of secrets: one mask entry per secret, values masked in errors', async () => {
		const result = await run(sim, {
			resource: 'destination',
			operation: 'update',
			project,
			destinationId: rl(SEED.kinesisDestinationId),
			updateFields: {
				secrets: '{"awsSecretKey":"rotated-secret-0002"}',
				metadata: '{"region":"eu-west-1"}',
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.requests[0].body).toEqual({
			updateMask: ['metadata.region', 'secrets.awsSecretKey'],
			destination: {
				metadata: { region: 'eu-west-1' },
				secrets: { awsSecretKey: 'rotated-secret-0002' },
			},
		});
		expect(JSON.stringify(result.json)).not.toContain('rotated-secret-0002');
	});

	test('Delete of an unknown destination shows the 404', async () => {
		const result = await run(sim, {
			resource: 'destination',
			operation: 'delete',
			project,
			destinationId: rl('00000000-0000-4000-8000-0000000000aa'),
		});
		expect(result.requests[0].status).toBe(404);
		expect(result.error?.message).toMatch(/404/);
		expect(shown(result)).toMatch(/Destination not found/);
	});
});
