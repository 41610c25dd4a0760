/**
 * Seen entries as the state keeps them (a second and 48 bits of the hash), the exact list's
 * encoding, and the invertible Bloom sketch of the older ones with its difference listing. Pure.
 */
import type { LogEntry } from './entry';
import { mix } from './mix';
import { NS_PER_S } from './time';

export const LIST_ITEM_BYTES = 8;
export const CELL_BYTES = 11;

// ---------------------------------------------------------------------------------------------
// Seen entries and the sketch
// ---------------------------------------------------------------------------------------------

/** A seen entry as the state keeps it: its whole second and 48 bits of its hash. */
export interface Item {
	sec: number;
	k1: number;
	k2: number;
}

/** An item with the instants it may lie between (for the floor). */
export interface Seen extends Item {
	lo: bigint;
	hi: bigint;
}

export const idOf = (item: Item) => `${item.sec}/${item.k1}/${item.k2}`;

export function seenOfEntry(entry: LogEntry): Seen {
	const [k1, k2] = entry.itemKey;
	return { sec: entry.second!, k1, k2, lo: entry.ns!, hi: entry.hiNs! };
}

/** A seen entry that is not in the current answer: all we know is its second. */
export function seenOfItem(item: Item): Seen {
	const lo = BigInt(item.sec) * NS_PER_S;
	return { ...item, lo, hi: lo + NS_PER_S - 1n };
}

const CELL_SEEDS = [0x9e3779b1, 0x7f4a7c15, 0x6a09e667];
const CHECK_SEED = 0x3c6ef372;

/**
 * An invertible Bloom lookup table over (seconds below the mark, item key): each item is XORed
 * into one cell of each of three parts, with a count and a 16-bit check. Subtracting the sketch
 * of the current answer from the stored one leaves only the differences, which peel off one by
 * one (a cell holding exactly one item gives it away), however many items both sides share.
 */
export class Sketch {
	readonly part: number;

	readonly count: Uint8Array;

	readonly check: Uint16Array;

	readonly off: Uint16Array;

	readonly k1: Uint16Array;

	readonly k2: Uint32Array;

	constructor(readonly cells: number) {
		this.part = cells / 3;
		this.count = new Uint8Array(cells);
		this.check = new Uint16Array(cells);
		this.off = new Uint16Array(cells);
		this.k1 = new Uint16Array(cells);
		this.k2 = new Uint32Array(cells);
	}

	static decode(text: string): Sketch | undefined {
		const bytes = Buffer.from(text, 'base64url');
		if (bytes.length === 0 || bytes.length % (3 * CELL_BYTES) !== 0) return undefined;
		const sketch = new Sketch(bytes.length / CELL_BYTES);
		for (let c = 0; c < sketch.cells; c++) {
			const at = c * CELL_BYTES;
			sketch.count[c] = bytes[at];
			sketch.check[c] = bytes.readUInt16BE(at + 1);
			sketch.off[c] = bytes.readUInt16BE(at + 3);
			sketch.k1[c] = bytes.readUInt16BE(at + 5);
			sketch.k2[c] = bytes.readUInt32BE(at + 7);
		}
		return sketch;
	}

	encode(): string {
		const bytes = Buffer.alloc(this.cells * CELL_BYTES);
		for (let c = 0; c < this.cells; c++) {
			const at = c * CELL_BYTES;
			bytes[at] = this.count[c];
			bytes.writeUInt16BE(this.check[c], at + 1);
			bytes.writeUInt16BE(this.off[c], at + 3);
			bytes.writeUInt16BE(this.k1[c], at + 5);
			bytes.writeUInt32BE(this.k2[c], at + 7);
		}
		return bytes.toString('base64url');
	}

	clone(): Sketch {
		const copy = new Sketch(this.cells);
		copy.count.set(this.count);
		copy.check.set(this.check);
		copy.off.set(this.off);
		copy.k1.set(this.k1);
		copy.k2.set(this.k2);
		return copy;
	}

	cellsOf(off: number, k1: number, k2: number): number[] {
		return CELL_SEEDS.map((seed, j) => j * this.part + (mix(off, k1, k2, seed) % this.part));
	}

	/** Adds (+1) or removes (-1) one item: `off` is its seconds below the mark. */
	toggle(off: number, k1: number, k2: number, delta: 1 | -1): void {
		const check = mix(off, k1, k2, CHECK_SEED) & 0xffff;
		for (const c of this.cellsOf(off, k1, k2)) {
			this.count[c] = (this.count[c] + delta) & 0xff;
			this.check[c] ^= check;
			this.off[c] ^= off;
			this.k1[c] ^= k1;
			this.k2[c] = (this.k2[c] ^ k2) >>> 0;
		}
	}

	empty(c: number): boolean {
		return (
			this.count[c] === 0 &&
			this.check[c] === 0 &&
			this.off[c] === 0 &&
			this.k1[c] === 0 &&
			this.k2[c] === 0
		);
	}

	/** The one item a cell holds, with its side (+1 stored only, -1 current only), if it is pure. */
	pure(c: number): { off: number; k1: number; k2: number; sign: 1 | -1 } | undefined {
		const n = this.count[c];
		if (n !== 1 && n !== 0xff) return undefined;
		const off = this.off[c];
		const k1 = this.k1[c];
		const k2 = this.k2[c];
		if ((mix(off, k1, k2, CHECK_SEED) & 0xffff) !== this.check[c]) return undefined;
		if (!this.cellsOf(off, k1, k2).includes(c)) return undefined;
		return { off, k1, k2, sign: n === 1 ? 1 : -1 };
	}
}

export interface Difference {
	/** In the current answer, not in the stored set: new. */
	added: Item[];
	/** In the stored set, not in the current answer: vanished (for now). */
	gone: Item[];
}

/**
 * The difference between the stored sketch and the current items of the same seconds, or
 * undefined when it cannot be listed (too many differences for the sketch's size). When plain
 * peeling stalls, the additions are still among the current items: one, then two, then three of
 * them are tried as additions (a wrong guess comes back out as a vanished item and cancels),
 * within a small budget.
 */
export function listDifference(
	stored: Sketch,
	current: readonly Item[],
	markSecond: number,
	maxOff: number,
): Difference | undefined {
	const diff = stored.clone();
	const byId = new Map<string, Item>();
	for (const item of current) {
		byId.set(idOf(item), item);
		diff.toggle(markSecond - item.sec, item.k1, item.k2, -1);
	}
	type Net = Map<string, { item: Item; n: number }>;
	const note = (into: Net, item: Item, n: number) => {
		const id = idOf(item);
		const was = into.get(id);
		if (was) was.n += n;
		else into.set(id, { item, n });
	};
	let attempts = 200;

	/** Peels what it can; with `guesses` left, tries current items as additions when stuck. */
	const peel = (sketch: Sketch, guesses: number, after: number): Net | undefined => {
		const found: Net = new Map();
		for (let progress = true; progress; ) {
			progress = false;
			for (let c = 0; c < sketch.cells; c++) {
				const p = sketch.pure(c);
				if (!p) continue;
				const item = { sec: markSecond - p.off, k1: p.k1, k2: p.k2 };
				if (p.sign < 0 ? !byId.has(idOf(item)) : p.off > maxOff) continue; // not really pure
				note(found, item, p.sign);
				sketch.toggle(p.off, p.k1, p.k2, p.sign === 1 ? -1 : 1);
				progress = true;
			}
		}
		let settled = true;
		for (let c = 0; c < sketch.cells && settled; c++) settled = sketch.empty(c);
		if (settled) return found;
		if (guesses === 0) return undefined;
		const candidates = [...byId.values()];
		for (let i = after; i < candidates.length; i++) {
			const item = candidates[i];
			const off = markSecond - item.sec;
			if (!sketch.cellsOf(off, item.k1, item.k2).every((c) => !sketch.empty(c))) continue;
			if (attempts-- <= 0) return undefined;
			const trial = sketch.clone();
			trial.toggle(off, item.k1, item.k2, 1);
			const rest = peel(trial, guesses - 1, i + 1);
			if (rest) {
				note(rest, item, -1);
				for (const { item: other, n } of found.values()) note(rest, other, n);
				return rest;
			}
		}
		return undefined;
	};

	let found: Net | undefined;
	for (let guesses = 0; guesses <= 3 && !found && attempts > 0; guesses++) {
		found = peel(diff.clone(), guesses, 0);
	}
	if (!found) return undefined;
	const out: Difference = { added: [], gone: [] };
	for (const { item, n } of found.values()) {
		if (n === -1) out.added.push(item);
		else if (n === 1) out.gone.push(item);
		else if (n !== 0) return undefined;
	}
	return out;
}

export function encodeList(items: readonly Item[], markSecond: number): string {
	const bytes = Buffer.alloc(items.length * LIST_ITEM_BYTES);
	items.forEach((item, i) => {
		const at = i * LIST_ITEM_BYTES;
		bytes.writeUInt16BE(markSecond - item.sec, at);
		bytes.writeUInt16BE(item.k1, at + 2);
		bytes.writeUInt32BE(item.k2, at + 4);
	});
	return bytes.toString('base64url');
}

export function decodeList(text: string, markSecond: number): Item[] | undefined {
	const bytes = Buffer.from(text, 'base64url');
	if (bytes.length % LIST_ITEM_BYTES !== 0) return undefined;
	const items: Item[] = [];
	for (let at = 0; at < bytes.length; at += LIST_ITEM_BYTES) {
		items.push({
			sec: markSecond - bytes.readUInt16BE(at),
			k1: bytes.readUInt16BE(at + 2),
			k2: bytes.readUInt32BE(at + 4),
		});
	}
	return items;
}
