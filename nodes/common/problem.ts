/**
 * Turns an error answer of the service into the text a user reads. Pure: no n8n imports, so it is
 * unit-tested on its own (test/unit/common/problem.test.ts).
 *
 * The service answers errors with RFC 9457 problem documents (docs/api-notes.md, "Problem documents"): `title`, `detail`,
 * `status`, `requestId`, `remedy`, `retryable`, `retryAfter`, and for invalid input `issues[]`
 * entries `{ in, name, value, detail }`. The JWT-key operations use `validationIssues[]` entries
 * `{ field, value, detail, remedy }` instead. n8n's own NodeApiError would show none of it
 * (docs/n8n-notes.md, "Errors from routed requests"), hence this module.
 */

export interface Problem {
	status: number;
	title: string;
	detail?: string;
	requestId?: string;
	remedy?: string;
	retryable?: boolean;
	/** Seconds to wait before retrying, from `Retry-After` or the problem's `retryAfter`. */
	retryAfterSeconds?: number;
	/** One line per invalid input: `"Field label": reason (got "value")`, or `body field name: …`
	 * when no field of the node stands behind the input. */
	issues: string[];
	/** Headline: title, detail and the invalid inputs, with status and request id. */
	message: string;
	/** What the message does not say: the inputs' remedies, what to do, retry, status and request
	 * id, one per line. */
	description: string;
}

type Json = Record<string, unknown>;

const STATUS_TITLES: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	409: 'Conflict',
	413: 'Payload Too Large',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

const WHAT_TO_DO: Record<number, string> = {
	401: 'The service did not accept the credential: check the API key or bearer token and that it belongs to this project.',
	403: 'The credential is valid but may not access this resource: check the project, and that the key or token has access to it.',
	404: 'Check the IDs and names in the node parameters; the resource may have been deleted.',
	409: 'The resource already exists or is in a conflicting state.',
	429: 'The service is rate limiting requests: wait and retry, or space items out with Options → Batching.',
	500: 'The service failed; retrying later may help (Settings → Retry On Fail).',
	502: 'A gateway in front of the service failed; retrying later may help (Settings → Retry On Fail).',
	503: 'The service is temporarily unavailable; retrying later may help (Settings → Retry On Fail).',
	504: 'The service took too long to answer; retrying later may help (Settings → Retry On Fail).',
};

/** Input names whose values are secrets (apiKey, clientSecret, accessToken, webhookSigningKey, …). */
const SECRET_NAME =
	/(api_?key|secret|passw(or)?d|token|private_?key|signing_?key|credentials?|authorization|connection_?string)$/i;
const MAX_VALUE_LENGTH = 60;

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The forms in which a secret can come back in a message: as typed, percent-encoded as it
 * travelled in a URL (either case of hex digits), and escaped as a JSON string.
 */
function secretForms(secret: string): string[] {
	let encoded: string;
	try {
		encoded = encodeURIComponent(secret);
	} catch {
		encoded = secret; // a lone surrogate cannot be encoded, so it never travelled encoded
	}
	const lowerHex = encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
	const escaped = JSON.stringify(secret).slice(1, -1);
	// Longest first, so that a form containing another is masked whole.
	return [...new Set([secret, encoded, lowerHex, escaped])].sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of each secret (API keys, tokens), in any of its forms, with a mask. */
export function redact(message: string, secrets: readonly string[] = []): string {
	let out = message;
	for (const secret of secrets) {
		if (typeof secret !== 'string' || secret.length < 4) continue;
		for (const form of secretForms(secret)) out = out.split(form).join('[redacted]');
	}
	return out;
}

/** Names of fields and headers whose value is a secret (`x-api-key`, `clientSecret`, `access_token`, …). */
const SECRET_NAME_TEXT =
	'[A-Za-z_-]*(?:api[_-]?key|secret|passw(?:or)?d|token|private[_-]?key|signing[_-]?key|credentials?|authorization|cookie)';

/** JSON fields whose text is a secret in a body excerpt (`key` is an API key's own field). */
const SECRET_FIELD = new RegExp(
	`"(${SECRET_NAME_TEXT}|key)"\\s*:\\s*"(?:[^"\\\\]|\\\\.)*("|$)`,
	'gi',
);

/** Header and parameter names that carry credentials (`X-Api-Key`, `Authorization`, `access_token`, …). */
const CREDENTIAL_NAME_TEXT =
	'(?:x-)?api[_-]?key|(?:proxy-)?authorization|(?:set-)?cookie|(?:access|refresh|id)[_-]?token|client[_-]?secret';

/**
 * A credential header or parameter written out in text (`X-Api-Key: …`, `Authorization: Bearer
 * …`, `api_key=…`), as an error page or a debugging echo shows a request. Only values of 16
 * characters or more, as keys and tokens are: "Authorization: missing" stays readable.
 */
const SECRET_ASSIGNMENT = new RegExp(
	`\\b(${CREDENTIAL_NAME_TEXT})(\\s*[:=]\\s*)((?:bearer|basic)\\s+)?[^\\s"',;&<>]{16,}`,
	'gi',
);

/**
 * Masks secrets in a text taken from an answer: the given secrets in every form (redact), the
 * text of secret-named JSON fields (also cut off at the end) and secret-named headers written out.
 */
export function maskText(text: string, secrets: readonly string[] = []): string {
	return redact(text, secrets)
		.replace(SECRET_FIELD, (_match, name: string, end: string) => `"${name}":"[redacted]${end}`)
		.replace(
			SECRET_ASSIGNMENT,
			(_match, name: string, separator: string, scheme = '') =>
				`${name}${separator}${scheme}[redacted]`,
		);
}

/**
 * The first bytes of a body that is not valid JSON, as an error may show them, with secrets
 * masked (maskText): a truncated answer can hold an API key list, credentials or an echo of the
 * request's headers.
 */
export function bodyExcerpt(body: string, secrets: readonly string[] = [], length = 80): string {
	return JSON.stringify(maskText(body, secrets).slice(0, length));
}

/**
 * A parsed answer with every given secret masked in every text it holds (keys included), for
 * answers that reach run data as they are (Send Request's items, error details).
 */
export function maskValue<T>(value: T, secrets: readonly string[]): T {
	if (!secrets.some((secret) => typeof secret === 'string' && secret.length >= 4)) return value;
	const walk = (node: unknown): unknown => {
		if (typeof node === 'string') return redact(node, secrets);
		if (Array.isArray(node)) return node.map(walk);
		if (typeof node === 'object' && node !== null) {
			return Object.fromEntries(
				Object.entries(node).map(([key, entry]) => [redact(key, secrets), walk(entry)]),
			);
		}
		return node;
	};
	return walk(value) as T;
}

function showValue(name: string, value: unknown): string {
	if (value === undefined) return '';
	if (SECRET_NAME.test(name.split('.').pop() ?? '')) return ' (value hidden)';
	let shown =
		typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
	if (shown.length > MAX_VALUE_LENGTH) shown = `${shown.slice(0, MAX_VALUE_LENGTH - 1)}…`;
	return ` (got ${shown})`;
}

/** How an issue's `in` reads (a Map: the service's `in` may be any text, `constructor` too). */
const LOCATION = new Map([
	['body', 'body field'],
	['query', 'query parameter'],
	['path', 'path parameter'],
	['header', 'header'],
]);

/** An invalid input as the service names it: where (`path`, `query`, `body`, …) and its name there. */
export interface ProblemInput {
	in?: string;
	name: string;
	value?: unknown;
}

/**
 * The label of the node's field behind an input the service names, when the caller knows it
 * (the action node's operations know their placeholders: routing/issueFields.ts).
 */
export type FieldLabeler = (input: ProblemInput) => string | undefined;

interface DescribedIssue {
	/** `"Project": Project not found (got "nope")` or `path parameter projectIdOrName: …`. */
	line: string;
	/** Who the issue is about: the field's label in quotes, or where and how the API names it. */
	subject: string;
	reason: string;
	remedy?: string;
}

function describeIssue(raw: unknown, labelOf?: FieldLabeler): DescribedIssue | undefined {
	if (!isObject(raw)) return undefined;
	const name = text(raw.name) ?? text(raw.field) ?? '';
	const where = text(raw.in);
	let reason = text(raw.detail) ?? text(raw.title) ?? 'is invalid';
	// Services often repeat the input's name in the detail ("groupRef must be a string").
	if (name && reason.startsWith(`${name} `)) reason = reason.slice(name.length + 1);
	const label = name ? labelOf?.({ in: where, name, value: raw.value }) : undefined;
	const subject = label
		? `"${label}"`
		: [where ? (LOCATION.get(where) ?? where) : undefined, name].filter(Boolean).join(' ') ||
			'input';
	const line = `${subject}: ${reason}${showValue(name, raw.value)}`;
	return { line, subject, reason, remedy: text(raw.remedy) };
}

function retryAfterSeconds(headers: Json, body: Json, now: number): number | undefined {
	const header = headers['retry-after'] ?? headers['Retry-After'];
	const headerText = Array.isArray(header) ? header[0] : header;
	if (typeof headerText === 'string' || typeof headerText === 'number') {
		const seconds = Number(headerText);
		if (Number.isFinite(seconds) && seconds >= 0) return seconds;
		const at = Date.parse(String(headerText));
		if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000));
	}
	const at = typeof body.retryAfter === 'string' ? Date.parse(body.retryAfter) : NaN;
	if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000));
	return undefined;
}

/** A body that is not a problem document: an HTML error page, a proxy's text, nothing. */
function bodyAsDetail(body: unknown): string | undefined {
	if (typeof body !== 'string') return undefined;
	const plain = body
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	if (!plain) return undefined;
	return plain.length > 300 ? `${plain.slice(0, 299)}…` : plain;
}

/**
 * Summarises an error response. `secrets` are masked wherever they would appear (a deleted API key
 * travels in the URL, and a service may echo it back). `labelOf` names the node's fields behind
 * the inputs the service names. Each fact is said once: the message holds the title, the detail
 * (unless an invalid input says the same) and every invalid input; the description adds only what
 * the message does not say (remedies, what to do, retry, status and request id).
 */
export function summarizeProblem(
	status: number,
	body: unknown,
	headers: Json = {},
	secrets: readonly string[] = [],
	now = Date.now(),
	labelOf?: FieldLabeler,
): Problem {
	const doc = isObject(body) ? body : {};
	// Every text taken from the answer is masked: a service may echo a secret in any field.
	const mask = (value: string | undefined) =>
		value === undefined ? undefined : maskText(value, secrets);
	const title = mask(text(doc.title)) ?? STATUS_TITLES[status] ?? `HTTP ${status}`;
	let detail = mask(text(doc.detail) ?? text(doc.message) ?? bodyAsDetail(body));
	if (detail === title) detail = undefined;
	const rawIssues = [
		...(Array.isArray(doc.issues) ? doc.issues : []),
		...(Array.isArray(doc.validationIssues) ? doc.validationIssues : []),
	];
	const described = rawIssues
		.map((raw) => describeIssue(raw, labelOf))
		.filter((i): i is DescribedIssue => !!i);
	const issues = described.map((i) => maskText(i.line, secrets));
	// "Project not found" as the detail and as the one invalid input's reason: said once, with the field.
	const saidByAnInput = described.some((i) => maskText(i.reason, secrets) === detail);
	const requestId = mask(
		text(doc.requestId) ?? text(headers['x-request-id'] as string | undefined),
	);
	const remedy = mask(text(doc.remedy));
	const retryable = typeof doc.retryable === 'boolean' ? doc.retryable : undefined;
	const retryAfter = retryAfterSeconds(headers, doc, now);

	const trailer = `[HTTP ${status}${requestId ? `, request ${requestId}` : ''}]`;
	const headline = [title, saidByAnInput ? undefined : detail].filter(Boolean).join(': ');
	const message = maskText(
		issues.length ? `${headline} — ${issues.join('; ')} ${trailer}` : `${headline} ${trailer}`,
		secrets,
	);

	const lines: string[] = [];
	for (const issue of described) {
		// Each remedy once, under the field it is about.
		if (issue.remedy && issue.remedy !== remedy) lines.push(`${issue.subject}: ${issue.remedy}`);
	}
	if (remedy) lines.push(`What to do: ${remedy}`);
	else if (WHAT_TO_DO[status]) lines.push(`What to do: ${WHAT_TO_DO[status]}`);
	if (retryAfter !== undefined) lines.push(`The service asks to retry after ${retryAfter} s.`);
	else if (retryable) lines.push('The service marks this error as retryable.');
	lines.push(`HTTP status ${status}${requestId ? `, request ID ${requestId}` : ''}.`);

	return {
		status,
		title,
		detail,
		requestId,
		remedy,
		retryable,
		retryAfterSeconds: retryAfter,
		issues,
		message,
		description: maskText(lines.join('\n'), secrets),
	};
}
