// @ts-check
'use strict';
/**
 * Every secret the simulator issues or receives (API keys, bearer tokens, webhook signing keys,
 * provider credentials sent to connections:generate), so that a test can check that none of them
 * leaked into n8n's logs or execution data (README.md, "Secrets"). With SIM_SECRETS_FILE set, each
 * simulator appends them to that file (one per line) when it closes.
 */
const fs = require('node:fs');
const { SEED } = require('./seed');

/** @type {Set<string>} */
const secrets = new Set(
	[
		SEED.apiKey,
		SEED.deletableApiKey,
		SEED.updatableApiKey,
		SEED.secondProjectApiKey,
		SEED.bearerToken,
		SEED.otherBearerToken,
		SEED.expiredBearerToken,
		SEED.webhookSigningKey,
	].filter(Boolean),
);

/** Remembers a secret (strings of 6+ characters; shorter values would match by accident). */
function remember(/** @type {unknown} */ value) {
	if (typeof value === 'string' && value.length >= 6) secrets.add(value);
}

/** Remembers every string in a value whose own key looks secret (apiKey, password, clientSecret, token, …). */
function rememberSecretFields(/** @type {unknown} */ value) {
	if (Array.isArray(value)) {
		for (const v of value) rememberSecretFields(v);
	} else if (value && typeof value === 'object') {
		for (const [key, v] of Object.entries(value)) {
			if (typeof v === 'string' && /(key|secret|password|token)$/i.test(key)) remember(v);
			else rememberSecretFields(v);
		}
	}
}

function flush() {
	const file = process.env.SIM_SECRETS_FILE;
	if (file) fs.appendFileSync(file, `${[...secrets].join('\n')}\n`);
}

module.exports = { remember, rememberSecretFields, flush, secrets };
