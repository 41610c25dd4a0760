'use strict';

// The data plane (docs/api-notes.md, "Data plane"): the write, search and proxy hosts, and the read
// host's triggerRead and deliverResults, over one record store.

const http = require('node:http');
const { setup, expectProblem, SEED } = require('./helpers');
const { ROUTES } = require('../../simulator');
const { verifySignature, decodeSecret } = require('../../../nodes/IntegrationPlatformTrigger/svix');

const I = `/projects/${SEED.projectName}/integrations/${SEED.integrationId}`;
const CONTACTS = `${I}/objects/contacts`;

/** A local endpoint that records the deliveries it gets (always 200). */
async function receiver() {
	const requests = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			requests.push({ headers: req.headers, body: Buffer.concat(chunks) });
			res.writeHead(200);
			res.end();
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${server.address().port}/hook`;
	return { url, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

let t;
let hook;
let write;
let search;
let searchBearer;
let proxy;
const PROXY_HEADERS = {
	'x-api-key': SEED.apiKey,
	'x-amp-project-id': SEED.projectId,
	'x-amp-proxy-version': '1',
	'x-amp-installation-id': SEED.installationId,
};

beforeAll(async () => {
	t = await setup({ httpsWebhooksOnly: false, deliveries: { retryDelaysMs: [20] } });
	hook = await receiver();
	write = t.client(`${t.sim.writeUrl}/v1`, { 'X-Api-Key': SEED.apiKey });
	search = t.client(`${t.sim.searchUrl}/v1`, { 'X-Api-Key': SEED.apiKey });
	searchBearer = t.client(`${t.sim.searchUrl}/v1`, {
		Authorization: `Bearer ${SEED.bearerToken}`,
	});
	proxy = t.client(t.sim.proxyUrl, PROXY_HEADERS);
});
afterEach(async () => {
	await t.sim.whenIdle();
	t.sim.reset();
	hook.requests.length = 0;
});
afterAll(async () => {
	await t.sim.close();
	await hook.close();
});

/** Points the seeded webhook destination (named by the installation for contacts) at the receiver. */
async function destinationHere() {
	const res = await t.api.patch(
		`/projects/${SEED.projectName}/destinations/${SEED.destinationId}`,
		{
			updateMask: ['metadata.url'],
			destination: { metadata: { url: hook.url } },
		},
	);
	expect(res.status).toBe(200);
}

/** Routes a notification type to the seeded topic, whose route leads to the seeded destination. */
async function routeNotification(eventType) {
	const res = await t.api.post(`/projects/${SEED.projectName}/notification-event-topic-routes`, {
		eventType,
		topicId: SEED.topicId,
	});
	expect(res.status).toBe(201);
}

const create = (record, extra = {}) =>
	write.post(CONTACTS, { groupRef: SEED.groupRef, type: 'create', record, ...extra });
const searchFor = (fieldFilters, objectName = 'contacts') =>
	search.post(I, { objectName, fieldFilters }, { params: { groupRef: SEED.groupRef } });

describe('hosts and routes', () => {
	test('five origins; the data-plane routes carry the real operationIds; the proxy is no route', () => {
		const origins = [t.sim.apiUrl, t.sim.readUrl, t.sim.writeUrl, t.sim.searchUrl, t.sim.proxyUrl];
		expect(new Set(origins).size).toBe(5);
		for (const url of origins) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		const find = (id) => ROUTES.find((r) => r.id === id);
		expect(find('writeRecords')).toMatchObject({ host: 'write', method: 'POST', auth: 'apiKey' });
		expect(find('triggerRead')).toMatchObject({ host: 'read', method: 'POST', auth: 'apiKey' });
		expect(find('deliverResults')).toMatchObject({ host: 'read', auth: 'apiKey' });
		expect(find('searchRecords')).toMatchObject({ host: 'search', auth: 'any' });
		expect(ROUTES.some((r) => r.id === 'proxy')).toBe(false);
	});

	test('a data-plane path on another host is a 404 naming the right host', async () => {
		const res = await write.post(I, { objectName: 'contacts', fieldFilters: [] });
		expect(expectProblem(res, 404).remedy).toMatch(/search host \(search\.withampersand\.com\)/);
	});
});

describe('writeRecords', () => {
	test('single create: 200 {operationId, result: {success, recordId, data}}; mapped names stored as provider names', async () => {
		const res = await create({ email: 'new@acme.example', firstName: 'Neu' });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(Object.keys(res.data).sort()).toEqual(['operationId', 'result']);
		expect(res.data.result).toEqual({
			success: true,
			recordId: expect.stringMatching(/^\d+$/),
			data: { id: res.data.result.recordId, email: 'new@acme.example', firstname: 'Neu' },
		});
		const stored = t.sim.state.records
			.get(`${SEED.installationId}/contacts`)
			.get(res.data.result.recordId);
		expect(stored.fields).toEqual({ email: 'new@acme.example', firstname: 'Neu' });
	});

	test('single failures: 422 {operationId, errors, result: {success: false}}', async () => {
		const bad = await create({ email: 'no-at-sign' });
		expect(bad.status).toBe(422);
		expect(bad.data).toEqual({
			operationId: expect.any(String),
			errors: [{ message: 'Email address no-at-sign is invalid' }],
			result: { success: false },
		});
		const missing = await write.post(CONTACTS, {
			groupRef: SEED.groupRef,
			type: 'update',
			record: { id: '424242', email: 'x@y.example' },
		});
		expect(missing.status).toBe(422);
		expect(missing.data.errors).toEqual([{ message: 'The record with ID 424242 was not found' }]);
	});

	test('update merges; delete answers success without recordId and removes the record', async () => {
		const updated = await write.post(CONTACTS, {
			groupRef: SEED.groupRef,
			type: 'update',
			mode: 'synchronous',
			record: { id: SEED.contactId, lastName: 'King' },
		});
		expect(updated.status).toBe(200);
		expect(updated.data.result).toMatchObject({
			success: true,
			recordId: SEED.contactId,
			data: { email: SEED.contactEmail, lastname: 'King' },
		});
		const deleted = await write.post(CONTACTS, {
			groupRef: SEED.groupRef,
			type: 'delete',
			record: { id: SEED.contactId },
		});
		expect(deleted.status).toBe(200);
		expect(deleted.data.result).toEqual({ success: true });
		expect(t.sim.state.records.get(`${SEED.installationId}/contacts`).has(SEED.contactId)).toBe(
			false,
		);
	});

	test('batch with a failing record: 200, results in order, errors name the record', async () => {
		const res = await write.post(CONTACTS, {
			groupRef: SEED.groupRef,
			type: 'create',
			batch: [{ record: { email: 'a@acme.example' } }, { record: { email: 'broken' } }],
		});
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			operationId: expect.any(String),
			successCount: 1,
			failureCount: 1,
			results: [
				{ success: true, recordId: expect.stringMatching(/^\d+$/) },
				{
					success: false,
					data: { message: 'Email address broken is invalid', errorCode: 'INVALID_EMAIL' },
				},
			],
			errors: [{ message: 'record 1: Email address broken is invalid' }],
		});
	});

	test('batch where every record fails: 422 in the batch shape', async () => {
		const res = await write.post(CONTACTS, {
			groupRef: SEED.groupRef,
			type: 'update',
			batch: [{ record: { id: '1', email: 'x@y.z' } }, { record: { id: '2' } }],
		});
		expect(res.status).toBe(422);
		expect(res.data).toMatchObject({ successCount: 0, failureCount: 2 });
		expect(res.data.results.map((r) => r.data.errorCode)).toEqual([
			'OBJECT_NOT_FOUND',
			'OBJECT_NOT_FOUND',
		]);
	});

	test('allOrNone with a failure: 422, nothing kept, the failing record carries its reason', async () => {
		const before = t.sim.state.records.get(`${SEED.installationId}/contacts`).size;
		const res = await write.post(CONTACTS, {
			groupRef: SEED.groupRef,
			type: 'create',
			batchPolicy: { allOrNone: true },
			batch: [{ record: { email: 'ok@acme.example' } }, { record: { email: 'nope' } }],
		});
		expect(res.status).toBe(422);
		expect(res.data).toEqual({
			operationId: expect.any(String),
			successCount: 0,
			failureCount: 2,
			results: [
				{ success: false },
				{
					success: false,
					data: { message: 'Email address nope is invalid', errorCode: 'INVALID_EMAIL' },
				},
			],
			errors: [{ message: 'Batch write failed: provider rolled back all records' }],
		});
		expect(t.sim.state.records.get(`${SEED.installationId}/contacts`).size).toBe(before);
		const ok = await write.post(CONTACTS, {
			groupRef: SEED.groupRef,
			type: 'create',
			batchPolicy: { allOrNone: true },
			batch: [{ record: { email: 'one@acme.example' } }, { record: { email: 'two@acme.example' } }],
		});
		expect(ok.status).toBe(200);
		expect(ok.data).toMatchObject({ successCount: 2, failureCount: 0 });
		expect(ok.data.errors).toBeUndefined();
	});

	const base = { groupRef: SEED.groupRef, type: 'create', record: { email: 'a@b.c' } };
	test.each([
		['no groupRef', { type: 'create', record: {} }, /groupRef is required/],
		['no type', { groupRef: SEED.groupRef, record: {} }, /type is required/],
		['an unknown type', { ...base, type: 'upsert' }, /type must be one of: create, update, delete/],
		[
			'an unknown mode',
			{ ...base, mode: 'sync' },
			/mode must be one of: synchronous, asynchronous/,
		],
		['record and batch', { ...base, batch: [{ record: {} }] }, /either record or batch, not both/],
		[
			'neither record nor batch',
			{ groupRef: SEED.groupRef, type: 'create' },
			/record or batch is required/,
		],
		['an empty batch', { groupRef: SEED.groupRef, type: 'create', batch: [] }, /at least 1 item/],
		[
			'101 records',
			{ groupRef: SEED.groupRef, type: 'create', batch: Array(101).fill({ record: {} }) },
			/at most 100 item/,
		],
		[
			'a batch entry without record',
			{ groupRef: SEED.groupRef, type: 'create', batch: [{}] },
			/batch\[0\]\.record is required/,
		],
		[
			'a delete batch',
			{ groupRef: SEED.groupRef, type: 'delete', batch: [{ record: { id: '1' } }] },
			/create and update only/,
		],
		[
			'an asynchronous delete',
			{ groupRef: SEED.groupRef, type: 'delete', mode: 'asynchronous', record: { id: '1' } },
			/delete is synchronous only/,
		],
		[
			'a delete without id',
			{ groupRef: SEED.groupRef, type: 'delete', record: {} },
			/record\.id is required for delete/,
		],
		[
			'an update without id',
			{ groupRef: SEED.groupRef, type: 'update', record: { email: 'a@b' } },
			/record\.id is required for update/,
		],
		[
			'a batch update without ids',
			{ groupRef: SEED.groupRef, type: 'update', batch: [{ record: { id: '1' } }, { record: {} }] },
			/batch\[1\]\.record\.id is required/,
		],
		[
			'autoBatchPolicy on a synchronous write',
			{ ...base, autoBatchPolicy: { maxDelayMinutes: 5 } },
			/asynchronous single-record/,
		],
	])('400 text/plain for %s', async (_name, body, message) => {
		const res = await write.post(CONTACTS, body);
		expect(res.status).toBe(400);
		expect(res.headers['content-type']).toMatch(/^text\/plain/);
		expect(res.data).toMatch(message);
	});

	test('400 text/plain for a body that is not JSON; nothing is written for a 400', async () => {
		const res = await write.post(CONTACTS, '{"groupRef":', {
			headers: { 'Content-Type': 'application/json' },
			transformRequest: [(data) => data],
		});
		expect(res.status).toBe(400);
		expect(res.headers['content-type']).toMatch(/^text\/plain/);
		expect(res.data).toMatch(/^Malformed JSON body/);
		expect([...t.sim.state.operations.values()].some((o) => o.actionType === 'write')).toBe(false);
	});

	test('unknown groupRef or integration: 404 problem documents', async () => {
		const group = await write.post(CONTACTS, { ...base, groupRef: 'nobody' });
		expect(expectProblem(group, 404).issues[0]).toMatchObject({ in: 'body', name: 'groupRef' });
		const integration = await write.post(
			`/projects/${SEED.projectName}/integrations/nope/objects/contacts`,
			base,
		);
		expect(expectProblem(integration, 404).issues[0]).toMatchObject({ name: 'integrationId' });
	});

	test('auth: X-Api-Key only; a bearer token, no key, a bad key: 401; another project: 403', async () => {
		const bearer = await t
			.client(`${t.sim.writeUrl}/v1`, { Authorization: `Bearer ${SEED.bearerToken}` })
			.post(CONTACTS, base);
		expect(expectProblem(bearer, 401).detail).toMatch(/write API accepts only X-Api-Key/);
		expectProblem(await t.client(`${t.sim.writeUrl}/v1`).post(CONTACTS, base), 401);
		expectProblem(
			await t.client(`${t.sim.writeUrl}/v1`, { 'X-Api-Key': 'nope' }).post(CONTACTS, base),
			401,
		);
		expectProblem(
			await t
				.client(`${t.sim.writeUrl}/v1`, { 'X-Api-Key': SEED.secondProjectApiKey })
				.post(CONTACTS, base),
			403,
		);
	});

	test('every write is an operation of the installation, with logs', async () => {
		const res = await create({ email: 'bad' });
		const { operationId } = res.data;
		const op = await t.api.get(`/projects/${SEED.projectName}/operations/${operationId}`);
		expect(op.data).toMatchObject({
			id: operationId,
			actionType: 'write',
			installationId: SEED.installationId,
			status: 'failure',
			metadata: { objects: ['contacts'], successfulRecordIds: [] },
		});
		const list = await t.api.get(`${I}/installations/${SEED.installationId}/operations`);
		expect(list.data.results.map((o) => o.id)).toContain(operationId);
		const logs = await t.api.get(`/projects/${SEED.projectName}/operations/${operationId}/logs`);
		expect(logs.data.map((l) => l.message.msg)).toEqual([
			'Write started',
			'Record 0 failed',
			'Write finished',
		]);
		expect(logs.data[1].message.details).toMatchObject({ errorCode: 'INVALID_EMAIL' });
	});

	test('asynchronous: 200 {operationId} only, the write right after, then write.async.done', async () => {
		await destinationHere();
		await routeNotification('write.async.done');
		const res = await create({ email: 'later@acme.example' }, { mode: 'asynchronous' });
		expect(res.status).toBe(200);
		expect(res.data).toEqual({ operationId: expect.any(String) });
		await t.sim.whenIdle();
		const op = t.sim.state.operations.get(res.data.operationId);
		expect(op.status).toBe('success');
		const [id] = op.metadata.successfulRecordIds;
		expect(t.sim.state.records.get(`${SEED.installationId}/contacts`).get(id).fields.email).toBe(
			'later@acme.example',
		);
		const note = t.sim.deliveries.list({ kind: 'notification' });
		expect(note).toHaveLength(1);
		expect(note[0].payload).toMatchObject({
			notificationType: 'write.async.done',
			data: {
				installationId: SEED.installationId,
				groupRef: SEED.groupRef,
				objectName: 'contacts',
				success: true,
				successfulRecordIds: [id],
				errors: [],
			},
		});
	});

	test('fault injection: a 429 once on a batch write, then the retry goes through', async () => {
		t.sim.faults.add({ route: 'writeRecords', status: 429, retryAfterSeconds: 1, times: 1 });
		const body = {
			groupRef: SEED.groupRef,
			type: 'create',
			batch: [{ record: { email: 'f1@acme.example' } }, { record: { email: 'f2@acme.example' } }],
		};
		const size = () => t.sim.state.records.get(`${SEED.installationId}/contacts`).size;
		const before = size();
		const limited = await write.post(CONTACTS, body);
		expect(expectProblem(limited, 429).retryable).toBe(true);
		expect(limited.headers['retry-after']).toBe('1');
		expect(size()).toBe(before);
		const retried = await write.post(CONTACTS, body);
		expect(retried.status).toBe(200);
		expect(size()).toBe(before + 2);
		expect(
			t.sim.journal.find({ routeId: 'writeRecords', host: 'write' }).map((e) => e.status),
		).toEqual([429, 200]);
	});
});

describe('searchRecords', () => {
	test('eq filters on provider or mapped names, all must match; entries are {fields, mappedFields, raw}', async () => {
		const res = await searchFor([{ fieldName: 'email', operator: 'eq', value: SEED.contactEmail }]);
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			result: [
				{
					fields: { id: SEED.contactId, email: SEED.contactEmail },
					mappedFields: { firstName: 'Ada', lastName: 'Lovelace' },
					raw: expect.objectContaining({
						id: SEED.contactId,
						properties: expect.objectContaining({ firstname: 'Ada' }),
						archived: false,
					}),
				},
			],
		});
		const both = await searchFor([
			{ fieldName: 'firstName', operator: 'eq', value: 'Grace' },
			{ fieldName: 'EMAIL', operator: 'eq', value: 'grace@acme.example' },
		]);
		expect(both.data.result.map((r) => r.fields.id)).toEqual([SEED.secondContactId]);
		const none = await searchFor([
			{ fieldName: 'firstName', operator: 'eq', value: 'Grace' },
			{ fieldName: 'email', operator: 'eq', value: SEED.contactEmail },
		]);
		expect(none.data).toEqual({ result: [] });
		const unknownObject = await searchFor([], 'tickets');
		expect(unknownObject.data).toEqual({ result: [] });
	});

	test('a bearer token works too', async () => {
		const res = await searchBearer.post(
			I,
			{
				objectName: 'companies',
				fieldFilters: [{ fieldName: 'domain', operator: 'eq', value: 'acme.example' }],
			},
			{ params: { groupRef: SEED.groupRef } },
		);
		expect(res.status).toBe(200);
		expect(res.data.result).toHaveLength(1);
	});

	test('400 application/json problem documents whose issues name each field', async () => {
		const res = await search.post(I, {
			fieldFilters: [{ fieldName: 'email', operator: 'contains', value: { a: 1 } }, {}],
		});
		expect(res.status).toBe(400);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.data).toMatchObject({ status: 400, subsystem: 'api' });
		expect(res.data.issues.map((i) => `${i.in}:${i.name}`).sort()).toEqual(
			[
				'query:groupRef',
				'body:objectName',
				'body:fieldFilters[0].operator',
				'body:fieldFilters[0].value',
				'body:fieldFilters[1].fieldName',
				'body:fieldFilters[1].operator',
				'body:fieldFilters[1].value',
			].sort(),
		);
	});

	test('unknown groupRef: 404; no credentials: 401', async () => {
		const res = await search.post(
			I,
			{ objectName: 'contacts', fieldFilters: [] },
			{ params: { groupRef: 'nobody' } },
		);
		expect(expectProblem(res, 404).issues[0]).toMatchObject({ in: 'query', name: 'groupRef' });
		expectProblem(await t.client(`${t.sim.searchUrl}/v1`).post(I, {}), 401);
	});
});

describe('triggerRead and deliverResults', () => {
	test('201 {operationId}; the operation logs its way to success and the records arrive Svix-signed', async () => {
		await destinationHere();
		const res = await t.read.post(CONTACTS, {
			groupRef: SEED.groupRef,
			mode: 'async',
			sinceTimestamp: '2025-05-15T00:00:00Z',
		});
		expect(res.status).toBe(201);
		expect(res.data).toEqual({ operationId: expect.any(String) });
		await t.sim.whenIdle();
		const op = t.sim.state.operations.get(res.data.operationId);
		expect(op).toMatchObject({
			actionType: 'read',
			status: 'success',
			result: '[contacts] Read 1 records',
		});
		expect(t.sim.state.logs.get(op.id).map((l) => l.message.msg)).toEqual([
			'Triggered read started',
			'Read records',
			'Delivered records to destination',
			'Read finished',
		]);
		expect(hook.requests).toHaveLength(1);
		const [request] = hook.requests;
		const secret = (
			await t.api.get(`/projects/${SEED.projectName}/destinations/${SEED.destinationName}`, {
				params: { includeSecrets: true },
			})
		).data.secrets.webhookSigningKey;
		expect(
			verifySignature({
				headers: request.headers,
				body: request.body,
				keys: [decodeSecret(secret)],
				nowSeconds: Math.floor(Date.now() / 1000),
			}),
		).toMatchObject({ ok: true });
		const message = JSON.parse(request.body.toString('utf8'));
		expect(message).toMatchObject({
			action: 'read',
			readType: 'triggered',
			operationId: res.data.operationId,
			objectName: 'contacts',
			installationId: SEED.installationId,
			groupRef: SEED.groupRef,
			resultInfo: { type: 'inline', numRecords: 1 },
		});
		expect(message.result[0].fields.id).toBe(SEED.secondContactId);
	});

	test('no records in the window: nothing delivered, "No new data found"', async () => {
		await destinationHere();
		const res = await t.read.post(CONTACTS, {
			groupRef: SEED.groupRef,
			mode: 'async',
			sinceTimestamp: '2025-01-01T00:00:00Z',
			untilTimestamp: '2025-02-01T00:00:00Z',
		});
		await t.sim.whenIdle();
		expect(t.sim.state.operations.get(res.data.operationId).result).toBe(
			'[contacts] No new data found',
		);
		expect(hook.requests).toHaveLength(0);
	});

	test.each([
		['mode sync', { groupRef: SEED.groupRef, mode: 'sync' }, 'mode'],
		['no mode', { groupRef: SEED.groupRef }, 'mode'],
		['no groupRef', { mode: 'async' }, 'groupRef'],
		[
			'a bad timestamp',
			{ groupRef: SEED.groupRef, mode: 'async', sinceTimestamp: 'yesterday' },
			'sinceTimestamp',
		],
		[
			'until before since',
			{
				groupRef: SEED.groupRef,
				mode: 'async',
				sinceTimestamp: '2025-02-01T00:00:00Z',
				untilTimestamp: '2025-01-01T00:00:00Z',
			},
			'untilTimestamp',
		],
	])('400 application/json for %s', async (_name, body, field) => {
		const res = await t.read.post(CONTACTS, body);
		expect(res.status).toBe(400);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.data.issues.map((i) => i.name)).toContain(field);
	});

	test('an object the installation does not read: 400 naming objectName; bearer: 401', async () => {
		const res = await t.read.post(`${I}/objects/deals`, { groupRef: SEED.groupRef, mode: 'async' });
		expect(res.status).toBe(400);
		expect(res.data.issues[0]).toMatchObject({ in: 'path', name: 'objectName', value: 'deals' });
		const bearer = await t
			.client(`${t.sim.readUrl}/v1`, { Authorization: `Bearer ${SEED.bearerToken}` })
			.post(CONTACTS, { groupRef: SEED.groupRef, mode: 'async' });
		expectProblem(bearer, 401);
	});

	test('deliverResults: 204 and the readiness is recorded; pages < 0 is a 400', async () => {
		const res = await t.read.post(`${CONTACTS}:deliverResults`, {
			groupRef: SEED.groupRef,
			pages: 3,
		});
		expect(res.status).toBe(204);
		expect(t.sim.state.readReadiness.get(`${SEED.installationId}/contacts`)).toMatchObject({
			pages: 3,
			groupRef: SEED.groupRef,
		});
		const bad = await t.read.post(`${CONTACTS}:deliverResults`, {
			groupRef: SEED.groupRef,
			pages: -1,
		});
		expect(bad.status).toBe(400);
		expect(bad.data.issues[0]).toMatchObject({ name: 'pages' });
	});
});

describe('proxy', () => {
	test('fake HubSpot: list with paging, get, create, PATCH, delete', async () => {
		const page = await proxy.get('/crm/v3/objects/contacts', { params: { limit: 1 } });
		expect(page.status).toBe(200);
		expect(page.data.results).toEqual([
			expect.objectContaining({
				id: SEED.contactId,
				properties: expect.objectContaining({ email: SEED.contactEmail }),
			}),
		]);
		expect(page.data.paging.next.after).toBe('1');
		const rest = await proxy.get('/crm/v3/objects/contacts', { params: { after: 1 } });
		expect(rest.data.results.map((r) => r.id)).toEqual([SEED.secondContactId]);
		expect(rest.data.paging).toBeUndefined();

		const created = await proxy.post('/crm/v3/objects/contacts', {
			properties: { email: 'proxy@acme.example', firstname: 'Pro' },
		});
		expect(created.status).toBe(201);
		const { id } = created.data;
		expect((await proxy.get(`/crm/v3/objects/contacts/${id}`)).data.properties.firstname).toBe(
			'Pro',
		);
		const patched = await proxy.patch(`/crm/v3/objects/contacts/${id}`, {
			properties: { firstname: 'Per' },
		});
		expect(patched.data.properties).toMatchObject({
			firstname: 'Per',
			email: 'proxy@acme.example',
		});
		const removed = await proxy.delete(`/crm/v3/objects/contacts/${id}`);
		expect(removed.status).toBe(204);
		expect(removed.data).toBe('');
		const gone = await proxy.get(`/crm/v3/objects/contacts/${id}`);
		expect(gone.status).toBe(404);
		expect(gone.data).toMatchObject({
			status: 'error',
			category: 'OBJECT_NOT_FOUND',
			correlationId: expect.any(String),
		});
	});

	test("the provider's own 400s; text/html and 204 answers", async () => {
		const bad = await proxy.post('/crm/v3/objects/contacts', { properties: { email: 'nope' } });
		expect(bad.status).toBe(400);
		expect(bad.data).toMatchObject({
			status: 'error',
			category: 'VALIDATION_ERROR',
			errors: [{ error: 'INVALID_EMAIL', name: 'email' }],
		});
		const malformed = await proxy.post('/crm/v3/objects/contacts', '{"properties":', {
			headers: { 'Content-Type': 'application/json' },
			transformRequest: [(data) => data],
		});
		expect(malformed.status).toBe(400);
		expect(malformed.data).toMatchObject({
			category: 'VALIDATION_ERROR',
			message: expect.stringMatching(/^Invalid input JSON: /),
		});
		const unknownType = await proxy.get('/crm/v3/objects/widgets');
		expect(unknownType.data.message).toBe('Unable to infer object type from: widgets');
		const html = await proxy.get('/status');
		expect(html.status).toBe(200);
		expect(html.headers['content-type']).toMatch(/^text\/html/);
		expect(html.data).toMatch(/^<!DOCTYPE html>/);
		const event = await proxy.post('/events/v3/send', { eventName: 'pe_signup' });
		expect(event.status).toBe(204);
		expect((await proxy.get('/nowhere')).status).toBe(404);
	});

	test('platform headers: any case; missing ones 400 naming each, bad key 401, unknown installation 404, another project 403', async () => {
		const upper = await t
			.client(t.sim.proxyUrl, {
				'X-API-KEY': SEED.apiKey,
				'X-Amp-Project-Id': SEED.projectName,
				'X-AMP-PROXY-VERSION': '1',
				'X-Amp-Installation-Id': SEED.installationId,
			})
			.get(`/crm/v3/objects/contacts/${SEED.contactId}`);
		expect(upper.status).toBe(200);

		const missing = await t
			.client(t.sim.proxyUrl, { 'x-api-key': SEED.apiKey })
			.get('/crm/v3/objects/contacts');
		expect(expectProblem(missing, 400).issues.map((i) => `${i.in}:${i.name}`)).toEqual([
			'header:x-amp-project-id',
			'header:x-amp-proxy-version',
			'header:x-amp-installation-id',
		]);
		const version = await t
			.client(t.sim.proxyUrl, { ...PROXY_HEADERS, 'x-amp-proxy-version': '2' })
			.get('/crm/v3/objects/contacts');
		expect(expectProblem(version, 400).issues[0]).toMatchObject({
			name: 'x-amp-proxy-version',
			value: '2',
		});
		const noKey = await t
			.client(t.sim.proxyUrl, { ...PROXY_HEADERS, 'x-api-key': '' })
			.get('/crm/v3/objects/contacts');
		expectProblem(noKey, 401);
		const badKey = await t
			.client(t.sim.proxyUrl, { ...PROXY_HEADERS, 'x-api-key': 'amp_wrong_key_123' })
			.get('/crm/v3/objects/contacts');
		expectProblem(badKey, 401);
		expect(JSON.stringify(badKey.data)).not.toContain('amp_wrong_key_123');
		const installation = await t
			.client(t.sim.proxyUrl, { ...PROXY_HEADERS, 'x-amp-installation-id': 'nope' })
			.get('/crm/v3/objects/contacts');
		expect(expectProblem(installation, 404).issues[0]).toMatchObject({
			in: 'header',
			name: 'x-amp-installation-id',
		});
		const other = await t
			.client(t.sim.proxyUrl, { ...PROXY_HEADERS, 'x-api-key': SEED.secondProjectApiKey })
			.get('/crm/v3/objects/contacts');
		expectProblem(other, 403);
	});

	test('journaled as route "proxy"; faults apply; the API key is never in an answer', async () => {
		t.sim.faults.add({ route: 'proxy', status: 503, times: 1 });
		const failed = await proxy.get('/crm/v3/objects/contacts');
		expectProblem(failed, 503);
		const answers = [
			failed,
			await proxy.get('/crm/v3/objects/contacts'),
			await proxy.get('/crm/v3/objects/contacts/1'),
			await proxy.get('/status'),
			await proxy.post('/crm/v3/objects/contacts', { properties: { email: 'x' } }),
		];
		for (const res of answers) {
			expect(JSON.stringify(res.data) + JSON.stringify(res.headers)).not.toContain(SEED.apiKey);
		}
		const entries = t.sim.journal.find({ routeId: 'proxy' });
		expect(entries.map((e) => [e.host, e.status])).toEqual([
			['proxy', 503],
			['proxy', 200],
			['proxy', 404],
			['proxy', 200],
			['proxy', 400],
		]);
		expect(entries[0].fault).toMatch(/^fault-/);
	});
});

test('the loop: write → search → proxy → triggerRead → signed delivery of the same record', async () => {
	await destinationHere();
	const written = await create({ email: 'loop@acme.example', firstName: 'Loop' });
	const id = written.data.result.recordId;
	const found = await searchFor([
		{ fieldName: 'email', operator: 'eq', value: 'loop@acme.example' },
	]);
	expect(found.data.result.map((r) => r.fields.id)).toEqual([id]);
	expect(found.data.result[0].mappedFields.firstName).toBe('Loop');
	const viaProxy = await proxy.get(`/crm/v3/objects/contacts/${id}`);
	expect(viaProxy.data.properties).toMatchObject({ email: 'loop@acme.example', firstname: 'Loop' });
	await proxy.patch(`/crm/v3/objects/contacts/${id}`, { properties: { lastname: 'Closed' } });

	const since = t.sim.state.records.get(`${SEED.installationId}/contacts`).get(id).createTime;
	const read = await t.read.post(CONTACTS, {
		groupRef: SEED.groupRef,
		mode: 'async',
		sinceTimestamp: since,
	});
	expect(read.status).toBe(201);
	const delivery = await t.sim.deliveries.waitFor(
		(d) =>
			d.kind === 'read' &&
			d.payload.operationId === read.data.operationId &&
			d.state === 'delivered',
	);
	expect(delivery.payload.result).toEqual([
		expect.objectContaining({
			fields: { id, email: 'loop@acme.example' },
			mappedFields: { firstName: 'Loop', lastName: 'Closed' },
		}),
	]);
	const request = hook.requests.find((r) => r.headers['svix-id'] === delivery.id);
	expect(
		verifySignature({
			headers: request.headers,
			body: request.body,
			keys: [decodeSecret(SEED.webhookSigningKey)],
			nowSeconds: Math.floor(Date.now() / 1000),
		}).ok,
	).toBe(true);
});
