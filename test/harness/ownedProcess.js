// @ts-check
'use strict';
/**
 * Processes that must not outlive the process that started them: n8n (main, workers, webhook
 * processes), Redis, PostgreSQL, the runtime's npm installs, benchmark children.
 *
 * `spawnOwned` spawns the child in a process group of its own (so that its own children, such as
 * n8n's task runner or PostgreSQL's backends, go with it) and tells a watchdog about the group. The
 * watchdog (ownedProcessWatchdog.js) is one detached process per owner, connected by an IPC
 * channel; when the owner is gone, however it ended (Ctrl-C, SIGTERM from `timeout` or a CI
 * runner, SIGKILL, a crash, Jest exiting without its global teardown), the channel closes and the
 * watchdog stops every group that still has a process: its signal, then SIGKILL after a grace
 * period. A group whose processes all ended is forgotten. Because a group is the unit, a child started this way
 * no longer receives the terminal's Ctrl-C directly: the owner's death, or its own stop(), ends it.
 */
const { spawn } = require('node:child_process');
const path = require('node:path');

const WATCHDOG = path.join(__dirname, 'ownedProcessWatchdog.js');

/** @type {import('node:child_process').ChildProcess | undefined} */
let watchdog;

/** The watchdog of this process, started on first use. */
function ensureWatchdog() {
	if (watchdog && watchdog.connected) return watchdog;
	watchdog = spawn(process.execPath, [WATCHDOG, String(process.pid)], {
		detached: true,
		stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
	});
	// Neither the process nor its channel keeps this process alive.
	watchdog.unref();
	/** @type {any} */ (watchdog).channel?.unref();
	watchdog.on('error', () => undefined);
	return watchdog;
}

/** @param {object} message */
function tell(message) {
	const dog = ensureWatchdog();
	try {
		dog.send(message);
	} catch {
		// the watchdog is gone (it only leaves when this process does)
	}
}

/**
 * `child_process.spawn`, in a process group of its own that the watchdog ends with this process.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {import('node:child_process').SpawnOptions & { stopSignal?: NodeJS.Signals }} [options]
 *   stopSignal: what the watchdog sends first (default SIGTERM; PostgreSQL wants SIGINT)
 * @returns {import('node:child_process').ChildProcess}
 */
function spawnOwned(command, args, options = {}) {
	const { stopSignal = 'SIGTERM', ...spawnOptions } = options;
	const child = spawn(command, args, { ...spawnOptions, detached: true });
	const pid = child.pid;
	if (pid === undefined) return child; // failed to spawn: 'error' follows
	tell({ own: pid, signal: stopSignal });
	return child;
}

/**
 * Signals a child of spawnOwned and its whole process group (the group may outlive the child
 * itself, e.g. a task runner whose parent died).
 * @param {import('node:child_process').ChildProcess} child
 * @param {NodeJS.Signals} signal
 */
function killGroup(child, signal) {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// the group is gone
	}
}

/**
 * Stops this process, by sending it `signal`, when its parent goes away. `npm run <script>` passes
 * SIGTERM to the shell that runs the script, and the shell dies without passing it on, which left
 * the script (and what it started) running as an orphan; Ctrl-C reaches every process of the
 * terminal, so only SIGTERM from outside (timeout, a CI runner, a process manager) showed it.
 * Entry points (npm start, npm test, npm run bench, the e2e projects' Jest) call this once.
 * @param {NodeJS.Signals} [signal]
 */
function followParent(signal = 'SIGTERM') {
	const parent = process.ppid;
	const timer = setInterval(() => {
		if (process.ppid === parent) return;
		clearInterval(timer);
		process.kill(process.pid, signal);
	}, 250);
	timer.unref();
}

module.exports = { spawnOwned, killGroup, followParent };
