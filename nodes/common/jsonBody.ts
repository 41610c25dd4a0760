import type { IDataObject } from 'n8n-workflow';

/**
 * n8n's HTTP client (axios 1.x) copies the plain objects of a JSON body before it serialises them
 * and leaves out every key named `__proto__`, `constructor` or `prototype`, at any depth, without a
 * word. Such a key is an ordinary name to the API (a record's field, a metadata key the user
 * named), so a body that holds one is handed over as the JSON text it is: axios sends text as
 * given, and the key arrives (docs/n8n-notes.md, "Keys a JSON body loses").
 */
const KEYS_AXIOS_DROPS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether `value` holds, at any depth, a key that axios would leave out of a JSON body. */
export function holdsKeyAxiosDrops(value: unknown, seen = new Set<object>()): boolean {
	if (typeof value !== 'object' || value === null || seen.has(value)) return false;
	seen.add(value);
	if (Array.isArray(value)) return value.some((entry) => holdsKeyAxiosDrops(entry, seen));
	for (const key of Object.keys(value)) {
		if (KEYS_AXIOS_DROPS.has(key)) return true;
		if (holdsKeyAxiosDrops((value as Record<string, unknown>)[key], seen)) return true;
	}
	return false;
}

/**
 * The request options with a body that reaches the service whole: unchanged, unless the body
 * holds a key axios drops; then the body is its JSON text, labelled `application/json` unless the
 * request names its content type already (axios would label bare text form-encoded).
 */
export function withWholeJsonBody<T extends { body?: unknown; headers?: IDataObject }>(
	options: T,
): T {
	if (!holdsKeyAxiosDrops(options.body)) return options;
	const headers = options.headers ?? {};
	const typed = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
	return {
		...options,
		body: JSON.stringify(options.body),
		headers: typed ? headers : { ...headers, 'Content-Type': 'application/json' },
	};
}
