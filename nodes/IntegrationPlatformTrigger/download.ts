/**
 * Downloads of `url` results: a verified data message may name a `resultInfo.downloadUrl`, a
 * signed link to its records (docs/api-notes.md, "Delivered messages"). The node fetches what a
 * message names, so the fetch keeps to rules that a message cannot widen:
 *
 * - https only; http only with the node option "Allow Insecure Downloads (Testing)";
 * - hosts on the allowlist only (option "Allowed Download Hosts"); by default Google Cloud Storage,
 *   where the service keeps its signed result links (its documented example is a
 *   `https://storage.googleapis.com/…` URL). Cloud metadata addresses are refused even if listed;
 * - redirects are followed only within the URL's own origin (scheme, host and port), a few hops;
 * - at most MAX_DOWNLOAD_BYTES of body (counted after decompression), and all of it within
 *   DOWNLOAD_DEADLINE_MS from the first byte sent, not merely without an idle gap that long.
 *
 * A refusal is a DownloadRefusal naming the host and the rule; any other failure (an error status,
 * a reset, a body that is not JSON) is an ordinary error, which the sender's retry may cure.
 * Requests go through n8n's httpRequest helper (passed in), so n8n's proxy settings apply.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { recordsFromDownload } from './events';
import type { Json } from './events';

/** Google Cloud Storage, path style and virtual-hosted (`<bucket>.storage.googleapis.com`). */
export const DEFAULT_DOWNLOAD_HOSTS = 'storage.googleapis.com, *.storage.googleapis.com';

/** Far above what a result needs; the records end up in the execution's memory. */
export const MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024;

/** All of the download, so that the answer to the sender stays well within Svix's 15 s. */
export const DOWNLOAD_DEADLINE_MS = 10_000;

const MAX_REDIRECTS = 3;

/** Link-local addresses and the names cloud providers give their instance metadata services. */
const METADATA_HOSTS = new Set([
	'metadata',
	'metadata.google.internal',
	'metadata.goog',
	'100.100.100.200',
	'[fd00:ec2::254]',
]);

export interface DownloadPolicy {
	/** Whether http URLs are allowed too (testing against a local simulator). */
	allowInsecure: boolean;
	/** Host names (`example.com`) and subdomain patterns (`*.example.com`), lower case. */
	hosts: string[];
}

export interface DownloadLimits {
	maxBytes: number;
	deadlineMs: number;
}

export type DownloadRule = 'https' | 'allowlist' | 'metadata' | 'redirect' | 'size' | 'deadline';

/** A download the rules forbid. Retrying does not help; changing the node's options may. */
export class DownloadRefusal extends Error {
	constructor(
		readonly host: string,
		readonly rule: DownloadRule,
		message: string,
		readonly description: string,
	) {
		super(message);
		this.name = 'DownloadRefusal';
	}
}

/** The allowlist option as patterns: comma- or space-separated, scheme, port and path ignored. */
export function parseHostList(value: unknown): string[] {
	if (typeof value !== 'string') return [];
	return value
		.split(/[\s,]+/)
		.map((entry) =>
			entry
				.trim()
				.toLowerCase()
				.replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
				.replace(/\/.*$/, '')
				.replace(/:\d+$/, '')
				.replace(/\.$/, ''),
		)
		.filter((entry) => entry !== '' && entry !== '*');
}

/** `host` matches itself; `*.example.com` matches any name below example.com (not itself). */
export function hostAllowed(hostname: string, patterns: readonly string[]): boolean {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	return patterns.some((pattern) =>
		pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern,
	);
}

function isMetadataAddress(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	return (
		METADATA_HOSTS.has(host) ||
		/^169\.254\.\d{1,3}\.\d{1,3}$/.test(host) ||
		// IPv6 link-local, and IPv4-mapped 169.254.x.x as WHATWG URL writes it.
		/^\[fe[89ab][0-9a-f]:/.test(host) ||
		/^\[::ffff:a9fe:/.test(host)
	);
}

const OPTION_HINT =
	'The trigger downloads a result only from the hosts in Options → Allowed Download Hosts.';

/** The URL, parsed, if the rules allow downloading from it; otherwise a DownloadRefusal. */
export function checkDownloadUrl(url: string, policy: DownloadPolicy): URL {
	if (!URL.canParse(url)) {
		throw new DownloadRefusal(
			'(none)',
			'https',
			'Refused to download the result: its download URL is not a valid URL',
			OPTION_HINT,
		);
	}
	const parsed = new URL(url);
	const host = parsed.host;
	const insecure = parsed.protocol === 'http:';
	if (parsed.protocol !== 'https:' && !(insecure && policy.allowInsecure)) {
		throw new DownloadRefusal(
			host,
			'https',
			`Refused to download the result from ${host}: only https download URLs are allowed, and this one is ${parsed.protocol.replace(/:$/, '')}`,
			insecure
				? 'The service sends https links. Option "Allow Insecure Downloads (Testing)" allows http, for a local simulator only.'
				: 'Only https (and, for testing, http) URLs are downloaded.',
		);
	}
	if (isMetadataAddress(parsed.hostname)) {
		throw new DownloadRefusal(
			host,
			'metadata',
			`Refused to download the result from ${host}: it is a link-local or cloud metadata address, never a result link`,
			'Such addresses are refused even when they are on the allowlist.',
		);
	}
	if (!hostAllowed(parsed.hostname, policy.hosts)) {
		throw new DownloadRefusal(
			host,
			'allowlist',
			`Refused to download the result from ${host}: the host is not in Allowed Download Hosts`,
			`${OPTION_HINT} Allowed now: ${policy.hosts.length ? policy.hosts.join(', ') : 'none'}. Add the host there if it really is where the service keeps its results.`,
		);
	}
	return parsed;
}

export type HttpRequest = (options: IHttpRequestOptions) => Promise<unknown>;

interface BodyStream extends AsyncIterable<Buffer | string> {
	destroy(error?: Error): void;
}

interface StreamedResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	body: unknown;
}

function isStream(value: unknown): value is BodyStream {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as BodyStream).destroy === 'function' &&
		Symbol.asyncIterator in value
	);
}

function headerOf(response: StreamedResponse, name: string): string | undefined {
	const value = response.headers?.[name];
	if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
	return typeof value === 'string' ? value : undefined;
}

function discard(body: unknown): void {
	if (isStream(body)) body.destroy();
}

function sizeRefusal(host: string, maxBytes: number, what: string): DownloadRefusal {
	return new DownloadRefusal(
		host,
		'size',
		`Refused to download the result from ${host}: ${what} more than the ${Math.round(maxBytes / 1024 / 1024)} MiB allowed`,
		'A result this large would not fit an execution comfortably; switch Options → Download URL Results off to receive the message with its URL instead.',
	);
}

function deadlineRefusal(host: string, deadlineMs: number): DownloadRefusal {
	return new DownloadRefusal(
		host,
		'deadline',
		`Refused to download the result from ${host}: it took longer than ${deadlineMs / 1000} s`,
		"The whole download must end in time for the trigger to answer within the sender's timeout; the sender will deliver the message again.",
	);
}

/** The body, read to its end unless it grows past `maxBytes`. */
async function readBody(body: unknown, host: string, maxBytes: number): Promise<Buffer> {
	if (Buffer.isBuffer(body)) {
		if (body.length > maxBytes) throw sizeRefusal(host, maxBytes, 'the body is');
		return body;
	}
	if (!isStream(body)) return Buffer.from(typeof body === 'string' ? body : '');
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		size += bytes.length;
		// Leaving the loop destroys the stream (and with it the connection).
		if (size > maxBytes) throw sizeRefusal(host, maxBytes, 'the body is');
		chunks.push(bytes);
	}
	return Buffer.concat(chunks);
}

/**
 * The records behind `url`, downloaded under `policy` and `limits`. Throws a DownloadRefusal when a
 * rule forbids the download, another error when it fails.
 */
export async function downloadRecords(
	http: HttpRequest,
	url: string,
	policy: DownloadPolicy,
	limits: DownloadLimits = { maxBytes: MAX_DOWNLOAD_BYTES, deadlineMs: DOWNLOAD_DEADLINE_MS },
): Promise<Json[]> {
	let target = checkDownloadUrl(url, policy);
	const origin = target.origin;
	const deadline = AbortSignal.timeout(limits.deadlineMs);
	let body: unknown;
	// An abort ends the request and any body stream axios is still reading.
	const onDeadline = () => discard(body);
	deadline.addEventListener('abort', onDeadline, { once: true });
	try {
		for (let hop = 0; ; hop++) {
			const response = (await http({
				method: 'GET',
				url: target.href,
				json: true,
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: limits.deadlineMs,
				abortSignal: deadline,
			})) as StreamedResponse;
			body = response.body;
			const status = response.statusCode;
			if (status >= 300 && status < 400) {
				discard(body);
				const location = headerOf(response, 'location');
				if (location === undefined) throw new Error(`HTTP ${status} without a Location header`);
				const next = new URL(location, target);
				if (next.origin !== origin) {
					throw new DownloadRefusal(
						next.host,
						'redirect',
						`Refused to download the result from ${target.host}: it redirects to ${next.host}, and redirects may not leave ${origin}`,
						`${OPTION_HINT} A redirect may lead only to the same scheme, host and port.`,
					);
				}
				if (hop >= MAX_REDIRECTS) {
					throw new DownloadRefusal(
						target.host,
						'redirect',
						`Refused to download the result from ${target.host}: more than ${MAX_REDIRECTS} redirects`,
						'A signed result link answers directly.',
					);
				}
				target = next;
				continue;
			}
			if (status < 200 || status >= 300) {
				discard(body);
				throw new Error(`HTTP ${status}`);
			}
			const declared = Number(headerOf(response, 'content-length'));
			if (Number.isFinite(declared) && declared > limits.maxBytes) {
				discard(body);
				throw sizeRefusal(target.host, limits.maxBytes, `it announces ${declared} bytes,`);
			}
			return recordsFromDownload(await readBody(body, target.host, limits.maxBytes));
		}
	} catch (error) {
		// Whatever broke off the request or the body once the deadline passed, that was the cause.
		throw error instanceof DownloadRefusal || !deadline.aborted
			? error
			: deadlineRefusal(target.host, limits.deadlineMs);
	} finally {
		deadline.removeEventListener('abort', onDeadline);
	}
}
