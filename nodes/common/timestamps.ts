/**
 * Timestamps of the service carry microseconds (`2023-07-13T21:34:44.816354Z`; docs/api-notes.md, "Operation logs");
 * JavaScript's Date keeps milliseconds only, so two log entries 300 µs apart would compare equal.
 * This module turns a timestamp into a sortable key that keeps every digit. Pure, no n8n imports.
 */

const PATTERN =
	/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9})\d*)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const FAST_PATTERN = /^\d{4}-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/;

/**
 * A UTC key `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ` (nanosecond digits), lexically ordered like the
 * instants it stands for; `undefined` when the text is not an RFC 3339 timestamp. Timestamps
 * without a zone are taken as UTC, as the API documents all of them in UTC.
 */
export function timestampKey(text: unknown): string | undefined {
	if (typeof text !== 'string') return undefined;
	// Fast path for the form the API uses (`…T21:34:44.816354Z`): the key is the text itself,
	// padded to nine fraction digits. Days past the 28th go the long way, which rolls impossible
	// dates over as Date.UTC does.
	const fast = FAST_PATTERN.exec(text);
	if (fast) {
		const [, mo, d, h, mi, s, fraction = ''] = fast;
		if (+mo >= 1 && +mo <= 12 && +d >= 1 && +d <= 28 && +h <= 23 && +mi <= 59 && +s <= 59) {
			return `${text.slice(0, 19)}.${fraction.padEnd(9, '0')}Z`;
		}
	}
	const match = PATTERN.exec(text.trim());
	if (!match) return undefined;
	const [, y, mo, d, h, mi, s = '00', fraction = '', zone = 'Z'] = match;
	if (+mo < 1 || +mo > 12 || +d < 1 || +d > 31 || +h > 23 || +mi > 59 || +s > 60) return undefined;
	let offsetMinutes = 0;
	if (zone.toUpperCase() !== 'Z') {
		const sign = zone.startsWith('-') ? -1 : 1;
		const digits = zone.slice(1).replace(':', '');
		offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0));
	}
	const epochMs =
		Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) -
		offsetMinutes * 60_000;
	if (!Number.isFinite(epochMs)) return undefined;
	const whole = new Date(epochMs).toISOString().slice(0, 19);
	return `${whole}.${fraction.padEnd(9, '0')}Z`;
}

/** ISO text of a key with microsecond precision, e.g. for output (`…44.816354Z`). */
export function keyToIso(key: string): string {
	return `${key.slice(0, 26)}Z`;
}

/** Orders two timestamps by instant, unparseable ones last (and among themselves by text). */
export function compareTimestamps(a: unknown, b: unknown): number {
	const ka = timestampKey(a);
	const kb = timestampKey(b);
	if (ka !== undefined && kb !== undefined) return ka < kb ? -1 : ka > kb ? 1 : 0;
	if (ka !== undefined) return -1;
	if (kb !== undefined) return 1;
	return String(a ?? '').localeCompare(String(b ?? ''));
}
