'use strict';

// These tests wait for the simulator's processes, timers and sockets: a deadline only a hang
// reaches (Jest's default of 5 s can be reached by a loaded machine).
jest.setTimeout(60_000);

// Signed deliveries, retries, notification routing and download URLs (simulator/deliveries.js).

const http = require('node:http');
const { createHmac } = require('node:crypto');
const { setup, P, SEED } = require('./helpers');
const { signOnce, signature, signedHeaders, newMessageId } = require('../../simulator/svixSign');
const { SVIX_RETRY_DELAYS_MS } = require('../../simulator/deliveries');
const { fakeDateOnly } = require('../../harness/fakeDate');

/** A local endpoint that records requests and answers with the next queued status (default 200). */
async function receiver() {
	const requests = [];
	const statuses = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', async () => {
			requests.push({ headers: req.headers, body: Buffer.concat(chunks), url: req.url });
			// a status, or a function giving one (or a promise of one: the answer waits for it)
			const next = statuses.length ? statuses.shift() : 200;
			const status = await (typeof next === 'function' ? next() : next);
			res.writeHead(status, { 'content-type': 'text/plain' });
			res.end(String(status));
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${server.address().port}/hook`;
	return { url, requests, statuses, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** An independent check of a Svix signature header (not the simulator's signer). */
function verifies(secret, headers, body) {
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	const expected = createHmac('sha256', key)
		.update(`${headers['svix-id']}.${headers['svix-timestamp']}.`)
		.update(body)
		.digest('base64');
	return headers['svix-signature'].split(' ').some((entry) => entry === `v1,${expected}`);
}

let t;
let hook;
beforeAll(async () => {
	t = await setup({
		httpsWebhooksOnly: false,
		deliveries: { retryDelaysMs: [30, 30, 30], downloadTtlMs: 400 },
	});
	hook = await receiver();
});
afterEach(() => {
	jest.useRealTimers();
	t.sim.reset();
	hook.requests.length = 0;
	hook.statuses.length = 0;
});
afterAll(async () => {
	await t.sim.close();
	await hook.close();
});

/** Points the seeded webhook destination at the local receiver (it is https://hooks.example.com). */
async function seededDestinationHere() {
	const res = await t.api.patch(`${P}/destinations/${SEED.destinationId}`, {
		updateMask: ['metadata.url'],
		destination: { metadata: { url: hook.url } },
	});
	expect(res.status).toBe(200);
}

async function secretOf(name) {
	return (await t.api.get(`${P}/destinations/${name}`, { params: { includeSecrets: true } })).data
		.secrets.webhookSigningKey;
}

describe('signer', () => {
	test('reproduces the Standard Webhooks / Svix published vectors', () => {
		expect(
			signOnce(
				'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
				'msg_p5jXN8AQM9LWM0D4loKWxJek',
				1614265330,
				'{"test": 2432232314}',
			),
		).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
		expect(
			signOnce(
				'whsec_plJ3nmyCDGBKInavdOK15jsl',
				'msg_loFOjxBNrRLzqYUf',
				1731705121,
				'{"event_type":"ping","data":{"success":true}}',
			),
		).toBe('v1,rAvfW3dJ/X/qxhsaXPOyyCGmRKsaKWcsNccKXlIktD0=');
		// Bare base64 secrets sign alike; several secrets give space-separated entries.
		expect(
			signOnce(
				'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
				'msg_p5jXN8AQM9LWM0D4loKWxJek',
				1614265330,
				Buffer.from('{"test": 2432232314}'),
			),
		).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
		expect(
			signature(
				['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', SEED.webhookSigningKey],
				'm',
				1,
				'{}',
			).split(' '),
		).toHaveLength(2);
		expect(
			Object.keys(
				signedHeaders({ secrets: 'whsec_AAAA', msgId: 'm', body: '', prefix: 'webhook' }),
			),
		).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
		expect(newMessageId()).toMatch(/^msg_[0-9A-Za-z]{27}$/);
	});
});

describe('deliver', () => {
	test('POSTs the JSON body with svix headers signed by the destination secret', async () => {
		await seededDestinationHere();
		const record = await t.sim.deliver({
			destination: SEED.destinationName,
			message: { hello: 'world' },
		});
		expect(record).toMatchObject({
			state: 'delivered',
			destinationId: SEED.destinationId,
			attempts: [{ attempt: 1, status: 200, url: hook.url }],
		});
		expect(hook.requests).toHaveLength(1);
		const { headers, body } = hook.requests[0];
		expect(body.toString()).toBe('{"hello":"world"}');
		expect(headers['content-type']).toBe('application/json');
		expect(headers['svix-id']).toBe(record.id);
		// the current time in seconds (Svix's own tolerance is 5 minutes; a loaded machine may take
		// seconds between signing and this line)
		expect(Math.abs(Number(headers['svix-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
		expect(verifies(SEED.webhookSigningKey, headers, body)).toBe(true);
		expect(verifies('whsec_' + Buffer.alloc(24).toString('base64'), headers, body)).toBe(false);
	});

	test('a string message is sent as is; custom destination headers travel along', async () => {
		const created = await t.api.post(`${P}/destinations`, {
			name: 'with-headers',
			type: 'webhook',
			metadata: { url: hook.url, headers: { 'X-Custom': 'yes' } },
		});
		expect(created.status).toBe(201);
		await t.sim.deliver({ destination: 'with-headers', message: 'not json' });
		expect(hook.requests[0].body.toString()).toBe('not json');
		expect(hook.requests[0].headers['x-custom']).toBe('yes');
		expect(
			verifies(await secretOf('with-headers'), hook.requests[0].headers, hook.requests[0].body),
		).toBe(true);
	});

	test('retries on failure with the same id and a fresh signature, then succeeds', async () => {
		await seededDestinationHere();
		hook.statuses.push(500, 401);
		const first = await t.sim.deliver({ destination: SEED.destinationId, message: { n: 1 } });
		expect(first.state).toBe('pending');
		expect(first.attempts).toEqual([expect.objectContaining({ attempt: 1, status: 500 })]);
		expect(first.nextAttemptAt).toEqual(expect.any(String));
		const done = await t.sim.deliveries.waitFor(
			(d) => d.id === first.id && d.state !== 'pending',
			5000,
		);
		expect(done.state).toBe('delivered');
		expect(done.attempts.map((a) => a.status)).toEqual([500, 401, 200]);
		expect(new Set(hook.requests.map((r) => r.headers['svix-id']))).toEqual(new Set([first.id]));
		for (const r of hook.requests)
			expect(verifies(SEED.webhookSigningKey, r.headers, r.body)).toBe(true);
	});

	test('gives up after the last scheduled attempt; unreachable endpoints count as failures', async () => {
		await seededDestinationHere();
		hook.statuses.push(503, 503, 503, 503);
		const first = await t.sim.deliver({ destination: SEED.destinationName, message: {} });
		const done = await t.sim.deliveries.waitFor(
			(d) => d.id === first.id && d.state === 'failed',
			5000,
		);
		expect(done.attempts.map((a) => a.status)).toEqual([503, 503, 503, 503]);

		await t.api.patch(`${P}/destinations/${SEED.destinationId}`, {
			updateMask: ['metadata.url'],
			destination: { metadata: { url: 'http://127.0.0.1:9/closed' } },
		});
		const unreachable = await t.sim.deliver({ destination: SEED.destinationName, message: {} });
		expect(unreachable.attempts[0]).toMatchObject({ status: null, error: expect.any(String) });
	});

	test('signs each attempt with the current secret: a rotation between attempts is used at once', async () => {
		await seededDestinationHere();
		// The first attempt's answer (500) waits until the secret is rotated, so the retry comes
		// after the rotation however slow the machine is (not 30 ms after a fast answer).
		let arrived;
		const firstArrived = new Promise((resolve) => (arrived = resolve));
		let release;
		const rotatedNow = new Promise((resolve) => (release = resolve));
		hook.statuses.push(() => {
			arrived();
			return rotatedNow.then(() => 500);
		});
		const delivering = t.sim.deliver({ destination: SEED.destinationName, message: { r: 1 } });
		await firstArrived;
		const rotated = await t.api.get(`${P}/destinations/${SEED.destinationName}`, {
			params: { rotate: true, includeSecrets: true },
		});
		release();
		const first = await delivering;
		const fresh = rotated.data.secrets.webhookSigningKey;
		expect(fresh).not.toBe(SEED.webhookSigningKey);
		await t.sim.deliveries.waitFor((d) => d.id === first.id && d.state === 'delivered', 5000);
		const [before, after] = hook.requests;
		expect(verifies(SEED.webhookSigningKey, before.headers, before.body)).toBe(true);
		expect(verifies(fresh, after.headers, after.body)).toBe(true);
		expect(verifies(SEED.webhookSigningKey, after.headers, after.body)).toBe(false);
	});

	test('extraSecrets add signatures, as during a rotation overlap', async () => {
		await seededDestinationHere();
		const old = 'whsec_' + Buffer.from('an-older-signing-key-0001').toString('base64');
		await t.sim.deliver({ destination: SEED.destinationName, message: {}, extraSecrets: [old] });
		const { headers, body } = hook.requests[0];
		expect(headers['svix-signature'].split(' ')).toHaveLength(2);
		expect(verifies(old, headers, body)).toBe(true);
		expect(verifies(SEED.webhookSigningKey, headers, body)).toBe(true);
	});

	test('non-webhook destinations are skipped; unknown ones throw', async () => {
		const record = await t.sim.deliver({ destination: SEED.kinesisDestinationName, message: {} });
		expect(record).toMatchObject({ state: 'skipped', attempts: [] });
		await expect(t.sim.deliver({ destination: 'nope', message: {} })).rejects.toThrow(
			/Unknown destination/,
		);
	});

	test('reset cancels pending retries and clears the log', async () => {
		await seededDestinationHere();
		hook.statuses.push(500, 500, 500);
		await t.sim.deliver({ destination: SEED.destinationName, message: {} });
		t.sim.reset();
		await new Promise((r) => setTimeout(r, 150));
		expect(t.sim.deliveries.list()).toEqual([]);
		expect(hook.requests).toHaveLength(1);
	});

	test("the default schedule is Svix's", () => {
		expect(SVIX_RETRY_DELAYS_MS.map((ms) => ms / 1000)).toEqual([
			5, 300, 1800, 7200, 18000, 36000, 36000,
		]);
	});
});

describe('notifications', () => {
	async function route(eventTypes) {
		const destination = (
			await t.api.post(`${P}/destinations`, {
				name: 'notified',
				type: 'webhook',
				metadata: { url: hook.url },
			})
		).data;
		const topic = (await t.api.post(`${P}/topics`, { name: 'notified-topic' })).data;
		for (const eventType of eventTypes) {
			expect(
				(await t.api.post(`${P}/notification-event-topic-routes`, { eventType, topicId: topic.id }))
					.status,
			).toBe(201);
		}
		expect(
			(
				await t.api.post(`${P}/topic-destination-routes`, {
					topicId: topic.id,
					destinationId: destination.id,
				})
			).status,
		).toBe(201);
		return { destination, topic };
	}

	test('follow event type → event route → topic → topic route → destination', async () => {
		const { destination } = await route(['installation.created', 'write.async.done']);
		const [record] = await t.sim.emitNotification('write.async.done', {
			success: false,
			errors: ['bad'],
		});
		expect(record).toMatchObject({
			state: 'delivered',
			destinationId: destination.id,
			kind: 'notification',
			eventType: 'write.async.done',
		});
		const body = JSON.parse(hook.requests[0].body.toString());
		expect(body).toEqual({
			notificationType: 'write.async.done',
			data: expect.objectContaining({
				projectId: SEED.projectId,
				installationId: SEED.installationId,
				objectName: 'contacts',
				success: false,
				errors: ['bad'],
			}),
		});
		expect(
			verifies(await secretOf('notified'), hook.requests[0].headers, hook.requests[0].body),
		).toBe(true);
		expect(await t.sim.emitNotification('read.backfill.done')).toEqual([]);
		await expect(t.sim.emitNotification('no.such.type')).rejects.toThrow(
			/Unknown notification type/,
		);
	});

	test('one copy per destination even when two topics lead to it; connection payloads have ConnectionData', async () => {
		const { destination } = await route(['connection.error']);
		const second = (await t.api.post(`${P}/topics`, { name: 'second-topic' })).data;
		await t.api.post(`${P}/notification-event-topic-routes`, {
			eventType: 'connection.error',
			topicId: second.id,
		});
		await t.api.post(`${P}/topic-destination-routes`, {
			topicId: second.id,
			destinationId: destination.id,
		});
		await seededDestinationHere(); // the seed routes connection.error → alerts → n8n-webhook
		const records = await t.sim.emitNotification('connection.error');
		expect(records.map((r) => r.destinationName).sort()).toEqual(['n8n-webhook', 'notified']);
		const data = JSON.parse(hook.requests[0].body.toString()).data;
		expect(data).toEqual(
			expect.objectContaining({
				connectionId: SEED.connectionId,
				consumerRef: SEED.consumerRef,
				errors: expect.any(Array),
			}),
		);
		expect(data).not.toHaveProperty('groupName');
	});

	test('deleting the route stops the deliveries', async () => {
		const { destination, topic } = await route(['connection.created']);
		const tdr = (
			await t.api.get(`${P}/topic-destination-routes`, {
				params: { topicId: topic.id, destinationId: destination.id },
			})
		).data[0];
		expect((await t.api.delete(`${P}/topic-destination-routes/${tdr.id}`)).status).toBe(204);
		expect(await t.sim.emitNotification('connection.created')).toEqual([]);
	});
});

describe('data messages', () => {
	test('read, inline: to the destination the installation config names, with the WebhookMessage fields', async () => {
		await seededDestinationHere();
		const record = await t.sim.emitRead({
			objectName: 'companies',
			records: [{ name: 'Acme' }, { fields: { name: 'Beta' }, raw: { name: 'Beta', id: 2 } }],
		});
		expect(record).toMatchObject({
			state: 'delivered',
			destinationName: SEED.destinationName,
			kind: 'read',
		});
		const body = JSON.parse(hook.requests[0].body.toString());
		expect(body).toMatchObject({
			action: 'read',
			projectId: SEED.projectId,
			provider: SEED.provider,
			groupRef: SEED.groupRef,
			groupName: SEED.groupName,
			installationId: SEED.installationId,
			installationUpdateTime: expect.any(String),
			objectName: 'companies',
			operationId: expect.any(String),
			readType: 'scheduled',
			consumerRef: SEED.consumerRef,
			consumerName: SEED.consumerName,
			resultInfo: { type: 'inline', numRecords: 2 },
			result: [
				{ fields: { name: 'Acme' }, mappedFields: {}, raw: { name: 'Acme' } },
				{ fields: { name: 'Beta' }, raw: { name: 'Beta', id: 2 } },
			],
		});
	});

	test('read, url: the records are served at a pre-signed link until it expires', async () => {
		// Only Date is faked (timers and I/O stay real): the link's 400 ms pass when the test says,
		// not while a slow machine serves the first download.
		fakeDateOnly();
		await seededDestinationHere();
		await t.sim.emitRead({
			objectName: 'contacts',
			records: [{ email: 'a@x' }, { email: 'b@x' }],
			asUrl: true,
		});
		const body = JSON.parse(hook.requests[0].body.toString());
		expect(body).not.toHaveProperty('result');
		expect(body.resultInfo).toEqual({
			type: 'url',
			numRecords: 2,
			downloadUrl: expect.stringMatching(new RegExp(`^${t.sim.apiUrl}/__downloads/`)),
		});
		const got = await t.client('').get(body.resultInfo.downloadUrl);
		expect(got.status).toBe(200);
		expect(got.data.map((r) => r.fields.email)).toEqual(['a@x', 'b@x']);
		jest.setSystemTime(Date.now() + 399);
		expect((await t.client('').get(body.resultInfo.downloadUrl)).status).toBe(200);
		jest.setSystemTime(Date.now() + 2);
		expect((await t.client('').get(body.resultInfo.downloadUrl)).status).toBe(403);
		expect((await t.client('').get(`${t.sim.apiUrl}/__downloads/unknown`)).status).toBe(404);
		expect((await t.client('').post(body.resultInfo.downloadUrl)).status).toBe(405);
	});

	test('read, auto: results above 300 KB go out as a URL', async () => {
		await seededDestinationHere();
		const big = Array.from({ length: 40 }, (_, i) => ({ id: i, blob: 'x'.repeat(10_000) }));
		await t.sim.emitRead({ objectName: 'contacts', records: big });
		const body = JSON.parse(hook.requests[0].body.toString());
		expect(body.resultInfo).toMatchObject({ type: 'url', numRecords: 40 });
	});

	test('subscribe: entries with subscribe extras, no operationId or readType', async () => {
		await seededDestinationHere();
		await t.sim.emitSubscribe({
			objectName: 'contacts',
			events: [
				{ subscribeEventType: 'create', fields: { email: 'n@x' } },
				{ subscribeEventType: 'delete', id: '7' },
			],
		});
		const body = JSON.parse(hook.requests[0].body.toString());
		expect(body).toMatchObject({
			action: 'subscribe',
			objectName: 'contacts',
			resultInfo: { type: 'inline', numRecords: 2 },
		});
		expect(body).not.toHaveProperty('operationId');
		expect(body).not.toHaveProperty('readType');
		expect(body.result.map((e) => e.subscribeEventType)).toEqual(['create', 'delete']);
		expect(body.result[1]).toMatchObject({ id: '7', providerEventType: 'contacts.delete' });
	});

	test('schema.watch: result is an object, no resultInfo; destination from the manifest', async () => {
		await seededDestinationHere();
		await t.sim.emitSchemaWatch({
			objectName: 'contacts',
			result: { createdFields: [{ fieldName: 'nickname', valueType: 'string' }] },
		});
		const body = JSON.parse(hook.requests[0].body.toString());
		expect(body).toMatchObject({
			action: 'schema.watch',
			objectName: 'contacts',
			result: { createdFields: [{ fieldName: 'nickname' }], deletedFields: [], changedFields: [] },
		});
		expect(body).not.toHaveProperty('resultInfo');
	});

	test('an explicit destination overrides the one the installation names', async () => {
		await t.api.post(`${P}/destinations`, {
			name: 'elsewhere',
			type: 'webhook',
			metadata: { url: hook.url },
		});
		const record = await t.sim.emitRead({
			objectName: 'contacts',
			records: [],
			destination: 'elsewhere',
		});
		expect(record.destinationName).toBe('elsewhere');
		await expect(t.sim.emitRead({ objectName: 'deals', records: [] })).rejects.toThrow(
			/No destination is named/,
		);
	});
});

describe('the copy for a trigger listening in the editor', () => {
	/** What the event trigger registers while n8n's editor listens: `<name>-test`, to `url`. */
	async function testDestination(url) {
		const res = await t.api.post(`${P}/destinations`, {
			name: `${SEED.destinationName}-test`,
			type: 'webhook',
			metadata: { url },
		});
		expect(res.status).toBe(201);
	}

	test('an emit reaches the named destination and its -test twin, each signed with its own secret', async () => {
		const listening = await receiver();
		try {
			await seededDestinationHere();
			await testDestination(listening.url);
			const record = await t.sim.emitRead({ objectName: 'contacts', records: [{ a: 1 }] });
			expect(record).toMatchObject({ state: 'delivered', destinationName: SEED.destinationName });
			expect(record.testCopy).toMatchObject({
				state: 'delivered',
				destinationName: `${SEED.destinationName}-test`,
				kind: 'read',
			});
			expect(hook.requests).toHaveLength(1);
			expect(listening.requests).toHaveLength(1);
			expect(listening.requests[0].body.equals(hook.requests[0].body)).toBe(true);
			const testSecret = await secretOf(`${SEED.destinationName}-test`);
			expect(verifies(testSecret, listening.requests[0].headers, listening.requests[0].body)).toBe(
				true,
			);
			expect(verifies(testSecret, hook.requests[0].headers, hook.requests[0].body)).toBe(false);

			await t.sim.emitSubscribe({ objectName: 'contacts', events: [{}] });
			await t.sim.emitSchemaWatch({ objectName: 'contacts' });
			expect(listening.requests).toHaveLength(3);
		} finally {
			await listening.close();
		}
	});

	test('the copy goes even when the named destination does not answer; none without a twin', async () => {
		const listening = await receiver();
		try {
			// As n8n answers for a workflow that is not active: 404.
			await seededDestinationHere();
			hook.statuses.push(404);
			await testDestination(listening.url);
			const record = await t.sim.emitRead({ objectName: 'contacts', records: [] });
			expect(record.state).not.toBe('delivered');
			expect(record.testCopy.state).toBe('delivered');
			t.sim.reset();
			await seededDestinationHere();
			expect(await t.sim.emitRead({ objectName: 'contacts', records: [] })).not.toHaveProperty(
				'testCopy',
			);
		} finally {
			await listening.close();
		}
	});

	test('testCopy: false or an explicit destination sends to one destination only', async () => {
		await seededDestinationHere();
		await testDestination(hook.url);
		const off = await t.sim.emitRead({ objectName: 'contacts', records: [], testCopy: false });
		expect(off).not.toHaveProperty('testCopy');
		const explicit = await t.sim.emitRead({
			objectName: 'contacts',
			records: [],
			destination: SEED.destinationName,
		});
		expect(explicit).not.toHaveProperty('testCopy');
		expect(hook.requests).toHaveLength(2);
		const over = await t.control.post('/emit/read', {
			objectName: 'contacts',
			records: [],
			testCopy: false,
		});
		expect(over.data).not.toHaveProperty('testCopy');
	});
});

describe('control API', () => {
	test('deliveries, notifications and emits over HTTP', async () => {
		await seededDestinationHere();
		const sent = await t.control.post('/deliveries', {
			destination: SEED.destinationName,
			message: { via: 'control' },
		});
		expect(sent.status).toBe(201);
		expect(sent.data).toMatchObject({ state: 'delivered', attempts: [{ status: 200 }] });
		expect((await t.control.post('/deliveries', {})).status).toBe(400);
		expect((await t.control.get(`/deliveries/${sent.data.id}`)).data.id).toBe(sent.data.id);
		expect((await t.control.get('/deliveries/nope')).status).toBe(404);

		const notified = await t.control.post('/notifications', { eventType: 'connection.error' });
		expect(notified.status).toBe(201);
		expect(notified.data.deliveries).toHaveLength(1);
		expect(
			(await t.control.post('/emit/read', { objectName: 'companies', records: [{ a: 1 }] })).data
				.kind,
		).toBe('read');
		expect(
			(await t.control.post('/emit/subscribe', { objectName: 'contacts', events: [{}] })).data.kind,
		).toBe('subscribe');
		expect((await t.control.post('/emit/schema-watch', { objectName: 'contacts' })).data.kind).toBe(
			'schema.watch',
		);
		expect((await t.control.post('/emit/read', { objectName: 'deals' })).status).toBe(400);

		const log = await t.control.get('/deliveries', { params: { kind: 'read' } });
		expect(log.data.deliveries).toHaveLength(1);
		expect((await t.control.get('/deliveries')).data.deliveries).toHaveLength(5);
		expect((await t.control.delete('/deliveries')).status).toBe(204);
		expect((await t.control.get('/deliveries')).data.deliveries).toEqual([]);
	});
});
