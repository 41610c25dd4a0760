/**
 * Whole numbers a user gives in a field or an expression (limits, sizes, counts), checked rather
 * than coerced: Number() reads "" and [] as 0, "AAAA" as NaN, and clamping would turn any garbage
 * into a valid size. Pure, no n8n imports.
 */
import { describeInput } from './timestamps';

/**
 * The value as a whole number within [min, max], or why it is not one: a number, or text holding
 * only digits (an expression over text data gives "50").
 */
export function checkWholeNumber(
	label: string,
	value: unknown,
	min: number,
	max = Number.MAX_SAFE_INTEGER,
): number | { problem: string } {
	const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)
				? Number(value)
				: undefined;
	if (number === undefined || !Number.isSafeInteger(number)) {
		return { problem: `"${label}" must be a whole number ${range}, not ${describeInput(value)}` };
	}
	if (number < min || number > max) {
		return { problem: `"${label}" must be a whole number ${range}, not ${number}` };
	}
	return number;
}
