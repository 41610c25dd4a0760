/**
 * Typed access to the simulator for the event-trigger tests (unit, engine, e2e): deliveries,
 * notification routing, the Svix signer (test/simulator/svixSign.js, independent of the node's
 * verifier) and a RegistrationApi that talks to the simulator over HTTP.
 */
import type {
	ApiResponse,
	RegistrationApi,
} from '../../nodes/IntegrationPlatformTrigger/registration';
import { timeOutHungRequests, type HangSource } from './hangs';

export type Json = Record<string, unknown>;

export interface Attempt {
	attempt: number;
	at: string;
	timestamp: number;
	url: string;
	status: number | null;
	error?: string;
	durationMs: number;
	responseBody?: string;
}

export interface Delivery {
	id: string;
	destinationId: string;
	destinationName: string;
	projectId: string;
	kind: string;
	eventType?: string;
	payload: unknown;
	body: string;
	state: 'pending' | 'delivered' | 'failed' | 'skipped';
	attempts: Attempt[];
	nextAttemptAt?: string;
}

export interface Sim {
	apiUrl: string;
	readUrl: string;
	writeUrl: string;
	searchUrl: string;
	proxyUrl: string;
	SEED: Record<string, string>;
	state: {
		destinations: Map<string, Json>;
		topics: Map<string, Json>;
		topicDestinationRoutes: Map<string, Json>;
		eventTopicRoutes: Map<string, Json>;
	};
	faults: { add(rule: Json): string; clear(): void };
	journal: {
		entries: Array<Json & { routeId: string; method: string; status: number }>;
		clear(): void;
	};
	deliveries: {
		list(filter?: Json): Delivery[];
		waitFor(predicate: (d: Delivery) => boolean, timeoutMs?: number): Promise<Delivery>;
		clear(): void;
	};
	deliver(input: {
		destination: string;
		message: unknown;
		extraSecrets?: string[];
	}): Promise<Delivery>;
	emitNotification(eventType: string, data?: Json): Promise<Delivery[]>;
	emitRead(input: Json): Promise<Delivery>;
	emitSubscribe(input: Json): Promise<Delivery>;
	emitSchemaWatch(input: Json): Promise<Delivery>;
	reset(): void;
	close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const simulator = require('../simulator') as {
	startSimulator(options: Json): Promise<Sim>;
	SEED: Record<string, string>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const svix = require('../simulator/svixSign') as {
	signOnce(secret: string, msgId: string, timestampSeconds: number, body: string | Buffer): string;
	signature(
		secrets: string | string[],
		msgId: string,
		timestampSeconds: number,
		body: string | Buffer,
	): string;
	signedHeaders(input: {
		secrets: string | string[];
		msgId: string;
		timestampSeconds?: number;
		body: string | Buffer;
		prefix?: 'svix' | 'webhook';
	}): Record<string, string>;
	newMessageId(): string;
};

export const SEED = simulator.SEED;

/** A request the simulator hangs (a `hang` fault) times out at once, through the node's own
 * timeout (test/harness/hangs.ts). */
export async function startSim(options: Json = {}): Promise<Sim> {
	const sim = await simulator.startSimulator({ port: 0, readPort: 0, ...options });
	timeOutHungRequests(sim as unknown as HangSource);
	return sim;
}

/** A call to the simulator's management API with the seeded API key. */
export async function api(
	sim: Sim,
	method: string,
	path: string,
	body?: unknown,
	apiKey = SEED.apiKey,
): Promise<{ status: number; body: any; headers: Record<string, string> }> {
	const res = await fetch(`${sim.apiUrl}/v1${path}`, {
		method,
		headers: { 'X-Api-Key': apiKey, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let parsed: unknown = text;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		// not JSON: keep the text
	}
	return { status: res.status, body: parsed, headers: Object.fromEntries(res.headers.entries()) };
}

/** What registration/ needs, over HTTP to the simulator; errors carry `httpCode` like NodeApiError. */
export function registrationApi(sim: Sim): RegistrationApi {
	return {
		send: async (method, path, options = {}) => {
			const qs = options.qs
				? `?${new URLSearchParams(Object.entries(options.qs).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
				: '';
			const res = await api(sim, method, `${path}${qs}`, options.body);
			return { status: res.status, body: res.body, headers: res.headers } satisfies ApiResponse;
		},
		error: (response) => {
			const body = (response.body ?? {}) as Json;
			return Object.assign(
				new Error(`${String(body.title ?? 'Error')}: ${String(body.detail ?? '')}`),
				{
					httpCode: String(response.status),
				},
			);
		},
	};
}

/** The registration-related state: what a trigger may leave behind. */
export function registrationState(sim: Sim) {
	return {
		destinations: [...sim.state.destinations.values()].map((d) => ({
			id: d.id as string,
			name: d.name as string,
			url: (d.metadata as Json | undefined)?.url as string | undefined,
		})),
		topics: [...sim.state.topics.values()].map((t) => ({
			id: t.id as string,
			name: t.name as string,
		})),
		eventTopicRoutes: [...sim.state.eventTopicRoutes.values()].map((r) => ({
			id: r.id as string,
			eventType: r.eventType as string,
			topicId: r.topicId as string,
		})),
		topicDestinationRoutes: [...sim.state.topicDestinationRoutes.values()].map((r) => ({
			id: r.id as string,
			topicId: r.topicId as string,
			destinationId: r.destinationId as string,
		})),
	};
}

export async function signingSecret(sim: Sim, destination: string): Promise<string> {
	const res = await api(
		sim,
		'GET',
		`/projects/${SEED.projectName}/destinations/${destination}?includeSecrets=true`,
	);
	return res.body.secrets.webhookSigningKey as string;
}
