/**
 * The service's hosts (docs/api-notes.md, "Hosts and base URLs"). Credentials hold bare origins such
 * as `https://api.withampersand.com`; every path of the management, read, write and search APIs
 * lives under `/v1`, which is added here so that users can paste the origin with or without a
 * trailing slash (or with `/v1` already). The proxy has no `/v1`: its paths are the provider's.
 */
export const DEFAULT_API_URL = 'https://api.withampersand.com';
export const DEFAULT_READ_URL = 'https://read.withampersand.com';
export const DEFAULT_WRITE_URL = 'https://write.withampersand.com';
export const DEFAULT_SEARCH_URL = 'https://search.withampersand.com';
export const DEFAULT_PROXY_URL = 'https://proxy.withampersand.com';

export function versionedBaseUrl(origin: unknown, fallback: string): string {
	const trimmed = (typeof origin === 'string' && origin.trim() !== '' ? origin : fallback)
		.trim()
		.replace(/\/+$/, '');
	return trimmed.endsWith('/v1') ? trimmed : `${trimmed}/v1`;
}

/** The proxy's base URL: the origin as stored, without trailing slashes (no `/v1`). */
export function proxyBaseUrl(origin: unknown): string {
	return (typeof origin === 'string' && origin.trim() !== '' ? origin : DEFAULT_PROXY_URL)
		.trim()
		.replace(/\/+$/, '');
}

/** The origin of a URL, or undefined when it is not an absolute http(s) URL. */
function originOf(url: unknown): string | undefined {
	if (typeof url !== 'string' || !/^https?:\/\//i.test(url.trim())) return undefined;
	try {
		return new URL(url.trim()).origin;
	} catch {
		return undefined;
	}
}

/**
 * Whether a request may carry the credential's secret: it goes to one of the credential's own
 * hosts. A request without an absolute URL or base URL gets the credential's base URL, so it is
 * the credential's own. Anything else (another host, another scheme or port, a URL that does not
 * parse) gets no secret: n8n's HTTP Request node lets a user pair any credential with any URL.
 */
export function isOwnHost(
	request: { url?: string; uri?: unknown; baseURL?: string },
	ownOrigins: readonly unknown[],
): boolean {
	const target = typeof request.url === 'string' ? request.url : request.uri;
	const absolute = typeof target === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(target.trim());
	const destination = absolute ? target : request.baseURL;
	if (destination === undefined || destination === '') return true;
	const origin = originOf(destination);
	return origin !== undefined && ownOrigins.map(originOf).includes(origin);
}

/**
 * A request that carries a secret, told not to follow redirects. n8n follows them by default and
 * on the way to another origin keeps every header but Authorization, Proxy-Authorization and
 * Cookie, and even puts Authorization back (docs/n8n-notes.md, "Redirects"), so the key (X-Api-Key)
 * or token would reach whatever host a redirect names. The flags cover both request shapes that
 * reach a credential's authenticate function: n8n's httpRequest options (disableFollowRedirect)
 * and the legacy request options of requestWithAuthentication, which n8n's HTTP Request node uses
 * (followRedirect, followAllRedirects). The redirect then comes back as the answer.
 */
export function withoutRedirects<T extends object>(request: T): T {
	return Object.assign(request, {
		disableFollowRedirect: true,
		followRedirect: false,
		followAllRedirects: false,
		maxRedirects: 0,
		sendCredentialsOnCrossOriginRedirect: false,
	});
}
