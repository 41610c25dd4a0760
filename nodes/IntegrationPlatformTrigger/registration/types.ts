/**
 * The shapes of registration: what the node asks for (DesiredRegistration), how requests reach
 * the service (RegistrationApi), and what the node keeps in its static data (Registration).
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
 * node passes its problem-document error, nodes/common/errors.ts).
 */
export interface RegistrationApi {
	send(
		method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
		path: string,
		options?: { qs?: Record<string, string | boolean>; body?: Json },
	): Promise<ApiResponse>;
	error(response: ApiResponse): Error;
}

export type OnExisting = 'fail' | 'takeOver' | 'takeOverIfManifest';

export interface DesiredRegistration {
	/** Project id or name. */
	project: string;
	destinationName: string;
	url: string;
	/**
	 * A destination of that name that sends elsewhere: `fail` leaves it alone, `takeOver` points it
	 * here, `takeOverIfManifest` points it here only when an integration's manifest of the project
	 * delivers to it (the destination read results go to), else leaves it alone.
	 */
	onExisting: OnExisting;
	/** Notification event types to route here; empty: no topic at all. */
	notificationTypes: string[];
}

/**
 * Who made a part of the registration. `created`: this trigger did, and removes it again.
 * `adopted`: it was on the service before and is left exactly as it was found.
 */
export type Origin = 'created' | 'adopted';

export interface EventRoute {
	id: string;
	eventType: string;
	origin: Origin;
}

/**
 * What the node keeps in its static data: ids and URLs, a few hundred bytes, never a secret (the
 * signing secret is fetched when needed, see secrets.ts).
 */
export interface Registration {
	/** The webhook URL at activation; the destination is this trigger's while it points here. */
	url: string;
	project: string;
	destinationName: string;
	/** Empty once the destination is no longer this trigger's concern. */
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
	topicOrigin?: Origin;
	/** One per selected notification type, whoever made it. */
	eventRoutes: EventRoute[];
	topicRouteId?: string;
	topicRouteOrigin?: Origin;
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

/**
 * Destination and topic names: letters, digits and dashes, at most 64 (docs/api-notes.md,
 * "Topics and routes").
 */
export const NAME_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
export const TEST_SUFFIX = '-test';
