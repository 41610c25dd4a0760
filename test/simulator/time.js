// @ts-check
'use strict';

/**
 * Timestamps as the real API writes them: RFC 3339 UTC with microseconds,
 * e.g. `2026-11-21T18:14:03.123456Z` (docs/api-notes.md, "Operation logs").
 *
 * JavaScript's Date stops at milliseconds, so the simulator keeps its own
 * microsecond clock: wall-clock milliseconds at start-up plus the elapsed
 * high-resolution time. The clock never repeats a value, so two timestamps made in
 * the same millisecond still differ and sort in creation order. Entries that
 * should share a timestamp (docs/api-notes.md, "Operation logs": several entries can share a timestamp)
 * are made deliberately, by passing the same string.
 */

const wallStartMicros = Date.now() * 1000;
const hrStart = process.hrtime.bigint();
let lastMicros = 0;

/** @returns {number} microseconds since the Unix epoch, strictly increasing */
function nowMicros() {
	let micros = wallStartMicros + Number((process.hrtime.bigint() - hrStart) / 1000n);
	if (micros <= lastMicros) micros = lastMicros + 1;
	lastMicros = micros;
	return micros;
}

/**
 * @param {number} micros microseconds since the Unix epoch
 * @returns {string} e.g. `2026-11-21T18:14:03.123456Z`
 */
function formatMicros(micros) {
	const millis = Math.floor(micros / 1000);
	const subMillis = String(micros - millis * 1000).padStart(3, '0');
	return `${new Date(millis).toISOString().slice(0, 23)}${subMillis}Z`;
}

/** @returns {string} the current time with microseconds */
function nowIso() {
	return formatMicros(nowMicros());
}

/**
 * Lenient parse of an RFC 3339 timestamp to microseconds (keeps the digits that Date drops).
 * @param {string} text
 * @returns {number | undefined}
 */
function parseMicros(text) {
	const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(
		String(text),
	);
	if (!match) return undefined;
	const seconds = Date.parse(`${match[1]}${match[3]}`);
	if (Number.isNaN(seconds)) return undefined;
	const fraction = (match[2] || '').padEnd(6, '0').slice(0, 6);
	return seconds * 1000 + Number(fraction);
}

/**
 * RFC 3339 with milliseconds, for problem documents (`time`, `retryAfter`; docs/api-notes.md, "Problem documents").
 * @param {number} [offsetSeconds] seconds to add to now
 */
function rfc3339(offsetSeconds = 0) {
	return new Date(Date.now() + offsetSeconds * 1000).toISOString();
}

module.exports = { nowMicros, formatMicros, nowIso, parseMicros, rfc3339 };
