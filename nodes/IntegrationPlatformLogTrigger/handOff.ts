import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { DISCOVERY_KEY } from './pollScope';
import { STATE_KEY } from './pollOperations';

/*
 * The hand-off of a poll's entries to n8n, and what is left when main dies during it
 * (docs/triggers.md, "When main dies"). With n8n's default scheduler, n8n saves a poll's static
 * data when the poll emits and only then creates the execution; main killed in between (measured:
 * 5 to 60 ms) leaves the cursor past entries that no execution holds.
 * The node cannot see n8n's executions, so it cannot tell a hand-off that completed from one
 * that did not; it knows only whether the process that made it is still the one polling. So an
 * emitting poll records the state it started from and which process emitted; a later poll in the
 * same process confirms the hand-off (that process lived on past it), and a poll in another
 * process (main restarted, or another main took over) goes back to that state and reads the
 * window again: the entries come out again, those the unconfirmed poll emitted marked
 * `redelivered`, rather than never.
 */
export const HAND_OFF_KEY = 'handOff';
/** The parts of the static data a poll moves forward (the project ID is only a cache). */
const POLL_STATE_KEYS = [STATE_KEY, DISCOVERY_KEY] as const;

/** This n8n process: a new value with every start of main (the module is loaded once per process). */
export const THIS_PROCESS = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** Entry keys kept with a hand-off, to mark exactly those when read again; past it, all are. */
export const MAX_KEYS_KEPT = 500;

interface HandOff {
	/** the process that emitted */
	by: string;
	/** the poll state before that poll: JSON values by key (a missing key was absent) */
	before: IDataObject;
	/** the entry keys it emitted (absent when there were more than MAX_KEYS_KEPT) */
	keys?: string[];
}

function readHandOff(value: unknown): HandOff | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const { by, before, keys } = value as Partial<HandOff>;
	if (typeof by !== 'string' || typeof before !== 'object' || before === null) return undefined;
	const keyList = Array.isArray(keys) ? keys.filter((k) => typeof k === 'string') : undefined;
	return { by, before, ...(keyList ? { keys: keyList } : {}) };
}

function pollState(staticData: IDataObject): IDataObject {
	const state: IDataObject = {};
	for (const key of POLL_STATE_KEYS) {
		if (staticData[key] !== undefined) state[key] = JSON.parse(JSON.stringify(staticData[key]));
	}
	return state;
}

function restore(staticData: IDataObject, state: IDataObject): void {
	for (const key of POLL_STATE_KEYS) {
		if (state[key] === undefined) delete staticData[key];
		else staticData[key] = state[key];
	}
}

/**
 * Runs one production poll so that an emission whose hand-off may not have reached an execution
 * is emitted again by the next poll of another process, its entries marked `redelivered: true`
 * (every entry of that poll when the emission held more than MAX_KEYS_KEPT).
 */
export async function pollWithHandOff(
	context: IPollFunctions,
	poll: () => Promise<INodeExecutionData[][] | null>,
	/** runs once the state is the one to poll from (activationStart.ts) */
	prepare: () => void = () => {},
): Promise<INodeExecutionData[][] | null> {
	const staticData = context.getWorkflowStaticData('node');
	const handOff = readHandOff(staticData[HAND_OFF_KEY]);
	const redelivering = handOff !== undefined && handOff.by !== THIS_PROCESS;
	if (redelivering) restore(staticData, handOff.before);
	prepare();
	const before = pollState(staticData);
	// a failed poll leaves an unconfirmed hand-off in place: the next poll goes back again
	const result = await poll();
	if (result === null) {
		if (handOff !== undefined) delete staticData[HAND_OFF_KEY];
		return null;
	}
	const keys = result.flat().map((item) => String(item.json.entryKey));
	staticData[HAND_OFF_KEY] = {
		by: THIS_PROCESS,
		before,
		...(keys.length <= MAX_KEYS_KEPT ? { keys } : {}),
	};
	if (!redelivering) return result;
	// what the unconfirmed poll emitted may have reached an execution: those entries are marked
	const handedOff = handOff.keys ? new Set(handOff.keys) : undefined;
	return result.map((items) =>
		items.map((item) =>
			handedOff && !handedOff.has(String(item.json.entryKey))
				? item
				: { ...item, json: { ...item.json, redelivered: true } },
		),
	);
}
