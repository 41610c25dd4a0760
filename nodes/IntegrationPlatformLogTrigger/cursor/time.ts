/**
 * Timestamp keys as nanoseconds, and the interval a timestamp text stands for. Pure.
 */
export const NS_PER_S = 1_000_000_000n;

/**
 * How far ahead of the poll's clock a creation or log time may be and still count as the present
 * (clocks of n8n's host and of the API drift apart by this much). Later times are "ahead of the
 * clock": emitted once, remembered apart, and never a reason to raise a floor.
 */
export const CLOCK_TOLERANCE_MS = 5 * 60 * 1000;

/** Nanoseconds since the epoch of a key from timestampKey(). */
export function keyToNs(tsKey: string): bigint {
	const seconds = Date.parse(`${tsKey.slice(0, 19)}Z`);
	return BigInt(seconds) * 1_000_000n + BigInt(tsKey.slice(20, 29));
}

/** The key of a nanosecond instant (inverse of keyToNs). */
export function nsToKey(ns: bigint): string {
	let seconds = ns / NS_PER_S;
	let nanos = ns % NS_PER_S;
	if (nanos < 0n) {
		seconds -= 1n;
		nanos += NS_PER_S;
	}
	return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${nanos.toString().padStart(9, '0')}Z`;
}

export function toBase36(value: bigint): string {
	return value.toString(36);
}

export function fromBase36(text: string): bigint {
	let out = 0n;
	for (const char of text) out = out * 36n + BigInt(parseInt(char, 36));
	return out;
}

export function secondOf(ns: bigint): number {
	const s = ns / NS_PER_S;
	return Number(ns < 0n && s * NS_PER_S !== ns ? s - 1n : s);
}

/** Full-precision ISO text: UTC, with as many fraction digits as the original had (max 9). */
export function isoWithOriginalPrecision(raw: unknown, tsKey: string): string {
	const digits = typeof raw === 'string' ? (/:\d{2}[.,](\d+)/.exec(raw)?.[1].length ?? 0) : 0;
	const fraction = Math.min(digits, 9);
	return `${tsKey.slice(0, 19)}${fraction ? `.${tsKey.slice(20, 20 + fraction)}` : ''}Z`;
}

/** The unit of a text's last digit by its number of fraction digits: 1 s for none, 1 µs for 6. */
export const UNIT_NS = Array.from({ length: 10 }, (_, digits) => 10n ** BigInt(9 - digits));

/** Fraction digits of a timestamp text (0 to 9), cheaply for the API's own form. */
export function fractionDigits(raw: unknown): number {
	if (typeof raw !== 'string') return 0;
	let start = 20;
	if (raw[19] !== '.' || raw[10] !== 'T') {
		const match = /:\d{2}:\d{2}[.,](\d)/.exec(raw);
		if (!match) return 0;
		start = match.index + 7;
	}
	let end = start;
	while (end < raw.length && raw.charCodeAt(end) >= 48 && raw.charCodeAt(end) <= 57) end++;
	return Math.min(9, end - start);
}
