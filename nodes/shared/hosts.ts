/**
 * The service's two hosts (docs/api-notes.md, "Hosts and base URLs"). Credentials hold bare origins such as
 * `https://api.withampersand.com`; every path of the API lives under `/v1`, which is added here so
 * that users can paste the origin with or without a trailing slash (or with `/v1` already).
 */
export const DEFAULT_API_URL = 'https://api.withampersand.com';
export const DEFAULT_READ_URL = 'https://read.withampersand.com';

export function versionedBaseUrl(origin: unknown, fallback: string): string {
	const trimmed = (typeof origin === 'string' && origin.trim() !== '' ? origin : fallback)
		.trim()
		.replace(/\/+$/, '');
	return trimmed.endsWith('/v1') ? trimmed : `${trimmed}/v1`;
}
