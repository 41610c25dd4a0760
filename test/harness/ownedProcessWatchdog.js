// @ts-check
'use strict';
/**
 * The watchdog of ownedProcess.js: `node ownedProcessWatchdog.js <owner pid>`, detached, with an
 * IPC channel to its owner. Messages: `{ own: pgid, signal }` (a process group to stop when the
 * owner is gone). A group is forgotten once it has no process left. When the channel closes or the
 * owner's PID stops answering, every remaining group gets its signal, then SIGKILL after
 * GRACE_MS; then the watchdog exits. It holds no other state and writes nothing.
 */
const owner = Number(process.argv[2]);
const GRACE_MS = 10_000;
const CHECK_MS = 500;

/** @type {Map<number, NodeJS.Signals>} process group → first signal */
const groups = new Map();
let ending = false;

/** @param {number} pgid @param {NodeJS.Signals | 0} signal @returns {boolean} whether it exists */
function signalGroup(pgid, signal) {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch (error) {
		return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
	}
}

function alive(/** @type {number} */ pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
	}
}

function prune() {
	for (const pgid of groups.keys()) if (!signalGroup(pgid, 0)) groups.delete(pgid);
}

async function end() {
	if (ending) return;
	ending = true;
	prune();
	for (const [pgid, signal] of groups) signalGroup(pgid, signal);
	const deadline = Date.now() + GRACE_MS;
	while (groups.size && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 100));
		prune();
	}
	for (const pgid of groups.keys()) signalGroup(pgid, 'SIGKILL');
	process.exit(0);
}

process.on('message', (/** @type {any} */ message) => {
	if (message && Number.isInteger(message.own) && message.own > 0) {
		groups.set(message.own, message.signal || 'SIGTERM');
	}
});
process.on('disconnect', () => void end());
// The owner may be gone before the channel says so (or the channel may never have opened).
setInterval(() => {
	if (!alive(owner)) void end();
	else prune();
}, CHECK_MS);
// The watchdog itself is not stopped by the signals meant for its owner's terminal.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGHUP']))
	process.on(signal, () => undefined);
