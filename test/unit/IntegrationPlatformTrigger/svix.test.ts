/**
 * The verification module against published vectors and an independent signer written here
 * (docs/api-notes.md, "Webhook signatures (Svix)"). The cases follow those of Hookdeck's n8n
 * trigger tests: valid, wrong secret/body/signature, missing header, header as array, wrong
 * length, raw bytes vs decoded text, stale/future timestamp, rotated second signature.
 */
import { createHmac, randomBytes } from 'node:crypto';

import {
	checkTimestamp,
	checkTolerance,
	computeSignature,
	decodeSecret,
	readSignatureHeaders,
	signatureCandidates,
	splitSecrets,
	verifySignature,
} from '../../../nodes/IntegrationPlatformTrigger/svix';
import type { HeaderBag } from '../../../nodes/IntegrationPlatformTrigger/svix';

/** Independent Svix signer: strip whsec_, base64-decode, HMAC-SHA256 over id.ts.body, base64. */
function sign(secret: string, id: string, ts: number | string, body: string | Buffer): string {
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	const mac = createHmac('sha256', key);
	mac.update(`${id}.${ts}.`);
	mac.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
	return `v1,${mac.digest('base64')}`;
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

const SECRET = newSecret();
const NOW = 1_750_000_000;
const BODY = Buffer.from('{"action":"read","objectName":"contacts","note":"ünïcødé ✓"}', 'utf8');

function headers(
	overrides: Partial<{ id: string; ts: number; sig: string }> = {},
	prefix = 'svix',
) {
	const id = overrides.id ?? 'msg_2abcdefghijklmnopqrstuvwxyz';
	const ts = overrides.ts ?? NOW;
	return {
		[`${prefix}-id`]: id,
		[`${prefix}-timestamp`]: String(ts),
		[`${prefix}-signature`]: overrides.sig ?? sign(SECRET, id, ts, BODY),
	} as HeaderBag;
}

function check(h: HeaderBag, body: Buffer | undefined = BODY, secrets = [SECRET], now = NOW) {
	return verifySignature({
		headers: h,
		body,
		keys: secrets.map((s) => decodeSecret(s) as Buffer),
		nowSeconds: now,
	});
}

describe('published vectors', () => {
	test('Standard Webhooks specification vector', () => {
		const result = verifySignature({
			headers: {
				'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
				'webhook-timestamp': '1614265330',
				'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
			},
			body: Buffer.from('{"test": 2432232314}'),
			keys: [decodeSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw') as Buffer],
			nowSeconds: 1614265330,
		});
		expect(result).toEqual({
			ok: true,
			id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
			timestampSeconds: 1614265330,
			family: 'webhook',
		});
	});

	test("Svix docs' manual verification example, with svix-* headers and a bare secret", () => {
		const body = Buffer.from('{"event_type":"ping","data":{"success":true}}');
		const svixHeaders = {
			'svix-id': 'msg_loFOjxBNrRLzqYUf',
			'svix-timestamp': '1731705121',
			'svix-signature': 'v1,rAvfW3dJ/X/qxhsaXPOyyCGmRKsaKWcsNccKXlIktD0=',
		};
		for (const secret of ['whsec_plJ3nmyCDGBKInavdOK15jsl', 'plJ3nmyCDGBKInavdOK15jsl']) {
			const result = verifySignature({
				headers: svixHeaders,
				body,
				keys: [decodeSecret(secret) as Buffer],
				nowSeconds: 1731705121 + 299,
			});
			expect(result.ok).toBe(true);
		}
		expect(
			computeSignature(
				decodeSecret('whsec_plJ3nmyCDGBKInavdOK15jsl') as Buffer,
				'msg_loFOjxBNrRLzqYUf',
				1731705121,
				body,
			),
		).toBe('rAvfW3dJ/X/qxhsaXPOyyCGmRKsaKWcsNccKXlIktD0=');
	});
});

describe('accepts', () => {
	test('a message signed by the independent signer', () => {
		expect(check(headers())).toMatchObject({ ok: true, family: 'svix' });
	});

	test('webhook-* headers, and svix-* preferred when both sets are complete', () => {
		expect(check(headers({}, 'webhook'))).toMatchObject({ ok: true, family: 'webhook' });
		const both = { ...headers({ id: 'a' }, 'webhook'), ...headers({ id: 'b' }) };
		expect(check(both)).toMatchObject({ ok: true, id: 'b' });
		// An incomplete svix set falls back to a complete webhook set.
		const partial = { ...headers({}, 'webhook'), 'svix-id': 'x' };
		expect(check(partial)).toMatchObject({ ok: true, family: 'webhook' });
	});

	test('rotation: any one of several v1 signatures; unknown versions are ignored', () => {
		const other = newSecret();
		const id = 'msg_rotation';
		const sig = [
			'v2,notarealsignature',
			sign(other, id, NOW, BODY),
			sign(SECRET, id, NOW, BODY),
		].join(' ');
		expect(check(headers({ id, sig }))).toMatchObject({ ok: true });
		expect(check(headers({ id, sig }), BODY, [other])).toMatchObject({ ok: true });
		// The verifier may hold several secrets too (old and new during a manual rotation).
		expect(check(headers({ id }), BODY, [other, SECRET])).toMatchObject({ ok: true });
	});

	test('header values as arrays (one id, several signature headers) and Node-joined repeats', () => {
		const id = 'msg_array';
		const h = headers({ id });
		const arrays: HeaderBag = {
			'svix-id': [id],
			'svix-timestamp': [String(NOW), String(NOW)],
			'svix-signature': [sign(newSecret(), id, NOW, BODY), h['svix-signature'] as string],
		};
		expect(check(arrays)).toMatchObject({ ok: true });
		const joined: HeaderBag = {
			...h,
			'svix-signature': `v1,${'A'.repeat(43)}=, ${h['svix-signature']}`,
		};
		expect(check(joined)).toMatchObject({ ok: true });
	});

	test('mixed-case header names and surrounding whitespace', () => {
		const h = headers();
		const mixed: HeaderBag = {
			'Svix-Id': h['svix-id'],
			'SVIX-TIMESTAMP': ` ${h['svix-timestamp'] as string} `,
			'svix-Signature': ` ${h['svix-signature'] as string}  `,
		};
		expect(check(mixed)).toMatchObject({ ok: true });
	});

	test('timestamps at the edges of the window, in both directions', () => {
		expect(check(headers({ ts: NOW - 300 }))).toMatchObject({ ok: true });
		expect(check(headers({ ts: NOW + 300 }))).toMatchObject({ ok: true });
	});

	test('the raw bytes exactly, not their re-serialisation', () => {
		const spaced = Buffer.from('{ "a" : 1 ,\n "b": [1,2] }');
		const h = headers({ sig: sign(SECRET, 'msg_2abcdefghijklmnopqrstuvwxyz', NOW, spaced) });
		expect(check(h, spaced)).toMatchObject({ ok: true });
		expect(check(h, Buffer.from(JSON.stringify(JSON.parse(spaced.toString()))))).toMatchObject({
			ok: false,
			reason: 'bad-signature',
		});
	});

	test('non-UTF-8 bytes are hashed as bytes', () => {
		const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]);
		const h = headers({ sig: sign(SECRET, 'msg_2abcdefghijklmnopqrstuvwxyz', NOW, bytes) });
		expect(check(h, bytes)).toMatchObject({ ok: true });
		// Decoding to text first would replace the bytes and break the signature.
		expect(check(h, Buffer.from(bytes.toString('utf8')))).toMatchObject({ ok: false });
	});
});

describe('refuses', () => {
	test('missing headers (each of the three), and a missing body', () => {
		for (const name of ['svix-id', 'svix-timestamp', 'svix-signature']) {
			const h = headers();
			delete h[name];
			expect(check(h)).toMatchObject({ ok: false, reason: 'missing-headers' });
		}
		expect(check({})).toMatchObject({ ok: false, reason: 'missing-headers' });
		const noBody = verifySignature({
			headers: headers(),
			body: undefined,
			keys: [decodeSecret(SECRET) as Buffer],
			nowSeconds: NOW,
		});
		expect(noBody).toMatchObject({ ok: false, reason: 'missing-body' });
	});

	test('malformed headers: empty, non-numeric or millisecond timestamp, ambiguous id array', () => {
		expect(check({ ...headers(), 'svix-id': '' })).toMatchObject({ reason: 'invalid-headers' });
		expect(check({ ...headers(), 'svix-timestamp': '17e8' })).toMatchObject({
			reason: 'invalid-headers',
		});
		expect(check({ ...headers(), 'svix-timestamp': '-5' })).toMatchObject({
			reason: 'invalid-headers',
		});
		expect(check({ ...headers(), 'svix-id': ['a', 'b'] })).toMatchObject({
			reason: 'invalid-headers',
		});
		expect(check({ ...headers(), 'svix-id': [] })).toMatchObject({ reason: 'invalid-headers' });
		expect(check({ ...headers(), 'svix-id': 'x'.repeat(257) })).toMatchObject({
			reason: 'invalid-headers',
		});
		const ms = NOW * 1000;
		expect(
			check(headers({ ts: ms, sig: sign(SECRET, 'msg_2abcdefghijklmnopqrstuvwxyz', ms, BODY) })),
		).toMatchObject({
			ok: false,
		});
	});

	test('stale and future timestamps, even with a valid signature', () => {
		expect(check(headers({ ts: NOW - 301 }))).toMatchObject({ ok: false, reason: 'stale' });
		expect(check(headers({ ts: NOW + 301 }))).toMatchObject({ ok: false, reason: 'future' });
		expect(checkTimestamp(NOW - 61, NOW, 60)).toBe('stale');
		expect(checkTimestamp(NOW + 61, NOW, 60)).toBe('future');
		expect(checkTimestamp(NOW, NOW, 60)).toBeUndefined();
	});

	test('a tampered body, a changed id or timestamp, a wrong secret', () => {
		const h = headers();
		expect(check(h, Buffer.from(BODY.toString().replace('contacts', 'companies')))).toMatchObject({
			reason: 'bad-signature',
		});
		expect(check({ ...h, 'svix-id': 'msg_other' })).toMatchObject({ reason: 'bad-signature' });
		expect(check({ ...h, 'svix-timestamp': String(NOW - 1) })).toMatchObject({
			reason: 'bad-signature',
		});
		expect(check(h, BODY, [newSecret()])).toMatchObject({ reason: 'bad-signature' });
	});

	test('forged, truncated, over-long and wrong-length signatures, and other versions only', () => {
		const good = (headers()['svix-signature'] as string).slice(3);
		for (const sig of [
			`v1,${'A'.repeat(43)}=`,
			`v1,${good.slice(0, -2)}`,
			`v1,${good}AAAA`,
			`v1,${Buffer.from(good, 'base64').subarray(0, 16).toString('base64')}`,
			`v2,${good}`,
			`v1 ${good}`,
			good,
			'',
			'v1,',
			`v1,${good.replace(/=$/, '')}`,
		]) {
			const result = check({ ...headers(), 'svix-signature': sig });
			expect(result.ok).toBe(false);
		}
	});

	test('no usable secret', () => {
		expect(
			verifySignature({ headers: headers(), body: BODY, keys: [], nowSeconds: NOW }),
		).toMatchObject({
			ok: false,
			reason: 'no-secret',
		});
	});
});

describe('helpers', () => {
	test('decodeSecret: prefixed or bare base64; junk is refused', () => {
		expect(decodeSecret('whsec_AAEC')).toEqual(Buffer.from([0, 1, 2]));
		expect(decodeSecret(' AAEC ')).toEqual(Buffer.from([0, 1, 2]));
		expect(decodeSecret('whsec_')).toBeUndefined();
		expect(decodeSecret('')).toBeUndefined();
		expect(decodeSecret('not base64!')).toBeUndefined();
		expect(decodeSecret('whsec_abc')).toBeUndefined();
	});

	test('splitSecrets: spaces, commas and newlines', () => {
		expect(splitSecrets(' whsec_a,whsec_b\nwhsec_c  ')).toEqual(['whsec_a', 'whsec_b', 'whsec_c']);
		expect(splitSecrets('')).toEqual([]);
	});

	test('signatureCandidates keeps well-formed v1 entries only', () => {
		const sig = 'A'.repeat(43) + '=';
		expect(signatureCandidates(`v1,${sig} v2,${sig} v1,short v1,${sig}, junk`)).toEqual([sig, sig]);
	});

	test('readSignatureHeaders reports which family', () => {
		expect(readSignatureHeaders(headers({}, 'webhook'))).toMatchObject({
			family: 'webhook',
			timestampSeconds: NOW,
		});
		expect(readSignatureHeaders({})).toBeUndefined();
	});
});

describe('checkTolerance', () => {
	test.each([
		[300, 300],
		[30, 30],
		[3600, 3600],
		['600', 600],
		[undefined, 300],
	])('%p → %p seconds', (value, seconds) => {
		expect(checkTolerance(value)).toBe(seconds);
	});

	// Each was held to the range or replaced by the default, silently.
	test.each([
		[5, 'not 5'],
		[0, 'not 0'],
		[-100, 'not -100'],
		[100_000, 'not 100000'],
		[45.4, 'not the number 45.4'],
		['', 'not the text ""'],
		['soon', 'not the text "soon"'],
		[null, 'not null'],
		[Number.NaN, 'not the number NaN'],
		[Number.POSITIVE_INFINITY, 'not the number Infinity'],
	])('%p is refused, naming the field', (value, why) => {
		expect(checkTolerance(value)).toEqual({
			problem: `"Timestamp Tolerance (Seconds)" must be a whole number from 30 to 3600, ${why}`,
		});
	});
});
