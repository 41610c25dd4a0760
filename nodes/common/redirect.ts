/**
 * Redirect answers. Requests that carry a credential's secret never follow them (hosts.ts,
 * withoutRedirects), so a redirect comes back as the answer; this module words it.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** The statuses n8n would follow as redirects. */
export const REDIRECT_STATUSES: readonly number[] = [301, 302, 303, 307, 308];

export function isRedirect(status: number): boolean {
	return REDIRECT_STATUSES.includes(status);
}

/** The Location header of an answer, if it has one. */
export function locationOf(headers: Record<string, unknown>): string | undefined {
	const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'location');
	const value = Array.isArray(entry?.[1]) ? (entry[1] as unknown[])[0] : entry?.[1];
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Where a Location points, without query string or fragment. */
function redirectTarget(location: string, base: string | undefined): string {
	try {
		const target = new URL(location, base);
		return `${target.origin}${target.pathname}`;
	} catch {
		// A relative Location, and no request URL to resolve it against.
		const path = location.split(/[?#]/)[0];
		return path.startsWith('/') ? path : 'a Location that is not a URL';
	}
}

/**
 * The error for a redirect answered to a request that carried the credential's secret: n8n was
 * told not to follow it (hosts.ts, withoutRedirects). It names where the redirect points, without
 * the query string (which may carry anything) and with the caller's secrets masked.
 */
export function redirectError(
	node: INode,
	status: number,
	headers: Record<string, unknown>,
	options: { requestUrl?: string; secrets?: readonly string[]; itemIndex?: number } = {},
): NodeApiError {
	const location = locationOf(headers);
	const where =
		location === undefined
			? 'without a Location'
			: `to ${(options.secrets ?? []).reduce(
					(text, secret) => (secret.length >= 4 ? text.split(secret).join('[redacted]') : text),
					redirectTarget(location, options.requestUrl),
				)}`;
	return new NodeApiError(node, { status } as JsonObject, {
		message: `The service answered HTTP ${status}, a redirect ${where}, which the node does not follow`,
		description:
			"Requests that carry the credential's API key or token never follow redirects, so that the secret cannot reach another host. Check the base URLs in the credential: the redirect may point from http to https, or to a host that moved.",
		httpCode: String(status),
		...(options.itemIndex !== undefined ? { itemIndex: options.itemIndex } : {}),
	});
}
