/**
 * The event trigger in a real n8n 2.41.1: activation registers it on the simulator, crafted
 * attacks on the production URL get their status and start nothing, the simulator's signed
 * deliveries (read inline and url, subscribe, schema.watch, notifications) start executions with
 * the expected output, and deactivation leaves no registration behind.
 */
import { randomUUID } from 'node:crypto';

import type { Sim } from '../harness/eventTriggerSim';
import { registrationState, SEED, signingSecret, startSim, svix } from '../harness/eventTriggerSim';
import { n8nClient, readExample, type N8nClient } from '../harness/e2eContext';
import { sleep, until as waitUntil } from '../harness/wait';

const TRIGGER = 'Integration Platform Trigger';
jest.setTimeout(120_000);

let n8n: N8nClient;
let sim: Sim;
let credential: { id: string; name: string };
let seeded: ReturnType<typeof registrationState>;

beforeAll(async () => {
	n8n = n8nClient();
	// n8n runs on http here; the real service (and the simulator's default) want https.
	sim = await startSim({ httpsWebhooksOnly: false, deliveries: { retryDelaysMs: [1000, 2000] } });
	seeded = registrationState(sim);
	credential = await n8n.createCredential({
		type: 'integrationPlatformApi',
		name: `Simulator API key (event trigger ${randomUUID().slice(0, 8)})`,
		data: { apiKey: SEED.apiKey, baseUrl: sim.apiUrl, readUrl: sim.readUrl },
	});
});
afterAll(async () => await sim.close());

const until = <T>(
	what: string,
	probe: () => Promise<T | undefined | false> | T | undefined | false,
	timeoutMs = 30_000,
) => waitUntil(what, probe, timeoutMs, 200);

/**
 * The example workflow with a fresh webhook id and the given trigger parameters. The simulator
 * serves `url` results over http on 127.0.0.1, which the example's download rules (https, the
 * service's storage hosts) refuse: its options allow that here.
 */
async function createWorkflow(
	parameters: Record<string, unknown>,
	credentials: Record<string, { id: string; name: string }> = {
		integrationPlatformApi: credential,
	},
) {
	const example = readExample('event-trigger.json');
	const webhookId = randomUUID();
	example.name = `event trigger e2e ${webhookId.slice(0, 8)}`;
	const trigger = example.nodes.find((n: { name: string }) => n.name === TRIGGER);
	trigger.webhookId = webhookId;
	trigger.parameters.options = {
		...trigger.parameters.options,
		allowInsecureDownloads: true,
		downloadHosts: new URL(sim.apiUrl).hostname,
	};
	Object.assign(trigger.parameters, parameters);
	trigger.credentials = Object.fromEntries(
		Object.entries(credentials).map(([type, ref]) => [type, { id: ref.id, name: ref.name }]),
	);
	const workflow = await n8n.createWorkflow(example, credentials);
	return { id: workflow.id, url: `${n8n.baseUrl}/webhook/${webhookId}/webhook` };
}

async function executions(workflowId: string, includeData = false) {
	return await n8n.executions(workflowId, includeData);
}

/** Trigger output items of every execution, oldest first. */
async function outputs(
	workflowId: string,
	count: number,
): Promise<Array<Array<Record<string, any>>>> {
	const all = await until(`${count} executions`, async () => {
		const list = await executions(workflowId, true);
		return list.length >= count && list.every((e) => e.stoppedAt) ? list : undefined;
	});
	return all
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((e) =>
			(
				e.data.resultData.runData[TRIGGER][0].data.main[0] as Array<{ json: Record<string, any> }>
			).map((i) => i.json),
		);
}

function signed(
	secret: string,
	body: string | Buffer,
	options: { id?: string; timestamp?: number; contentType?: string } = {},
) {
	const raw = typeof body === 'string' ? Buffer.from(body) : body;
	const headers: Record<string, string> = {
		'content-type': options.contentType ?? 'application/json',
		...svix.signedHeaders({
			secrets: secret,
			msgId: options.id ?? svix.newMessageId(),
			timestampSeconds: options.timestamp,
			body: raw,
		}),
	};
	return { headers, raw };
}

async function post(
	url: string,
	request: { headers: Record<string, string>; raw: Buffer | string },
) {
	const res = await fetch(url, { method: 'POST', headers: request.headers, body: request.raw });
	return { status: res.status, body: await res.text() };
}

const notification = (type: string) =>
	JSON.stringify({
		notificationType: type,
		data: { projectId: SEED.projectId, connectionId: SEED.connectionId },
	});
const now = () => Math.floor(Date.now() / 1000);

describe('one workflow taking over the destination the manifest names', () => {
	let workflow: { id: string; url: string };
	let secret: string;

	test('activation registers the trigger on the service', async () => {
		workflow = await createWorkflow({
			destinationName: SEED.destinationName,
			onExistingDestination: 'takeOver',
			subscribeEventTypes: ['create', 'update'],
			notificationTypes: ['connection.created', 'installation.created'],
			output: 'message',
		});
		await n8n.api('POST', `/workflows/${workflow.id}/activate`);
		// Complete once the last step, the topic-destination route, exists.
		await until('the registration', () => {
			const current = registrationState(sim);
			const ours = current.topics.find((t) => t.name === SEED.destinationName);
			return ours && current.topicDestinationRoutes.some((r) => r.topicId === ours.id)
				? true
				: undefined;
		});
		const state = registrationState(sim);
		expect(state.destinations.find((d) => d.id === SEED.destinationId)?.url).toBe(workflow.url);
		const topic = state.topics.find((t) => t.name === SEED.destinationName);
		expect(topic).toBeDefined();
		expect(
			state.eventTopicRoutes
				.filter((r) => r.topicId === topic!.id)
				.map((r) => r.eventType)
				.sort(),
		).toEqual(['connection.created', 'installation.created']);
		expect(state.topicDestinationRoutes).toContainEqual(
			expect.objectContaining({ topicId: topic!.id, destinationId: SEED.destinationId }),
		);
		secret = await signingSecret(sim, SEED.destinationName);
		// n8n serves the production URL shortly after activation (asynchronous in 2.x).
		await until('the production webhook', async () =>
			(await post(workflow.url, { headers: {}, raw: '{}' })).status === 404 ? undefined : true,
		);
	});

	test('every crafted attack gets its status and starts nothing', async () => {
		const body = notification('connection.created');
		const attacks: Array<
			[string, { headers: Record<string, string>; raw: Buffer | string }, number]
		> = [
			['no signature headers', { headers: { 'content-type': 'application/json' }, raw: body }, 401],
			[
				'forged signature',
				(() => {
					const r = signed(secret, body);
					return {
						...r,
						headers: {
							...r.headers,
							'svix-signature': `v1,${Buffer.alloc(32, 7).toString('base64')}`,
						},
					};
				})(),
				401,
			],
			['wrong secret', signed(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, body), 401],
			[
				'tampered body',
				{ ...signed(secret, body), raw: body.replace('connection.created', 'connection.deleted') },
				401,
			],
			['stale timestamp', signed(secret, body, { timestamp: now() - 400 }), 401],
			['future timestamp', signed(secret, body, { timestamp: now() + 400 }), 401],
			[
				'missing svix-id',
				(() => {
					const r = signed(secret, body);
					const headers = { ...r.headers };
					delete headers['svix-id'];
					return { ...r, headers };
				})(),
				401,
			],
			[
				'wrong-length signature',
				(() => {
					const r = signed(secret, body);
					return {
						...r,
						headers: { ...r.headers, 'svix-signature': r.headers['svix-signature'].slice(0, -6) },
					};
				})(),
				401,
			],
			[
				'multipart body (no raw body to verify)',
				(() => {
					const raw = `--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n`;
					return {
						...signed(secret, raw),
						headers: {
							...signed(secret, raw).headers,
							'content-type': 'multipart/form-data; boundary=x',
						},
						raw,
					};
				})(),
				401,
			],
			[
				'oversize body (1.1 MB, validly signed)',
				signed(
					secret,
					JSON.stringify({
						notificationType: 'connection.created',
						data: { pad: 'x'.repeat(1_100_000) },
					}),
				),
				413,
			],
			[
				'non-JSON body (validly signed)',
				signed(secret, 'this is not json', { contentType: 'text/plain' }),
				400,
			],
			['JSON that is not an object (validly signed)', signed(secret, '[1,2,3]'), 400],
			// n8n itself refuses a body it cannot parse as the JSON it claims to be, before the node.
			['malformed JSON declared as JSON', signed(secret, '{"notificationType":'), 422],
		];
		const results: Record<string, number> = {};
		for (const [name, request] of attacks)
			results[name] = (await post(workflow.url, request)).status;
		process.stderr.write(`\n[e2e] attack statuses: ${JSON.stringify(results)}\n`);
		expect(results).toEqual(Object.fromEntries(attacks.map(([name, , status]) => [name, status])));
		await sleep(1500);
		expect(await executions(workflow.id)).toEqual([]);
	});

	test('a replay of an accepted request is refused; a redelivery is acknowledged without a second run', async () => {
		const id = svix.newMessageId();
		const first = signed(secret, notification('installation.created'), { id });
		expect((await post(workflow.url, first)).status).toBe(200);
		expect((await post(workflow.url, first)).status).toBe(401);
		const again = signed(secret, notification('installation.created'), {
			id,
			timestamp: now() + 1,
		});
		const redelivery = await post(workflow.url, again);
		expect(redelivery.status).toBe(200);
		expect(JSON.parse(redelivery.body)).toEqual({ received: true, started: false });
		const [items] = await outputs(workflow.id, 1);
		expect(items).toEqual([
			expect.objectContaining({
				event: 'installation.created',
				delivery: expect.objectContaining({ id, verified: true }),
			}),
		]);
		await sleep(1000);
		expect(await executions(workflow.id)).toHaveLength(1);
	});

	test('the simulator delivers read (inline and url), subscribe, schema.watch and notifications', async () => {
		const deliveries = [
			await sim.emitRead({ objectName: 'contacts', records: [{ email: 'a@x' }, { email: 'b@x' }] }),
			await sim.emitRead({
				objectName: 'companies',
				records: [{ name: 'Acme' }, { name: 'Beta' }, { name: 'Gamma' }],
				asUrl: true,
			}),
			await sim.emitSubscribe({
				objectName: 'contacts',
				events: [
					{ subscribeEventType: 'create', fields: { email: 'new@x' } },
					{ subscribeEventType: 'delete', id: '9' },
					{ subscribeEventType: 'update', fields: { email: 'upd@x' }, fieldsUpdated: ['email'] },
				],
			}),
			await sim.emitSchemaWatch({
				objectName: 'contacts',
				result: { createdFields: [{ fieldName: 'nickname', valueType: 'string' }] },
			}),
			...(await sim.emitNotification('connection.created')),
		];
		// Acknowledged but not selected: a notification type the trigger did not ask for (routed
		// here by the seeded "alerts" topic), and one sent straight to the destination.
		const ignored = [
			...(await sim.emitNotification('connection.error')),
			await sim.deliver({
				destination: SEED.destinationName,
				message: JSON.parse(notification('installation.deleted')),
			}),
		];
		for (const d of [...deliveries, ...ignored]) {
			expect({ kind: d.kind, state: d.state, status: d.attempts[0].status }).toEqual({
				kind: d.kind,
				state: 'delivered',
				status: 200,
			});
		}
		process.stderr.write(
			`[e2e] deliveries: ${JSON.stringify([...deliveries, ...ignored].map((d) => ({ kind: d.eventType ?? d.kind, attempts: d.attempts.map((a) => a.status) })))}\n`,
		);

		const runs = await outputs(workflow.id, 6);
		await sleep(1000);
		expect(await executions(workflow.id)).toHaveLength(6); // the ignored two started nothing
		const items = runs.slice(1).map((run) => {
			expect(run).toHaveLength(1);
			return run[0];
		});
		expect(items.map((i) => i.event).sort()).toEqual(
			['connection.created', 'read', 'read', 'schema.watch', 'subscribe'].sort(),
		);
		const byDelivery = new Map(items.map((i) => [i.delivery.id, i]));
		const [readInline, readUrl, subscribe, schema, connection] = deliveries.map(
			(d) => byDelivery.get(d.id)!,
		);
		expect(readInline).toMatchObject({
			action: 'read',
			objectName: 'contacts',
			installationId: SEED.installationId,
			resultInfo: { type: 'inline', numRecords: 2 },
			result: [{ fields: { email: 'a@x' } }, { fields: { email: 'b@x' } }],
			delivery: { verified: true, headers: { 'svix-id': deliveries[0].id } },
		});
		expect(readUrl.resultInfo).toMatchObject({ type: 'url', numRecords: 3 });
		expect(readUrl.result.map((r: { fields: { name: string } }) => r.fields.name)).toEqual([
			'Acme',
			'Beta',
			'Gamma',
		]);
		expect(
			subscribe.result.map((r: { subscribeEventType: string }) => r.subscribeEventType),
		).toEqual(['create', 'update']);
		expect(schema).toMatchObject({
			action: 'schema.watch',
			result: { createdFields: [{ fieldName: 'nickname' }], deletedFields: [], changedFields: [] },
		});
		expect(connection).toMatchObject({
			notificationType: 'connection.created',
			data: { connectionId: SEED.connectionId },
		});
		const everything = JSON.stringify(runs);
		expect(everything).not.toContain(secret);
		expect(everything).not.toMatch(/whsec_|svix-signature/);
	});

	test('deactivation removes the topic and routes and puts the destination URL back', async () => {
		await n8n.api('POST', `/workflows/${workflow.id}/deactivate`);
		await until('the registration to be removed', () =>
			JSON.stringify(registrationState(sim)) === JSON.stringify(seeded) ? true : undefined,
		);
		expect(registrationState(sim)).toEqual(seeded);
		// Nothing listens any more.
		expect(
			(await post(workflow.url, signed(secret, notification('connection.created')))).status,
		).toBe(404);
		await n8n.api('DELETE', `/workflows/${workflow.id}`);
	});
});

describe('a workflow with its own destination, one item per record', () => {
	test('creates destination, topic and routes; records arrive one per item; deactivation leaves nothing', async () => {
		const workflow = await createWorkflow({
			destinationName: 'n8n-e2e-own',
			onExistingDestination: 'fail',
			events: ['read', 'notification'],
			notificationTypes: ['write.async.done'],
			output: 'record',
		});
		await n8n.api('POST', `/workflows/${workflow.id}/activate`);
		await until('the registration', () => {
			const current = registrationState(sim);
			const ours = current.topics.find((t) => t.name === 'n8n-e2e-own');
			return ours && current.topicDestinationRoutes.some((r) => r.topicId === ours.id)
				? true
				: undefined;
		});
		const destination = registrationState(sim).destinations.find((d) => d.name === 'n8n-e2e-own')!;
		expect(destination.url).toBe(workflow.url);
		await until('the production webhook', async () =>
			(await post(workflow.url, { headers: {}, raw: '{}' })).status === 404 ? undefined : true,
		);
		const state = registrationState(sim);
		const topic = state.topics.find((t) => t.name === 'n8n-e2e-own');
		expect(
			state.eventTopicRoutes.filter((r) => r.topicId === topic?.id).map((r) => r.eventType),
		).toEqual(['write.async.done']);

		// The manifest names n8n-webhook; a user would point it at n8n-e2e-own. Here: explicitly.
		const read = await sim.emitRead({
			objectName: 'contacts',
			records: [{ email: 'a@x' }, { email: 'b@x' }, { email: 'c@x' }],
			asUrl: true,
			destination: 'n8n-e2e-own',
		});
		const [note] = await sim.emitNotification('write.async.done', {
			success: false,
			errors: ['bad row'],
		});
		expect([read.state, note.state]).toEqual(['delivered', 'delivered']);
		const runs = await outputs(workflow.id, 2);
		const records = runs.find((r) => r[0].event === 'read')!;
		expect(records.map((r) => r.fields.email)).toEqual(['a@x', 'b@x', 'c@x']);
		expect(records[0].message).toMatchObject({
			action: 'read',
			resultInfo: { type: 'url', numRecords: 3 },
		});
		expect(records[0].delivery).toMatchObject({ id: read.id, verified: true });
		expect(runs.find((r) => r[0].event === 'write.async.done')).toEqual([
			expect.objectContaining({
				notificationType: 'write.async.done',
				data: expect.objectContaining({ success: false, errors: ['bad row'] }),
			}),
		]);

		await n8n.api('POST', `/workflows/${workflow.id}/deactivate`);
		await until('the registration to be removed', () =>
			registrationState(sim).destinations.some((d) => d.id === destination.id) ? undefined : true,
		);
		await until('the topic to be removed', () =>
			registrationState(sim).topics.some((t) => t.id === topic?.id) ? undefined : true,
		);
		expect(registrationState(sim)).toEqual(seeded);
		await n8n.api('DELETE', `/workflows/${workflow.id}`);
	});
});

describe('a workflow without an API credential, its signing secret in a credential', () => {
	test('the secret is kept encrypted, never in the workflow; deliveries are verified against it', async () => {
		const secret = await signingSecret(sim, SEED.destinationName);
		const secretCredential = await n8n.createCredential({
			type: 'integrationPlatformSigningSecretApi',
			name: `Signing secret (event trigger ${randomUUID().slice(0, 8)})`,
			data: { signingSecret: secret },
		});
		// The credential's test checks the format, through the node's credentialTest, no request.
		expect(await n8n.testCredential(secretCredential.id)).toMatchObject({ status: 'OK' });

		const workflow = await createWorkflow(
			{ authentication: 'none', registerDestination: false, events: ['notification'] },
			{ integrationPlatformSigningSecretApi: secretCredential },
		);
		await n8n.api('POST', `/workflows/${workflow.id}/activate`);
		await until('the production webhook', async () =>
			(await post(workflow.url, { headers: {}, raw: '{}' })).status === 404 ? undefined : true,
		);
		// What n8n stores and exports for the workflow holds a reference, not the secret.
		const stored = await n8n.api('GET', `/workflows/${workflow.id}`);
		expect(JSON.stringify(stored)).not.toContain(secret);
		expect(JSON.stringify(stored)).not.toContain(secret.replace(/^whsec_/, ''));

		const good = signed(secret, notification('connection.created'));
		expect((await post(workflow.url, good)).status).toBe(200);
		const forged = signed(
			`whsec_${Buffer.alloc(24, 3).toString('base64')}`,
			notification('connection.created'),
		);
		expect((await post(workflow.url, forged)).status).toBe(401);
		const [items] = await outputs(workflow.id, 1);
		expect(items).toEqual([
			expect.objectContaining({
				event: 'connection.created',
				delivery: expect.objectContaining({ id: good.headers['svix-id'], verified: true }),
			}),
		]);
		await sleep(1000);
		expect(await executions(workflow.id)).toHaveLength(1);
		expect(registrationState(sim)).toEqual(seeded);

		await n8n.api('POST', `/workflows/${workflow.id}/deactivate`);
		// n8n refuses to delete a workflow while it is still being unpublished (409): try again.
		await until('the workflow to be deleted', async () => {
			try {
				await n8n.api('DELETE', `/workflows/${workflow.id}`);
				return true;
			} catch (error) {
				if (/: 409 /.test(String(error))) return undefined;
				throw error;
			}
		});
	});
});

describe('listening in the editor ("Test this trigger")', () => {
	/** n8n's editor endpoints (/rest) take the owner's session, not the public API key. */
	async function rest(method: string, path: string, body?: unknown) {
		const { cookie } = n8n as unknown as { cookie?: string };
		if (!cookie) throw new Error('the e2e n8n client has no owner session');
		const res = await fetch(`${n8n.baseUrl}/rest${path}`, {
			method,
			headers: { 'content-type': 'application/json', cookie },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} /rest${path}: ${res.status} ${text.slice(0, 500)}`);
		return text ? JSON.parse(text) : undefined;
	}

	test("version 3: the simulator's read command reaches the listening trigger's test URL and starts a manual execution", async () => {
		const example = readExample('event-trigger.json');
		const webhookId = randomUUID();
		example.name = `event trigger listening e2e ${webhookId.slice(0, 8)}`;
		const trigger = example.nodes.find((n: { name: string }) => n.name === TRIGGER);
		Object.assign(trigger, { webhookId, typeVersion: 3 });
		Object.assign(trigger.parameters, {
			destinationName: { __rl: true, mode: 'list', value: SEED.destinationName },
			objectNames: ['contacts'],
		});
		trigger.credentials = { integrationPlatformApi: credential };
		const workflow = await n8n.createWorkflow(example, { integrationPlatformApi: credential });
		const testUrl = `${n8n.baseUrl}/webhook-test/${webhookId}/webhook`;
		const testName = `${SEED.destinationName}-test`;

		// What the editor's "Execute step" on the trigger sends: a run from that trigger, which n8n
		// answers by registering the test webhook (the node's create hook) and waiting.
		const run = await rest('POST', `/workflows/${workflow.id}/run`, {
			triggerToStartFrom: { name: TRIGGER },
		});
		expect(run.data).toEqual({ waitingForWebhook: true });
		await until('the "-test" destination', () =>
			registrationState(sim).destinations.some((d) => d.name === testName && d.url === testUrl)
				? true
				: undefined,
		);
		// Production stays where it was: only an active workflow takes it over.
		expect(registrationState(sim).destinations).toContainEqual(
			expect.objectContaining({ name: SEED.destinationName, url: SEED.webhookUrl }),
		);

		// The command `npm start` prints (and the README shows), sent as is.
		const started = Date.now();
		const response = await fetch(`${sim.apiUrl}/__sim/emit/read`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				objectName: 'contacts',
				records: [{ fields: { email: 'jo@example.com' } }],
			}),
		});
		expect(response.status).toBe(201);
		const record = (await response.json()) as { testCopy?: unknown };
		expect(record.testCopy).toMatchObject({
			destinationName: testName,
			state: 'delivered',
			attempts: [expect.objectContaining({ url: testUrl, status: 200 })],
		});

		const [execution] = await until('the manual execution', async () => {
			const list = (await executions(workflow.id, true)).filter((e) => e.stoppedAt);
			return list.length > 0 ? list : undefined;
		});
		const elapsed = Date.now() - started;
		expect(execution.mode).toBe('manual');
		const items = execution.data.resultData.runData[TRIGGER][0].data.main[0] as Array<{
			json: Record<string, any>;
		}>;
		expect(items.map((i) => i.json)).toEqual([
			expect.objectContaining({
				action: 'read',
				objectName: 'contacts',
				result: [expect.objectContaining({ fields: { email: 'jo@example.com' } })],
				delivery: expect.objectContaining({ verified: true }),
			}),
		]);
		// "Within a few seconds" of the command, as the editor's panel shows it.
		expect(elapsed).toBeLessThan(10_000);
		console.log(`listening trigger: delivery to finished manual execution in ${elapsed} ms`);

		// One test event ends the listening: n8n removes the test webhook, the trigger its destination.
		await until('the "-test" destination to be removed', () =>
			registrationState(sim).destinations.some((d) => d.name === testName) ? undefined : true,
		);
		expect(registrationState(sim)).toEqual(seeded);
		await n8n.api('DELETE', `/workflows/${workflow.id}`);
	});
});
