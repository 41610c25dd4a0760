/**
 * One log entry of an answer: its identity (hash), its key, its instants; parsing an answer,
 * ordering entries, and the latest ones for "Fetch Test Event". Pure.
 */
import { createHash } from 'node:crypto';

import { timestampKey } from '../../common/timestamps';
import { COPY_SEED, mix } from './mix';
import { fractionDigits, isoWithOriginalPrecision, keyToNs, nsToKey, UNIT_NS } from './time';

/** One log entry as the API returns it (all three fields required, but be lenient). */
export type RawLogEntry = Record<string, unknown>;

/**
 * One entry of a response. Its hash, ISO text and instants are computed on first use and kept:
 * a poll over a long history only needs them for the entries near the top, and hashing every
 * entry of a 100,000-entry log would cost the poll more than reading it.
 */
export class LogEntry {
	private digest?: Buffer;

	private copyDigest?: Buffer;

	private copyIndex = 0;

	private key?: string;

	private isoText?: string;

	private nanoseconds?: bigint;

	private upper?: bigint;

	private fraction?: number;

	private wholeSecond?: number;

	constructor(
		readonly operationId: string,
		/** The entry as returned (a non-object is wrapped as `{ message: value }`). */
		readonly raw: RawLogEntry,
		/** Sortable UTC key with nanosecond digits; undefined when the timestamp cannot be parsed. */
		readonly tsKey: string | undefined,
	) {}

	private get content(): Buffer {
		this.digest ??= hashEntry(
			this.operationId,
			this.tsKey,
			this.raw.timestamp,
			this.raw.severity,
			this.raw.message,
		);
		return this.digest;
	}

	/** The hash of the identity without the copy number: what copies have in common. */
	get contentKey(): string {
		return this.content.toString('base64url', 0, 12);
	}

	private get hash(): Buffer {
		if (this.copyIndex === 0) return this.content;
		if (!this.copyDigest) {
			// copy n: the content's digest with its first 12 bytes mixed with n (no second hash)
			const copy = Buffer.from(this.content.subarray(0, 12));
			for (let at = 0; at < 12; at += 4) {
				const mixed = copy.readUInt32BE(at) ^ mix(at, this.copyIndex, 0, COPY_SEED);
				copy.writeUInt32BE(mixed >>> 0, at);
			}
			this.copyDigest = copy;
		}
		return this.copyDigest;
	}

	/**
	 * Numbers this entry among its copies (same second, severity and message, other sub-second
	 * digits), by timestamp; the cursor step does this before anything reads the key.
	 */
	setCopy(index: number): void {
		if (index === this.copyIndex) return;
		this.copyIndex = index;
		this.copyDigest = undefined;
		this.key = undefined;
	}

	/** The stable key (see the design note at the top): 96 bits, base64url. */
	get entryKey(): string {
		this.key ??= this.hash.toString('base64url', 0, 12);
		return this.key;
	}

	/** The 48-bit item key the state stores: the first 6 bytes of the same hash. */
	get itemKey(): [number, number] {
		return [this.hash.readUInt16BE(0), this.hash.readUInt32BE(2)];
	}

	/** ISO text in UTC with the fraction digits of the original (no rounding, no padding). */
	get iso(): string | undefined {
		if (this.tsKey === undefined) return undefined;
		this.isoText ??= isoWithOriginalPrecision(this.raw.timestamp, this.tsKey);
		return this.isoText;
	}

	/** Nanoseconds since the epoch, as written (the lower end of what the text can mean). */
	get ns(): bigint | undefined {
		if (this.tsKey === undefined) return undefined;
		this.nanoseconds ??= keyToNs(this.tsKey);
		return this.nanoseconds;
	}

	/**
	 * The upper end of what the text can mean: `…:05.123Z` is some instant in [.123, .124), so a
	 * finer rendering of the same entry lies at or below this (renderings truncate, as Go's time
	 * formatting and the simulator's coarsenTimestamp do).
	 */
	get hiNs(): bigint | undefined {
		if (this.tsKey === undefined) return undefined;
		this.upper ??= this.ns! + UNIT_NS[this.digits] - 1n;
		return this.upper;
	}

	/** How many fraction digits the text carries (0 to 9). */
	get digits(): number {
		this.fraction ??= fractionDigits(this.raw.timestamp);
		return this.fraction;
	}

	/** Whole seconds since the epoch (part of the identity). */
	get second(): number | undefined {
		if (this.tsKey === undefined) return undefined;
		this.wholeSecond ??= Math.floor(Date.parse(`${this.tsKey.slice(0, 19)}Z`) / 1000);
		return this.wholeSecond;
	}
}

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with object keys sorted at every depth, so equal messages give equal text. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) {
		return `[${value.map((v) => (v === undefined || typeof v === 'function' ? 'null' : canonicalJson(v))).join(',')}]`;
	}
	if (isObject(value)) {
		const parts = Object.keys(value)
			.sort()
			.filter((k) => value[k] !== undefined && typeof value[k] !== 'function')
			.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`);
		return `{${parts.join(',')}}`;
	}
	if (value === undefined) return 'null';
	return JSON.stringify(value) ?? 'null';
}

/**
 * Whether an entry's text may stand for an instant at or after `floor` (its upper end reaches
 * it), by text comparison only: one threshold key per number of fraction digits.
 */
export function reachesFloor(floor: bigint): (entry: LogEntry) => boolean {
	const thresholds = UNIT_NS.map((unit) => nsToKey(floor - unit + 1n));
	const lowest = thresholds[0];
	return (entry) => entry.tsKey! >= lowest && entry.tsKey! >= thresholds[entry.digits];
}

/**
 * The identity of an entry: operation, timestamp cut to the whole second (UTC), severity and the
 * canonical message. The second, not the full timestamp, so that the same entry rendered with
 * microseconds, milliseconds or whole seconds is one entry; undated entries use their raw text.
 */
function hashEntry(
	operationId: string,
	tsKey: string | undefined,
	timestamp: unknown,
	severity: unknown,
	message: unknown,
): Buffer {
	const ts = tsKey === undefined ? `raw:${canonicalJson(timestamp)}` : `${tsKey.slice(0, 19)}Z`;
	const sev = typeof severity === 'string' ? severity : canonicalJson(severity);
	return createHash('sha256')
		.update(`${operationId}\u0000${ts}\u0000${sev}\u0000${canonicalJson(message)}`)
		.digest();
}

/** The stable key of one entry (see the design note at the top). */
export function entryKeyOf(
	operationId: string,
	timestamp: unknown,
	severity: unknown,
	message: unknown,
): string {
	return hashEntry(operationId, timestampKey(timestamp), timestamp, severity, message).toString(
		'base64url',
		0,
		12,
	);
}

/**
 * Parses an operation's response: one LogEntry per element, timestamps parsed, nothing hashed
 * yet. Identical entries collapse when the cursor step keys them (advanceOperation).
 */
export function normalizeEntries(operationId: string, response: readonly unknown[]): LogEntry[] {
	return response.map((item) => {
		const raw: RawLogEntry = isObject(item) ? item : { message: item };
		return new LogEntry(operationId, raw, timestampKey(raw.timestamp));
	});
}

/** Emission order: timestamp, then entry key; undated entries last (by key). */
export function compareEntries(a: LogEntry, b: LogEntry): number {
	if (a.tsKey !== undefined && b.tsKey !== undefined && a.tsKey !== b.tsKey) {
		return a.tsKey < b.tsKey ? -1 : 1;
	}
	if (a.tsKey !== undefined && b.tsKey === undefined) return -1;
	if (a.tsKey === undefined && b.tsKey !== undefined) return 1;
	return a.entryKey < b.entryKey ? -1 : a.entryKey > b.entryKey ? 1 : 0;
}

/** The `count` newest distinct entries, oldest first (for "Fetch Test Event"). */
export function latestEntries(entries: readonly LogEntry[], count: number): LogEntry[] {
	const dated = entries.filter((e) => e.tsKey !== undefined);
	const sorted = [...(dated.length ? dated : entries)].sort(compareEntries);
	const picked: LogEntry[] = [];
	const keys = new Set<string>();
	for (let i = sorted.length - 1; i >= 0 && picked.length < count; i--) {
		const key = `${sorted[i].entryKey} ${sorted[i].tsKey}`; // copies differ in their digits
		if (keys.has(key)) continue;
		keys.add(key);
		picked.push(sorted[i]);
	}
	return picked.reverse();
}
