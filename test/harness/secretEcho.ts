/**
 * Secrets echoed back by the service in an answer, for the tests that check they never reach run
 * data (test/engine/<Node>/secretEcho.test.ts): answers that repeat a secret in the forms a
 * service might, and a search of everything a run leaves behind for any of those forms.
 */
import type { IDataObject } from 'n8n-workflow';

/** A key and a token with characters that percent-encoding and JSON escaping change. */
export const ECHO_API_KEY = 'amp_echo+Key/0123456789=abc';
export const ECHO_TOKEN = 'tok_echo+Bearer/9876543210=xyz';

/** The forms in which an echoed secret could be stored. */
export function secretForms(secret: string): string[] {
	return [
		secret,
		encodeURIComponent(secret),
		encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		JSON.stringify(secret).slice(1, -1),
		// What would survive of a secret masked only up to its first special character.
		secret.slice(secret.indexOf('/') + 1),
	];
}

/** Everything a value holds as JSON text, errors with their non-enumerable message and stack. */
export function serialized(value: unknown): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(value, (_key, entry: unknown) => {
		if (typeof entry === 'bigint') return String(entry);
		if (typeof entry !== 'object' || entry === null) return entry;
		if (seen.has(entry)) return '[seen]';
		seen.add(entry);
		if (entry instanceof Error) {
			return Object.fromEntries(
				Object.getOwnPropertyNames(entry).map((name) => [
					name,
					(entry as unknown as IDataObject)[name],
				]),
			);
		}
		return entry;
	});
}

/** The forms of `secret` found in `stored` (none, when it is safe). */
export function leakedForms(stored: unknown, secret: string): string[] {
	const text = serialized(stored);
	return secretForms(secret).filter((form) => text.includes(form));
}

/** An answer body repeating `secret` in every form, as text. */
export const echoText = (secret: string) =>
	`upstream refused {"x-api-key":"${secret}"}; X-Api-Key: ${secret}; Authorization: Bearer ${secret}; url /x?key=${encodeURIComponent(secret)}; raw ${JSON.stringify(secret)}`;

/** A problem document repeating `secret` in every field. */
export const echoProblem = (secret: string, status = 400): IDataObject => ({
	type: 'about:blank',
	title: `Key ${secret} refused`,
	status,
	detail: `The key ${encodeURIComponent(secret)} is not valid; X-Api-Key: ${secret}`,
	remedy: `Rotate ${secret}`,
	requestId: `req-${secret}`,
	issues: [
		{ in: 'header', name: 'x-api-key', detail: `unknown ${secret}`, value: secret },
		{ in: 'body', name: 'note', detail: 'echo', value: `{"apiKey":"${secret}"}` },
	],
});

export interface EchoAnswer {
	label: string;
	status: number;
	body: IDataObject | string;
	headers?: Record<string, string>;
}

/** Fault-rule answers (test/simulator/faults.js) that echo `secret`: JSON, text, a 200 that is not JSON. */
export const echoAnswers = (secret: string): EchoAnswer[] => [
	{ label: 'a problem document (400)', status: 400, body: echoProblem(secret) },
	{
		label: 'a text page (500)',
		status: 500,
		body: echoText(secret),
		headers: { 'content-type': 'text/html' },
	},
	{
		label: 'a 200 that is not JSON',
		status: 200,
		body: echoText(secret),
		headers: { 'content-type': 'text/plain' },
	},
];
