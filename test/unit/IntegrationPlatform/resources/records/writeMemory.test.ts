import {
	fingerprintOf,
	WriteMemory,
	type MemoryLimits,
	type RememberedItem,
} from '../../../../../nodes/IntegrationPlatform/resources/records/writeMemory';

const limits: MemoryLimits = {
	runs: 2,
	items: 5,
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
		expect(memory.size).toEqual({ runs: 1, items: 3, forgottenRuns: 0 });
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
		expect(memory.size).toEqual({ runs: 2, items: 2, forgottenRuns: 1 });
	});

	test('a run with more items than the limit is not kept (others are), and a retry of it is told so', () => {
		const memory = new WriteMemory(limits);
		memory.remember('run-a', writtenItems(2), 0);
		memory.remember('run-big', writtenItems(6), 1);
		expect(memory.recall('run-big', 2)).toBe('forgotten');
		expect(memory.recall('run-a', 2)).toEqual(expect.any(Array));
		expect(memory.size).toEqual({ runs: 1, items: 2, forgottenRuns: 1 });
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
