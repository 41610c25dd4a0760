// @ts-check
'use strict';

/**
 * The request journal: every request to any host is recorded (including ones answered
 * with auth errors, 404s and faults), except the simulator's own `/__sim/` control API.
 * An entry is appended when the request arrives and its `status` is filled in when the
 * answer is sent (it stays null for `reset` and `hang` faults). Listeners (`onAnswer`) see each
 * answer's status, content type and payload as sent; listeners of `onHang` learn at once of each
 * request a `hang` fault leaves unanswered (a test harness ends that request as its timeout
 * would, later, instead of waiting for it).
 */

/**
 * @typedef {{
 *   seq: number,
 *   time: string,
 *   host: import('./router').Host,
 *   method: string,
 *   path: string,
 *   pathname: string,
 *   query: Record<string, string | string[]>,
 *   headers: Record<string, string | string[] | undefined>,
 *   body: unknown,
 *   status: number | null,
 *   routeId: string | null,
 *   requestId: string,
 *   fault?: string,
 * }} Entry
 * @typedef {Partial<Record<keyof Entry, unknown>> | ((entry: Entry) => boolean)} Filter
 * @typedef {{ status: number, contentType?: string, payload: string }} Answer
 * @typedef {{ remoteAddress?: string, remotePort?: number, localPort?: number }} Peer the
 *   connection: the client's end (remote*) and the port of the simulator's host it reached
 */

class Journal {
	constructor() {
		/** @type {Entry[]} */
		this.entries = [];
		this.seq = 0;
		/** @type {Array<(entry: Entry, answer: Answer) => void>} */
		this.answerListeners = [];
		/** @type {Array<(entry: Entry, peer: Peer) => void>} */
		this.hangListeners = [];
	}

	/**
	 * Calls `listener` with every request a `hang` fault leaves unanswered from now on, when the
	 * simulator decides not to answer it: its entry (headers included) and the client's end of the
	 * connection. Nothing else changes: the request still gets no answer until the client gives up
	 * or the simulator closes.
	 * @param {(entry: Entry, peer: Peer) => void} listener
	 * @returns {() => void} stops listening
	 */
	onHang(listener) {
		this.hangListeners.push(listener);
		return () => {
			this.hangListeners = this.hangListeners.filter((l) => l !== listener);
		};
	}

	/**
	 * The server's report that it will not answer `entry`.
	 * @param {Entry} entry
	 * @param {Peer} peer
	 */
	hung(entry, peer) {
		for (const listener of this.hangListeners) listener(entry, peer);
	}

	/**
	 * Calls `listener` with every answer sent from now on (fault answers included, their entry
	 * names the fault). Answers are not kept: a listener keeps what it needs.
	 * @param {(entry: Entry, answer: Answer) => void} listener
	 * @returns {() => void} stops listening
	 */
	onAnswer(listener) {
		this.answerListeners.push(listener);
		return () => {
			this.answerListeners = this.answerListeners.filter((l) => l !== listener);
		};
	}

	/**
	 * The server's report of the answer to `entry`.
	 * @param {Entry} entry
	 * @param {Answer} answer
	 */
	answered(entry, answer) {
		for (const listener of this.answerListeners) listener(entry, answer);
	}

	/**
	 * @param {Omit<Entry, 'seq'>} fields
	 * @returns {Entry}
	 */
	record(fields) {
		const entry = { seq: ++this.seq, ...fields };
		this.entries.push(entry);
		return entry;
	}

	/**
	 * `last()` → the latest entry; `last(n)` → the latest n entries, oldest first.
	 * @param {number} [n]
	 */
	last(n) {
		if (n === undefined) return this.entries[this.entries.length - 1];
		return n <= 0 ? [] : this.entries.slice(-n);
	}

	clear() {
		this.entries.length = 0;
	}

	/**
	 * Entries matching a predicate, or an object whose fields must all be equal
	 * (a RegExp value is tested against the entry's field as a string).
	 * @param {Filter} filter
	 * @returns {Entry[]}
	 */
	find(filter) {
		if (typeof filter === 'function') return this.entries.filter(filter);
		return this.entries.filter((entry) =>
			Object.entries(filter).every(([key, want]) => {
				const have = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (entry))[key];
				return want instanceof RegExp ? want.test(String(have)) : have === want;
			}),
		);
	}
}

module.exports = { Journal };
