/**
 * Engine-test helpers: one simulator per test file, the node run in-process (test/harness/engine.ts)
 * with either credential, and the requests the simulator received for each run.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type NodeRun } from './engine';
import { timeOutHungRequests, type HangSource } from './hangs';
import { expectViolation, watchRequests } from '../openapi/contractWatch';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const simulator = require('../simulator') as {
	startSimulator(options: IDataObject): Promise<Simulator>;
	SEED: Record<string, string>;
	ROUTES: Array<{
		id: string;
		method: string;
		host: string;
		path: string;
		auth: string;
		seedOp?: number;
	}>;
};

export const { SEED, ROUTES } = simulator;

export interface JournalEntry {
	host: 'api' | 'read';
	method: string;
	path: string;
	pathname: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
	status: number;
	routeId: string;
}

export interface Simulator {
	apiUrl: string;
	readUrl: string;
	writeUrl: string;
	searchUrl: string;
	proxyUrl: string;
	state: IDataObject;
	journal: { entries: JournalEntry[]; clear(): void; last(): JournalEntry };
	faults: { add(rule: IDataObject): string; clear(): void };
	reset(): void;
	close(): Promise<void>;
	appendLog(operationId: string, entry?: IDataObject): IDataObject;
}

/** Every request the simulator receives is checked against the API's request contract when the
 * test file ends (test/openapi/contractWatch.ts). A request it hangs (a `hang` fault) times out at
 * once, through the node's own timeout (test/harness/hangs.ts). */
export async function startSimulator(options: IDataObject = {}): Promise<Simulator> {
	const sim = await simulator.startSimulator({ port: 0, readPort: 0, ...options });
	timeOutHungRequests(sim as unknown as HangSource);
	return watchRequests(sim);
}

export const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });

export function credentialsFor(sim: Simulator, overrides: IDataObject = {}) {
	return {
		integrationPlatformApi: {
			apiKey: SEED.apiKey,
			baseUrl: sim.apiUrl,
			readUrl: sim.readUrl,
			writeUrl: sim.writeUrl,
			searchUrl: sim.searchUrl,
			proxyUrl: sim.proxyUrl,
			...overrides,
		},
		integrationPlatformTokenApi: {
			accessToken: SEED.bearerToken,
			baseUrl: sim.apiUrl,
			searchUrl: sim.searchUrl,
			...overrides,
		},
	};
}

export interface OperationRun extends NodeRun {
	requests: JournalEntry[];
}

/** Runs the node once against `sim` and returns its output with the requests it made. */
export async function run(
	sim: Simulator,
	parameters: INodeParameters,
	options: {
		items?: IDataObject[];
		continueOnFail?: boolean;
		credentials?: IDataObject;
		nodeSettings?: Record<string, unknown>;
		/** Why this run sends a request the API's contract refuses, on purpose (contractWatch.ts). */
		contractViolation?: string;
	} = {},
): Promise<OperationRun> {
	sim.journal.clear();
	const result = await runNode({
		parameters,
		credentials: { ...credentialsFor(sim), ...(options.credentials ?? {}) } as never,
		items: options.items,
		continueOnFail: options.continueOnFail,
		nodeSettings: options.nodeSettings,
	});
	if (options.contractViolation) expectViolation(sim.journal.entries, options.contractViolation);
	return { ...result, requests: [...sim.journal.entries] };
}
