/**
 * Entries dated ahead of the poll's clock (beyond CLOCK_TOLERANCE_MS): the cursor remembers them
 * apart from its mark, by whole second and item key, so that a skewed or broken clock neither
 * lifts the mark (which would hide the entries stamped normally afterwards) nor repeats them. Pure.
 */
import type { Item } from './sketch';
import { CLOCK_TOLERANCE_MS } from './time';

/** Entries ahead of the clock one operation's cursor remembers at once (16 base64url characters each). */
export const MAX_AHEAD_PER_OPERATION = 32;
/** Whole second (48 bits, absolute: the mark may be far below), then the 48-bit item key. */
export const AHEAD_ITEM_BYTES = 12;

/** The last whole second that still counts as the present at this poll's time (ms). */
export function aheadHorizon(nowMs: number): number {
	return Math.floor((nowMs + CLOCK_TOLERANCE_MS) / 1000);
}

export function encodeAhead(items: readonly Item[]): string {
	const bytes = Buffer.alloc(items.length * AHEAD_ITEM_BYTES);
	items.forEach((item, i) => {
		const at = i * AHEAD_ITEM_BYTES;
		bytes.writeUIntBE(item.sec, at, 6);
		bytes.writeUInt16BE(item.k1, at + 6);
		bytes.writeUInt32BE(item.k2, at + 8);
	});
	return bytes.toString('base64url');
}

/** The remembered items, or undefined when the text is not in that shape. */
export function decodeAhead(text: string): Item[] | undefined {
	const bytes = Buffer.from(text, 'base64url');
	if (bytes.length % AHEAD_ITEM_BYTES !== 0 || bytes.toString('base64url') !== text) {
		return undefined;
	}
	const items: Item[] = [];
	for (let at = 0; at < bytes.length; at += AHEAD_ITEM_BYTES) {
		items.push({
			sec: bytes.readUIntBE(at, 6),
			k1: bytes.readUInt16BE(at + 6),
			k2: bytes.readUInt32BE(at + 8),
		});
	}
	return items;
}
