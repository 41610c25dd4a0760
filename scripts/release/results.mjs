// @ts-check
/**
 * What each check of scripts/release-check.mjs answers, and small helpers they share.
 */

/**
 * @typedef {{ ok: boolean, detail: string, fix?: string, skipped?: boolean }} Result
 * @param {string} detail @returns {Result}
 */
export const pass = (detail) => ({ ok: true, detail });
/** @param {string} detail @param {string} [fix] @returns {Result} */
export const fail = (detail, fix) => ({ ok: false, detail, fix });
/** Not run: what it needs does not exist in a dry run. @param {string} why @returns {Result} */
export const skip = (why) => ({ ok: true, skipped: true, detail: why });

/** @param {Result[]} parts  all must pass; details joined */
export function combine(parts) {
	const failed = parts.filter((p) => !p.ok);
	if (failed.length === 0) return pass(parts.map((p) => p.detail).join('; '));
	return fail(
		failed.map((p) => p.detail).join('; '),
		failed
			.map((p) => p.fix)
			.filter(Boolean)
			.join('\n'),
	);
}

export const escapeRegExp = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const kB = (/** @type {number} */ n) => `${(n / 1000).toFixed(1)} kB`;
