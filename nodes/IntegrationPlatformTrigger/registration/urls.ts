/** Webhook URLs: how they are shown in messages and when two of them are the same. */
import type { Json } from './types';

/** A URL for messages: origin and path only, since a query string may carry a token. */
export function safeUrl(url: unknown): string {
	if (typeof url !== 'string') return String(url);
	try {
		const parsed = new URL(url);
		return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
	} catch {
		return url.slice(0, 80);
	}
}

/**
 * A URL in a form where equivalent spellings agree: scheme and host in lower case, no default
 * port, percent escapes in upper case, no trailing slash, no fragment. A service may store a
 * webhook URL in its own normal form, and the trigger must still recognise its destination.
 */
export function normaliseUrl(url: unknown): string | undefined {
	if (typeof url !== 'string') return undefined;
	const text = url.trim();
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		return text;
	}
	const path = parsed.pathname
		.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase())
		.replace(/\/+$/, '');
	return `${parsed.protocol}//${parsed.host}${path}${parsed.search}`;
}

/** Whether two webhook URLs address the same endpoint (see normaliseUrl). */
export function sameUrl(a: unknown, b: unknown): boolean {
	const left = normaliseUrl(a);
	return left !== undefined && left === normaliseUrl(b);
}

/** The URL a destination sends to. */
export function urlOf(destination: Json): unknown {
	const metadata = destination.metadata;
	return typeof metadata === 'object' && metadata !== null ? (metadata as Json).url : undefined;
}
