/**
 * The trigger's limits, in n8n-core's webhook context (test/harness/eventTriggerEngine.ts):
 * - the replay memory never forgets a claim inside the window: when full it answers 503;
 * - the timestamp tolerance is held to 30–3600 s, whatever an expression yields;
 * - `url` results are downloaded only under the download rules (https, allowed hosts, no cloud
 *   metadata address, redirects within the origin, a size cap, a total deadline); each refusal
 *   fails the execution with an error naming the host and the rule, and starts nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { resetTriggerMemory } from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import type { Sim } from '../../harness/eventTriggerSim';
import { startSim, svix } from '../../harness/eventTriggerSim';
import { LOCAL_DOWNLOADS, TriggerHarness } from '../../harness/eventTriggerEngine';

jest.setTimeout(30_000);

const SECRET = `whsec_${Buffer.alloc(24, 5).toString('base64')}`;
const MiB = 1024 * 1024;
const now = () => Math.floor(Date.now() / 1000);

let sim: Sim;
const harnesses: TriggerHarness[] = [];

beforeAll(async () => {
	sim = await startSim({ httpsWebhooksOnly: false });
});
afterAll(async () => await sim.close());
beforeEach(() => resetTriggerMemory());
afterEach(async () => {
	for (const h of harnesses.splice(0)) await h.close();
	resetTriggerMemory();
});

/** A trigger verifying with SECRET from its signing-secret credential; nothing registered. */
async function trigger(parameters: Record<string, unknown>): Promise<TriggerHarness> {
	const h = new TriggerHarness(sim, {
		authentication: 'none',
		credential: null,
		signingSecret: SECRET,
		parameters: parameters as never,
	});
	await h.listen();
	harnesses.push(h);
	return h;
}

function signed(message: unknown, options: { id?: string; timestamp?: number } = {}) {
	const raw = Buffer.from(JSON.stringify(message));
	return {
		headers: {
			'content-type': 'application/json',
			...svix.signedHeaders({
				secrets: SECRET,
				msgId: options.id ?? svix.newMessageId(),
				timestampSeconds: options.timestamp,
				body: raw,
			}),
		},
		raw,
	};
}

const notification = { notificationType: 'connection.created', data: { connectionId: 'c-1' } };

describe('replay memory', () => {
	test('when full it refuses new messages (503, the sender retries) and still refuses replays', async () => {
		resetTriggerMemory({ replayCapacity: 2 });
		const h = await trigger({ events: ['notification'] });
		const first = signed(notification);
		expect((await h.call(first)).items).toHaveLength(1);
		expect((await h.call(signed(notification))).items).toHaveLength(1);

		const third = signed(notification);
		expect(await h.call(third)).toMatchObject({
			status: 503,
			body: 'Service Unavailable: too many messages; deliver again later',
			items: undefined,
		});
		// The first message was not forgotten to make room: its replay is still refused.
		expect(await h.call(first)).toMatchObject({ status: 401, items: undefined });

		// Room again (here: a fresh memory, as once the claims have left the window): the
		// sender's retry of the third message is accepted.
		resetTriggerMemory({ replayCapacity: 2 });
		expect((await h.call(third)).items).toHaveLength(1);
	});
});

describe('a copy arriving while the first attempt is still in progress', () => {
	test('is refused (409, the sender retries), so a first attempt that then fails loses nothing', async () => {
		// A result link that answers slowly and fails the first time, then serves the records.
		// The first download is held until the copy has been answered (no timing involved): the
		// server says when it has the first request, and the test releases its answer.
		let hits = 0;
		const records = [{ fields: { email: 'a@x' } }];
		let firstArrived!: () => void;
		const firstRequest = new Promise<void>((resolve) => (firstArrived = resolve));
		let releaseFirst!: () => void;
		const firstReleased = new Promise<void>((resolve) => (releaseFirst = resolve));
		const slow = http.createServer((_req, res) => {
			hits++;
			if (hits === 1) {
				firstArrived();
				void firstReleased.then(() => res.writeHead(500).end('Internal error'));
				return;
			}
			res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(records));
		});
		await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
		try {
			const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/result`;
			const h = await trigger({ events: ['read'], options: LOCAL_DOWNLOADS });
			const id = svix.newMessageId();
			const message = {
				action: 'read',
				objectName: 'contacts',
				operationId: 'op-in-progress',
				resultInfo: { type: 'url', numRecords: 1, downloadUrl: url },
			};
			const firstAttempt = h.call(signed(message, { id }));
			await firstRequest;
			// The service's next attempt (a fresh signature) while the first still downloads.
			const copy = await h.call(signed(message, { id, timestamp: now() + 1 }));
			releaseFirst();
			expect(copy).toMatchObject({ status: 409, items: undefined });
			expect((await firstAttempt).status).toBe(502);
			// The attempt after that is processed: the message is not lost.
			const retry = await h.call(signed(message, { id, timestamp: now() + 2 }));
			expect(retry.items).toHaveLength(1);
			// And once acknowledged, a further copy is a redelivery: 200, nothing starts again.
			const late = await h.call(signed(message, { id, timestamp: now() + 3 }));
			expect(late).toMatchObject({ status: 200, items: undefined });
		} finally {
			releaseFirst();
			await new Promise((resolve) => slow.close(resolve));
		}
	});
});

describe('timestamp tolerance', () => {
	test.each([
		['3600: 4000 s old is refused', 3600, -4000, 401],
		['3600: 3500 s old is accepted', 3600, -3500, 200],
		['30: 20 s old is accepted', 30, -20, 200],
		['30: 20 s ahead is accepted', 30, 20, 200],
		['30: 40 s old is refused', 30, -40, 401],
		['"600" (text, by expression) counts as 600: 500 s old is accepted', '600', -500, 200],
	])('%s', async (_name, tolerance, age, status) => {
		const h = await trigger({ events: ['notification'], options: { toleranceSeconds: tolerance } });
		await h.activate();
		const answer = await h.call(signed(notification, { timestamp: now() + age }));
		expect(answer.status).toBe(status);
		if (status === 401) expect(answer.body).toMatch(/^Unauthorized: the message timestamp/);
	});

	// Each was held to 30–3600 or replaced by 300, silently.
	test.each([
		[100_000, 'not 100000'],
		[5, 'not 5'],
		[45.5, 'not the number 45.5'],
		['soon', 'not the text "soon"'],
	])('%p (by expression) stops the activation, naming the field', async (tolerance, why) => {
		const h = await trigger({ events: ['notification'], options: { toleranceSeconds: tolerance } });
		await expect(h.activate()).rejects.toThrow(
			`"Timestamp Tolerance (Seconds)" must be a whole number from 30 to 3600, ${why}`,
		);
	});
});

/** Result links that behave well or badly, on 127.0.0.1 (and reachable as localhost). */
class Links {
	private server?: http.Server;

	port = 0;

	readonly hits: string[] = [];

	async listen(): Promise<void> {
		this.server = http.createServer((req, res) => {
			const path = req.url ?? '/';
			this.hits.push(path);
			const json = { 'content-type': 'application/json' };
			switch (path) {
				case '/ok':
					res.writeHead(200, json).end('[{"fields":{"email":"a@x"}}]');
					return;
				case '/same-origin-redirect':
					res.writeHead(302, { location: '/ok' }).end();
					return;
				case '/other-origin-redirect':
					res.writeHead(302, { location: `http://localhost:${this.port}/ok` }).end();
					return;
				case '/announced-too-big':
					res.writeHead(200, { ...json, 'content-length': String(65 * MiB) });
					res.write('[');
					return;
				case '/streamed-too-big': {
					// No content-length: only counting the bytes finds out.
					res.writeHead(200, json);
					const chunk = Buffer.alloc(MiB, 0x20);
					let sent = 0;
					const write = () => {
						while (sent < 70 && !res.destroyed) {
							sent++;
							if (!res.write(chunk)) return void res.once('drain', write);
						}
						res.end();
					};
					res.write('[');
					write();
					return;
				}
				case '/trickle': {
					// Never idle for long, never done within the deadline.
					res.writeHead(200, json);
					res.write('[');
					const timer = setInterval(() => res.write(' '), 250);
					res.on('close', () => clearInterval(timer));
					setTimeout(() => {
						clearInterval(timer);
						if (!res.destroyed) res.end(']');
					}, 20_000).unref();
					return;
				}
				default:
					res.writeHead(404).end();
			}
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.port = (this.server!.address() as AddressInfo).port;
	}

	url(path: string, host = '127.0.0.1'): string {
		return `http://${host}:${this.port}${path}`;
	}

	async close(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise((resolve) => this.server?.close(resolve));
	}
}

function readMessage(downloadUrl: string) {
	return {
		action: 'read',
		objectName: 'contacts',
		installationId: 'inst-1',
		resultInfo: { type: 'url', numRecords: 1, downloadUrl },
	};
}

describe('download rules', () => {
	let links: Links;
	beforeAll(async () => {
		links = new Links();
		await links.listen();
	});
	afterAll(async () => await links.close());
	beforeEach(() => links.hits.splice(0));

	/** One verified read message naming `url`; the answer, expected to be a refusal. */
	async function refused(url: string, options: Record<string, unknown>) {
		const h = await trigger({ events: ['read'], options });
		const request = signed(readMessage(url));
		const answer = await h.call(request);
		expect(answer).toMatchObject({ status: 500, items: undefined });
		expect(answer.error).toBeDefined();
		// Not acknowledged, so the claim is released: the sender's retry is refused the same way,
		// not as a replay.
		const again = await h.call(request);
		expect(again.status).toBe(500);
		return answer.error!;
	}

	test('the simulator-style setup downloads, and a redirect within the origin is followed', async () => {
		const h = await trigger({ events: ['read'], options: LOCAL_DOWNLOADS });
		for (const path of ['/ok', '/same-origin-redirect']) {
			const answer = await h.call(signed(readMessage(links.url(path))));
			expect(answer.items?.[0].result).toEqual([{ fields: { email: 'a@x' } }]);
		}
		expect(links.hits).toEqual(['/ok', '/same-origin-redirect', '/ok']);
	});

	test('https only: an http link is refused unless insecure downloads are allowed', async () => {
		const error = await refused(links.url('/ok'), { downloadHosts: '127.0.0.1' });
		expect(error.message).toBe(
			`Refused to download the result from 127.0.0.1:${links.port}: only https download URLs are allowed, and this one is http`,
		);
		expect(error.description).toMatch(/Allow Insecure Downloads \(Testing\)/);
		for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/records.json']) {
			const other = await refused(url, LOCAL_DOWNLOADS);
			expect(other.message).toMatch(/only https download URLs are allowed/);
		}
		expect(links.hits).toEqual([]);
	});

	test('allowlist: by default only Google Cloud Storage; other hosts are refused before any request', async () => {
		for (const host of ['attacker.example', 'storage.googleapis.com.attacker.example']) {
			const error = await refused(`https://${host}/records.json`, {});
			expect(error.message).toBe(
				`Refused to download the result from ${host}: the host is not in Allowed Download Hosts`,
			);
			expect(error.description).toMatch(
				/Allowed now: storage\.googleapis\.com, \*\.storage\.googleapis\.com/,
			);
		}
		const local = await refused(links.url('/ok'), { allowInsecureDownloads: true });
		expect(local.message).toMatch(/127\.0\.0\.1:\d+: the host is not in Allowed Download Hosts/);
		expect(links.hits).toEqual([]);
	});

	test('cloud metadata addresses are refused even when listed', async () => {
		for (const url of [
			'http://169.254.169.254/latest/meta-data/iam/',
			'http://metadata.google.internal/computeMetadata/v1/',
			'http://[fd00:ec2::254]/latest/meta-data/',
		]) {
			const host = new URL(url).host;
			const error = await refused(url, {
				allowInsecureDownloads: true,
				downloadHosts: `${host}, 169.254.169.254`,
			});
			expect(error.message).toBe(
				`Refused to download the result from ${host}: it is a link-local or cloud metadata address, never a result link`,
			);
		}
	});

	test('a redirect to another origin is refused, naming both hosts', async () => {
		const error = await refused(links.url('/other-origin-redirect'), {
			allowInsecureDownloads: true,
			downloadHosts: '127.0.0.1, localhost',
		});
		expect(error.message).toBe(
			`Refused to download the result from 127.0.0.1:${links.port}: it redirects to localhost:${links.port}, and redirects may not leave http://127.0.0.1:${links.port}`,
		);
		expect(links.hits).toEqual(['/other-origin-redirect', '/other-origin-redirect']);
	});

	test('size: a body announced or streamed beyond 64 MiB is refused', async () => {
		const announced = await refused(links.url('/announced-too-big'), LOCAL_DOWNLOADS);
		expect(announced.message).toBe(
			`Refused to download the result from 127.0.0.1:${links.port}: it announces ${65 * MiB} bytes, more than the 64 MiB allowed`,
		);
		const streamed = await refused(links.url('/streamed-too-big'), LOCAL_DOWNLOADS);
		expect(streamed.message).toBe(
			`Refused to download the result from 127.0.0.1:${links.port}: the body is more than the 64 MiB allowed`,
		);
	});

	test('deadline: a download still running after 10 s in all is refused, however steadily it trickles', async () => {
		const h = await trigger({ events: ['read'], options: LOCAL_DOWNLOADS });
		const started = Date.now();
		const answer = await h.call(signed(readMessage(links.url('/trickle'))));
		const elapsed = Date.now() - started;
		expect(answer).toMatchObject({ status: 500, items: undefined });
		expect(answer.error?.message).toBe(
			`Refused to download the result from 127.0.0.1:${links.port}: it took longer than 10 s`,
		);
		// The refusal names the deadline, so the deadline ended it (the trickle would end, with a
		// valid body, only after 20 s); it did not end early. How much later than 10 s it answered
		// depends on the machine, so it is not asserted.
		expect(elapsed).toBeGreaterThanOrEqual(9_900);
	});

	test('an unverified message is never downloaded, whatever the options', async () => {
		const h = await trigger({
			events: ['read'],
			verifySignature: false,
			options: { ...LOCAL_DOWNLOADS, downloadHosts: '127.0.0.1, 169.254.169.254' },
		});
		const answer = await h.call({
			headers: { 'content-type': 'application/json' },
			raw: Buffer.from(JSON.stringify(readMessage(links.url('/ok')))),
		});
		expect(answer.items?.[0]).not.toHaveProperty('result');
		expect(links.hits).toEqual([]);
	});
});
