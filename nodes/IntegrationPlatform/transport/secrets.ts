/**
 * The values an item sends that must never show in its errors besides the credential's own: a
 * password field's value in the path or body, a client secret a body builder adds. Kept per
 * item context (a routed item's steps share it), so that every request the item makes masks them.
 */
const itemSecrets = new WeakMap<object, string[]>();

/** The secrets recorded for this item context (none when nothing was recorded). */
export function secretsOf(context: object): string[] {
	return itemSecrets.get(context) ?? [];
}

/** Records secrets of the item; empty values are not secrets. */
export function addSecrets(context: object, ...values: string[]): void {
	const known = itemSecrets.get(context) ?? [];
	known.push(...values.filter((value) => value !== ''));
	itemSecrets.set(context, known);
}
