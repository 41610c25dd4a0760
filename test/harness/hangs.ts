/**
 * Hang faults without waiting: the simulator tells its journal's `onHang` listeners of every
 * request it leaves unanswered (test/simulator/journal.js), and the engine harnesses end exactly
 * that request at once, with the error its timeout would give later. Every other request keeps a
 * deadline that only a real hang reaches, so nothing depends on how fast the machine is.
 *
 * - `timeOutHungRequests(sim)`: for requests n8n-core sends (axios over node:http). Node's
 *   `http.client.request.start` diagnostics channel lists the live requests; the hung one is the
 *   request whose socket joins the client port and the server port the simulator saw (a client
 *   port alone is not enough: the kernel gives the same ephemeral port to connections to
 *   different servers, and the tests run several simulators side by side). The harness emits
 *   `timeout` on it, as its socket's timer would: axios's own timeout handler (which n8n-core's
 *   Request Options → Timeout sets) aborts it with "timeout of Nms exceeded" (ECONNABORTED), N
 *   being the timeout the node set. A request that has no timeout handler is destroyed with an
 *   error saying so, so a node that forgets its timeout still fails the test instead of passing.
 * - `HangAborts` (test/harness/poll.ts, which sends with fetch): the harness marks each request
 *   with the header `HANG_HEADER` and aborts the one the simulator names.
 */
import type { ClientRequest } from 'node:http';
import { subscribe } from 'node:diagnostics_channel';
import { randomUUID } from 'node:crypto';

export interface HangEntry {
	headers: Record<string, string | string[] | undefined>;
	method: string;
	pathname: string;
}

export interface HangSource {
	journal: {
		onHang(
			listener: (entry: HangEntry, peer: { remotePort?: number; localPort?: number }) => void,
		): () => void;
	};
}

/** Header the poll harness marks its requests with, to recognise the one the simulator hangs. */
export const HANG_HEADER = 'x-test-harness-request';

const liveRequests = new Set<ClientRequest>();
let watching = false;

function watchClientRequests(): void {
	if (watching) return;
	watching = true;
	subscribe('http.client.request.start', (message) => {
		// Ended requests are dropped here rather than by a 'close' listener of ours: n8n's
		// requests already carry ten, and an eleventh makes Node warn of a leak.
		for (const request of liveRequests) if (request.destroyed) liveRequests.delete(request);
		liveRequests.add((message as { request: ClientRequest }).request);
	});
}

/** Requests of this process's node:http clients the simulator hung, ended as their timeout would. */
const timedOut = new WeakSet<ClientRequest>();

/** A request the simulator hung and the harness timed out, with the timeout its client had set. */
export interface TimedOutRequest {
	method: string;
	pathname: string;
	/** The socket's timeout as the client set it (axios's Request Options → Timeout), if any. */
	timeoutMs: number | undefined;
}

const timedOutBySim = new WeakMap<object, TimedOutRequest[]>();

/** The requests `sim` hung that `timeOutHungRequests` ended so far, oldest first. */
export function timedOutRequests(sim: object): TimedOutRequest[] {
	return timedOutBySim.get(sim) ?? [];
}

/**
 * Ends each request `sim` hangs at once, through the request's own timeout handler (see above).
 * Returns a function that stops it.
 */
export function timeOutHungRequests(sim: HangSource): () => void {
	watchClientRequests();
	const log: TimedOutRequest[] = [];
	timedOutBySim.set(sim, log);
	return sim.journal.onHang((entry, peer) => {
		const request = [...liveRequests].find(
			(r) =>
				!r.destroyed &&
				r.socket?.localPort !== undefined &&
				r.socket.localPort === peer.remotePort &&
				r.socket.remotePort === peer.localPort,
		);
		if (!request || timedOut.has(request)) return; // another client (fetch, a test's own axios)
		timedOut.add(request);
		// The event is emitted after the simulator's handler returns, as a timer would fire.
		setImmediate(() => {
			if (request.listenerCount('timeout') === 0) {
				request.destroy(
					new Error(
						`${entry.method} ${entry.pathname} hung and the request has no timeout: it would wait forever`,
					),
				);
				return;
			}
			log.push({
				method: entry.method,
				pathname: entry.pathname,
				timeoutMs: request.socket?.timeout,
			});
			request.emit('timeout');
		});
	});
}

/** For fetch-based clients: an AbortController per request, aborted when the simulator hangs it. */
export class HangAborts {
	private readonly pending = new Map<string, AbortController>();

	private stop: (() => void) | undefined;

	constructor(private readonly sim: HangSource) {}

	/** A request id for the `HANG_HEADER` header and the signal that fires when it is hung. */
	open(): { id: string; signal: AbortSignal; close: () => void } {
		this.stop ??= this.sim.journal.onHang((entry) => {
			const id = entry.headers[HANG_HEADER];
			if (typeof id === 'string') this.pending.get(id)?.abort(new HungError());
		});
		const id = randomUUID();
		const controller = new AbortController();
		this.pending.set(id, controller);
		return {
			id,
			signal: controller.signal,
			close: () => {
				this.pending.delete(id);
				if (this.pending.size === 0) {
					this.stop?.();
					this.stop = undefined;
				}
			},
		};
	}
}

/** The reason a `HangAborts` signal fires with. */
export class HungError extends Error {
	constructor() {
		super('the simulator hung this request');
		this.name = 'HungError';
	}
}
