/**
 * What every e2e test file needs: the running n8n (started once by test/harness/globalSetup.js)
 * and a simulator of its own, with n8n credentials of both types pointing at it.
 */
import * as fs from 'node:fs';

import { SEED, startSimulator, type Simulator } from './actionEngine';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createClient } = require('./n8n/restClient') as {
	createClient(connection: object): N8nClient;
};

export interface ExecutionSummary {
	id: string;
	status: string;
	error?: { message?: string; description?: string };
	outputs: Record<string, Array<Record<string, unknown>>>;
	errors: Record<string, { message?: string; description?: string; httpCode?: string }>;
	runData: Record<string, Array<{ executionTime: number; error?: unknown }>>;
	output(nodeName: string): Array<Record<string, unknown>>;
}

export interface N8nClient {
	baseUrl: string;
	api(method: string, path: string, body?: unknown): Promise<any>;
	createCredential(credential: {
		type: string;
		name: string;
		data: Record<string, unknown>;
	}): Promise<{ id: string; name: string }>;
	testCredential(id: string): Promise<{ status: 'OK' | 'Error'; message: string }>;
	createWorkflow(
		workflow: unknown,
		credentials?: Record<string, { id: string; name: string }>,
	): Promise<{ id: string }>;
	runWorkflow(
		workflow: unknown,
		credentials?: Record<string, { id: string; name: string }>,
		options?: { input?: unknown },
	): Promise<ExecutionSummary>;
	executions(workflowId: string, includeData?: boolean): Promise<any[]>;
	webhook(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
	waitForWebhook(path: string, body: unknown, timeoutMs?: number): Promise<Response>;
}

export function n8nClient(): N8nClient {
	const file = process.env.N8N_E2E_INFO;
	if (!file)
		throw new Error('N8N_E2E_INFO is not set: run e2e tests through the jest "e2e" project');
	return createClient(JSON.parse(fs.readFileSync(file, 'utf8')));
}

export interface E2eContext {
	n8n: N8nClient;
	sim: Simulator;
	credentials: Record<string, { id: string; name: string }>;
}

/** Starts a simulator and creates one credential of each type in n8n pointing at it. */
export async function setUpE2e(
	label: string,
	simulatorOptions: Record<string, string | number | boolean> = {},
): Promise<E2eContext> {
	const n8n = n8nClient();
	const sim = await startSimulator(simulatorOptions);
	return { n8n, sim, credentials: await simulatorCredentials(n8n, sim, label) };
}

/** One credential of each type in `n8n`, pointing at `sim`, named after `label`. */
export async function simulatorCredentials(
	n8n: Pick<N8nClient, 'createCredential'>,
	sim: Simulator,
	label: string,
): Promise<E2eContext['credentials']> {
	const apiKey = await n8n.createCredential({
		type: 'integrationPlatformApi',
		name: `Simulator API key (${label})`,
		data: {
			apiKey: SEED.apiKey,
			baseUrl: sim.apiUrl,
			readUrl: sim.readUrl,
			writeUrl: sim.writeUrl,
			searchUrl: sim.searchUrl,
			proxyUrl: sim.proxyUrl,
		},
	});
	const token = await n8n.createCredential({
		type: 'integrationPlatformTokenApi',
		name: `Simulator token (${label})`,
		data: { accessToken: SEED.bearerToken, baseUrl: sim.apiUrl, searchUrl: sim.searchUrl },
	});
	return {
		integrationPlatformApi: { id: apiKey.id, name: apiKey.name },
		integrationPlatformTokenApi: { id: token.id, name: token.name },
	};
}

export function readExample(file: string): any {
	return JSON.parse(fs.readFileSync(`${__dirname}/../../examples/${file}`, 'utf8'));
}
