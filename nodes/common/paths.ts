/**
 * Values that travel in a request URL (path segments and query values), for every node of the
 * package. A value can never change the path: each becomes one percent-encoded segment, and the
 * values URL parsing would resolve away (`.` and `..`, however encoded) are refused.
 */

/** Longest value accepted in a path segment; real IDs and names are far shorter. */
export const MAX_PATH_VALUE_LENGTH = 512;

/** A lone UTF-16 surrogate: not Unicode text, and encodeURIComponent throws on it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Encodes one path segment: `/`, `?`, `#` and `%` are percent-encoded by encodeURIComponent, and
 * the dots of a `.` or `..` segment too. That alone is not enough: WHATWG URL parsing (as axios
 * uses it) still resolves `%2E` and `%2E%2E` segments, so checkPathSegment refuses such values.
 */
export function encodePathSegment(value: string): string {
	const encoded = encodeURIComponent(value);
	return encoded === '.' || encoded === '..' ? encoded.replace(/\./g, '%2E') : encoded;
}

export type Checked = string | { problem: string };

/** Checks a value that travels in the URL (a path segment or a query value): text or a number. */
export function checkUrlText(label: string, raw: unknown): Checked {
	if (typeof raw === 'number' && !Number.isFinite(raw)) {
		return { problem: `"${label}" must be text, but its value is the number ${raw}` };
	}
	if (typeof raw !== 'string' && typeof raw !== 'number') {
		const kind = Array.isArray(raw) ? 'a list' : typeof raw;
		return { problem: `"${label}" must be text, but its value is ${kind}` };
	}
	const value = String(raw).trim();
	if (value.length > MAX_PATH_VALUE_LENGTH) {
		return {
			problem: `"${label}" is ${value.length} characters long; the service accepts at most ${MAX_PATH_VALUE_LENGTH}`,
		};
	}
	if (LONE_SURROGATE.test(value)) {
		return {
			problem: `"${label}" contains malformed Unicode (an unpaired surrogate), which cannot be sent in a URL`,
		};
	}
	return value;
}

/** Checks a path segment value and explains, naming the field, why it cannot be sent. */
export function checkPathSegment(label: string, raw: unknown): Checked {
	if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
		return { problem: `"${label}" is empty: it is required to build the request path` };
	}
	const value = checkUrlText(label, raw);
	// However it is encoded, a "." or ".." segment is resolved away and addresses another resource.
	if (value === '.' || value === '..') {
		return {
			problem: `"${label}" cannot be "${value}": as a path segment it would address another resource`,
		};
	}
	return value;
}

/**
 * Builds an API path from a template literal, each interpolated value checked and encoded as one
 * segment: apiPath`/projects/${project}/destinations/${id}`. Throws on a value checkPathSegment
 * refuses, for code paths (triggers, lookups) whose values come from the service or a locator.
 */
export function apiPath(strings: TemplateStringsArray, ...values: unknown[]): string {
	return strings.reduce((path, text, index) => {
		if (index === 0) return text;
		const checked = checkPathSegment('path value', values[index - 1]);
		if (typeof checked !== 'string') throw new Error(checked.problem);
		return path + encodePathSegment(checked) + text;
	}, '');
}
