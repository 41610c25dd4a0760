/**
 * The stored state of discovery (see discovery.ts): its shape and limits, reading it back, and
 * the small helpers on creation-time keys and operation keys that discovery and the listing share.
 * Pure: no n8n imports.
 */
import { createHash } from 'node:crypto';

import { dict } from './dict';

export const DISCOVERY_VERSION = 1;
/**
 * Operations watched at once over the whole scope (each costs one log request per poll). Each
 * operation is read in two or three polls, so this allows about 40 new operations per poll.
 */
export const MAX_WATCHED_OPERATIONS = 100;
/**
 * Characters of the watched operations' IDs over the scope: with IDs longer than the API's UUIDs,
 * fewer operations are watched at once (the rest wait for room, as they do past the count).
 */
export const WATCHED_ID_BUDGET = 32 * 1024;
/** The longest operation ID the trigger watches (the API's are UUIDs, 36 characters). */
export const MAX_OPERATION_ID_LENGTH = 1024;
/** Installations an integration may have for the trigger to watch it. */
export const MAX_INSTALLATIONS = 25;
/** Operations asked for per page of the list. */
export const PAGE_SIZE = 200;
/** Pages read per installation and poll; the next poll continues where this one stopped. */
export const MAX_PAGES_PER_POLL = 10;
/** Keys of retired operations kept over all installations (at least MIN_KNOWN_PER_INSTALLATION each). */
export const KNOWN_BUDGET = 64;
export const MIN_KNOWN_PER_INSTALLATION = 4;
/** An operation listed this much later than newer ones may be missed (the floor rises). */
export const SLACK_MS = 10 * 60 * 1000;
/** "Emit existing": operations created this long before the first poll count as new. */
export const EXISTING_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A finished operation is read in this many successful polls after it was seen finished, then retired. */
export const RETIRE_AFTER_FINISHED_POLLS = 2;
/**
 * Retired operations created ahead of the clock remembered at once over the scope (each is kept
 * until its creation time has passed or the list no longer shows it); past that a poll fails.
 */
export const MAX_AHEAD_KNOWN = 64;
/** Longest page token kept (tokens are opaque; a longer one is not stored, paging restarts). */
export const MAX_TOKEN_LENGTH = 512;

/** Statuses of an operation that is still running (compared without case); any other is finished. */
const RUNNING = new Set([
	'in_progress',
	'inprogress',
	'running',
	'pending',
	'queued',
	'scheduled',
	'started',
	'created',
	'processing',
]);

const TS_KEY_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;
const KNOWN_PATTERN = /^[A-Za-z0-9_-]{8}:-?[0-9a-z]+$/;
export const NS_PER_MS = 1_000_000n;

export interface ListedOperation {
	id: string;
	createTime?: unknown;
	status?: unknown;
}

export interface InstallationState {
	f: string;
	n?: string;
	k?: string[];
	t?: Record<string, number>;
	p?: string;
	b?: string;
	o?: 'a' | 'd';
}

export interface DiscoveryState {
	v: number;
	/** Fingerprint of the scope (watch, project, integration, installation): another scope starts over. */
	w: string;
	/** The watch's start (timestamp key): what was created before it is history. */
	s: string;
	i: Record<string, InstallationState>;
}

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const keyToNs = (key: string): bigint =>
	BigInt(Date.parse(`${key.slice(0, 19)}Z`)) * NS_PER_MS + BigInt(key.slice(20, 29));

export function nsToKey(ns: bigint): string {
	const ms = ns / NS_PER_MS;
	const sub = ns % NS_PER_MS;
	const iso = new Date(Number(ms)).toISOString();
	return `${iso.slice(0, 19)}.${iso.slice(20, 23)}${sub.toString().padStart(6, '0')}Z`;
}

export const msToKey = (ms: number): string => nsToKey(BigInt(Math.floor(ms)) * NS_PER_MS);

/** 48 bits of the ID's hash, base64url: what the state keeps of a retired operation. */
export function operationKey(id: string): string {
	return createHash('sha256').update(id).digest().toString('base64url', 0, 6);
}

/** Fingerprint of a scope: the state of another scope is not reused. */
export function scopeFingerprint(parts: readonly string[]): string {
	return createHash('sha256').update(parts.join('\u0000')).digest().toString('base64url', 0, 9);
}

export function isRunning(status: unknown): boolean {
	return typeof status !== 'string' || RUNNING.has(status.trim().toLowerCase());
}

/** Each installation's share of KNOWN_BUDGET. */
export function knownShare(installations: number): number {
	return Math.max(
		MIN_KNOWN_PER_INSTALLATION,
		Math.floor(KNOWN_BUDGET / Math.max(1, installations)),
	);
}

function readInstallation(value: unknown): InstallationState | undefined {
	if (!isObject(value)) return undefined;
	const { f, n, k, t, p, b, o } = value;
	if (typeof f !== 'string' || !TS_KEY_PATTERN.test(f)) return undefined;
	const out: InstallationState = { f };
	if (typeof n === 'string' && TS_KEY_PATTERN.test(n)) out.n = n;
	if (Array.isArray(k)) {
		const known = k.filter((x): x is string => typeof x === 'string' && KNOWN_PATTERN.test(x));
		if (known.length) out.k = known;
	}
	if (isObject(t)) {
		const watched = dict<number>();
		for (const [id, d] of Object.entries(t)) {
			if (id && typeof d === 'number' && Number.isInteger(d) && d >= 0) watched[id] = d;
		}
		if (Object.keys(watched).length) out.t = watched;
	}
	// a token is kept only with the check that makes resuming from it safe (older states: from the top)
	if (
		typeof p === 'string' &&
		p &&
		p.length <= MAX_TOKEN_LENGTH &&
		typeof b === 'string' &&
		TS_KEY_PATTERN.test(b) &&
		(o === 'a' || o === 'd')
	) {
		out.p = p;
		out.b = b;
		out.o = o;
	}
	return out;
}

/** The stored discovery state when it is of this scope; otherwise undefined (start over). */
export function readDiscovery(value: unknown, scope: string): DiscoveryState | undefined {
	if (!isObject(value) || value.v !== DISCOVERY_VERSION || value.w !== scope) return undefined;
	if (typeof value.s !== 'string' || !TS_KEY_PATTERN.test(value.s)) return undefined;
	const i = dict<InstallationState>();
	if (isObject(value.i)) {
		for (const [id, raw] of Object.entries(value.i)) {
			const parsed = readInstallation(raw);
			if (parsed) i[id] = parsed;
		}
	}
	return { v: DISCOVERY_VERSION, w: scope, s: value.s, i };
}

/** The state a first poll records even when it fails, so that its start stays the start. */
export function startState(previous: unknown, scope: string, now: number, emitExisting: boolean) {
	return (
		readDiscovery(previous, scope) ?? {
			v: DISCOVERY_VERSION,
			w: scope,
			s: msToKey(emitExisting ? now - EXISTING_WINDOW_MS : now),
			i: dict<InstallationState>(),
		}
	);
}
