/**
 * The byte bound of the log trigger's state: what it keeps in the workflow's static data, which
 * n8n serialises as JSON and writes to its database after polls (docs/n8n-notes.md, "Polling
 * triggers"). The counts (operations, keys, entries ahead of the clock, ID lengths) keep it far
 * below this; the check makes the bound hold whatever the answers were.
 */
export const MAX_STATE_BYTES = 256 * 1024;

/** Bytes of the parts of the state as n8n stores them (UTF-8 JSON). */
export function stateBytes(parts: readonly unknown[]): number {
	return parts.reduce<number>(
		(sum, part) => sum + Buffer.byteLength(JSON.stringify(part) ?? ''),
		0,
	);
}
