// @ts-check
'use strict';

/**
 * Deliveries to destinations (docs/api-notes.md, "Delivered messages"): what the real service sends to webhook
 * destinations, signed the Svix way (svixSign.js), retried on Svix's schedule, with a log.
 *
 * - Data messages ("Delivered messages") go to the destination NAMED by the installation config (or the
 *   integration's manifest) for the object: `emitRead`, `emitSubscribe`, `emitSchemaWatch`.
 *   Simulator only: when the project also has a webhook destination named `<that name>-test` (what
 *   the event trigger registers while n8n's editor listens for a test event), the message goes
 *   there too, so that one command reaches both an active workflow and a listening editor. The real
 *   service delivers only to the destination named; `testCopy: false` (or an explicit
 *   `destination`) turns the copy off.
 * - Notifications ("Notifications", "Topics and routes") follow the routes: event type → event-topic routes →
 *   topics → topic-destination routes → destinations (`emitNotification`). A destination reached
 *   through several topics gets the event once (undocumented; chosen so a test sees one copy).
 * - Every attempt is signed afresh with the destination's CURRENT secret (after a rotation, the
 *   next attempt uses the new one) and a fresh timestamp; the message id stays the same.
 * - Retries: Svix's schedule is immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h
 *   (8 attempts). `retryDelaysMs` (the delays between attempts) scales it for tests.
 * - Any 2xx answer is a success; anything else, a timeout or a connection error is a failure.
 * - `resultInfo.type: url` results are served at `/__downloads/{id}` on the management listener,
 *   for `downloadTtlMs` (15 minutes by default, as in "Delivered messages"), then 403.
 *
 * Only webhook destinations are delivered to; others (kinesis, s3, …) get a `skipped` record.
 */

const http = require('node:http');
const https = require('node:https');
const { randomUUID } = require('node:crypto');
const { signature, newMessageId } = require('./svixSign');
const { NOTIFICATION_EVENT_TYPES } = require('./catalog');
const { SEED } = require('./seed');
const { nowIso } = require('./time');

/** Svix's retry schedule after the first, immediate attempt. */
const SVIX_RETRY_DELAYS_MS = [
	5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];
/** What the event trigger appends to its destination's name while the editor listens. */
const TEST_SUFFIX = '-test';
/** The service's inline limit (docs/api-notes.md, "Webhook signatures (Svix)"): larger results go out as a download URL. */
const INLINE_LIMIT_BYTES = 300 * 1024;

/**
 * @typedef {{ retryDelaysMs?: number[], timeoutMs?: number, downloadTtlMs?: number }} DeliveryOptions
 * @typedef {{
 *   attempt: number, at: string, timestamp: number, url: string, status: number | null,
 *   error?: string, durationMs: number, responseBody?: string,
 * }} Attempt
 * @typedef {{
 *   id: string, destinationId: string, destinationName: string, projectId: string,
 *   kind: string, eventType?: string, payload: unknown, body: string,
 *   state: 'pending' | 'delivered' | 'failed' | 'skipped', attempts: Attempt[],
 *   nextAttemptAt?: string, extraSecrets?: string[], createTime: string,
 * }} Delivery
 * @typedef {Record<string, any>} Rec
 */

/** @param {unknown} value */
function clone(value) {
	return structuredClone(value);
}

/** A message's records as ResultEntry objects (plain objects are wrapped as fields + raw). */
function toEntries(/** @type {unknown[]} */ records) {
	return records.map((r) => {
		const rec = /** @type {Rec} */ (r);
		const isEntry =
			rec &&
			typeof rec === 'object' &&
			['fields', 'mappedFields', 'raw', 'associations', 'rawEvent', 'subscribeEventType'].some(
				(k) => k in rec,
			);
		return isEntry ? rec : { fields: rec, mappedFields: {}, raw: rec };
	});
}

class Deliveries {
	/**
	 * @param {import('./server').Core} core
	 * @param {DeliveryOptions} [options]
	 */
	constructor(core, options = {}) {
		this.core = core;
		this.retryDelaysMs = options.retryDelaysMs
			? [...options.retryDelaysMs]
			: [...SVIX_RETRY_DELAYS_MS];
		this.timeoutMs = options.timeoutMs === undefined ? 15_000 : options.timeoutMs;
		this.downloadTtlMs = options.downloadTtlMs === undefined ? 15 * 60_000 : options.downloadTtlMs;
		/** @type {Delivery[]} */
		this.log = [];
		/** @type {Map<string, { body: string, expiresAt: number }>} */
		this.downloads = new Map();
		/** @type {Set<NodeJS.Timeout>} */
		this.timers = new Set();
		/** @type {Set<(d: Delivery) => void>} */
		this.listeners = new Set();
		this.closed = false;
	}

	get state() {
		return this.core.state;
	}

	/**
	 * @param {string} ref destination name or id
	 * @param {string} [projectId]
	 */
	findDestination(ref, projectId = SEED.projectId) {
		const all = [...this.state.destinations.values()].filter((d) => d._projectId === projectId);
		const found = all.find((d) => d.id === ref) || all.find((d) => d.name === ref);
		if (!found) throw new Error(`Unknown destination ${ref} in project ${projectId}`);
		return found;
	}

	/**
	 * The webhook destination `<name>-test` of the project, if any: where the event trigger listens
	 * while n8n's editor waits for a test event (its TEST_SUFFIX).
	 * @param {string} name
	 * @param {string} projectId
	 */
	findTestTwin(name, projectId) {
		const twin = `${name}${TEST_SUFFIX}`;
		return [...this.state.destinations.values()].find(
			(d) => d._projectId === projectId && d.name === twin && d.type === 'webhook',
		);
	}

	/**
	 * Sends one message to one destination. Resolves after the first attempt, with the record.
	 * @param {{ destination: string, message: unknown, projectId?: string, id?: string, kind?: string, eventType?: string, extraSecrets?: string[] }} input
	 *   message: an object (sent as JSON) or a string (sent as is, e.g. to test a non-JSON body).
	 *   extraSecrets: more secrets to sign with, as the real service does during a rotation.
	 */
	async deliver(input) {
		const destination = this.findDestination(input.destination, input.projectId);
		const delivery = this.createRecord(destination, input.message, input);
		if (delivery.state === 'skipped') return clone(delivery);
		await this.attempt(delivery);
		return clone(delivery);
	}

	/**
	 * @param {Rec} destination
	 * @param {unknown} message
	 * @param {{ id?: string, kind?: string, eventType?: string, extraSecrets?: string[] }} meta
	 * @returns {Delivery}
	 */
	createRecord(destination, message, meta) {
		/** @type {Delivery} */
		const delivery = {
			id: meta.id || newMessageId(),
			destinationId: destination.id,
			destinationName: destination.name,
			projectId: destination._projectId,
			kind: meta.kind || 'custom',
			...(meta.eventType ? { eventType: meta.eventType } : {}),
			payload: clone(message),
			body: typeof message === 'string' ? message : JSON.stringify(message),
			state: destination.type === 'webhook' ? 'pending' : 'skipped',
			attempts: [],
			...(meta.extraSecrets ? { extraSecrets: [...meta.extraSecrets] } : {}),
			createTime: nowIso(),
		};
		this.log.push(delivery);
		if (delivery.state === 'skipped') this.notify(delivery);
		return delivery;
	}

	/** @param {Delivery} delivery */
	async attempt(delivery) {
		if (this.closed) return;
		delivery.nextAttemptAt = undefined;
		const number = delivery.attempts.length + 1;
		const destination = this.state.destinations.get(delivery.destinationId);
		const timestamp = Math.floor(Date.now() / 1000);
		const started = Date.now();
		/** @type {Attempt} */
		const record = {
			attempt: number,
			at: nowIso(),
			timestamp,
			url: '',
			status: null,
			durationMs: 0,
		};
		delivery.attempts.push(record);
		if (!destination) {
			record.error = 'destination deleted';
			delivery.state = 'failed';
			this.notify(delivery);
			return;
		}
		const url = String((destination.metadata || {}).url || '');
		record.url = url;
		const secrets = [
			destination._secrets.webhookSigningKey,
			...(delivery.extraSecrets || []),
		].filter(Boolean);
		const headers = {
			...(destination.metadata.headers || {}),
			'content-type': 'application/json',
			'user-agent': 'Svix-Webhooks/1.0 (integration-platform-simulator)',
			'svix-id': delivery.id,
			'svix-timestamp': String(timestamp),
			'svix-signature': signature(secrets, delivery.id, timestamp, delivery.body),
		};
		const result = await post(url, headers, delivery.body, this.timeoutMs);
		record.status = result.status;
		if (result.error) record.error = result.error;
		if (result.body !== undefined) record.responseBody = result.body.slice(0, 500);
		record.durationMs = Date.now() - started;
		if (result.status !== null && result.status >= 200 && result.status < 300) {
			delivery.state = 'delivered';
		} else if (number <= this.retryDelaysMs.length && !this.closed) {
			const delay = this.retryDelaysMs[number - 1];
			delivery.nextAttemptAt = new Date(Date.now() + delay).toISOString();
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				this.attempt(delivery).catch(() => undefined);
			}, delay);
			timer.unref();
			this.timers.add(timer);
		} else {
			delivery.state = 'failed';
		}
		this.notify(delivery);
	}

	/** @param {Delivery} delivery */
	notify(delivery) {
		for (const listener of this.listeners) listener(delivery);
	}

	/**
	 * Resolves when a delivery matching `predicate` (given a live record) exists, or rejects after
	 * `timeoutMs`. Checks the log first, then every change.
	 * @param {(d: Delivery) => boolean} predicate
	 * @param {number} [timeoutMs]
	 * @returns {Promise<Delivery>}
	 */
	waitFor(predicate, timeoutMs = 60_000) {
		const found = this.log.find(predicate);
		if (found) return Promise.resolve(clone(found));
		return new Promise((resolve, reject) => {
			const listener = (/** @type {Delivery} */ d) => {
				if (!predicate(d)) return;
				cleanup();
				resolve(clone(d));
			};
			const timer = setTimeout(() => {
				cleanup();
				reject(new Error(`no matching delivery within ${timeoutMs} ms`));
			}, timeoutMs);
			const cleanup = () => {
				clearTimeout(timer);
				this.listeners.delete(listener);
			};
			this.listeners.add(listener);
		});
	}

	/** @param {{ destination?: string, state?: string, kind?: string }} [filter] */
	list(filter = {}) {
		return this.log
			.filter(
				(d) =>
					(!filter.destination ||
						d.destinationId === filter.destination ||
						d.destinationName === filter.destination) &&
					(!filter.state || d.state === filter.state) &&
					(!filter.kind || d.kind === filter.kind),
			)
			.map(clone);
	}

	/** @param {string} id */
	get(id) {
		const found = this.log.find((d) => d.id === id);
		return found ? clone(found) : undefined;
	}

	/** Cancels pending retries and forgets the log and downloads. */
	clear() {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.log.length = 0;
		this.downloads.clear();
	}

	close() {
		this.closed = true;
		this.clear();
		this.listeners.clear();
	}

	// -----------------------------------------------------------------------------------------
	// Notifications

	/**
	 * Routes one notification (docs/api-notes.md, "Topics and routes") and delivers `{notificationType, data}`.
	 * @param {string} eventType one of the 15 types
	 * @param {Rec} [data] merged over defaults built from the seed
	 * @param {{ projectId?: string }} [options]
	 * @returns {Promise<Delivery[]>}
	 */
	async emitNotification(eventType, data = {}, options = {}) {
		if (!NOTIFICATION_EVENT_TYPES.includes(eventType))
			throw new Error(`Unknown notification type ${eventType}`);
		const projectId = options.projectId || SEED.projectId;
		const topicIds = new Set(
			[...this.state.eventTopicRoutes.values()]
				.filter((r) => r.projectId === projectId && r.eventType === eventType)
				.map((r) => r.topicId),
		);
		const destinationIds = new Set(
			[...this.state.topicDestinationRoutes.values()]
				.filter((r) => r.projectId === projectId && topicIds.has(r.topicId))
				.map((r) => r.destinationId),
		);
		const message = {
			notificationType: eventType,
			data: { ...defaultNotificationData(eventType, projectId), ...data },
		};
		const records = [...destinationIds]
			.map((id) => this.state.destinations.get(id))
			.filter(Boolean)
			.map((destination) =>
				this.createRecord(destination, message, { kind: 'notification', eventType }),
			);
		await Promise.all(records.filter((d) => d.state === 'pending').map((d) => this.attempt(d)));
		return records.map(clone);
	}

	// -----------------------------------------------------------------------------------------
	// Data messages

	/**
	 * The installation, its integration, group and consumer, and the destination named for the
	 * object (installation config first, then the manifest).
	 * @param {string} installationId
	 * @param {'read' | 'subscribe' | 'watchSchema'} section
	 * @param {string} [objectName]
	 * @param {string} [destinationOverride]
	 */
	context(installationId, section, objectName, destinationOverride) {
		const installation = this.state.installations.get(installationId);
		if (!installation) throw new Error(`Unknown installation ${installationId}`);
		const integration = this.state.integrations.get(installation.integrationId) || {};
		const connection = this.state.connections.get(installation._connectionId) || {};
		const content = (installation.config || {}).content || {};
		const manifest = (integration.latestRevision || {}).content || {};
		let name = destinationOverride;
		if (!name && section === 'watchSchema')
			name = (content.watchSchema || manifest.watchSchema || {}).destination;
		if (!name && section !== 'watchSchema') {
			const configured = ((content[section] || {}).objects || {})[String(objectName)];
			const declared = ((manifest[section] || {}).objects || []).find(
				(/** @type {Rec} */ o) => o.objectName === objectName,
			);
			name = (configured && configured.destination) || (declared && declared.destination);
		}
		if (!name)
			throw new Error(
				`No destination is named for ${section} ${objectName || ''} of installation ${installationId}`,
			);
		const destination = this.findDestination(name, installation.projectId);
		const testTwin = destinationOverride
			? undefined
			: this.findTestTwin(destination.name, installation.projectId);
		const group = installation.group || {};
		const consumer = connection.consumer || {};
		return {
			destination,
			testTwin,
			common: {
				projectId: installation.projectId,
				provider: integration.provider || connection.provider,
				groupRef: group.groupRef,
				groupName: group.groupName,
				installationId: installation.id,
				installationUpdateTime: installation.updateTime || installation.createTime,
				consumerRef: consumer.consumerRef,
				consumerName: consumer.consumerName,
			},
		};
	}

	/**
	 * Puts records behind a download URL (docs/api-notes.md, "Delivered messages": resultInfo.type url).
	 * @param {unknown[]} entries
	 */
	storeDownload(entries) {
		const id = randomUUID();
		this.downloads.set(id, {
			body: JSON.stringify(entries),
			expiresAt: Date.now() + this.downloadTtlMs,
		});
		return `${this.core.sim.apiUrl}/__downloads/${id}`;
	}

	/**
	 * @param {unknown[]} entries
	 * @param {boolean | 'auto' | undefined} asUrl
	 */
	result(entries, asUrl) {
		const url =
			asUrl === true ||
			((asUrl === undefined || asUrl === 'auto') &&
				Buffer.byteLength(JSON.stringify(entries)) > INLINE_LIMIT_BYTES);
		return url
			? {
					resultInfo: {
						type: 'url',
						numRecords: entries.length,
						downloadUrl: this.storeDownload(entries),
					},
				}
			: { resultInfo: { type: 'inline', numRecords: entries.length }, result: entries };
	}

	/**
	 * A read result (docs/api-notes.md, "Delivered messages"): inline, or as a download URL (`asUrl: true`, or `'auto'`
	 * above 300 KB).
	 * @param {{ installationId?: string, objectName: string, records: unknown[], asUrl?: boolean | 'auto', readType?: string, operationId?: string, destination?: string, testCopy?: boolean, extra?: Rec }} input
	 */
	async emitRead(input) {
		const { destination, testTwin, common } = this.context(
			input.installationId || SEED.installationId,
			'read',
			input.objectName,
			input.destination,
		);
		const entries = toEntries(input.records || []);
		const message = {
			action: 'read',
			...common,
			objectName: input.objectName,
			operationId: input.operationId || randomUUID(),
			readType: input.readType || 'scheduled',
			operationTime: nowIso(),
			...this.result(entries, input.asUrl),
			...(input.extra || {}),
		};
		return await this.send(
			destination,
			message,
			'read',
			input.testCopy === false ? undefined : testTwin,
		);
	}

	/**
	 * Subscribe events (docs/api-notes.md, "Delivered messages"): entries carry subscribeEventType and friends; no
	 * operationId, no readType.
	 * @param {{ installationId?: string, objectName: string, events: Rec[], asUrl?: boolean | 'auto', destination?: string, testCopy?: boolean, extra?: Rec }} input
	 */
	async emitSubscribe(input) {
		const { destination, testTwin, common } = this.context(
			input.installationId || SEED.installationId,
			'subscribe',
			input.objectName,
			input.destination,
		);
		const entries = (input.events || []).map((e) => ({
			subscribeEventType: 'update',
			providerEventType: `${input.objectName}.${e.subscribeEventType || 'update'}`,
			rawEvent: { objectId: e.id || (e.fields && e.fields.id) },
			...e,
		}));
		const message = {
			action: 'subscribe',
			...common,
			objectName: input.objectName,
			operationTime: nowIso(),
			...this.result(entries, input.asUrl),
			...(input.extra || {}),
		};
		return await this.send(
			destination,
			message,
			'subscribe',
			input.testCopy === false ? undefined : testTwin,
		);
	}

	/**
	 * A schema-watch message: `result` is an object and there is no resultInfo, as in the docs'
	 * example (docs/api-notes.md, "Delivered messages").
	 * @param {{ installationId?: string, objectName: string, result?: Rec, destination?: string, testCopy?: boolean, extra?: Rec }} input
	 */
	async emitSchemaWatch(input) {
		const { destination, testTwin, common } = this.context(
			input.installationId || SEED.installationId,
			'watchSchema',
			input.objectName,
			input.destination,
		);
		const message = {
			action: 'schema.watch',
			...common,
			objectName: input.objectName,
			operationTime: nowIso(),
			result: { createdFields: [], deletedFields: [], changedFields: [], ...(input.result || {}) },
			...(input.extra || {}),
		};
		return await this.send(
			destination,
			message,
			'schema.watch',
			input.testCopy === false ? undefined : testTwin,
		);
	}

	/**
	 * The delivery to `destination`, and a copy to `testTwin` (findTestTwin) at the same time: its
	 * record is the first one's `testCopy`.
	 * @param {Rec} destination
	 * @param {Rec} message
	 * @param {string} kind
	 * @param {Rec} [testTwin]
	 */
	async send(destination, message, kind, testTwin) {
		const deliveries = [destination, ...(testTwin ? [testTwin] : [])].map((d) =>
			this.createRecord(d, message, { kind }),
		);
		await Promise.all(deliveries.filter((d) => d.state === 'pending').map((d) => this.attempt(d)));
		const [delivery, copy] = deliveries.map(clone);
		return copy ? { ...delivery, testCopy: copy } : delivery;
	}

	/**
	 * GET /__downloads/{id} on the management listener: the records as a JSON array, 403 once
	 * expired (as a pre-signed URL does), 404 if unknown. No credential needed.
	 * @param {string} id
	 * @returns {{ status: number, body: string }}
	 */
	download(id) {
		const entry = this.downloads.get(id);
		if (!entry) return { status: 404, body: JSON.stringify({ error: 'No such download' }) };
		if (Date.now() > entry.expiresAt)
			return { status: 403, body: JSON.stringify({ error: 'Request has expired' }) };
		return { status: 200, body: entry.body };
	}
}

/**
 * The fields every notification of a type carries (docs/api-notes.md, "Notifications"), from the seeded world.
 * @param {string} eventType
 * @param {string} projectId
 */
function defaultNotificationData(eventType, projectId) {
	if (eventType.startsWith('connection.')) {
		return {
			projectId,
			connectionId: SEED.connectionId,
			provider: SEED.provider,
			groupRef: SEED.groupRef,
			consumerRef: SEED.consumerRef,
			consumerName: SEED.consumerName,
			...(eventType === 'connection.error'
				? { errors: ['token refresh failed'], error: ['token refresh failed'] }
				: {}),
		};
	}
	if (eventType === 'destination.webhook.disabled') {
		return {
			projectId,
			destinationId: SEED.destinationId,
			destinationName: SEED.destinationName,
			url: SEED.webhookUrl,
		};
	}
	/** @type {Rec} */
	const data = {
		projectId,
		provider: SEED.provider,
		integrationId: SEED.integrationId,
		integrationName: SEED.integrationName,
		installationId: SEED.installationId,
		connectionId: SEED.connectionId,
		groupRef: SEED.groupRef,
		groupName: SEED.groupName,
		consumerRef: SEED.consumerRef,
		consumerName: SEED.consumerName,
	};
	if (eventType.startsWith('installation.')) data.config = { provider: SEED.provider };
	if (eventType === 'installation.updated') data.lastConfig = { provider: SEED.provider };
	if (eventType.startsWith('read.') && eventType !== 'read.schedule.paused')
		data.objectName = 'contacts';
	if (eventType === 'read.triggered.done' || eventType === 'read.triggered.error') {
		data.fromTimestamp = '2025-06-01T00:00:00Z';
		data.untilTimestamp = '2025-06-02T00:00:00Z';
	}
	if (eventType === 'read.schedule.paused') data.config = { provider: SEED.provider };
	if (eventType.endsWith('.error') || eventType === 'read.schedule.paused')
		data.error = 'simulated error';
	if (eventType === 'write.async.done')
		Object.assign(data, {
			objectName: 'contacts',
			success: true,
			successfulRecordIds: ['1'],
			errors: [],
		});
	return data;
}

/**
 * One POST. Never rejects: the outcome is a status (null when there was no answer) and an error.
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {string} body
 * @param {number} timeoutMs
 * @returns {Promise<{ status: number | null, error?: string, body?: string }>}
 */
function post(url, headers, body, timeoutMs) {
	return new Promise((resolve) => {
		let parsed;
		try {
			parsed = new URL(url);
		} catch {
			resolve({ status: null, error: `invalid URL ${url}` });
			return;
		}
		const transport = parsed.protocol === 'https:' ? https : http;
		const payload = Buffer.from(body, 'utf8');
		const req = transport.request(
			parsed,
			{
				method: 'POST',
				headers: { ...headers, 'content-length': String(payload.length) },
				timeout: timeoutMs,
			},
			(res) => {
				/** @type {Buffer[]} */
				const chunks = [];
				res.on('data', (c) => {
					if (chunks.length < 64) chunks.push(c);
				});
				res.on('end', () =>
					resolve({ status: res.statusCode || null, body: Buffer.concat(chunks).toString('utf8') }),
				);
				res.on('error', (err) => resolve({ status: res.statusCode || null, error: err.message }));
			},
		);
		req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
		req.on('error', (err) => resolve({ status: null, error: err.message }));
		req.end(payload);
	});
}

/**
 * The control routes of deliveries, under /__sim/ (see control.js):
 *
 *   GET    /__sim/deliveries               the log; ?destination=&state=&kind=
 *   GET    /__sim/deliveries/{id}          one record
 *   DELETE /__sim/deliveries               204: pending retries cancelled, log cleared
 *   POST   /__sim/deliveries               {destination, message, projectId?, extraSecrets?} → 201 record
 *   POST   /__sim/notifications            {eventType, data?, projectId?} → 201 {deliveries}
 *   POST   /__sim/emit/read                emitRead input → 201 record
 *   POST   /__sim/emit/subscribe           emitSubscribe input → 201 record
 *   POST   /__sim/emit/schema-watch        emitSchemaWatch input → 201 record
 *   (the emits also deliver to `<name>-test` when it exists, its record in `testCopy`;
 *   `"testCopy": false` turns that off)
 *
 * @param {Deliveries} deliveries
 * @param {string} method
 * @param {string} path without trailing slash
 * @param {URLSearchParams} search
 * @param {any} body
 * @returns {Promise<{ status: number, body?: unknown } | undefined>} undefined: not a delivery route
 */
async function handleDeliveryControl(deliveries, method, path, search, body) {
	const one = /^\/__sim\/deliveries\/([^/]+)$/.exec(path);
	if (path === '/__sim/deliveries' && method === 'GET') {
		return {
			status: 200,
			body: {
				deliveries: deliveries.list({
					destination: search.get('destination') || undefined,
					state: search.get('state') || undefined,
					kind: search.get('kind') || undefined,
				}),
			},
		};
	}
	if (path === '/__sim/deliveries' && method === 'DELETE') {
		deliveries.clear();
		return { status: 204 };
	}
	if (path === '/__sim/deliveries' && method === 'POST') {
		if (!body || typeof body.destination !== 'string' || body.message === undefined) {
			return { status: 400, body: { error: 'destination (name or id) and message are required' } };
		}
		return { status: 201, body: await deliveries.deliver(body) };
	}
	if (one && method === 'GET') {
		const found = deliveries.get(decodeURIComponent(one[1]));
		return found
			? { status: 200, body: found }
			: { status: 404, body: { error: 'No such delivery' } };
	}
	if (path === '/__sim/notifications' && method === 'POST') {
		if (!body || typeof body.eventType !== 'string')
			return { status: 400, body: { error: 'eventType is required' } };
		return {
			status: 201,
			body: {
				deliveries: await deliveries.emitNotification(body.eventType, body.data || {}, {
					projectId: body.projectId,
				}),
			},
		};
	}
	if (path === '/__sim/emit/read' && method === 'POST')
		return { status: 201, body: await deliveries.emitRead(body || {}) };
	if (path === '/__sim/emit/subscribe' && method === 'POST')
		return { status: 201, body: await deliveries.emitSubscribe(body || {}) };
	if (path === '/__sim/emit/schema-watch' && method === 'POST')
		return { status: 201, body: await deliveries.emitSchemaWatch(body || {}) };
	return undefined;
}

module.exports = {
	Deliveries,
	handleDeliveryControl,
	SVIX_RETRY_DELAYS_MS,
	INLINE_LIMIT_BYTES,
	defaultNotificationData,
};
