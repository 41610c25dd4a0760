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

/** A date, optionally with a time and a zone, as ISO 8601 writes it (`2024-05-01`, `2024-05-01T08:30:00.5+02:00`). */
const DATE_TIME_INPUT =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function daysInMonth(year: number, month: number): number {
	if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
	return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A zone as Date parses it (`Z`, `+02:00`), or undefined when its hours or minutes are impossible. */
function zoneOf(text: string | undefined): string | undefined {
	if (!text) return '';
	if (text.toUpperCase() === 'Z') return 'Z';
	const [, sign, hours, minutes = '00'] = /^([+-])(\d{2}):?(\d{2})?$/.exec(text) ?? [];
	if (!sign || +hours > 23 || +minutes > 59) return undefined;
	return `${sign}${hours}:${minutes}`;
}

/** What a value is, for a message that says why it was refused. */
export function describeInput(value: unknown): string {
	if (value === null) return 'null';
	if (value === undefined) return 'empty';
	if (typeof value === 'string') return `the text ${JSON.stringify(value.slice(0, 60))}`;
	if (typeof value === 'number') return `the number ${value}`;
	if (typeof value === 'boolean') return `the boolean ${value}`;
	if (typeof value === 'bigint') return `the number ${value}`;
	if (Array.isArray(value)) return 'a list';
	return `a value of type ${typeof value}`;
}

interface LuxonLike {
	isValid: boolean;
	invalidExplanation?: string | null;
	toMillis(): number;
}

const isLuxonLike = (value: unknown): value is LuxonLike =>
	typeof value === 'object' &&
	value !== null &&
	typeof (value as LuxonLike).isValid === 'boolean' &&
	typeof (value as LuxonLike).toMillis === 'function';

/**
 * A date and time a user gave (a date field, or an expression's text, Date or Luxon DateTime) as
 * an ISO timestamp in UTC, or why it is not one. Text must be ISO 8601 and name a real day and
 * time: JavaScript's Date would read `-1` as 2001-01-01, `1,2` as 2001-01-02 and `42` as 2042, and
 * roll 2024-02-31 over into March. Numbers are refused, since milliseconds and seconds cannot be
 * told apart. Text without a zone is read as Date reads it (a date alone in UTC, a date and time
 * in the local time of n8n's process).
 */
export function checkDateTime(
	label: string,
	value: unknown,
): { iso: string } | { problem: string } {
	const refuse = (why: string) => ({
		problem: `"${label}" ${why}`,
	});
	// Not instanceof: a Date made by an expression may come from another realm.
	if (Object.prototype.toString.call(value) === '[object Date]') {
		const date = value as Date;
		return Number.isNaN(date.getTime())
			? refuse('is an invalid date')
			: { iso: date.toISOString() };
	}
	if (isLuxonLike(value)) {
		if (!value.isValid) {
			return refuse(
				`is an invalid date${value.invalidExplanation ? `: ${value.invalidExplanation}` : ''}`,
			);
		}
		const date = new Date(value.toMillis());
		return Number.isNaN(date.getTime()) ? refuse('is out of range') : { iso: date.toISOString() };
	}
	if (typeof value !== 'string') {
		return refuse(
			`must be a date and time (ISO 8601 text such as 2024-05-01T08:30:00Z), not ${describeInput(value)}`,
		);
	}
	const text = value.trim();
	const match = DATE_TIME_INPUT.exec(text);
	if (!match) {
		return refuse(
			`is not an ISO 8601 date and time (such as 2024-05-01T08:30:00Z): ${JSON.stringify(text.slice(0, 60))}`,
		);
	}
	const [, y, mo, d, h = '00', mi = '00', s = '00', digits, offset] = match;
	const month = Number(mo);
	const zone = zoneOf(offset);
	if (
		month < 1 ||
		month > 12 ||
		+d < 1 ||
		+d > daysInMonth(Number(y), month) ||
		+h > 23 ||
		+mi > 59 ||
		+s > 59 ||
		zone === undefined
	) {
		return refuse(`is not a real date and time: ${JSON.stringify(text)}`);
	}
	// The form Date parses as ECMAScript specifies it: T, a dot and at most milliseconds. A date
	// alone without a zone stays a date alone (UTC, as Date reads it).
	const fraction = digits ? `.${digits.slice(0, 3)}` : '';
	const normalized =
		match[4] === undefined && zone === ''
			? `${y}-${mo}-${d}`
			: `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}${zone}`;
	const date = new Date(normalized);
	if (Number.isNaN(date.getTime())) return refuse(`is out of range: ${JSON.stringify(text)}`);
	return { iso: date.toISOString() };
}
