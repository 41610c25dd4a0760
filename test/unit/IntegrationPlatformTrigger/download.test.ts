/** Download rules of `url` results (nodes/IntegrationPlatformTrigger/download.ts), without n8n. */
import { Readable } from 'node:stream';

import type { IHttpRequestOptions } from 'n8n-workflow';

import {
	checkDownloadUrl,
	DEFAULT_DOWNLOAD_HOSTS,
	DownloadRefusal,
	downloadRecords,
	hostAllowed,
	parseHostList,
} from '../../../nodes/IntegrationPlatformTrigger/download';
import type { DownloadPolicy } from '../../../nodes/IntegrationPlatformTrigger/download';

const GCS: DownloadPolicy = { allowInsecure: false, hosts: parseHostList(DEFAULT_DOWNLOAD_HOSTS) };

function refusal(run: () => unknown): DownloadRefusal {
	try {
		run();
	} catch (error) {
		if (error instanceof DownloadRefusal) return error;
		throw error;
	}
	throw new Error('not refused');
}

describe('allowlist', () => {
	test('parseHostList tolerates schemes, ports, paths, case and separators', () => {
		const list = ' Storage.GoogleApis.com, https://files.example.com:443/x  *.cdn.example ';
		expect(parseHostList(list)).toEqual([
			'storage.googleapis.com',
			'files.example.com',
			'*.cdn.example',
		]);
		expect(parseHostList('*')).toEqual([]);
		expect(parseHostList(undefined)).toEqual([]);
	});

	test.each([
		['storage.googleapis.com', true],
		['STORAGE.googleapis.com.', true],
		['my-bucket.storage.googleapis.com', true],
		['googleapis.com', false],
		['storage.googleapis.com.attacker.example', false],
		['evilstorage.googleapis.com', false],
	])('%s allowed by default: %p', (host, allowed) => {
		expect(hostAllowed(host, GCS.hosts)).toBe(allowed);
	});
});

describe('checkDownloadUrl', () => {
	test('a signed Cloud Storage link passes', () => {
		const url = 'https://storage.googleapis.com/bucket/result.json?X-Goog-Signature=abc';
		expect(checkDownloadUrl(url, GCS).href).toBe(url);
	});

	const listing = (host: string): DownloadPolicy => ({ allowInsecure: true, hosts: [host] });
	test.each([
		['http://storage.googleapis.com/b/o', GCS, 'https', /allowed, and this one is http$/],
		['file:///etc/passwd', { ...GCS, allowInsecure: true }, 'https', /this one is file$/],
		['not a url', GCS, 'https', /not a valid URL/],
		['https://attacker.example/x', GCS, 'allowlist', /attacker\.example: the host is not in/],
		['http://169.254.169.254/latest', listing('169.254.169.254'), 'metadata', /169\.254\.169/],
		['http://0xA9FEA9FE/latest', listing('169.254.169.254'), 'metadata', /169\.254\.169/],
		['http://[::ffff:169.254.169.254]/', listing('[::ffff:a9fe:a9fe]'), 'metadata', /a9fe/],
		['http://[fe80::1]/', listing('[fe80::1]'), 'metadata', /fe80/],
		[
			'https://metadata.google.internal/',
			listing('metadata.google.internal'),
			'metadata',
			/google/,
		],
	])('%s is refused (%s)', (url, policy, rule, message) => {
		const error = refusal(() => checkDownloadUrl(url, policy));
		expect(error.rule).toBe(rule);
		expect(error.message).toMatch(message);
	});
});

interface FakeAnswer {
	status?: number;
	headers?: Record<string, string>;
	body: Readable | string;
}

/** A fake of n8n's httpRequest helper: answers by URL, records the options it got. */
function fakeHttp(answers: Record<string, FakeAnswer>) {
	const calls: IHttpRequestOptions[] = [];
	const http = async (options: IHttpRequestOptions) => {
		calls.push(options);
		const answer = answers[options.url];
		if (!answer) throw new Error(`unexpected ${options.url}`);
		const body =
			typeof answer.body === 'string' ? Readable.from([Buffer.from(answer.body)]) : answer.body;
		return { statusCode: answer.status ?? 200, headers: answer.headers ?? {}, body };
	};
	return { http, calls };
}

const redirect = (status: number, location: string): FakeAnswer => ({
	status,
	headers: { location },
	body: '',
});

const LOCAL: DownloadPolicy = { allowInsecure: true, hosts: ['files.test'] };
const LIMITS = { maxBytes: 1000, deadlineMs: 500 };

describe('downloadRecords', () => {
	test('asks n8n for a stream, no redirects followed by it, with a deadline signal', async () => {
		const { http, calls } = fakeHttp({ 'http://files.test/r': { body: '[{"a":1},{"a":2}]' } });
		const records = await downloadRecords(http, 'http://files.test/r', LOCAL, LIMITS);
		expect(records).toEqual([{ a: 1 }, { a: 2 }]);
		expect(calls[0]).toMatchObject({
			method: 'GET',
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		});
		expect(calls[0].abortSignal).toBeDefined();
	});

	test('follows redirects within the origin, at most three', async () => {
		const { http } = fakeHttp({
			'http://files.test/a': redirect(301, '/b'),
			'http://files.test/b': redirect(307, 'http://files.test/c'),
			'http://files.test/c': { body: '{"result":[{"x":1}]}' },
		});
		expect(await downloadRecords(http, 'http://files.test/a', LOCAL, LIMITS)).toEqual([{ x: 1 }]);
		const loop = fakeHttp({ 'http://files.test/loop': redirect(302, '/loop') });
		await expect(
			downloadRecords(loop.http, 'http://files.test/loop', LOCAL, LIMITS),
		).rejects.toMatchObject({
			rule: 'redirect',
			message: expect.stringMatching(/more than 3 redirects/),
		});
		expect(loop.calls).toHaveLength(4);
	});

	test.each([
		['another host', 'http://other.test/x', 'other.test'],
		['another scheme', 'https://files.test/x', 'files.test'],
		['another port', 'http://files.test:8080/x', 'files.test:8080'],
	])('refuses a redirect to %s', async (_what, location, host) => {
		const { http, calls } = fakeHttp({ 'http://files.test/a': redirect(302, location) });
		const error = await downloadRecords(http, 'http://files.test/a', LOCAL, LIMITS).catch(
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(DownloadRefusal);
		expect(error).toMatchObject({ rule: 'redirect', host });
		expect(calls).toHaveLength(1);
	});

	test('size: refused on the announced length or while counting; a body at the cap passes', async () => {
		const announced = fakeHttp({
			'http://files.test/r': { headers: { 'content-length': '1001' }, body: '[]' },
		});
		await expect(
			downloadRecords(announced.http, 'http://files.test/r', LOCAL, LIMITS),
		).rejects.toMatchObject({ rule: 'size' });
		const chunks = Array.from({ length: 11 }, () => Buffer.alloc(100, 0x20));
		const counted = fakeHttp({ 'http://files.test/r': { body: Readable.from(chunks) } });
		await expect(
			downloadRecords(counted.http, 'http://files.test/r', LOCAL, LIMITS),
		).rejects.toMatchObject({
			rule: 'size',
			message: expect.stringMatching(/the body is more than/),
		});
		const exact = fakeHttp({ 'http://files.test/r': { body: `[${' '.repeat(998)}]` } });
		expect(await downloadRecords(exact.http, 'http://files.test/r', LOCAL, LIMITS)).toEqual([]);
	});

	test('deadline: a body still arriving when it passes is refused, and the stream destroyed', async () => {
		let destroyed = false;
		const slow = new Readable({
			read() {
				setTimeout(() => this.push(' '), 50);
			},
			destroy(error, callback) {
				destroyed = true;
				callback(error);
			},
		});
		const { http } = fakeHttp({ 'http://files.test/r': { body: slow } });
		// The body never ends: only the deadline can end the download (no bound on elapsed time).
		await expect(downloadRecords(http, 'http://files.test/r', LOCAL, LIMITS)).rejects.toMatchObject(
			{
				rule: 'deadline',
				host: 'files.test',
				message: 'Refused to download the result from files.test: it took longer than 0.5 s',
			},
		);
		expect(destroyed).toBe(true);
	});

	test('other failures are ordinary errors (the sender retries)', async () => {
		const { http } = fakeHttp({
			'http://files.test/403': { status: 403, body: '<Error>expired</Error>' },
			'http://files.test/html': { body: '<html></html>' },
		});
		for (const path of ['/403', '/html']) {
			const error = await downloadRecords(http, `http://files.test${path}`, LOCAL, LIMITS).catch(
				(e: unknown) => e,
			);
			expect(error).toBeInstanceOf(Error);
			expect(error).not.toBeInstanceOf(DownloadRefusal);
		}
	});
});
