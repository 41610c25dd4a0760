import {
	checkDateTime,
	compareTimestamps,
	keyToIso,
	timestampKey,
} from '../../../nodes/common/timestamps';

describe('timestampKey', () => {
	test.each([
		['2023-07-13T21:34:44.816354Z', '2023-07-13T21:34:44.816354000Z'],
		['2024-01-15T10:30:00Z', '2024-01-15T10:30:00.000000000Z'],
		['2024-01-15T10:30Z', '2024-01-15T10:30:00.000000000Z'],
		['2024-01-15 10:30:00.5', '2024-01-15T10:30:00.500000000Z'],
		['2024-01-15T12:30:00.000001+02:00', '2024-01-15T10:30:00.000001000Z'],
		['2024-01-15T08:00:00.123456789-0230', '2024-01-15T10:30:00.123456789Z'],
	])('%s → %s', (input, key) => expect(timestampKey(input)).toBe(key));

	test.each([
		[''],
		['yesterday'],
		[123],
		[null],
		['2024-13-01T00:00:00Z'],
		['2024-01-15T24:00:00Z'],
		['2024-01-15T10:61:00Z'],
	])('%p is not a timestamp', (input) => expect(timestampKey(input)).toBeUndefined());

	test('keeps microseconds that Date would lose', () => {
		const a = '2023-07-13T21:34:44.816354Z';
		const b = '2023-07-13T21:34:44.816355Z';
		expect(new Date(a).getTime()).toBe(new Date(b).getTime());
		expect(compareTimestamps(a, b)).toBe(-1);
		expect(compareTimestamps(b, a)).toBe(1);
		expect(compareTimestamps(a, a)).toBe(0);
	});

	test('orders across time zones and precisions; unparseable last', () => {
		const sorted = [
			'not a time',
			'2024-01-15T10:30:00.000001Z',
			'2024-01-15T12:30:00+02:00',
			'2024-01-15T10:29:59.999999Z',
		].sort(compareTimestamps);
		expect(sorted).toEqual([
			'2024-01-15T10:29:59.999999Z',
			'2024-01-15T12:30:00+02:00',
			'2024-01-15T10:30:00.000001Z',
			'not a time',
		]);
	});

	test('keyToIso gives microsecond ISO text', () => {
		expect(keyToIso(timestampKey('2023-07-13T21:34:44.816354Z')!)).toBe(
			'2023-07-13T21:34:44.816354Z',
		);
	});
});

describe('the fast path for `…Z` timestamps agrees with the general parser', () => {
	test('5,000 seeded random timestamps, days 1–31, seconds 0–60, 0–9 fraction digits', () => {
		let seed = 20261121;
		const random = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed % n;
		};
		const pad = (v: number) => String(v).padStart(2, '0');
		for (let i = 0; i < 5000; i++) {
			const digits = random(10);
			const fraction = digits ? `.${String(random(1e9)).padStart(9, '0').slice(0, digits)}` : '';
			const text = `${1970 + random(100)}-${pad(1 + random(12))}-${pad(1 + random(31))}T${pad(random(24))}:${pad(random(60))}:${pad(random(61))}${fraction}Z`;
			// "+00:00" takes the general path (Date.UTC), "Z" the fast one.
			expect(timestampKey(text)).toBe(timestampKey(text.replace(/Z$/, '+00:00')));
		}
	});
});

describe('checkDateTime: what a user gives as a date, checked, never guessed', () => {
	test.each([
		['2024-05-01T08:30:00Z', '2024-05-01T08:30:00.000Z'],
		['2024-05-01T08:30:00.123456Z', '2024-05-01T08:30:00.123Z'],
		['2024-05-01T10:30:00+02:00', '2024-05-01T08:30:00.000Z'],
		['2024-05-01T10:30+0200', '2024-05-01T08:30:00.000Z'],
		['2024-05-01 08:30:00z', '2024-05-01T08:30:00.000Z'],
		['2024-05-01', '2024-05-01T00:00:00.000Z'],
		['2024-05-01T00:00:00-05', '2024-05-01T05:00:00.000Z'],
		['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
		['  2024-05-01T08:30:00Z  ', '2024-05-01T08:30:00.000Z'],
	])('%p → %s', (value, iso) => expect(checkDateTime('Since', value)).toEqual({ iso }));

	test('a date and time without a zone is read as Date reads it (local time)', () => {
		expect(checkDateTime('Since', '2024-05-01T08:30:00')).toEqual({
			iso: new Date(2024, 4, 1, 8, 30).toISOString(),
		});
	});

	test('a Date and a Luxon-like DateTime from an expression are taken as they are', () => {
		const date = new Date('2024-05-01T08:30:00Z');
		expect(checkDateTime('Since', date)).toEqual({ iso: '2024-05-01T08:30:00.000Z' });
		const luxon = { isValid: true, toMillis: () => date.getTime() };
		expect(checkDateTime('Since', luxon)).toEqual({ iso: '2024-05-01T08:30:00.000Z' });
		const invalid = { isValid: false, invalidExplanation: 'day out of range', toMillis: () => NaN };
		expect(checkDateTime('Since', invalid)).toEqual({
			problem: '"Since" is an invalid date: day out of range',
		});
		expect(checkDateTime('Since', new Date(NaN))).toEqual({
			problem: '"Since" is an invalid date',
		});
	});

	// What JavaScript's Date makes of them: 2001-01-01, 2001-01-02, 2042-01-01, 2024-03-02, …
	test.each([
		['-1', /^"Since" is not an ISO 8601 date and time .*: "-1"$/],
		['1,2', /is not an ISO 8601 date and time/],
		['42', /is not an ISO 8601 date and time/],
		['yesterday', /is not an ISO 8601 date and time/],
		['Tue May 01 2024', /is not an ISO 8601 date and time/],
		['2024-02-30T00:00:00Z', /^"Since" is not a real date and time: "2024-02-30T00:00:00Z"$/],
		['2023-02-29', /is not a real date and time/],
		['2024-13-01T00:00:00Z', /is not a real date and time/],
		['2024-05-01T24:00:00Z', /is not a real date and time/],
		['2024-05-01T08:60:00Z', /is not a real date and time/],
		['2024-05-01T08:30:00+24:00', /is not a real date and time/],
	])('the text %p is refused', (value, why) => {
		expect(checkDateTime('Since', value)).toEqual({ problem: expect.stringMatching(why) });
	});

	test.each([
		[-1, 'the number -1'],
		[1714552200000, 'the number 1714552200000'],
		[[1, 2], 'a list'],
		[true, 'the boolean true'],
		[null, 'null'],
		[{ a: 1 }, 'a value of type object'],
	])('%p is refused: not a date and time', (value, shown) => {
		expect(checkDateTime('Until', value)).toEqual({
			problem: `"Until" must be a date and time (ISO 8601 text such as 2024-05-01T08:30:00Z), not ${shown}`,
		});
	});
});
