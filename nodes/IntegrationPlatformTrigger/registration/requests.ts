/**
 * How registration talks to the service: requests whose failures it decides about, and the
 * paths it calls, every id and name encoded as one path segment (nodes/common/paths.ts).
 */
import { apiPath } from '../../common/paths';
import type { Json, RegistrationApi } from './types';

type Method = Parameters<RegistrationApi['send']>[0];
type SendOptions = Parameters<RegistrationApi['send']>[2];

/** A request whose answer must be a success, or one of `tolerated` (returned as undefined). */
export async function call<T = unknown>(
	api: RegistrationApi,
	method: Method,
	path: string,
	options?: SendOptions,
	tolerated: number[] = [],
): Promise<T | undefined> {
	const response = await api.send(method, path, options);
	if (response.status < 400) return response.body as T;
	if (tolerated.includes(response.status)) return undefined;
	throw api.error(response);
}

export async function must<T = unknown>(
	api: RegistrationApi,
	method: Method,
	path: string,
	options?: SendOptions,
): Promise<T> {
	return (await call<T>(api, method, path, options)) as T;
}

/** DELETE where "already gone" (404) counts as done. */
export async function remove(api: RegistrationApi, path: string): Promise<void> {
	await call(api, 'DELETE', path, undefined, [404]);
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export async function settle<T>(work: Promise<T>): Promise<Outcome<T>> {
	return await work.then(
		(value): Outcome<T> => ({ ok: true, value }),
		(error: unknown): Outcome<T> => ({ ok: false, error }),
	);
}

export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

export function asList(value: unknown): Json[] {
	return Array.isArray(value)
		? value.filter((v): v is Json => typeof v === 'object' && v !== null)
		: [];
}

/** The registration paths of one project (docs/api-notes.md, "Topics and routes"). */
export interface ServicePaths {
	destinations: string;
	destination(id: string): string;
	topics: string;
	topic(id: string): string;
	eventRoutes: string;
	eventRoute(id: string): string;
	topicRoutes: string;
	topicRoute(id: string): string;
	integrations: string;
}

export function servicePaths(project: string): ServicePaths {
	const base = apiPath`/projects/${project}`;
	return {
		destinations: `${base}/destinations`,
		destination: (id) => base + apiPath`/destinations/${id}`,
		topics: `${base}/topics`,
		topic: (id) => base + apiPath`/topics/${id}`,
		eventRoutes: `${base}/notification-event-topic-routes`,
		eventRoute: (id) => base + apiPath`/notification-event-topic-routes/${id}`,
		topicRoutes: `${base}/topic-destination-routes`,
		topicRoute: (id) => base + apiPath`/topic-destination-routes/${id}`,
		integrations: `${base}/integrations`,
	};
}
