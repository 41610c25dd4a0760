import {
	DEFAULT_LIMITS,
	fingerprintOf,
	sizeOf,
	WriteMemory,
	type MemoryLimits,
	type RememberedItem,
} from '../../../../../nodes/IntegrationPlatform/resources/records/writeMemory';

const limits: MemoryLimits = {
	runs: 2,
	items: 5,
	bytes: 1_000_000,
	ttlMs: 1000,
	forgottenRuns: 3,
	forgottenTtlMs: 5000,
};

const writtenItems = (count: number): RememberedItem[] =>
	Array.from({ length: count }, (_, item) => ({
		item,
		fingerprint: `f${item}`,
		outcome: { kind: 'written', json: { success: true, recordId: `r${item}` } },
	}));

describe('WriteMemory: what earlier tries of a node run sent', () => {
	test('a first try finds nothing; a retry finds each remembered item with its outcome', () => {
		const memory = new WriteMemory(limits);
		expect(memory.recall('run-a', 0)).toBeUndefined();
		memory.remember('run-a', writtenItems(2), 0);
		expect(memory.recall('run-a', 10)).toEqual(writtenItems(2));
		expect(memory.recall('run-b', 10)).toBeUndefined();
	});

	test('a later try replaces what the run remembers; a clean try forgets it', () => {
		const memory = new WriteMemory(limits);
		memory.remember('run-a', writtenItems(1), 0);
		memory.remember('run-a', writtenItems(3), 1);
		expect(memory.size).toMatchObject({ runs: 1, items: 3, forgottenRuns: 0 });
		memory.forget('run-a');
		expect(memory.recall('run-a', 2)).toBeUndefined();
		expect(memory.size.items).toBe(0);
	});

	test('too many runs: the oldest is pushed out and a retry of it is told so', () => {
		const memory = new WriteMemory(limits);
		memory.remember('run-a', writtenItems(1), 0);
		memory.remember('run-b', writtenItems(1), 1);
		memory.remember('run-c', writtenItems(1), 2);
		expect(memory.recall('run-a', 3)).toBe('forgotten');
		expect(memory.recall('run-b', 3)).toEqual(expect.any(Array));
		expect(memory.size).toMatchObject({ runs: 2, items: 2, forgottenRuns: 1 });
	});

	test('a run with more items than the limit is not kept (others are), and a retry of it is told so', () => {
		const memory = new WriteMemory(limits);
		memory.remember('run-a', writtenItems(2), 0);
		memory.remember('run-big', writtenItems(6), 1);
		expect(memory.recall('run-big', 2)).toBe('forgotten');
		expect(memory.recall('run-a', 2)).toEqual(expect.any(Array));
		expect(memory.size).toMatchObject({ runs: 1, items: 2, forgottenRuns: 1 });
	});

	test('runs expire after the time limit, then their keys after theirs; the key list is bounded', () => {
		const memory = new WriteMemory(limits);
		memory.remember('run-a', writtenItems(1), 0);
		expect(memory.recall('run-a', 1000)).toEqual(expect.any(Array));
		expect(memory.recall('run-a', 1001)).toBe('forgotten');
		expect(memory.recall('run-a', 7000)).toBeUndefined();
		for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) memory.remember(key, writtenItems(1), 8000);
		expect(memory.size.forgottenRuns).toBe(3);
	});
});

/** `count` written items whose outcome carries `bytes` characters of the provider's data. */
const largeItems = (count: number, characters: number, prefix = 'f'): RememberedItem[] => {
	const data = 'x'.repeat(characters);
	return Array.from({ length: count }, (_, item) => ({
		item,
		fingerprint: `${prefix}${item}`,
		outcome: { kind: 'written', json: { success: true, recordId: `r${item}`, data: { data } } },
	}));
};
const bytesOf = (items: RememberedItem[]) => items.reduce((sum, item) => sum + sizeOf(item), 0);

describe('WriteMemory: bounded in bytes as well as in records', () => {
	test('an item costs at least two bytes per character of its outcome: a 2 KB answer counts over 4 KB', () => {
		const [small] = largeItems(1, 0);
		const [large] = largeItems(1, 2048);
		expect(sizeOf(large) - sizeOf(small)).toBe(2 * 2048);
		expect(sizeOf(large)).toBeGreaterThan(4096);
	});

	test('at the bound a run is kept; one item more and it is not: a retry is told, other runs keep theirs', () => {
		const run = largeItems(4, 1000);
		const bound = bytesOf(run);
		const memory = new WriteMemory({ ...limits, items: 100, bytes: bound });
		expect(memory.remember('run-at-bound', run, 0)).toBe(true);
		expect(memory.recall('run-at-bound', 1)).toEqual(run);
		expect(memory.size).toMatchObject({ runs: 1, items: 4, bytes: bound });

		const other = new WriteMemory({ ...limits, items: 100, bytes: bound });
		other.remember('run-small', largeItems(1, 10, 's'), 0);
		const past = largeItems(5, 1000);
		expect(other.remember('run-past-bound', past, 1)).toBe(false);
		expect(other.recall('run-past-bound', 2)).toBe('forgotten');
		expect(other.recall('run-small', 2)).toEqual(largeItems(1, 10, 's'));
	});

	test('runs that together pass the bound push out the oldest, which is then told so', () => {
		const run = largeItems(2, 1000);
		const memory = new WriteMemory({ ...limits, runs: 10, items: 100, bytes: 2 * bytesOf(run) });
		memory.remember('run-a', run, 0);
		memory.remember('run-b', run, 1);
		memory.remember('run-c', run, 2);
		expect(memory.recall('run-a', 3)).toBe('forgotten');
		expect(memory.recall('run-b', 3)).toEqual(run);
		expect(memory.recall('run-c', 3)).toEqual(run);
		expect(memory.size.bytes).toBe(2 * bytesOf(run));
	});

	test('the default bound: 100,000 results of 2 KB each (over 400 MB as strings) are not held; the run is forgotten', () => {
		const memory = new WriteMemory();
		expect(DEFAULT_LIMITS.bytes).toBe(32 * 1024 * 1024);
		const run = largeItems(100_000, 2048);
		expect(memory.remember('run-huge', run, 0)).toBe(false);
		expect(memory.size).toMatchObject({ runs: 0, items: 0, bytes: 0, forgottenRuns: 1 });
		expect(memory.recall('run-huge', 1)).toBe('forgotten');
		expect(memory.describeLimits()).toBe(
			'100,000 records and 32 MB per n8n process, for 60 minutes after a try',
		);
	});

	test('record IDs and fields named like prototype members are remembered as they are', () => {
		const memory = new WriteMemory(limits);
		const json = JSON.parse(
			'{"success": true, "recordId": "__proto__", "data": {"__proto__": {"polluted": true}, "constructor": "c"}}',
		) as Record<string, unknown>;
		const items: RememberedItem[] = [
			{ item: 0, fingerprint: fingerprintOf(json), outcome: { kind: 'written', json } },
		];
		memory.remember('__proto__', items, 0);
		memory.remember('constructor', items, 0);
		expect(memory.recall('__proto__', 1)).toEqual(items);
		expect(memory.recall('constructor', 1)).toEqual(items);
		expect(memory.recall('toString', 1)).toBeUndefined();
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});

describe('fingerprintOf', () => {
	test('equal JSON gives equal fingerprints; any change gives another', () => {
		const item = { email: 'ada@example.com', n: 1 };
		expect(fingerprintOf({ ...item })).toBe(fingerprintOf(item));
		expect(fingerprintOf({ ...item, n: 2 })).not.toBe(fingerprintOf(item));
		expect(fingerprintOf({ email: 'ada@example.co', n: 1 })).not.toBe(fingerprintOf(item));
	});

	test('JSON that cannot be written as text still has a fingerprint', () => {
		const circular: Record<string, unknown> = {};
		circular.self = circular;
		expect(fingerprintOf(circular)).toEqual(expect.any(String));
	});
});
