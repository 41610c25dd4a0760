/**
 * Watching what a command starts, for the test that stops commands with a signal
 * (test/e2e/signals.test.ts). Linux only: reads /proc.
 *
 * A process is known by its PID and its start time (so a reused PID is not mistaken for it).
 * `watchTree` samples the command's descendants every 100 ms while it runs; a process found by
 * the run's marker in its environment counts too, which catches a child whose parent had already
 * died when it was sampled.
 */
import * as fs from 'node:fs';

export interface ProcessInfo {
	pid: number;
	ppid: number;
	/** Start time in clock ticks since boot (/proc/<pid>/stat field 22). */
	start: number;
	command: string;
}

function readStat(pid: number): ProcessInfo | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name (field 2) is in parentheses and may hold spaces: split after it.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const state = fields[0];
		if (state === 'Z' || state === 'X') return undefined; // a zombie has ended
		const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
		return { pid, ppid: Number(fields[1]), start: Number(fields[19]), command };
	} catch {
		return undefined; // gone
	}
}

function allPids(): number[] {
	return fs
		.readdirSync('/proc')
		.filter((name) => /^\d+$/.test(name))
		.map(Number);
}

/** Whether the process is still the one that was seen (same PID, same start time). */
export function stillRunning(p: ProcessInfo): boolean {
	const now = readStat(p.pid);
	return now !== undefined && now.start === p.start;
}

/** Every running process whose environment holds `marker` (as NAME=value). */
export function withMarker(marker: string): ProcessInfo[] {
	const found: ProcessInfo[] = [];
	for (const pid of allPids()) {
		if (pid === process.pid) continue;
		let environ: string;
		try {
			environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
		} catch {
			continue;
		}
		if (!environ.split('\0').includes(marker)) continue;
		const info = readStat(pid);
		if (info) found.push(info);
	}
	return found;
}

export interface TreeWatch {
	/** Every process seen below the root (and with the marker) so far, by PID and start time. */
	seen(): ProcessInfo[];
	/** Those seen that are still running, plus any process still carrying the marker. */
	survivors(): ProcessInfo[];
	stop(): void;
}

export function watchTree(root: number, marker: string): TreeWatch {
	const seen = new Map<string, ProcessInfo>();
	const note = (p: ProcessInfo) => seen.set(`${p.pid}:${p.start}`, p);
	const sample = () => {
		const infos = allPids()
			.map(readStat)
			.filter((p): p is ProcessInfo => p !== undefined);
		const children = new Map<number, ProcessInfo[]>();
		for (const p of infos) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
		const stack = [root];
		while (stack.length) {
			for (const child of children.get(stack.pop()!) ?? []) {
				note(child);
				stack.push(child.pid);
			}
		}
		for (const p of withMarker(marker)) note(p);
	};
	sample();
	const timer = setInterval(sample, 100);
	return {
		seen: () => [...seen.values()],
		survivors: () => {
			const alive = [...seen.values()].filter(stillRunning);
			for (const p of withMarker(marker))
				if (!alive.some((a) => a.pid === p.pid && a.start === p.start)) alive.push(p);
			return alive;
		},
		stop: () => clearInterval(timer),
	};
}
