/** The per-process signing-secret cache (nodes/IntegrationPlatformTrigger/secrets.ts). */
import { SecretCache } from '../../../nodes/IntegrationPlatformTrigger/secrets';

function clock(start = 1_000_000) {
	let now = start;
	return { now: () => now, advance: (ms: number) => (now += ms) };
}

test('fetches once, then serves from memory until the TTL', async () => {
	const time = clock();
	const cache = new SecretCache(60_000, 30_000, time.now);
	const fetch = jest.fn(async () => ['whsec_a']);
	expect(await cache.get('k', fetch)).toEqual(['whsec_a']);
	expect(await cache.get('k', fetch)).toEqual(['whsec_a']);
	expect(fetch).toHaveBeenCalledTimes(1);
	time.advance(60_001);
	await cache.get('k', fetch);
	expect(fetch).toHaveBeenCalledTimes(2);
});

test('concurrent callers share one fetch; keys are separate', async () => {
	const cache = new SecretCache();
	let release: (v: string[]) => void = () => undefined;
	const fetch = jest.fn(() => new Promise<string[]>((resolve) => (release = resolve)));
	const both = Promise.all([cache.get('k', fetch), cache.get('k', fetch)]);
	release(['whsec_x']);
	expect(await both).toEqual([['whsec_x'], ['whsec_x']]);
	expect(fetch).toHaveBeenCalledTimes(1);
	await cache.get('other', async () => ['whsec_y']);
	expect(await cache.get('other', fetch)).toEqual(['whsec_y']);
});

test('refresh after a mismatch is rate-limited per key', async () => {
	const time = clock();
	const cache = new SecretCache(600_000, 30_000, time.now);
	let version = 0;
	const fetch = jest.fn(async () => [`whsec_v${++version}`]);
	await cache.get('k', fetch);
	// The first mismatch after the load refreshes at once (a rotation right after the load).
	expect(await cache.refresh('k', fetch)).toEqual(['whsec_v2']);
	expect(await cache.get('k', fetch)).toEqual(['whsec_v2']);
	expect(await cache.refresh('k', fetch)).toBeUndefined();
	time.advance(29_999);
	expect(await cache.refresh('k', fetch)).toBeUndefined();
	time.advance(1);
	expect(await cache.refresh('k', fetch)).toEqual(['whsec_v3']);
	expect(fetch).toHaveBeenCalledTimes(3);
});

test('a failed fetch is not cached as a value, and is not retried for a few seconds', async () => {
	const time = clock();
	const cache = new SecretCache(600_000, 30_000, time.now, 1000, 5_000);
	const failing = jest.fn(async (): Promise<string[]> => {
		throw new Error('service down');
	});
	await expect(cache.get('k', failing)).rejects.toThrow('service down');
	await expect(cache.get('k', failing)).rejects.toThrow('service down');
	expect(failing).toHaveBeenCalledTimes(1);
	time.advance(5_001);
	expect(await cache.get('k', async () => ['whsec_ok'])).toEqual(['whsec_ok']);
	cache.invalidate('k');
	expect(await cache.get('k', async () => ['whsec_new'])).toEqual(['whsec_new']);
});

test('bounded: the oldest key goes first', async () => {
	const cache = new SecretCache(600_000, 30_000, Date.now, 2);
	const fetch = jest.fn(async () => ['s']);
	await cache.get('a', fetch);
	await cache.get('b', fetch);
	await cache.get('c', fetch);
	expect(fetch).toHaveBeenCalledTimes(3);
	await cache.get('c', fetch);
	await cache.get('b', fetch);
	expect(fetch).toHaveBeenCalledTimes(3);
	await cache.get('a', fetch);
	expect(fetch).toHaveBeenCalledTimes(4);
	cache.clear();
});
