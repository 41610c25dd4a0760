/**
 * Verification of Svix-signed deliveries (docs/api-notes.md, "Webhook signatures (Svix)"), the
 * way `svix/svix-webhooks` `javascript/src/webhook.ts` verifies them, written against the raw body
 * bytes. Pure: no n8n imports, unit-tested on its own
 * (test/unit/IntegrationPlatformTrigger/svix.test.ts).
 *
 * Scheme: headers `svix-id`, `svix-timestamp` (Unix seconds), `svix-signature` (space-separated
 * `v<version>,<base64>` entries), or the same three as `webhook-*` (Standard Webhooks). The MAC
 * is HMAC-SHA256, keyed with the base64-decoded secret (after `whsec_`), over
 * `${id}.${timestamp}.${rawBody}`; any one matching `v1` entry is enough (secret rotation).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

import { checkWholeNumber } from '../common/numbers';

/** Svix's own window, in both directions (webhook.ts `verifyTimestamp`). */
export const DEFAULT_TOLERANCE_SECONDS = 300;
/** The range the tolerance field offers; checkTolerance holds expressions to it as well. */
export const MIN_TOLERANCE_SECONDS = 30;
export const MAX_TOLERANCE_SECONDS = 3600;

const SECRET_PREFIX = 'whsec_';
/** A base64 HMAC-SHA256: 32 bytes are 43 characters and one `=`. */
const SIGNATURE_PATTERN = /^[A-Za-z0-9+/]{43}=$/;
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Longest message id accepted; Svix ids (`msg_` + 27 characters) are far shorter. */
const MAX_ID_LENGTH = 256;
/** Longest signature header accepted: dozens of entries, far more than any rotation needs. */
const MAX_SIGNATURE_HEADER_LENGTH = 4096;

export type HeaderValue = string | string[] | undefined;
export type HeaderBag = Record<string, HeaderValue>;

export interface SignatureHeaders {
	id: string;
	/** The header as received; `timestampSeconds` is what is signed. */
	timestamp: string;
	timestampSeconds: number;
	signature: string;
	/** Which header family carried them. */
	family: 'svix' | 'webhook';
}

export type VerifyFailure =
	| 'missing-headers'
	| 'invalid-headers'
	| 'missing-body'
	| 'stale'
	| 'future'
	| 'no-secret'
	| 'bad-signature';

export type VerifyResult =
	| { ok: true; id: string; timestampSeconds: number; family: 'svix' | 'webhook' }
	| {
			ok: false;
			reason: VerifyFailure;
			/** Present once the headers could be read, for logs (never the signature). */
			id?: string;
			timestampSeconds?: number;
	  };

/** What a rejection means for a reader of the logs or of the node's documentation. */
export const FAILURE_TEXT: Record<VerifyFailure, string> = {
	'missing-headers': 'the svix-id, svix-timestamp or svix-signature header is missing',
	'invalid-headers': 'the signature headers are malformed',
	'missing-body': 'the raw request body is not available, so the signature cannot be checked',
	stale: 'the message timestamp is older than the tolerance',
	future: 'the message timestamp is further in the future than the tolerance',
	'no-secret': 'no usable signing secret is configured',
	'bad-signature': 'no signature matches the signing secret',
};

/**
 * One header value as a string. Node joins repeated unknown headers with ", "; frameworks may
 * hand over arrays. An array of one is that value; an array of several different values is
 * ambiguous and refused (undefined), except for the signature list, where `joinWith` merges them.
 */
function single(value: HeaderValue, joinWith?: string): string | undefined {
	if (typeof value === 'string') return value;
	if (!Array.isArray(value) || value.length === 0) return undefined;
	if (joinWith !== undefined) return value.join(joinWith);
	const distinct = [...new Set(value)];
	return distinct.length === 1 && typeof distinct[0] === 'string' ? distinct[0] : undefined;
}

function header(headers: HeaderBag, name: string): HeaderValue {
	if (name in headers) return headers[name];
	const wanted = name.toLowerCase();
	const key = Object.keys(headers).find((k) => k.toLowerCase() === wanted);
	return key === undefined ? undefined : headers[key];
}

/**
 * Reads the three headers, preferring a complete `svix-*` set and falling back to a complete
 * `webhook-*` set, as the Svix library does. `undefined` when neither family is complete;
 * `'invalid'` when a value is unusable (ambiguous array, non-numeric timestamp, oversized).
 */
export function readSignatureHeaders(headers: HeaderBag): SignatureHeaders | 'invalid' | undefined {
	for (const family of ['svix', 'webhook'] as const) {
		const rawId = header(headers, `${family}-id`);
		const rawTimestamp = header(headers, `${family}-timestamp`);
		const rawSignature = header(headers, `${family}-signature`);
		if (rawId === undefined || rawTimestamp === undefined || rawSignature === undefined) continue;
		const id = single(rawId)?.trim();
		const timestamp = single(rawTimestamp)?.trim();
		const signature = single(rawSignature, ' ')?.trim();
		if (!id || !timestamp || !signature) return 'invalid';
		// The id is part of the signed content; a "." in it cannot make two different messages
		// sign alike, because the timestamp that follows is digits only.
		if (id.length > MAX_ID_LENGTH || signature.length > MAX_SIGNATURE_HEADER_LENGTH)
			return 'invalid';
		if (!/^\d{1,12}$/.test(timestamp)) return 'invalid';
		return { id, timestamp, timestampSeconds: Number(timestamp), signature, family };
	}
	return undefined;
}

/**
 * The HMAC key of a secret: `whsec_<base64>` or bare base64 (Ampersand does not document which
 * form `webhookSigningKey` takes). Undefined when it is not base64 or is empty.
 */
export function decodeSecret(secret: string): Buffer | undefined {
	let text = secret.trim();
	if (text.startsWith(SECRET_PREFIX)) text = text.slice(SECRET_PREFIX.length);
	if (text === '' || !BASE64_PATTERN.test(text)) return undefined;
	const key = Buffer.from(text, 'base64');
	return key.length > 0 ? key : undefined;
}

/**
 * Several secrets in one text (a field may hold the old and the new one during a manual
 * rotation): separated by whitespace or commas, neither of which occurs in base64.
 */
export function splitSecrets(text: string): string[] {
	return text
		.split(/[\s,]+/)
		.map((s) => s.trim())
		.filter((s) => s !== '');
}

/** The base64 signature (without `v1,`) of one message under one key. */
export function computeSignature(
	key: Buffer,
	id: string,
	timestampSeconds: number,
	body: Buffer,
): string {
	return createHmac('sha256', key)
		.update(`${id}.${timestampSeconds}.`, 'utf8')
		.update(body)
		.digest('base64');
}

/** The `v1` candidates of a signature header; other versions and malformed entries are skipped. */
export function signatureCandidates(signatureHeader: string): string[] {
	const candidates: string[] = [];
	for (const entry of signatureHeader.split(/\s+/)) {
		// Tolerates the ", " Node puts between repeated headers: the entry keeps a trailing comma.
		const match = /^v(\d+),([^,\s]+),?$/.exec(entry);
		if (!match || match[1] !== '1') continue;
		if (SIGNATURE_PATTERN.test(match[2])) candidates.push(match[2]);
	}
	return candidates;
}

/** Constant-time comparison of two base64 signatures (lengths are checked first). */
function sameSignature(a: string, b: string): boolean {
	const left = Buffer.from(a, 'utf8');
	const right = Buffer.from(b, 'utf8');
	return left.length === right.length && timingSafeEqual(left, right);
}

export interface VerifyInput {
	headers: HeaderBag;
	/** The raw body exactly as received: a re-serialised object need not have the signed bytes. */
	body: Buffer | undefined;
	/** HMAC keys (decodeSecret) to try; any one matching signature is enough. */
	keys: Buffer[];
	nowSeconds: number;
	toleranceSeconds?: number;
}

/** Checks the time window only: what can be refused before any secret is looked up. */
export function checkTimestamp(
	timestampSeconds: number,
	nowSeconds: number,
	toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): 'stale' | 'future' | undefined {
	if (nowSeconds - timestampSeconds > toleranceSeconds) return 'stale';
	if (timestampSeconds - nowSeconds > toleranceSeconds) return 'future';
	return undefined;
}

/** Verifies one delivery. Never throws: every problem is a `reason`. */
export function verifySignature(input: VerifyInput): VerifyResult {
	const headers = readSignatureHeaders(input.headers);
	if (headers === undefined) return { ok: false, reason: 'missing-headers' };
	if (headers === 'invalid') return { ok: false, reason: 'invalid-headers' };
	const { id, timestampSeconds } = headers;
	if (!Buffer.isBuffer(input.body))
		return { ok: false, reason: 'missing-body', id, timestampSeconds };
	const window = checkTimestamp(timestampSeconds, input.nowSeconds, input.toleranceSeconds);
	if (window) return { ok: false, reason: window, id, timestampSeconds };
	if (input.keys.length === 0) return { ok: false, reason: 'no-secret', id, timestampSeconds };
	const candidates = signatureCandidates(headers.signature);
	let matched = false;
	for (const key of input.keys) {
		const expected = computeSignature(key, id, timestampSeconds, input.body);
		// Every candidate is compared, match or not, so timing says nothing about which one matched.
		for (const candidate of candidates) {
			if (sameSignature(candidate, expected)) matched = true;
		}
	}
	if (!matched) return { ok: false, reason: 'bad-signature', id, timestampSeconds };
	return { ok: true, id, timestampSeconds, family: headers.family };
}

/**
 * The timestamp tolerance to use: the field's value, a whole number of seconds within its range,
 * or why it is not one. An expression can yield anything, and a larger window would make the
 * replay memory keep claims longer than it is sized for (replay.ts); no value gives Svix's
 * default.
 */
export function checkTolerance(value: unknown): number | { problem: string } {
	if (value === undefined) return DEFAULT_TOLERANCE_SECONDS;
	return checkWholeNumber(
		'Timestamp Tolerance (Seconds)',
		value,
		MIN_TOLERANCE_SECONDS,
		MAX_TOLERANCE_SECONDS,
	);
}
