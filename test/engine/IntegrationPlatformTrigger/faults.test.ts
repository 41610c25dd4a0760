/**
 * The event trigger under faults (README.md, "Event trigger" and "Errors and retries"): a delivery
 * the trigger could not process is answered so that the sender delivers it again, and the retry
 * then starts the workflow exactly once.
 *
 * - The signing secret cannot be fetched (any fault on getDestination): 503, nothing starts, the
 *   service is not asked again for every delivery in the meantime; the simulator's retry (on
 *   Svix's real schedule: 5 s) succeeds once the fault is gone.
 * - A `url` result cannot be downloaded (error status, expired link, reset, truncated or non-JSON
 *   body): 502, nothing starts; the retry succeeds once the link answers.
 * - Verification fails: 401, nothing starts. What the sender does with a 4xx: see the last test.
 *
 * Runs the trigger in n8n-core's hook and webhook contexts (test/harness/eventTriggerEngine.ts),
 * with the simulator delivering signed messages to it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { resetTriggerMemory } from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import type { Delivery, Sim } from '../../harness/eventTriggerSim';
import { signingSecret, startSim, svix } from '../../harness/eventTriggerSim';
import { timedOutRequests } from '../../harness/hangs';
import { LOCAL_DOWNLOADS, SEED, TriggerHarness } from '../../harness/eventTriggerEngine';

jest.setTimeout(30_000);

const project = { __rl: true, mode: 'id', value: SEED.projectName };
const harnesses: TriggerHarness[] = [];
let webhookCounter = 0;

async function trigger(
	sim: Sim,
	parameters: Record<string, unknown>,
	signingSecret?: string,
): Promise<TriggerHarness> {
	const h = new TriggerHarness(sim, {
		parameters: { project, ...parameters } as never,
		webhookId: `6f1c2c1e-0000-4000-8000-${String(++webhookCounter).padStart(12, '0')}`,
		signingSecret,
	});
	await h.listen();
	harnesses.push(h);
	return h;
}

afterEach(async () => {
	for (const h of harnesses.splice(0)) {
		await h.deactivate().catch(() => undefined);
		await h.close();
	}
	resetTriggerMemory();
});

const notificationBody = JSON.stringify({
	notificationType: 'connection.created',
	data: { projectId: SEED.projectId, connectionId: SEED.connectionId },
});

function signed(secret: string, body: string) {
	const raw = Buffer.from(body);
	return {
		headers: {
			'content-type': 'application/json',
			...svix.signedHeaders({ secrets: secret, msgId: svix.newMessageId(), body: raw }),
		},
		raw,
	};
}

const secretRequests = (sim: Sim) =>
	sim.journal.entries.filter((e) => e.routeId === 'getDestination').length;

// ---------------------------------------------------------------------------------------------

describe('the signing secret cannot be fetched', () => {
	let sim: Sim;
	beforeAll(async () => {
		sim = await startSim({ httpsWebhooksOnly: false, deliveries: { retryDelaysMs: [5_200] } });
	});
	afterAll(async () => await sim.close());
	afterEach(() => sim.reset());

	const FAULTS: Array<[string, Record<string, unknown>]> = [
		['500', { status: 500 }],
		['502', { status: 502 }],
		['503', { status: 503 }],
		['503 with Retry-After', { status: 503, retryAfterSeconds: 1 }],
		['429 with Retry-After', { status: 429, retryAfterSeconds: 1 }],
		['401 (the credential is refused)', { status: 401 }],
		['404 (the destination is gone)', { status: 404 }],
		['connection reset', { reset: true }],
		['malformed JSON', { malformed: true }],
		[
			'a destination without a signing key',
			{ status: 200, body: { id: 'x', name: 'x', type: 'kinesis' } },
		],
	];

	test("a hanging secret fetch is given up in time: 503 well within the sender's 15 s, nothing starts", async () => {
		const h = await trigger(sim, { destinationName: 'n8n-secret-hang', events: ['notification'] });
		await h.activate();
		const secret = await signingSecret(sim, 'n8n-secret-hang');
		resetTriggerMemory();
		sim.faults.add({ route: 'getDestination', hang: true, times: 1 });
		const earlier = timedOutRequests(sim).length;
		const answer = await h.call(signed(secret, notificationBody));
		expect(answer).toMatchObject({ status: 503, items: undefined });
		// Given up by the fetch's own timeout, well within the sender's 15 s: the harness fires
		// the hung request's timeout at once (test/harness/hangs.ts) and records what it was.
		const [hung, ...more] = timedOutRequests(sim).slice(earlier);
		expect(more).toEqual([]);
		expect(hung).toMatchObject({ method: 'GET', pathname: expect.stringMatching(/destinations/) });
		expect(hung.timeoutMs).toBeGreaterThan(0);
		expect(hung.timeoutMs).toBeLessThanOrEqual(10_000);
		// The next delivery after the back-off fetches again and is accepted.
		resetTriggerMemory();
		expect((await h.call(signed(secret, notificationBody))).status).toBe(200);
	});

	test.each(FAULTS)(
		'%s → 503, nothing starts; within the back-off the service is not asked again; afterwards it is',
		async (_kind, fault) => {
			const h = await trigger(sim, {
				destinationName: 'n8n-secret-faults',
				events: ['notification'],
			});
			await h.activate();
			const secret = await signingSecret(sim, 'n8n-secret-faults');
			resetTriggerMemory();
			sim.journal.clear();
			sim.faults.add({ route: 'getDestination', ...fault });

			const first = signed(secret, notificationBody);
			expect(await h.call(first)).toMatchObject({
				status: 503,
				body: 'Service Unavailable: the signing secret could not be fetched',
				items: undefined,
			});
			expect(secretRequests(sim)).toBe(1);
			// A burst of deliveries meanwhile: answered 503 from memory, no request each.
			for (let i = 0; i < 5; i++) {
				expect((await h.call(signed(secret, notificationBody))).status).toBe(503);
			}
			expect(secretRequests(sim)).toBe(1);

			// The fault is gone and the back-off is over (a new process, here): the same message
			// is accepted, once.
			sim.faults.clear();
			resetTriggerMemory();
			const again = await h.call(first);
			expect(again.status).toBe(200);
			expect(again.items).toEqual([
				expect.objectContaining({ notificationType: 'connection.created' }),
			]);
		},
	);

	test("the simulator's retry (Svix's first retry, 5 s later) succeeds once the fault is gone: one start", async () => {
		// Three triggers at once, each meeting another fault on its first secret fetch.
		const kinds = [{ status: 500 }, { reset: true }, { malformed: true }];
		const hs: TriggerHarness[] = [];
		for (const [i] of kinds.entries()) {
			const h = await trigger(sim, {
				destinationName: `n8n-retry-${i}`,
				events: ['notification'],
				notificationTypes: ['connection.created'],
			});
			await h.activate();
			hs.push(h);
		}
		resetTriggerMemory();
		sim.journal.clear();
		for (const kind of kinds) sim.faults.add({ route: 'getDestination', ...kind, times: 1 });

		const deliveries = await sim.emitNotification('connection.created');
		expect(deliveries).toHaveLength(kinds.length);
		for (const d of deliveries) {
			expect(d.state).toBe('pending');
			expect(d.attempts.map((a) => a.status)).toEqual([503]);
		}
		for (const h of hs) expect(h.started()).toHaveLength(0);

		const done = await Promise.all(
			deliveries.map((d) =>
				sim.deliveries.waitFor((x) => x.id === d.id && x.state !== 'pending', 25_000),
			),
		);
		for (const d of done) {
			expect(d.state).toBe('delivered');
			expect(d.attempts.map((a) => a.status)).toEqual([503, 200]);
		}
		for (const h of hs) {
			expect(h.started()).toHaveLength(1);
			expect(h.started()[0].items).toEqual([
				expect.objectContaining({ notificationType: 'connection.created' }),
			]);
		}
		// One failed fetch and one good one per trigger.
		expect(secretRequests(sim)).toBe(2 * kinds.length);
	});
});

// ---------------------------------------------------------------------------------------------

/** A download link that fails the first `failures` GETs in the given way, then serves `records`. */
class DownloadServer {
	private server?: http.Server;

	private base = '';

	readonly hits: Record<string, number> = {};

	constructor(
		private readonly records: unknown[],
		private readonly failures: number,
	) {}

	async listen(): Promise<void> {
		this.server = http.createServer((req, res) => {
			const kind = (req.url ?? '/').slice(1);
			const hit = (this.hits[kind] = (this.hits[kind] ?? 0) + 1);
			if (hit > this.failures) {
				res
					.writeHead(200, { 'content-type': 'application/json' })
					.end(JSON.stringify(this.records));
				return;
			}
			const full = JSON.stringify(this.records);
			switch (kind) {
				case 'status-500':
					res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal error');
					return;
				case 'expired-403':
					res
						.writeHead(403, { 'content-type': 'application/xml' })
						.end('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
					return;
				case 'not-found-404':
					res.writeHead(404).end();
					return;
				case 'reset':
					req.socket.destroy();
					return;
				case 'truncated-json':
					res
						.writeHead(200, { 'content-type': 'application/json' })
						.end(full.slice(0, Math.floor(full.length / 2)));
					return;
				case 'html-page':
					res
						.writeHead(200, { 'content-type': 'text/html' })
						.end('<html><body>Maintenance</body></html>');
					return;
				default:
					res.writeHead(400).end();
			}
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.base = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
	}

	url(kind: string): string {
		return `${this.base}/${kind}`;
	}

	async close(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise((resolve) => this.server?.close(resolve));
	}
}

/** A read message whose result waits behind a download URL (docs/api-notes.md, "Delivered messages"). */
function readMessage(downloadUrl: string, numRecords: number) {
	return {
		action: 'read',
		projectId: SEED.projectId,
		provider: SEED.provider,
		groupRef: SEED.groupRef,
		groupName: SEED.groupName,
		installationId: SEED.installationId,
		installationUpdateTime: '2025-06-01T00:00:00.000000Z',
		objectName: 'contacts',
		operationId: 'op-download-faults',
		readType: 'scheduled',
		operationTime: '2025-06-01T00:00:01.000000Z',
		resultInfo: { type: 'url', numRecords, downloadUrl },
		consumerRef: SEED.consumerRef,
		consumerName: SEED.consumerName,
	};
}

describe('a `url` result cannot be downloaded', () => {
	const records = [
		{ fields: { email: 'a@x' }, mappedFields: {}, raw: { email: 'a@x' } },
		{ fields: { email: 'b@x' }, mappedFields: {}, raw: { email: 'b@x' } },
	];
	let sim: Sim;
	let links: DownloadServer;
	beforeAll(async () => {
		sim = await startSim({
			httpsWebhooksOnly: false,
			deliveries: { retryDelaysMs: [100, 100, 100] },
		});
		links = new DownloadServer(records, 1);
		await links.listen();
	});
	afterAll(async () => {
		await links.close();
		await sim.close();
	});
	afterEach(() => sim.reset());

	test.each(['status-500', 'expired-403', 'not-found-404', 'reset', 'truncated-json', 'html-page'])(
		'%s → 502, nothing starts; the retry downloads it and starts the workflow once',
		async (kind) => {
			const h = await trigger(sim, {
				destinationName: `n8n-download-${kind}`,
				events: ['read'],
				options: LOCAL_DOWNLOADS,
			});
			await h.activate();
			const first = await sim.deliver({
				destination: `n8n-download-${kind}`,
				message: readMessage(links.url(kind), records.length),
			});
			expect(first.attempts[0]).toMatchObject({
				status: 502,
				responseBody: 'Bad Gateway: the result could not be downloaded',
			});
			expect(h.started()).toHaveLength(0);
			const done: Delivery = await sim.deliveries.waitFor(
				(d) => d.id === first.id && d.state !== 'pending',
				5_000,
			);
			expect(done.state).toBe('delivered');
			expect(done.attempts.map((a) => a.status)).toEqual([502, 200]);
			expect(h.started()).toHaveLength(1);
			expect(h.started()[0].items).toEqual([
				expect.objectContaining({
					action: 'read',
					resultInfo: expect.objectContaining({ type: 'url', numRecords: 2 }),
					result: records,
					delivery: expect.objectContaining({ id: first.id, verified: true }),
				}),
			]);
			expect(links.hits[kind]).toBe(2);
		},
	);

	test('a link that never works: every attempt is answered 502, nothing ever starts', async () => {
		const never = new DownloadServer(records, Infinity);
		await never.listen();
		try {
			const h = await trigger(sim, {
				destinationName: 'n8n-download-never',
				events: ['read'],
				options: LOCAL_DOWNLOADS,
			});
			await h.activate();
			const first = await sim.deliver({
				destination: 'n8n-download-never',
				message: readMessage(never.url('status-500'), 2),
			});
			const done = await sim.deliveries.waitFor(
				(d) => d.id === first.id && d.state !== 'pending',
				5_000,
			);
			expect(done.state).toBe('failed');
			expect(done.attempts.map((a) => a.status)).toEqual([502, 502, 502, 502]);
			expect(h.started()).toHaveLength(0);
		} finally {
			await never.close();
		}
	});
});

// ---------------------------------------------------------------------------------------------

describe('verification fails', () => {
	let sim: Sim;
	beforeAll(async () => {
		sim = await startSim({
			httpsWebhooksOnly: false,
			deliveries: { retryDelaysMs: [100, 100, 100] },
		});
	});
	afterAll(async () => await sim.close());
	afterEach(() => sim.reset());

	test('401, nothing starts; the simulator (like Svix) retries a 4xx like any non-2xx answer, then gives up', async () => {
		// Registered with the credential, but verifying with a secret that is not the destination's.
		const h = await trigger(
			sim,
			{
				destinationName: 'n8n-wrong-secret',
				events: ['notification'],
				notificationTypes: ['connection.created'],
				signingSecretSource: 'credential',
			},
			`whsec_${Buffer.alloc(24, 7).toString('base64')}`,
		);
		await h.activate();
		const [first] = await sim.emitNotification('connection.created');
		expect(first.attempts[0]).toMatchObject({ status: 401 });
		expect(first.attempts[0].responseBody).toMatch(/^Unauthorized: /);
		const done = await sim.deliveries.waitFor(
			(d) => d.id === first.id && d.state !== 'pending',
			5_000,
		);
		// Svix treats every answer outside 2xx as a failure and retries it on its schedule
		// (docs.svix.com/retries); the simulator does the same. A 401 is therefore retried, and
		// each attempt (signed afresh) is refused again.
		expect(done.state).toBe('failed');
		expect(done.attempts.map((a) => a.status)).toEqual([401, 401, 401, 401]);
		expect(h.started()).toHaveLength(0);
	});
});
