/**
 * Network failures in words that name the host. n8n's NodeApiError replaces any message that
 * contains an error code such as ECONNREFUSED with a generic text that names no host (its list
 * of common error codes), so the code goes into the description only. Pure: no n8n imports.
 */
// A Map: an error's code is any text (`constructor` is no failure of ours).
const FAILURES = new Map<string, string>(
	Object.entries({
		ECONNREFUSED: 'refused the connection',
		ECONNRESET: 'closed the connection before answering',
		ETIMEDOUT: 'did not answer in time',
		ECONNABORTED: 'did not answer in time',
		ENOTFOUND: 'could not be found (DNS lookup failed)',
		EAI_AGAIN: 'could not be resolved (DNS lookup failed)',
		EHOSTUNREACH: 'is unreachable',
		EPIPE: 'closed the connection while the request was sent',
		// TLS: the handshake failed (often https spoken to a plain-HTTP port) or the certificate is
		// not one n8n trusts.
		EPROTO: 'could not be reached over TLS (the handshake failed: check http or https in the URL)',
		ERR_SSL_WRONG_VERSION_NUMBER:
			'could not be reached over TLS (the handshake failed: check http or https in the URL)',
		CERT_HAS_EXPIRED: 'presented an expired TLS certificate',
		DEPTH_ZERO_SELF_SIGNED_CERT: 'presented a self-signed TLS certificate',
		SELF_SIGNED_CERT_IN_CHAIN: 'presented a TLS certificate signed by an untrusted authority',
		UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'presented a TLS certificate n8n cannot verify',
		UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'presented a TLS certificate n8n cannot verify',
		ERR_TLS_CERT_ALTNAME_INVALID: 'presented a TLS certificate for another host name',
	}),
);

/** The network error code of an error or of one of its causes, if it is a network failure. */
export function networkErrorCode(error: unknown): string | undefined {
	let current = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined;
	for (let depth = 0; current && depth < 5; depth++) {
		if (typeof current.code === 'string' && FAILURES.has(current.code)) return current.code;
		if (typeof current.message === 'string' && /timeout of \d+ms exceeded/.test(current.message))
			return 'ETIMEDOUT';
		current = current.cause as typeof current;
	}
	return undefined;
}

export function hostOf(url: string | undefined, baseURL: string | undefined): string {
	try {
		return new URL(url ?? '', baseURL).host || String(baseURL);
	} catch {
		return String(baseURL ?? url ?? 'the service');
	}
}

/** `{ message, description }` for a network failure, or undefined for any other error. */
export function describeNetworkFailure(
	error: unknown,
	host: string,
	secrets: readonly string[] = [],
): { message: string; description: string } | undefined {
	const code = networkErrorCode(error);
	if (!code) return undefined;
	const detail = error instanceof Error && error.message ? `${code}: ${error.message}` : code;
	const masked = secrets.reduce(
		(text, secret) => (secret.length >= 4 ? text.split(secret).join('[redacted]') : text),
		detail,
	);
	return {
		message: `The Integration Platform API at ${host} ${FAILURES.get(code)}`,
		description: [
			`Network error ${masked}.`,
			'Check the base URL in the credential and that the service is reachable from n8n; retrying later may help (Settings → Retry On Fail).',
		].join('\n'),
	};
}
