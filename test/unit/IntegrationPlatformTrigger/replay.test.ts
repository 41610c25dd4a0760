/** The replay memory (nodes/IntegrationPlatformTrigger/replay.ts). */
import { REPLAY_CAPACITY, ReplayGuard } from '../../../nodes/IntegrationPlatformTrigger/replay';

const NOW = 1_750_000_000;
const TOLERANCE = 300;

test('same id and timestamp is a replay; same id with a new timestamp is a redelivery once settled', () => {
	const guard = new ReplayGuard();
	expect(guard.claim('d', 'msg_1', NOW, NOW, TOLERANCE)).toBe('new');
	expect(guard.claim('d', 'msg_1', NOW, NOW + 10, TOLERANCE)).toBe('replay');
	// Before the first attempt is acknowledged, a copy must not be acknowledged either.
	expect(guard.claim('d', 'msg_1', NOW + 5, NOW + 10, TOLERANCE)).toBe('inProgress');
	guard.settle('d', 'msg_1');
	expect(guard.claim('d', 'msg_1', NOW + 5, NOW + 10, TOLERANCE)).toBe('redelivery');
	// Scopes (destinations) are separate.
	expect(guard.claim('other', 'msg_1', NOW, NOW, TOLERANCE)).toBe('new');
});

test('claims expire with the tolerance window; release forgets a claim', () => {
	const guard = new ReplayGuard();
	guard.claim('d', 'msg_1', NOW, NOW, 300);
	expect(guard.claim('d', 'msg_1', NOW, NOW + 300, 300)).toBe('replay');
	expect(guard.claim('d', 'msg_1', NOW, NOW + 302, 300)).toBe('new');
	guard.claim('d', 'msg_2', NOW, NOW, TOLERANCE);
	guard.release('d', 'msg_2');
	expect(guard.claim('d', 'msg_2', NOW, NOW, TOLERANCE)).toBe('new');
});

test('a full memory refuses new messages rather than forget a claim: a replay of the oldest stays refused', () => {
	// Before: the fourth claim evicted "a", and a replay of "a" was accepted as new.
	const guard = new ReplayGuard(3);
	for (const id of ['a', 'b', 'c']) expect(guard.claim('s', id, NOW, NOW, TOLERANCE)).toBe('new');
	const fourth = guard.claim('s', 'd', NOW, NOW + 1, TOLERANCE);
	expect(guard.claim('s', 'a', NOW, NOW + 2, TOLERANCE)).toBe('replay');
	expect(fourth).toBe('full');
	expect(guard.size).toBe(3);
	// Known ids are still recognised while full.
	guard.settle('s', 'b');
	expect(guard.claim('s', 'b', NOW + 1, NOW + 2, TOLERANCE)).toBe('redelivery');
});

test('room comes back as claims leave the window, wherever they are in the memory', () => {
	const guard = new ReplayGuard(2);
	// Inserted first but expiring last: a message stamped in the future.
	expect(guard.claim('s', 'future', NOW + 200, NOW, TOLERANCE)).toBe('new');
	expect(guard.claim('s', 'past', NOW - 250, NOW, TOLERANCE)).toBe('new');
	expect(guard.claim('s', 'x', NOW, NOW + 1, TOLERANCE)).toBe('full');
	// "past" has left the window (its timestamp is more than 300 s old); "future" has not.
	const later = NOW + 51;
	expect(guard.claim('s', 'x', NOW, later, TOLERANCE)).toBe('new');
	expect(guard.claim('s', 'future', NOW + 200, later, TOLERANCE)).toBe('replay');
	expect(guard.claim('s', 'y', NOW, later, TOLERANCE)).toBe('full');
});

test('holds every claim of 1000 messages per second over the default 300 s window', () => {
	expect(REPLAY_CAPACITY).toBeGreaterThanOrEqual(1000 * 301);
	const guard = new ReplayGuard();
	const verdicts = (ids: string[], timestamp: number, now: number) => {
		const counts: Record<string, number> = {};
		for (const id of ids) {
			const verdict = guard.claim('s', id, timestamp, now, TOLERANCE);
			counts[verdict] = (counts[verdict] ?? 0) + 1;
		}
		return counts;
	};
	const second = (s: number) => Array.from({ length: 1000 }, (_, i) => `m${s}-${i}`);
	// 1000 messages a second, each stamped with the second it arrives in, for 301 s: the first
	// second's are still inside the window at the end (300 s old).
	for (let s = 0; s <= 300; s++) {
		expect(verdicts(second(s), NOW + s, NOW + s)).toEqual({ new: 1000 });
	}
	// Replays of the first second's messages.
	expect(verdicts(second(0), NOW, NOW + 300)).toEqual({ replay: 1000 });
	// The first second has left the window: the next second's messages fit.
	expect(verdicts(second(301), NOW + 301, NOW + 301)).toEqual({ new: 1000 });
});

test('clear(capacity) resizes the memory', () => {
	const guard = new ReplayGuard(1);
	guard.claim('s', 'a', NOW, NOW, TOLERANCE);
	expect(guard.claim('s', 'b', NOW, NOW, TOLERANCE)).toBe('full');
	guard.clear(2);
	expect(guard.claim('s', 'a', NOW, NOW, TOLERANCE)).toBe('new');
	expect(guard.claim('s', 'b', NOW, NOW, TOLERANCE)).toBe('new');
	expect(guard.claim('s', 'c', NOW, NOW, TOLERANCE)).toBe('full');
});

test('a started message is acknowledged only by n8n 2xx answer; a refusal forgets it', () => {
	const guard = new ReplayGuard();
	let answer: 'pending' | 'acknowledged' | 'refused' = 'pending';
	guard.claim('d', 'msg_1', NOW, NOW, TOLERANCE);
	guard.awaitAnswer('d', 'msg_1', () => answer);
	guard.answered('d', 'msg_1'); // not known yet: nothing changes
	expect(guard.claim('d', 'msg_1', NOW + 5, NOW + 5, TOLERANCE)).toBe('inProgress');
	answer = 'acknowledged';
	expect(guard.claim('d', 'msg_1', NOW + 6, NOW + 6, TOLERANCE)).toBe('redelivery');

	guard.claim('d', 'msg_2', NOW, NOW, TOLERANCE);
	guard.awaitAnswer('d', 'msg_2', () => 'refused');
	guard.answered('d', 'msg_2');
	expect(guard.size).toBe(1);
	// Even with the first attempt's own timestamp (the service retrying within the second).
	expect(guard.claim('d', 'msg_2', NOW, NOW + 1, TOLERANCE)).toBe('new');
});
