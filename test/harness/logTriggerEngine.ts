/**
 * Shared set-up of the log trigger's engine tests: the simulator with its log features, and a
 * PollRunner (test/harness/poll.ts) around the node's real poll().
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { IntegrationPlatformLogTrigger } from '../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node';
import type { HangSource } from './hangs';
import { PollRunner, type Persistence, type PollRunnerOptions } from './poll';

export interface LogEntryJson {
	timestamp: string;
	severity: string;
	message: IDataObject & { msg: string };
}

export interface JournalEntry {
	method: string;
	pathname: string;
	routeId: string | null;
	status: number;
	headers: Record<string, string>;
}

export interface LogSimulator {
	apiUrl: string;
	readUrl: string;
	writeUrl: string;
	searchUrl: string;
	proxyUrl: string;
	state: { logs: Map<string, LogEntryJson[]>; operations: Map<string, IDataObject> };
	journal: {
		entries: JournalEntry[];
		clear(): void;
		find(filter: IDataObject): JournalEntry[];
		onHang: HangSource['journal']['onHang'];
		/** Calls `listener` with every answer from now on; returns a function that stops it. */
		onAnswer(listener: (entry: JournalEntry, answer: { status: number }) => void): () => void;
	};
	faults: { add(rule: IDataObject): string; clear(): void; list(): IDataObject[] };
	reset(): void;
	close(): Promise<void>;
	appendLog(operationId: string, entry?: IDataObject): LogEntryJson;
	appendLogBurst(operationId: string, count: number, partial?: IDataObject): LogEntryJson[];
	applyLogRetention(options: IDataObject): number;
	addOperation(partial?: IDataObject): IDataObject & { id: string };
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const simulator = require('../simulator') as {
	startSimulator(options: IDataObject): Promise<LogSimulator>;
	SEED: Record<string, string>;
};

export const { SEED } = simulator;
export const NODE_TYPE_NAME = 'n8n-nodes-integration-platform.integrationPlatformLogTrigger';

export async function startSimulator(): Promise<LogSimulator> {
	return await simulator.startSimulator({ port: 0, readPort: 0 });
}

/**
 * One simulator for a test file: started before its tests, reset after each, closed after all,
 * whatever ended them. Call the returned function inside a test or hook to get it.
 */
export function useLogSimulator(): () => LogSimulator {
	let sim: LogSimulator | undefined;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterEach(() => sim?.reset());
	afterAll(async () => await sim?.close());
	return () => {
		if (!sim) throw new Error('the log simulator is used before its beforeAll has run');
		return sim;
	};
}

export const rl = (value: string, mode = 'list') => ({ __rl: true, mode, value });

export function credentialsFor(sim: LogSimulator) {
	return {
		integrationPlatformApi: {
			apiKey: SEED.apiKey,
			baseUrl: sim.apiUrl,
			readUrl: sim.readUrl,
			writeUrl: sim.writeUrl,
			searchUrl: sim.searchUrl,
			proxyUrl: sim.proxyUrl,
		},
		integrationPlatformTokenApi: {
			accessToken: SEED.bearerToken,
			baseUrl: sim.apiUrl,
			searchUrl: sim.searchUrl,
		},
	};
}

export function runner(
	sim: LogSimulator,
	parameters: IDataObject,
	options: Partial<PollRunnerOptions> & { persistence?: Persistence } = {},
): PollRunner {
	return new PollRunner({
		nodeType: new IntegrationPlatformLogTrigger(),
		nodeTypeName: NODE_TYPE_NAME,
		parameters: { project: rl(SEED.projectName), operationIds: SEED.operationId, ...parameters },
		credentials: credentialsFor(sim),
		hangs: sim,
		...options,
	});
}

/** Identity of an entry independent of the node's key: operation, timestamp, severity, message. */
export function identity(
	operationId: string,
	entry: { timestamp?: unknown; severity?: unknown; message?: unknown },
): string {
	const sorted = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(sorted);
		if (value && typeof value === 'object') {
			return Object.fromEntries(
				Object.keys(value)
					.sort()
					.map((k) => [k, sorted((value as IDataObject)[k])]),
			);
		}
		return value;
	};
	return JSON.stringify([operationId, entry.timestamp, entry.severity, sorted(entry.message)]);
}

export const json = (items: INodeExecutionData[] | null) => (items ?? []).map((i) => i.json);
export const msgs = (items: INodeExecutionData[] | null) =>
	json(items).map((j) => (j.message as IDataObject).msg as string);

/** A small seeded PRNG (the simulator's mulberry32) so that failures reproduce. */
export const prng = (
	require('../simulator/logTransforms') as { seededRandom: (seed: number) => () => number }
).seededRandom;

/** RFC 3339 with microseconds from microseconds since the epoch. */
export function isoMicros(micros: number): string {
	const ms = Math.floor(micros / 1000);
	return `${new Date(ms).toISOString().slice(0, 23)}${String(micros - ms * 1000).padStart(3, '0')}Z`;
}

/**
 * The log trigger as another n8n process loads it: a fresh module registry, so module-level
 * state (the process's identity, handOff.ts) is new, as after a real restart of main.
 */
export function freshLogTrigger(): IntegrationPlatformLogTrigger {
	let loaded: { IntegrationPlatformLogTrigger: typeof IntegrationPlatformLogTrigger } | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		loaded = require('../../nodes/IntegrationPlatformLogTrigger/IntegrationPlatformLogTrigger.node');
	});
	return new loaded!.IntegrationPlatformLogTrigger();
}
