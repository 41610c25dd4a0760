/**
 * The 32-bit mixing function shared by an entry's copy numbering (entry.ts) and the sketch's cells
 * and checks (sketch.ts). Its own module so that neither of those imports the other for it. Pure.
 */
export function mix(off: number, k1: number, k2: number, seed: number): number {
	let h = (seed ^ k2) >>> 0;
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
	h = (h ^ ((k1 << 16) | off)) >>> 0;
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	h = Math.imul(h ^ (h >>> 16), 0x27d4eb2d);
	return (h ^ (h >>> 15)) >>> 0;
}

/** Seed of the mix that numbers copies of an entry (entry.ts). */
export const COPY_SEED = 0xbb67ae85;
