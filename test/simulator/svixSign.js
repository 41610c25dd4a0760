// @ts-check
'use strict';

/**
 * The simulator's Svix signer (docs/api-notes.md, "Webhook signatures (Svix)"), written from the scheme and independent of the
 * node's verifier (nodes/IntegrationPlatformTrigger/svix.ts), so that each checks the other.
 *
 *   key       = base64-decode(secret without "whsec_")
 *   content   = `${msgId}.${timestampSeconds}.${body}`      (body: the exact bytes sent)
 *   signature = "v1," + base64(HMAC-SHA256(key, content))
 *   header    = the signatures of every active secret, space-separated
 */

const { createHmac, randomBytes } = require('node:crypto');

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** @param {string} secret `whsec_<base64>` or bare base64 */
function signingKey(secret) {
	const text = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
	return Buffer.from(text, 'base64');
}

/**
 * @param {string} secret
 * @param {string} msgId
 * @param {number} timestampSeconds
 * @param {string | Buffer} body
 * @returns {string} `v1,<base64>`
 */
function signOnce(secret, msgId, timestampSeconds, body) {
	const mac = createHmac('sha256', signingKey(secret));
	mac.update(Buffer.from(`${msgId}.${timestampSeconds}.`, 'utf8'));
	mac.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
	return `v1,${mac.digest('base64')}`;
}

/**
 * The svix-signature value for one or several secrets (several during a rotation).
 * @param {string | string[]} secrets
 * @param {string} msgId
 * @param {number} timestampSeconds
 * @param {string | Buffer} body
 */
function signature(secrets, msgId, timestampSeconds, body) {
	return [secrets]
		.flat()
		.map((s) => signOnce(s, msgId, timestampSeconds, body))
		.join(' ');
}

/**
 * The three headers of a signed delivery.
 * @param {{ secrets: string | string[], msgId: string, timestampSeconds?: number, body: string | Buffer, prefix?: 'svix' | 'webhook' }} input
 * @returns {Record<string, string>}
 */
function signedHeaders({ secrets, msgId, timestampSeconds, body, prefix = 'svix' }) {
	const ts = timestampSeconds === undefined ? Math.floor(Date.now() / 1000) : timestampSeconds;
	return {
		[`${prefix}-id`]: msgId,
		[`${prefix}-timestamp`]: String(ts),
		[`${prefix}-signature`]: signature(secrets, msgId, ts, body),
	};
}

/** A Svix-looking message id: `msg_` and 27 base62 characters. */
function newMessageId() {
	const bytes = randomBytes(27);
	let id = 'msg_';
	for (const b of bytes) id += BASE62[b % 62];
	return id;
}

module.exports = { signingKey, signOnce, signature, signedHeaders, newMessageId };
