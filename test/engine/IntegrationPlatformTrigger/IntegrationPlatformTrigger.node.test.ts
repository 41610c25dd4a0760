/**
 * The event trigger in n8n-core's own contexts (test/harness/eventTriggerEngine.ts) against the
 * simulator: registration on activation, Svix-signed deliveries by the simulator, every refusal,
 * rotation, retries, test vs production, and removal on deactivation.
 */
import { resetTriggerMemory } from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import type { Sim } from '../../harness/eventTriggerSim';
import {
	api,
	registrationState,
	signingSecret,
	startSim,
	svix,
} from '../../harness/eventTriggerSim';
import { TestCredentialsHelper } from '../../harness/engine';
import {
	LOCAL_DOWNLOADS,
	SEED,
	SIGNING_SECRET_CREDENTIAL,
	TriggerHarness,
} from '../../harness/eventTriggerEngine';
import { triggerSchemaErrors } from '../../harness/outputSchemas';

const P = `/projects/${SEED.projectName}`;
const project = { __rl: true, mode: 'id', value: SEED.projectName };

let sim: Sim;
let seeded: ReturnType<typeof registrationState>;
const harnesses: TriggerHarness[] = [];

beforeAll(async () => {
	sim = await startSim({ httpsWebhooksOnly: false, deliveries: { retryDelaysMs: [50, 50, 50] } });
	seeded = registrationState(sim);
});
beforeEach(() => resetTriggerMemory());
afterEach(async () => {
	for (const h of harnesses.splice(0)) await h.close();
	sim.reset();
});
afterAll(async () => await sim.close());

async function trigger(
	parameters: Record<string, unknown>,
	options: Partial<ConstructorParameters<typeof TriggerHarness>[1]> = {},
) {
	const h = new TriggerHarness(sim, {
		parameters: { project, destinationName: 'n8n-engine', ...parameters } as never,
		...options,
	});
	await h.listen();
	harnesses.push(h);
	return h;
}

/** A request signed like the service would sign it, with knobs for every attack. */
function signed(
	secret: string,
	body: string | Buffer,
	options: {
		id?: string;
		timestamp?: number;
		prefix?: 'svix' | 'webhook';
		contentType?: string;
	} = {},
): { headers: Record<string, string>; raw: Buffer } {
	const raw = typeof body === 'string' ? Buffer.from(body) : body;
	const headers: Record<string, string> = svix.signedHeaders({
		secrets: secret,
		msgId: options.id ?? svix.newMessageId(),
		timestampSeconds: options.timestamp,
		body: raw,
		prefix: options.prefix,
	});
	return {
		headers: { 'content-type': options.contentType ?? 'application/json', ...headers },
		raw,
	};
}

const notificationBody = JSON.stringify({
	notificationType: 'connection.created',
	data: { projectId: SEED.projectId, connectionId: SEED.connectionId },
});

describe('registration', () => {
	test('activation registers destination, topic and routes once; deactivation removes them all', async () => {
		const h = await trigger({ notificationTypes: ['connection.created', 'write.async.done'] });
		await h.activate();
		const state = registrationState(sim);
		const destination = state.destinations.find((d) => d.name === 'n8n-engine');
		expect(destination?.url).toBe(h.url());
		const topic = state.topics.find((t) => t.name === 'n8n-engine');
		expect(
			state.eventTopicRoutes
				.filter((r) => r.topicId === topic?.id)
				.map((r) => r.eventType)
				.sort(),
		).toEqual(['connection.created', 'write.async.done']);
		expect(
			state.topicDestinationRoutes.filter((r) => r.destinationId === destination?.id),
		).toHaveLength(1);

		// Static data: one entry keyed by the production URL, and no secret anywhere in it.
		expect(h.staticData['node:Integration Platform Trigger']).toEqual({
			registrations: {
				[h.url()]: expect.objectContaining({
					url: h.url(),
					destinationName: 'n8n-engine',
					destinationId: destination?.id,
					destinationMode: 'created',
					topicId: topic?.id,
				}),
			},
		});
		expect(JSON.stringify(h.staticData)).not.toMatch(/whsec_/);
		expect(JSON.stringify(h.staticData)).not.toContain(await signingSecret(sim, 'n8n-engine'));

		// A second activation (n8n restart) finds it in place and creates nothing.
		sim.journal.clear();
		expect(await h.hook('checkExists')).toBe(true);
		expect(sim.journal.entries.filter((e) => e.method !== 'GET')).toEqual([]);

		await h.deactivate();
		expect(registrationState(sim)).toEqual(seeded);
		expect(JSON.stringify(h.staticData)).not.toContain(h.url());
	});

	test('deactivation after WEBHOOK_URL changed still removes what activation created', async () => {
		const h = await trigger({ notificationTypes: ['connection.created'] });
		await h.activate();
		expect(registrationState(sim)).not.toEqual(seeded);
		h.changeBaseUrl('http://n8n.moved.example:5678');
		await h.deactivate();
		expect(registrationState(sim)).toEqual(seeded);
		expect(h.staticData['node:Integration Platform Trigger']).toEqual({ registrations: {} });
	});

	test('test listening registers its own "-test" destination and never touches production', async () => {
		const h = await trigger({
			events: ['notification'],
			notificationTypes: ['connection.created'],
		});
		await h.activate();
		await h.activate(true);
		const names = registrationState(sim).destinations.map((d) => [d.name, d.url]);
		expect(names).toContainEqual(['n8n-engine', h.url()]);
		expect(names).toContainEqual(['n8n-engine-test', h.url(true)]);
		// Both checkExists hold, each for its own URL.
		expect(await h.hook('checkExists')).toBe(true);
		expect(await h.hook('checkExists', true)).toBe(true);

		// A notification reaches both; each URL verifies against its own destination's secret.
		await sim.emitNotification('connection.created');
		expect(
			h
				.started()
				.map((r) => r.test)
				.sort(),
		).toEqual([false, true]);

		// A delivery signed with the production secret is refused at the test URL.
		const prodSecret = await signingSecret(sim, 'n8n-engine');
		const crossed = signed(prodSecret, notificationBody);
		expect((await h.call({ headers: crossed.headers, raw: crossed.raw, test: true })).status).toBe(
			401,
		);

		await h.deactivate(true);
		expect(registrationState(sim).destinations.map((d) => d.name)).toContain('n8n-engine');
		expect(registrationState(sim).destinations.map((d) => d.name)).not.toContain('n8n-engine-test');
		await h.deactivate();
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('take over the destination the manifest names; its URL is put back on deactivation', async () => {
		const h = await trigger({
			destinationName: SEED.destinationName,
			onExistingDestination: 'takeOver',
			events: ['read'],
		});
		await h.activate();
		expect(registrationState(sim).destinations.find((d) => d.id === SEED.destinationId)?.url).toBe(
			h.url(),
		);
		await sim.emitRead({ objectName: 'contacts', records: [{ email: 'a@x' }] });
		expect(h.started()).toHaveLength(1);
		await h.deactivate();
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('n8n behind a new URL (WEBHOOK_URL changed): the destination follows, one entry is kept', async () => {
		const h = await trigger({
			events: ['notification'],
			notificationTypes: ['connection.created'],
		});
		await h.activate();
		const before = h.url();
		await h.close();
		await h.listen(); // another port: another webhook URL for the same node
		expect(h.url()).not.toBe(before);
		await h.activate();
		const destination = registrationState(sim).destinations.find((d) => d.name === 'n8n-engine');
		expect(destination?.url).toBe(h.url());
		const stored = h.staticData['node:Integration Platform Trigger'] as { registrations: object };
		expect(Object.keys(stored.registrations)).toEqual([h.url()]);
		await sim.emitNotification('connection.created');
		expect(h.started()).toHaveLength(1);
		await h.deactivate();
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('an existing destination of that name stops the activation with an explanation', async () => {
		const h = await trigger({ destinationName: SEED.destinationName });
		await expect(h.activate()).rejects.toThrow(
			/already exists and sends to https:\/\/hooks\.example\.com/,
		);
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('registration off: nothing is created, the secret still comes from the named destination', async () => {
		const h = await trigger({
			destinationName: SEED.destinationName,
			registerDestination: false,
			events: ['notification'],
		});
		await h.activate();
		expect(registrationState(sim)).toEqual(seeded);
		const good = signed(SEED.webhookSigningKey, notificationBody);
		expect((await h.call({ headers: good.headers, raw: good.raw })).items).toHaveLength(1);
		await h.deactivate();
		expect(registrationState(sim)).toEqual(seeded);
	});

	test('an http URL where the service wants https: a clear error, nothing left', async () => {
		const strict = await startSim();
		try {
			const h = new TriggerHarness(strict, {
				parameters: { project, destinationName: 'n8n-engine' } as never,
			});
			await h.listen();
			harnesses.push(h);
			await expect(h.activate()).rejects.toThrow(/The service accepts only https webhook URLs/);
			const error = (await h.activate().catch((e: unknown) => e)) as { description?: string };
			expect(error.description).toMatch(/WEBHOOK_URL/);
			expect(registrationState(strict).destinations.map((d) => d.name)).not.toContain('n8n-engine');
		} finally {
			await strict.close();
		}
	});

	test('a bearer token works the same way', async () => {
		const h = await trigger(
			{ events: ['notification'], notificationTypes: ['connection.created'] },
			{ authentication: 'bearerToken' },
		);
		await h.activate();
		await sim.emitNotification('connection.created');
		expect(h.started()).toHaveLength(1);
		await h.deactivate();
		expect(registrationState(sim)).toEqual(seeded);
	});
});

describe('deliveries from the simulator', () => {
	test('read inline and url, subscribe, schema.watch and a notification: one item per message', async () => {
		const h = await trigger({
			destinationName: SEED.destinationName,
			onExistingDestination: 'takeOver',
			notificationTypes: ['write.async.done'],
			subscribeEventTypes: ['create', 'update'],
			options: LOCAL_DOWNLOADS,
		});
		await h.activate();
		const inline = await sim.emitRead({
			objectName: 'contacts',
			records: [{ email: 'a@x' }, { email: 'b@x' }],
		});
		const url = await sim.emitRead({
			objectName: 'companies',
			records: [{ name: 'Acme' }, { name: 'Beta' }, { name: 'Gamma' }],
			asUrl: true,
		});
		await sim.emitSubscribe({
			objectName: 'contacts',
			events: [
				{ subscribeEventType: 'create', fields: { email: 'new@x' } },
				{ subscribeEventType: 'delete', id: '9' },
				{ subscribeEventType: 'update', fields: { email: 'upd@x' }, fieldsUpdated: ['email'] },
			],
		});
		await sim.emitSchemaWatch({
			objectName: 'contacts',
			result: { createdFields: [{ fieldName: 'nickname' }] },
		});
		const [note] = await sim.emitNotification('write.async.done', { success: true });
		for (const d of sim.deliveries.list()) expect(d.state).toBe('delivered');

		const items = h.started().map((r) => r.items![0]);
		// What the editor previews before the first delivery (__schema__/v2.0.0.json).
		expect(triggerSchemaErrors('IntegrationPlatformTrigger', 2, items)).toEqual([]);
		expect(items.map((i) => i.event)).toEqual([
			'read',
			'read',
			'subscribe',
			'schema.watch',
			'write.async.done',
		]);
		const [readInline, readUrl, subscribe, schema, notification] = items;
		expect(readInline).toMatchObject({
			action: 'read',
			objectName: 'contacts',
			installationId: SEED.installationId,
			resultInfo: { type: 'inline', numRecords: 2 },
			result: [{ fields: { email: 'a@x' } }, { fields: { email: 'b@x' } }],
			delivery: { id: inline.id, verified: true, headers: { 'svix-id': inline.id } },
		});
		expect(readUrl).toMatchObject({
			resultInfo: { type: 'url', numRecords: 3 },
			delivery: { id: url.id },
		});
		expect(
			(readUrl.result as Array<{ fields: { name: string } }>).map((r) => r.fields.name),
		).toEqual(['Acme', 'Beta', 'Gamma']);
		expect(
			(subscribe.result as Array<{ subscribeEventType: string }>).map((r) => r.subscribeEventType),
		).toEqual(['create', 'update']);
		expect(schema).toMatchObject({
			result: { createdFields: [{ fieldName: 'nickname' }], deletedFields: [], changedFields: [] },
		});
		expect(notification).toMatchObject({
			notificationType: 'write.async.done',
			data: { success: true },
			delivery: { id: note.id },
		});

		// Never the secret or the signature in what the workflow gets.
		const everything = JSON.stringify(items);
		expect(everything).not.toContain(await signingSecret(sim, SEED.destinationName));
		expect(everything).not.toMatch(/whsec_|svix-signature|v1,/);
		await h.deactivate();
	});

	test('one item per record, with the message and delivery on each', async () => {
		const h = await trigger({
			destinationName: SEED.destinationName,
			onExistingDestination: 'takeOver',
			output: 'record',
			events: ['read', 'schema.watch'],
			options: LOCAL_DOWNLOADS,
		});
		await h.activate();
		await sim.emitRead({
			objectName: 'contacts',
			records: [{ email: 'a@x' }, { email: 'b@x' }],
			asUrl: true,
		});
		await sim.emitSchemaWatch({
			objectName: 'contacts',
			result: {
				deletedFields: [{ fieldName: 'fax' }],
				changedFields: [
					{ oldSchema: { fieldName: 'age' }, newSchema: { fieldName: 'age', valueType: 'int' } },
				],
			},
		});
		const [reads, schema] = h.started().map((r) => r.items!);
		expect(triggerSchemaErrors('IntegrationPlatformTrigger', 2, [...reads, ...schema])).toEqual([]);
		expect(reads.map((i) => (i.fields as { email: string }).email)).toEqual(['a@x', 'b@x']);
		expect(reads[0].message).toMatchObject({ action: 'read', objectName: 'contacts' });
		expect(reads[0].message).not.toHaveProperty('result');
		expect(reads[0].delivery).toMatchObject({ verified: true });
		expect(schema.map((i) => i.change)).toEqual(['deleted', 'changed']);
		await h.deactivate();
	});

	test('unselected events, types and objects are acknowledged (200) and start nothing', async () => {
		const h = await trigger({
			destinationName: SEED.destinationName,
			onExistingDestination: 'takeOver',
			events: ['read', 'notification'],
			notificationTypes: ['connection.error'],
			objectNames: 'companies',
		});
		await h.activate();
		const secret = await signingSecret(sim, SEED.destinationName);
		await sim.emitRead({ objectName: 'contacts', records: [{}] }); // object not selected
		await sim.emitSubscribe({ objectName: 'contacts', events: [{}] }); // event not selected
		await sim.emitSchemaWatch({ objectName: 'contacts' }); // event not selected
		const other = signed(secret, notificationBody); // type not selected (sent directly: not routed)
		expect(await h.call({ headers: other.headers, raw: other.raw })).toMatchObject({
			status: 200,
			items: undefined,
		});
		const unknown = signed(secret, JSON.stringify({ hello: 'world' }));
		expect(await h.call({ headers: unknown.headers, raw: unknown.raw })).toMatchObject({
			status: 200,
			items: undefined,
		});
		for (const r of h.received) expect(r.status).toBe(200);
		expect(h.started()).toEqual([]);
		await sim.emitRead({ objectName: 'companies', records: [{}] });
		await sim.emitNotification('connection.error');
		expect(h.started()).toHaveLength(2);
		await h.deactivate();
	});

	test('a failed attempt is retried by the simulator and starts the workflow once', async () => {
		const h = await trigger({
			events: ['notification'],
			notificationTypes: ['connection.created'],
		});
		await h.activate();
		h.outage = 503;
		const [first] = await sim.emitNotification('connection.created');
		expect(first.state).toBe('pending');
		h.outage = undefined;
		const done = await sim.deliveries.waitFor(
			(d) => d.id === first.id && d.state === 'delivered',
			5000,
		);
		expect(done.attempts.map((a) => a.status)).toEqual([503, 200]);
		expect(h.started()).toHaveLength(1);
		await h.deactivate();
	});

	test('rotation: the next delivery carries the new secret; one refresh picks it up', async () => {
		const h = await trigger({
			events: ['notification'],
			notificationTypes: ['connection.created'],
		});
		await h.activate();
		await sim.emitNotification('connection.created');
		await api(sim, 'GET', `${P}/destinations/n8n-engine?rotate=true`);
		sim.journal.clear();
		const [after] = await sim.emitNotification('connection.created');
		expect(after.state).toBe('delivered');
		expect(h.started()).toHaveLength(2);
		expect(sim.journal.entries.filter((e) => e.routeId === 'getDestination')).toHaveLength(1);
		await h.deactivate();
	});

	test('forged deliveries cannot make the node hammer the API: at most one refresh', async () => {
		const h = await trigger({ events: ['notification'] });
		await h.activate();
		const secret = await signingSecret(sim, 'n8n-engine');
		const ok = signed(secret, notificationBody);
		expect((await h.call({ headers: ok.headers, raw: ok.raw })).items).toHaveLength(1);
		sim.journal.clear();
		for (let i = 0; i < 20; i++) {
			const forged = signed(`whsec_${Buffer.alloc(24, i).toString('base64')}`, notificationBody);
			expect((await h.call({ headers: forged.headers, raw: forged.raw })).status).toBe(401);
		}
		expect(
			sim.journal.entries.filter((e) => e.routeId === 'getDestination').length,
		).toBeLessThanOrEqual(1);
		await h.deactivate();
	});
});

describe('refusals: status, and nothing starts', () => {
	let h: TriggerHarness;
	let secret: string;
	const now = () => Math.floor(Date.now() / 1000);

	beforeEach(async () => {
		h = await trigger({ events: ['notification'] });
		await h.activate();
		secret = await signingSecret(sim, 'n8n-engine');
	});
	afterEach(async () => await h.deactivate());

	test.each([
		[
			'no signature headers',
			() => ({
				headers: { 'content-type': 'application/json' },
				raw: Buffer.from(notificationBody),
			}),
		],
		[
			'a forged signature',
			() => {
				const r = signed(secret, notificationBody);
				return {
					...r,
					headers: {
						...r.headers,
						'svix-signature': `v1,${Buffer.alloc(32, 7).toString('base64')}`,
					},
				};
			},
		],
		[
			'a wrong secret',
			() => signed(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, notificationBody),
		],
		[
			'a tampered body',
			() => {
				const r = signed(secret, notificationBody);
				return {
					...r,
					raw: Buffer.from(notificationBody.replace('connection.created', 'connection.deleted')),
				};
			},
		],
		['a stale timestamp', () => signed(secret, notificationBody, { timestamp: now() - 301 })],
		['a future timestamp', () => signed(secret, notificationBody, { timestamp: now() + 301 })],
		[
			'a missing id header',
			() => {
				const r = signed(secret, notificationBody);
				const headers: Record<string, string> = { ...r.headers };
				delete headers['svix-id'];
				return { ...r, headers };
			},
		],
		[
			'a wrong-length signature',
			() => {
				const r = signed(secret, notificationBody);
				return {
					...r,
					headers: { ...r.headers, 'svix-signature': r.headers['svix-signature'].slice(0, -4) },
				};
			},
		],
	])('%s → 401', async (_name, build) => {
		const { headers, raw } = build();
		const answer = await h.call({ headers, raw });
		expect(answer).toMatchObject({ status: 401, items: undefined });
		expect(answer.body).toMatch(/^Unauthorized/);
	});

	test('no raw body (multipart or not provided) → 401, never a re-serialised body', async () => {
		const r = signed(secret, notificationBody);
		expect(await h.call({ headers: r.headers, raw: r.raw, withoutRawBody: true })).toMatchObject({
			status: 401,
			items: undefined,
		});
		const multipart = { ...r.headers, 'content-type': 'multipart/form-data; boundary=x' };
		expect(await h.call({ headers: multipart, raw: r.raw })).toMatchObject({
			status: 401,
			items: undefined,
		});
	});

	test('a replay → 401; a fresh signature for an accepted id (redelivery) → 200, not started again', async () => {
		const id = svix.newMessageId();
		const first = signed(secret, notificationBody, { id });
		expect((await h.call({ headers: first.headers, raw: first.raw })).items).toHaveLength(1);
		expect(await h.call({ headers: first.headers, raw: first.raw })).toMatchObject({
			status: 401,
			items: undefined,
		});
		const again = signed(secret, notificationBody, { id, timestamp: now() + 1 });
		expect(await h.call({ headers: again.headers, raw: again.raw })).toMatchObject({
			status: 200,
			items: undefined,
		});
		expect(h.received).toEqual([]);
	});

	test('oversize → 413 before any signature work; non-JSON and non-object JSON → 400', async () => {
		const big = Buffer.from(
			JSON.stringify({
				notificationType: 'connection.created',
				data: { pad: 'x'.repeat(1024 * 1024) },
			}),
		);
		expect(await h.call({ headers: signed(secret, big).headers, raw: big })).toMatchObject({
			status: 413,
			items: undefined,
		});
		expect(
			await h.call({ headers: { 'content-type': 'application/json' }, raw: big }),
		).toMatchObject({ status: 413 });
		for (const body of ['not json', '[1,2]', '"text"', '', Buffer.from([0xff, 0xfe])]) {
			const r = signed(secret, body, { contentType: 'text/plain' });
			expect(await h.call({ headers: r.headers, raw: r.raw })).toMatchObject({
				status: 400,
				items: undefined,
			});
		}
		// The decoder that refused the bytes that are not UTF-8 decodes the next body afresh.
		const valid = signed(secret, notificationBody);
		expect((await h.call({ headers: valid.headers, raw: valid.raw })).items).toHaveLength(1);
		// Unsigned junk is a 401, not a 400: nothing is parsed before the signature.
		expect(
			await h.call({ headers: { 'content-type': 'text/plain' }, raw: Buffer.from('junk') }),
		).toMatchObject({ status: 401 });
	});

	test('webhook-* headers are accepted like svix-* ones', async () => {
		const r = signed(secret, notificationBody, { prefix: 'webhook' });
		expect((await h.call({ headers: r.headers, raw: r.raw })).items).toHaveLength(1);
	});

	test('the secret cannot be fetched → 503, nothing starts; the service will retry', async () => {
		resetTriggerMemory();
		sim.faults.add({ route: 'getDestination', status: 500 });
		const r = signed(secret, notificationBody);
		expect(await h.call({ headers: r.headers, raw: r.raw })).toMatchObject({
			status: 503,
			items: undefined,
		});
		sim.faults.clear();
	});
});

describe('without a credential, or without verification', () => {
	test('secret from the signing-secret credential (two during a rotation): verified; nothing registered', async () => {
		const secret = await signingSecret(sim, SEED.destinationName);
		const h = await trigger(
			{ events: ['notification'] },
			{
				authentication: 'none',
				credential: null,
				signingSecret: `whsec_${Buffer.alloc(24, 9).toString('base64')}, ${secret}`,
			},
		);
		await h.activate();
		expect(registrationState(sim)).toEqual(seeded);
		const r = signed(secret, notificationBody);
		expect((await h.call({ headers: r.headers, raw: r.raw })).items?.[0]).toMatchObject({
			delivery: { verified: true },
		});
		const forged = signed(`whsec_${Buffer.alloc(24, 3).toString('base64')}`, notificationBody);
		expect((await h.call({ headers: forged.headers, raw: forged.raw })).status).toBe(401);
		await h.deactivate();
	});

	describe('reading the signing-secret credential', () => {
		const secretA = `whsec_${Buffer.alloc(24, 11).toString('base64')}`;
		const secretB = `whsec_${Buffer.alloc(24, 12).toString('base64')}`;
		/** What the credential holds now; each read takes 50 ms, so that deliveries overlap it. */
		let stored: string;
		let reads: jest.SpyInstance;

		beforeEach(() => {
			stored = secretA;
			reads = jest
				.spyOn(TestCredentialsHelper.prototype, 'getDecrypted')
				.mockImplementation(async (_data, _nodeCredentials, type) => {
					await new Promise((resolve) => setTimeout(resolve, 50));
					if (type !== SIGNING_SECRET_CREDENTIAL) throw new Error(`unexpected read of ${type}`);
					if (stored === 'unreadable') throw new Error('credential not found');
					return { signingSecret: stored };
				});
		});
		afterEach(() => reads.mockRestore());

		async function secretTrigger() {
			return await trigger(
				{ events: ['notification'] },
				{ authentication: 'none', credential: null, signingSecret: secretA },
			);
		}

		test('deliveries that arrive during a read share it; the next one reads anew, so an edit takes effect at once', async () => {
			const h = await secretTrigger();
			const answers = await Promise.all(
				[1, 2, 3].map(async () => {
					const r = signed(secretA, notificationBody);
					return await h.call({ headers: r.headers, raw: r.raw });
				}),
			);
			expect(answers.map((a) => a.items?.length)).toEqual([1, 1, 1]);
			expect(reads).toHaveBeenCalledTimes(1);

			stored = secretB;
			const withB = signed(secretB, notificationBody);
			expect((await h.call({ headers: withB.headers, raw: withB.raw })).items).toHaveLength(1);
			const withA = signed(secretA, notificationBody);
			expect((await h.call({ headers: withA.headers, raw: withA.raw })).status).toBe(401);
			expect(reads).toHaveBeenCalledTimes(3);
		});

		test('a failed read fails the deliveries that waited for it (500, the sender retries) and is not remembered', async () => {
			const h = await secretTrigger();
			stored = 'unreadable';
			const answers = await Promise.all(
				[1, 2].map(async () => {
					const r = signed(secretA, notificationBody);
					return await h.call({ headers: r.headers, raw: r.raw });
				}),
			);
			expect(answers.map((a) => [a.status, a.items])).toEqual([
				[500, undefined],
				[500, undefined],
			]);
			stored = secretA;
			const again = signed(secretA, notificationBody);
			expect((await h.call({ headers: again.headers, raw: again.raw })).items).toHaveLength(1);
			expect(reads).toHaveBeenCalledTimes(2);
		});

		test('unsigned and stale deliveries are refused before any read', async () => {
			const h = await secretTrigger();
			const raw = Buffer.from(notificationBody);
			expect((await h.call({ headers: { 'content-type': 'application/json' }, raw })).status).toBe(
				401,
			);
			const stale = signed(secretA, notificationBody, {
				timestamp: Math.floor(Date.now() / 1000) - 3600,
			});
			expect((await h.call({ headers: stale.headers, raw: stale.raw })).status).toBe(401);
			expect(reads).not.toHaveBeenCalled();
		});
	});

	test('a Signing Secret From left over from an API credential does not stand in the way', async () => {
		const secret = `whsec_${Buffer.alloc(24, 6).toString('base64')}`;
		const h = await trigger(
			{ events: ['notification'], signingSecretSource: 'destination' },
			{ authentication: 'none', credential: null, signingSecret: secret },
		);
		const r = signed(secret, notificationBody);
		expect((await h.call({ headers: r.headers, raw: r.raw })).items).toHaveLength(1);
	});

	test('a signing-secret credential without a usable secret refuses everything', async () => {
		for (const unusable of ['', 'not base64!']) {
			const h = await trigger(
				{ events: ['notification'] },
				{ authentication: 'none', credential: null, signingSecret: unusable },
			);
			const r = signed(SEED.webhookSigningKey, notificationBody);
			expect((await h.call({ headers: r.headers, raw: r.raw })).status).toBe(401);
		}
	});

	test('with an API credential, the signing-secret credential is used when chosen', async () => {
		const h = await trigger(
			{ signingSecretSource: 'credential', registerDestination: false, events: ['notification'] },
			{ signingSecret: `whsec_${Buffer.alloc(24, 4).toString('base64')}` },
		);
		sim.journal.clear();
		const typed = signed(`whsec_${Buffer.alloc(24, 4).toString('base64')}`, notificationBody);
		expect((await h.call({ headers: typed.headers, raw: typed.raw })).items).toHaveLength(1);
		// The destination's own secret is not fetched, so it does not verify.
		const fetched = signed(SEED.webhookSigningKey, notificationBody);
		expect((await h.call({ headers: fetched.headers, raw: fetched.raw })).status).toBe(401);
		expect(sim.journal.entries.filter((e) => e.routeId === 'getDestination')).toEqual([]);
	});

	test('verification off: unsigned messages start the workflow, marked unverified', async () => {
		const h = await trigger(
			{ verifySignature: false, events: ['notification'] },
			{ authentication: 'none', credential: null },
		);
		const answer = await h.call({
			headers: { 'content-type': 'application/json', 'svix-id': 'msg_x' },
			raw: Buffer.from(notificationBody),
		});
		expect(answer.items?.[0]).toMatchObject({
			event: 'connection.created',
			delivery: { verified: false, id: 'msg_x' },
		});
		// A download URL is not fetched for an unverified message: anyone could name any address.
		const url = JSON.stringify({
			action: 'read',
			objectName: 'contacts',
			resultInfo: { type: 'url', numRecords: 1, downloadUrl: `${sim.apiUrl}/v1/projects` },
		});
		const passed = await h.call({
			headers: { 'content-type': 'application/json' },
			raw: Buffer.from(url),
		});
		expect(passed.items).toBeUndefined(); // read is not selected here; select it and look again
		h.setParameters({ events: ['read'] });
		sim.journal.clear();
		const unfetched = await h.call({
			headers: { 'content-type': 'application/json' },
			raw: Buffer.from(url),
		});
		expect(unfetched.items?.[0]).toMatchObject({
			resultInfo: { type: 'url' },
			delivery: { verified: false },
		});
		expect(unfetched.items?.[0]).not.toHaveProperty('result');
		expect(sim.journal.entries).toEqual([]);
		// Size and JSON are still checked.
		expect(
			(await h.call({ headers: { 'content-type': 'text/plain' }, raw: Buffer.from('x') })).status,
		).toBe(400);
	});
});

test('a configuration the node cannot work with → 500 and a log line, never a failed execution', async () => {
	const h = await trigger({
		project: { __rl: true, mode: 'id', value: '' },
		events: ['notification'],
	});
	const r = signed(SEED.webhookSigningKey, notificationBody);
	expect(await h.call({ headers: r.headers, raw: r.raw })).toMatchObject({
		status: 500,
		items: undefined,
	});
});

describe('download failures', () => {
	test("an expired or failing download URL → 502, not started; the retry within the URL's life succeeds", async () => {
		const local = await startSim({
			httpsWebhooksOnly: false,
			deliveries: { retryDelaysMs: [50], downloadTtlMs: 60_000 },
		});
		try {
			const h = new TriggerHarness(local, {
				parameters: {
					project,
					destinationName: SEED.destinationName,
					onExistingDestination: 'takeOver',
					events: ['read'],
					options: LOCAL_DOWNLOADS,
				} as never,
			});
			await h.listen();
			harnesses.push(h);
			await h.activate();
			// The first GET of the download link fails.
			let failNext = true;
			const original = local.deliveries as unknown as {
				download(id: string): { status: number; body: string };
			};
			const download = original.download.bind(original);
			original.download = (id: string) => {
				if (failNext) {
					failNext = false;
					return { status: 500, body: '{}' };
				}
				return download(id);
			};
			const first = await local.emitRead({
				objectName: 'contacts',
				records: [{ email: 'a@x' }],
				asUrl: true,
			});
			expect(first.attempts[0].status).toBe(502);
			const done = await local.deliveries.waitFor(
				(d) => d.id === first.id && d.state === 'delivered',
				5000,
			);
			expect(done.attempts.map((a) => a.status)).toEqual([502, 200]);
			expect(h.started()).toHaveLength(1);
			expect(h.started()[0].items![0].result).toEqual([
				{ fields: { email: 'a@x' }, mappedFields: {}, raw: { email: 'a@x' } },
			]);
			await h.deactivate();
		} finally {
			await local.close();
		}
	});
});
