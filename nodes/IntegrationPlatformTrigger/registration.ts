/**
 * Registers the trigger on the service and removes it again. No n8n imports: requests go through
 * the `RegistrationApi` the node passes in (apiRequest of nodes/shared/api.ts), so the logic is
 * tested directly against the simulator (test/unit/eventTrigger/registration.test.ts).
 *
 * What a registration is (api-facts §4.4, §6):
 * - a webhook destination named `destinationName` whose URL is this node's webhook URL. Data
 *   messages (read, subscribe, schema.watch) go to the destination the integration's manifest or
 *   installation config NAMES (api-facts §4.4), so the user puts this name there. If a destination
 *   of that name already points elsewhere, the node stops, or (on request) points it here and
 *   puts the old URL back when it is removed;
 * - for notifications: a topic of the same name, one notification-event-topic route per selected
 *   event type, and a topic-destination route (the order the docs give: destination → topic →
 *   event routes → topic route).
 * Removal goes the other way round and treats "already gone" (404) as done.
 */

export type Json = Record<string, unknown>;

export interface ApiResponse {
	status: number;
	body: unknown;
	headers?: Record<string, unknown>;
}

/**
 * The requests registration needs. `send` answers every HTTP status (registration decides what a
 * 404 or a 409 means); `error` turns an unexpected answer into the error the user reads (the
 * node passes its problem-document error, nodes/shared/errors.ts).
 */
export interface RegistrationApi {
	send(
		method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
		path: string,
		options?: { qs?: Record<string, string | boolean>; body?: Json },
	): Promise<ApiResponse>;
	error(response: ApiResponse): Error;
}

type Method = Parameters<RegistrationApi['send']>[0];
type SendOptions = Parameters<RegistrationApi['send']>[2];

/** A request whose answer must be a success, or one of `tolerated` (returned as undefined). */
async function call<T = unknown>(
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

async function must<T = unknown>(
	api: RegistrationApi,
	method: Method,
	path: string,
	options?: SendOptions,
): Promise<T> {
	return (await call<T>(api, method, path, options)) as T;
}

export interface DesiredRegistration {
	/** Project id or name. */
	project: string;
	destinationName: string;
	url: string;
	onExisting: 'fail' | 'takeOver';
	/** Notification event types to route here; empty: no topic at all. */
	notificationTypes: string[];
}

/** What the node keeps in its static data (no secret: see secrets.ts). */
export interface Registration {
	url: string;
	project: string;
	destinationName: string;
	destinationId: string;
	/**
	 * `created`: the node created the destination, or found it already pointing at its own URL
	 * (which embeds this node's unique webhook id), and deletes it on removal. `takenOver`: an
	 * existing destination whose URL the node replaced; removal puts `previousUrl` back.
	 */
	destinationMode: 'created' | 'takenOver';
	previousUrl?: string;
	topicName?: string;
	topicId?: string;
	eventRoutes: Array<{ id: string; eventType: string }>;
	topicRouteId?: string;
	notificationTypes: string[];
	registeredAt: string;
}

/** A registration problem the user can act on; `cause` keeps the service's answer. */
export class RegistrationError extends Error {
	constructor(
		message: string,
		readonly description?: string,
		readonly cause?: unknown,
	) {
		super(message);
		this.name = 'RegistrationError';
	}
}

/** Destination and topic names: letters, digits and dashes, at most 64 (api-facts §4.4, §6). */
export const NAME_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
export const TEST_SUFFIX = '-test';

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A URL for messages: origin and path only, since a query string may carry a token. */
export function safeUrl(url: unknown): string {
	if (typeof url !== 'string') return String(url);
	try {
		const parsed = new URL(url);
		return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
	} catch {
		return url.slice(0, 80);
	}
}

function projectPath(project: string): string {
	return `/projects/${encodeURIComponent(project)}`;
}

function sameTypes(a: string[], b: string[]): boolean {
	const left = [...new Set(a)].sort();
	const right = [...new Set(b)].sort();
	return left.length === right.length && left.every((t, i) => t === right[i]);
}

function asList(value: unknown): Json[] {
	return Array.isArray(value)
		? value.filter((v): v is Json => typeof v === 'object' && v !== null)
		: [];
}

function urlOf(destination: Json): unknown {
	const metadata = destination.metadata;
	return typeof metadata === 'object' && metadata !== null ? (metadata as Json).url : undefined;
}

/**
 * checkExists: true only when the stored registration is for this very URL and configuration
 * and everything it lists is still on the service, pointing here. A test registration never
 * satisfies a production check (different URL), nor the reverse (n8n-conventions §6.5).
 */
export async function registrationExists(
	api: RegistrationApi,
	stored: Registration | undefined,
	desired: DesiredRegistration,
): Promise<boolean> {
	if (!stored || stored.url !== desired.url) return false;
	if (stored.project !== desired.project || stored.destinationName !== desired.destinationName) {
		return false;
	}
	if (!sameTypes(stored.notificationTypes, desired.notificationTypes)) return false;
	const base = projectPath(desired.project);
	const destination = await call<Json>(
		api,
		'GET',
		`${base}/destinations/${encodeURIComponent(stored.destinationId)}`,
		undefined,
		[404],
	);
	if (!destination || urlOf(destination) !== desired.url) return false;
	if (destination.name !== desired.destinationName) return false;
	if (desired.notificationTypes.length === 0) return true;
	if (!stored.topicId || !stored.topicRouteId) return false;
	const [eventRoutes, topicRoutes] = await Promise.all([
		call(api, 'GET', `${base}/notification-event-topic-routes`, {
			qs: { topicId: stored.topicId },
		}),
		call(api, 'GET', `${base}/topic-destination-routes`, {
			qs: { topicId: stored.topicId, destinationId: stored.destinationId },
		}),
	]);
	const routed = new Set(asList(eventRoutes).map((r) => r.eventType));
	return (
		desired.notificationTypes.every((t) => routed.has(t)) &&
		asList(topicRoutes).some((r) => r.id === stored.topicRouteId)
	);
}

/**
 * Creates or updates the destination. A refused http URL becomes the explanation the user needs
 * (api-facts §4.1: webhook URLs must be https; the simulator's httpsWebhooksOnly mirrors it).
 */
async function writeDestination(
	api: RegistrationApi,
	method: 'POST' | 'PATCH',
	path: string,
	body: Json,
	url: string,
): Promise<Json> {
	const response = await api.send(method, path, { body });
	if (response.status < 400) return (response.body ?? {}) as Json;
	if (url.startsWith('http:') && (response.status === 400 || response.status === 422)) {
		const cause = api.error(response);
		throw new RegistrationError(
			`The service accepts only https webhook URLs, and this trigger's URL is ${safeUrl(url)}`,
			'Make n8n reachable over https (for example behind a reverse proxy or a tunnel) and set the ' +
				'WEBHOOK_URL environment variable to that https address, then activate the workflow again. ' +
				`The service answered: ${cause.message}`,
			cause,
		);
	}
	throw api.error(response);
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function settle<T>(work: Promise<T>): Promise<Outcome<T>> {
	return await work.then(
		(value): Outcome<T> => ({ ok: true, value }),
		(error: unknown): Outcome<T> => ({ ok: false, error }),
	);
}

/**
 * create: makes the service match `desired`, reusing what is already there, and returns what to
 * store. `previous` is the stored registration for the same URL, if any (a registration whose
 * checkExists failed: something was deleted on the service, or the configuration changed).
 * On failure, whatever this call created or changed is undone before the error is thrown, so a
 * failed activation leaves nothing behind.
 */
export async function register(
	api: RegistrationApi,
	desired: DesiredRegistration,
	previous?: Registration,
	now: () => Date = () => new Date(),
): Promise<Registration> {
	if (!NAME_PATTERN.test(desired.destinationName)) {
		throw new RegistrationError(
			`"${desired.destinationName}" is not a valid destination name`,
			'Use at most 64 letters, digits and dashes.',
		);
	}
	if (
		previous &&
		(previous.project !== desired.project || previous.destinationName !== desired.destinationName)
	) {
		// Registered under another name or project before: remove that first.
		const left = await unregister(api, previous);
		if (left.problems.length) {
			throw new RegistrationError(
				'The previous registration of this trigger could not be removed',
				left.problems.join('\n'),
			);
		}
		previous = undefined;
	}
	// Everything this call creates or changes, for the rollback.
	const undo: Registration = {
		url: desired.url,
		project: desired.project,
		destinationName: desired.destinationName,
		destinationId: '',
		destinationMode: 'created',
		eventRoutes: [],
		notificationTypes: [],
		registeredAt: now().toISOString(),
	};
	const outcome = await settle(registerSteps(api, desired, previous, undo, now));
	if (outcome.ok) return outcome.value;
	const rollback = await unregister(api, undo);
	const error = outcome.error;
	if (rollback.problems.length === 0) throw error;
	const left = `Also left on the service after the failed attempt:\n${rollback.problems.join('\n')}`;
	if (error instanceof RegistrationError) {
		throw new RegistrationError(
			error.message,
			`${error.description ?? ''}\n${left}`.trim(),
			error.cause,
		);
	}
	throw new RegistrationError(error instanceof Error ? error.message : String(error), left, error);
}

async function registerSteps(
	api: RegistrationApi,
	desired: DesiredRegistration,
	previous: Registration | undefined,
	undo: Registration,
	now: () => Date,
): Promise<Registration> {
	const base = projectPath(desired.project);

	// 1. The destination.
	const destinations = asList(await must(api, 'GET', `${base}/destinations`));
	let destination = destinations.find((d) => d.name === desired.destinationName);
	let destinationMode: Registration['destinationMode'] = 'created';
	let previousUrl: string | undefined;
	const pointAtThisTrigger = async (destinationId: unknown) =>
		await writeDestination(
			api,
			'PATCH',
			`${base}/destinations/${encodeURIComponent(String(destinationId))}`,
			{ updateMask: ['metadata.url'], destination: { metadata: { url: desired.url } } },
			desired.url,
		);
	if (!destination) {
		destination = await writeDestination(
			api,
			'POST',
			`${base}/destinations`,
			{ name: desired.destinationName, type: 'webhook', metadata: { url: desired.url } },
			desired.url,
		);
		undo.destinationId = String(destination.id);
	} else if (destination.type !== 'webhook') {
		throw new RegistrationError(
			`The destination "${desired.destinationName}" exists but is a ${String(destination.type)} destination, not a webhook`,
			'Choose another Destination Name for this trigger.',
		);
	} else if (urlOf(destination) === desired.url) {
		// Already points here: registered by this node before. Keep what was recorded then.
		if (previous && previous.destinationId === destination.id) {
			destinationMode = previous.destinationMode;
			previousUrl = previous.previousUrl;
		}
	} else if (
		previous &&
		previous.destinationId === destination.id &&
		urlOf(destination) === previous.url
	) {
		// Registered by this node under an earlier URL of this n8n (WEBHOOK_URL changed): move it.
		await pointAtThisTrigger(destination.id);
		destinationMode = previous.destinationMode;
		previousUrl = previous.previousUrl;
		Object.assign(undo, {
			destinationId: String(destination.id),
			destinationMode: 'takenOver',
			previousUrl: previous.url,
		});
	} else if (desired.onExisting === 'takeOver') {
		const current = urlOf(destination);
		previousUrl = typeof current === 'string' ? current : '';
		await pointAtThisTrigger(destination.id);
		destinationMode = 'takenOver';
		Object.assign(undo, { destinationId: String(destination.id), destinationMode, previousUrl });
	} else {
		throw new RegistrationError(
			`A webhook destination named "${desired.destinationName}" already exists and sends to ${safeUrl(urlOf(destination))}`,
			'Choose another Destination Name, delete that destination, or set "If the Destination Exists" to ' +
				'"Point It at This Workflow" (its URL is put back when the workflow is deactivated).',
		);
	}
	const destinationId = String(destination.id);
	const registration: Registration = {
		url: desired.url,
		project: desired.project,
		destinationName: desired.destinationName,
		destinationId,
		destinationMode,
		...(previousUrl !== undefined ? { previousUrl } : {}),
		eventRoutes: [],
		notificationTypes: [...desired.notificationTypes],
		registeredAt: now().toISOString(),
	};

	if (desired.notificationTypes.length === 0) {
		if (previous?.topicId) {
			// Notifications were switched off: the old topic and its routes go.
			const left = await unregister(api, { ...previous, destinationId: '' });
			if (left.problems.length) {
				throw new RegistrationError(
					'The notification routes of the previous registration could not be removed',
					left.problems.join('\n'),
				);
			}
		}
		return registration;
	}

	// 2. Notifications: topic, event routes, topic route.
	const topicName = desired.destinationName;
	const topics = asList(await must(api, 'GET', `${base}/topics`));
	let topic = topics.find((t) => t.name === topicName);
	if (!topic) {
		topic = await must<Json>(api, 'POST', `${base}/topics`, { body: { name: topicName } });
		undo.topicId = String(topic.id);
		undo.topicName = topicName;
	} else {
		// Adopt a topic of this name only if it feeds no other destination: routing more event
		// types into someone else's topic would change what they receive.
		const routes = asList(
			await must(api, 'GET', `${base}/topic-destination-routes`, {
				qs: { topicId: String(topic.id) },
			}),
		);
		if (routes.some((r) => r.destinationId !== destinationId)) {
			throw new RegistrationError(
				`A topic named "${topicName}" already exists and routes notifications to other destinations`,
				'Choose another Destination Name for this trigger (its topic takes the same name).',
			);
		}
	}
	const topicId = String(topic.id);
	registration.topicName = topicName;
	registration.topicId = topicId;

	const existing = asList(
		await must(api, 'GET', `${base}/notification-event-topic-routes`, { qs: { topicId } }),
	);
	for (const eventType of desired.notificationTypes) {
		let route = existing.find((r) => r.eventType === eventType);
		if (!route) {
			route = await must<Json>(api, 'POST', `${base}/notification-event-topic-routes`, {
				body: { eventType, topicId },
			});
			undo.eventRoutes.push({ id: String(route.id), eventType });
		}
		registration.eventRoutes.push({ id: String(route.id), eventType });
	}
	// Event types no longer selected stop flowing into this node's topic.
	for (const route of existing) {
		if (!desired.notificationTypes.includes(String(route.eventType))) {
			await call(
				api,
				'DELETE',
				`${base}/notification-event-topic-routes/${encodeURIComponent(String(route.id))}`,
				undefined,
				[404],
			);
		}
	}

	let topicRoute = asList(
		await must(api, 'GET', `${base}/topic-destination-routes`, {
			qs: { topicId, destinationId },
		}),
	)[0];
	if (!topicRoute) {
		topicRoute = await must<Json>(api, 'POST', `${base}/topic-destination-routes`, {
			body: { topicId, destinationId },
		});
		undo.topicRouteId = String(topicRoute.id);
	}
	registration.topicRouteId = String(topicRoute.id);
	return registration;
}

export interface RemovalResult {
	/** What could not be removed, one line each; empty when everything is gone. */
	problems: string[];
	/** The part of the registration still on the service, to keep in static data. */
	remaining?: Registration;
}

/**
 * delete: topic route, event routes, topic, then the destination (deleted if the node created it;
 * if it was taken over, its previous URL is put back, unless someone pointed it elsewhere since).
 * Every step runs even when an earlier one fails; 404 counts as removed.
 */
export async function unregister(
	api: RegistrationApi,
	stored: Registration,
): Promise<RemovalResult> {
	const base = projectPath(stored.project);
	const problems: string[] = [];
	const remaining: Registration = { ...stored, eventRoutes: [] };
	const step = async (label: string, work: () => Promise<unknown>): Promise<boolean> => {
		const outcome = await settle(work());
		if (!outcome.ok) problems.push(`${label}: ${messageOf(outcome.error)}`);
		return outcome.ok;
	};
	const remove = async (path: string) => await call(api, 'DELETE', path, undefined, [404]);

	if (stored.topicRouteId) {
		const id = stored.topicRouteId;
		if (
			await step(`topic-destination route ${id}`, async () =>
				remove(`${base}/topic-destination-routes/${encodeURIComponent(id)}`),
			)
		) {
			delete remaining.topicRouteId;
		}
	}
	for (const route of stored.eventRoutes) {
		const removed = await step(
			`notification-event-topic route ${route.id} (${route.eventType})`,
			async () => remove(`${base}/notification-event-topic-routes/${encodeURIComponent(route.id)}`),
		);
		if (!removed) remaining.eventRoutes.push(route);
	}
	if (stored.topicId) {
		const id = stored.topicId;
		if (
			await step(`topic ${stored.topicName ?? id}`, async () =>
				remove(`${base}/topics/${encodeURIComponent(id)}`),
			)
		) {
			delete remaining.topicId;
			delete remaining.topicName;
		}
	}
	if (stored.destinationId) {
		const path = `${base}/destinations/${encodeURIComponent(stored.destinationId)}`;
		const removed =
			stored.destinationMode === 'takenOver'
				? await step(`destination ${stored.destinationName} (putting its URL back)`, async () => {
						const current = await call<Json>(api, 'GET', path, undefined, [404]);
						// Gone, or pointed elsewhere since: nothing of ours is left on it.
						if (!current || urlOf(current) !== stored.url) return;
						await must(api, 'PATCH', path, {
							body: {
								updateMask: ['metadata.url'],
								destination: { metadata: { url: stored.previousUrl ?? '' } },
							},
						});
					})
				: await step(`destination ${stored.destinationName}`, async () => remove(path));
		if (removed) remaining.destinationId = '';
	}
	const left =
		remaining.destinationId !== '' ||
		remaining.topicId !== undefined ||
		remaining.topicRouteId !== undefined ||
		remaining.eventRoutes.length > 0;
	return { problems, ...(left ? { remaining } : {}) };
}
