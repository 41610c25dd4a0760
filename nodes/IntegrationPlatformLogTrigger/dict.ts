/**
 * Objects keyed by IDs that come from the API or the user (operations, installations). They have
 * no prototype, so an ID such as `constructor`, `toString` or `__proto__` is an ordinary key: a
 * lookup never finds an inherited member, and an assignment never replaces the prototype. They
 * serialise to JSON as any object does (n8n stores static data as JSON); what JSON.parse gives
 * back is read with Object.entries into a new dict.
 */
export function dict<T>(entries?: Iterable<readonly [string, T]>): Record<string, T> {
	const out = Object.create(null) as Record<string, T>;
	if (entries) for (const [key, value] of entries) out[key] = value;
	return out;
}
