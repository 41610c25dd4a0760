/**
 * Fakes `Date` alone: timers, I/O and the event loop stay real, so a test moves the calendar when
 * it says (link expiry, 24 simulated hours of log growth) while servers and clients run as usual,
 * however slow the machine.
 */
export function fakeDateOnly(): void {
	jest.useFakeTimers({
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
}
