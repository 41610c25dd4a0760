import { checkWholeNumber } from '../../../nodes/common/numbers';

describe('checkWholeNumber', () => {
	test.each([
		[50, 50],
		['50', 50],
		[' 7 ', 7],
		[1, 1],
		[100, 100],
	])('%p is the whole number %p', (value, number) =>
		expect(checkWholeNumber('Limit', value, 1, 100)).toBe(number),
	);

	test.each([
		[NaN, 'not the number NaN'],
		[Infinity, 'not the number Infinity'],
		['AAAA', 'not the text "AAAA"'],
		['', 'not the text ""'],
		['2.5', 'not the text "2.5"'],
		[2.5, 'not the number 2.5'],
		['1e2', 'not the text "1e2"'],
		[0, 'not 0'],
		[-1, 'not -1'],
		[101, 'not 101'],
		[[5], 'not a list'],
		[true, 'not the boolean true'],
		[null, 'not null'],
		[undefined, 'not empty'],
		[{ n: 1 }, 'not a value of type object'],
	])('%p is refused, naming the field and the value', (value, why) => {
		expect(checkWholeNumber('Batch Size', value, 1, 100)).toEqual({
			problem: `"Batch Size" must be a whole number from 1 to 100, ${why}`,
		});
	});

	test('without a maximum the message gives the minimum only', () => {
		expect(checkWholeNumber('Limit', 0, 1)).toEqual({
			problem: '"Limit" must be a whole number of at least 1, not 0',
		});
	});
});
