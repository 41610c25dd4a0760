/**
 * The exactly-once cursor of the log trigger. Pure: no n8n imports, unit-tested on its own
 * (test/unit/IntegrationPlatformLogTrigger/logCursor.test.ts). The code lives in cursor/: time.ts
 * (timestamp keys), entry.ts (identity and order of entries), mix.ts (the hash mixing that entry.ts
 * and sketch.ts share), sketch.ts (the exact list and the sketch), ahead.ts (entries ahead of the
 * clock), state.ts (the stored shape, limits, recordStart), advance.ts (one poll's step); this
 * file states the guarantee and gathers the exports.
 *
 * What the API gives (docs/api-notes.md, "Operation logs"): GET …/operations/{id}/logs returns the
 * whole retained log of one operation as a bare array, in no documented order, without
 * pagination, without an entry id; timestamps carry microseconds; old entries vanish by
 * retention; several entries may share a timestamp. So every poll re-reads everything and decides
 * itself what is new. No order is documented, not even among entries that share a timestamp, so
 * nothing here depends on where an entry sits in the answer.
 *
 * Guarantee, per operation ("the newest" = the newest timestamp seen for that operation):
 * - No dated entry is emitted twice (entries are compared by identity, see Design; a timestamp
 *   shown with fewer digits must be cut, not rounded). Undated entries: see Design.
 * - An entry that shows up late (its timestamp below entries already seen) is emitted once if,
 *   when it first shows up in a poll that succeeds, it is at most LOOK_BACK_MS (one hour) and
 *   at most MAX_WINDOW_ENTRIES (500) entries behind the newest, and either
 *   - it falls in the exact list, the newest whole seconds that together hold at most 8 seen
 *     entries with 20 operations (48 with 3, 144 with one): always; or
 *   - the entries that showed up late or vanished below that list since the cursor was last
 *     stored are few enough for the sketch to list: one always, about a quarter of its cells
 *     reliably (3 with 20 operations, 15 with 3, 48 with one). When they are not, those late
 *     entries are skipped and the floor rises to the list.
 *   Anything further behind is skipped.
 * - Ahead of the clock: an entry whose whole second is more than CLOCK_TOLERANCE_MS (5 minutes)
 *   past the poll's time (a skewed or broken clock) is emitted once and remembered apart
 *   (cursor/ahead.ts, at most MAX_AHEAD_PER_OPERATION); it never lifts the mark, so it hides
 *   nothing stamped normally afterwards, and it is not emitted again when the clock reaches it.
 *   As with undated entries, one that vanishes from an answer while still ahead and comes back
 *   is emitted again. Without a poll time (`now`), nothing counts as ahead.
 * - Start from now: an operation's first poll records the entries present and emits none. When
 *   that poll saw no dated entry (an empty answer) or failed (recordStart, called by the node),
 *   the poll's time is the start instead: entries stamped before it are never emitted, later
 *   ones are (an API clock running behind n8n's by d skips entries stamped within d).
 * - Copies, entries equal in operation, second, severity and message, count by their sub-second
 *   digits: each is emitted once, but one that shows up late may come out carrying another
 *   copy's digits, and a copy that shows up late within the second of the floor is skipped.
 * - The state is bounded whatever the history, equal timestamps included: under 4.6 KB for one
 *   operation, 5.3 KB for 10, 7.5 KB for 20, about 28 KB for 100 (operation IDs as UUIDs; from
 *   about 17 operations on each gets the least share, MIN_BYTES_PER_OPERATION), plus at most 16
 *   keys of undated entries per operation. A poll hashes at most about MAX_WINDOW_ENTRIES entries per
 *   operation plus the new ones, never the whole history.
 *
 * Design
 * - Identity: sha256 over operation id, the timestamp cut to the whole second (UTC), severity and
 *   the canonical JSON of the message (keys sorted); copies get their number among themselves (by
 *   timestamp) mixed in. The whole second, so that a timestamp re-rendered with more or fewer
 *   digits (…:05.123456Z, …:05.123Z, …:05Z) keeps its identity. entryKey is the first 96 bits;
 *   the state keeps 48 bits with the second.
 * - Intervals: a text stands for an interval (…:05.123Z is some instant in [.123, .124); renderings
 *   truncate, as Go's time formatting and the simulator's coarsenTimestamp do). `m`, the mark, is
 *   the largest upper end seen, so an entry whose text lies above it cannot have been seen: new,
 *   without a lookup. The window is what lies at or below the mark and reaches the floor; it is
 *   reconciled with what was seen there.
 * - The window's seen entries are kept in two parts. The newest whole seconds that fit the
 *   operation's share go to an exact list (8 bytes each). The rest go to a sketch of fixed size,
 *   an invertible Bloom lookup table (11 bytes a cell): subtracting the sketch of the current
 *   answer from the stored one leaves only the differences, which peel off however many entries
 *   both share. So a burst of 5,000 entries with one timestamp costs the state nothing, and a few
 *   that show up late among them are listed. Vanished entries come out too and stay recorded
 *   while they reach the floor, so one that returns is not new.
 * - Why not rely on the answer's order among entries that share a timestamp (a count, or the
 *   position of the last one seen): the API documents no order at all (docs/api-notes.md,
 *   "Operation logs"), and the simulator shuffles answers as a real one may.
 * - Floor = max(previous floor, mark − LOOK_BACK_MS, the MAX_WINDOW_ENTRIES-th newest seen entry,
 *   and, when the sketch's difference cannot be listed, the list's lowest second (just above the
 *   mark when everything is in the sketch)). Entries wholly below it are never hashed.
 * - Each operation gets an equal share of STATE_BUDGET_BYTES, at least MIN_BYTES_PER_OPERATION
 *   (shareOf): about a third for the list, the rest for the sketch. Operations that are no longer
 *   configured are dropped from the state.
 * - Entries whose timestamp cannot be parsed (not RFC 3339, or not an object at all) are keyed by
 *   their raw content and emitted once, after the dated ones. Up to MAX_UNDATED_PER_OPERATION of
 *   their keys are kept, only while the API still returns them; if more arrive at once, the rest
 *   wait (they are emitted when room frees up) rather than being emitted twice. An undated entry
 *   that vanishes from one answer and comes back is emitted again (nothing else to go by).
 * - Order of emission: timestamp key, then entry key, across all operations; undated last.
 * - The caller computes the next state aside and stores it only when every fetch of the poll
 *   succeeded (a failed first poll only records its start, recordStart). Polling again from the
 *   last persisted state is harmless: n8n persists static data whenever a poll emits (see the
 *   node), so every emitted entry is recorded there, and entries that were only filtered out are
 *   filtered out again.
 */

export {
	canonicalJson,
	compareEntries,
	entryKeyOf,
	latestEntries,
	LogEntry,
	normalizeEntries,
} from './cursor/entry';
export type { RawLogEntry } from './cursor/entry';
export { CLOCK_TOLERANCE_MS, isoWithOriginalPrecision, keyToNs, nsToKey } from './cursor/time';
export { MAX_AHEAD_PER_OPERATION } from './cursor/ahead';
export {
	CURSOR_VERSION,
	LOOK_BACK_MS,
	MAX_UNDATED_PER_OPERATION,
	MAX_WINDOW_ENTRIES,
	MIN_BYTES_PER_OPERATION,
	readState,
	recordStart,
	shareOf,
	STATE_BUDGET_BYTES,
} from './cursor/state';
export type { CursorState, OperationCursor, Share } from './cursor/state';
export { advanceCursor, advanceOperation } from './cursor/advance';
export type { AdvanceOptions, AdvanceResult, OperationLogs, StepOptions } from './cursor/advance';
