/**
 * The notification part of a registration (docs/api-notes.md, "Topics and routes"): a topic
 * named like the destination, one notification-event-topic route per selected event type, and a
 * topic-destination route to the destination. What was already there is adopted and left as it
 * was found; only what this trigger created is ever deleted.
 */
import type { ServicePaths } from './requests';
import { asList, messageOf, must, remove, settle } from './requests';
import { RegistrationError } from './types';
import type {
	DesiredRegistration,
	EventRoute,
	Json,
	Origin,
	Registration,
	RegistrationApi,
} from './types';

export type NotificationParts = Pick<
	Registration,
	'topicName' | 'topicId' | 'topicOrigin' | 'eventRoutes' | 'topicRouteId' | 'topicRouteOrigin'
>;

/** `created` only when this trigger recorded that it created the part; anything else was found. */
function originOf(recorded: Origin | undefined): Origin {
	return recorded === 'created' ? 'created' : 'adopted';
}

/**
 * Routes the selected notification types to the destination, reusing the topic and routes
 * already there. `previous` is what this trigger recorded before (same destination name); parts
 * it created keep that origin, everything else found is adopted. A topic that feeds other
 * destinations is refused: routing more event types into it would change what they receive.
 * Routes this trigger created for types no longer selected are deleted; adopted routes stay
 * (the node drops notification types the user did not select). Records in `undo` what it created.
 */
export async function routeNotifications(
	api: RegistrationApi,
	paths: ServicePaths,
	desired: DesiredRegistration,
	destinationId: string,
	previous: Registration | undefined,
	undo: Registration,
): Promise<NotificationParts> {
	const topicName = desired.destinationName;
	let topic = asList(await must(api, 'GET', paths.topics)).find((t) => t.name === topicName);
	let topicOrigin: Origin;
	if (!topic) {
		topic = await must<Json>(api, 'POST', paths.topics, { body: { name: topicName } });
		topicOrigin = 'created';
		Object.assign(undo, { topicId: String(topic.id), topicName, topicOrigin });
	} else {
		const routes = asList(
			await must(api, 'GET', paths.topicRoutes, { qs: { topicId: String(topic.id) } }),
		);
		if (routes.some((r) => r.destinationId !== destinationId)) {
			throw new RegistrationError(
				`A topic named "${topicName}" already exists and routes notifications to other destinations`,
				'Choose another Destination Name for this trigger (its topic takes the same name).',
			);
		}
		topicOrigin = originOf(
			previous?.topicId === String(topic.id) ? previous.topicOrigin : undefined,
		);
	}
	const topicId = String(topic.id);
	const recorded = previous?.topicId === topicId ? previous : undefined;
	const recordedOrigin = new Map(recorded?.eventRoutes.map((r) => [r.id, r.origin]) ?? []);

	const existing = asList(await must(api, 'GET', paths.eventRoutes, { qs: { topicId } }));
	const selected = [...new Set(desired.notificationTypes)];
	const eventRoutes: EventRoute[] = [];
	for (const eventType of selected) {
		const found = existing.find((r) => r.eventType === eventType);
		if (found) {
			const id = String(found.id);
			eventRoutes.push({ id, eventType, origin: originOf(recordedOrigin.get(id)) });
			continue;
		}
		const route = await must<Json>(api, 'POST', paths.eventRoutes, {
			body: { eventType, topicId },
		});
		const created: EventRoute = { id: String(route.id), eventType, origin: 'created' };
		undo.eventRoutes.push(created);
		eventRoutes.push(created);
	}
	// Event types no longer selected stop flowing in through routes this trigger created.
	const present = new Set(existing.map((r) => String(r.id)));
	for (const route of recorded?.eventRoutes ?? []) {
		const deselected = !selected.includes(route.eventType);
		if (route.origin === 'created' && deselected && present.has(route.id)) {
			await remove(api, paths.eventRoute(route.id));
		}
	}

	let topicRoute = asList(
		await must(api, 'GET', paths.topicRoutes, { qs: { topicId, destinationId } }),
	)[0];
	let topicRouteOrigin: Origin;
	if (!topicRoute) {
		topicRoute = await must<Json>(api, 'POST', paths.topicRoutes, {
			body: { topicId, destinationId },
		});
		topicRouteOrigin = 'created';
		Object.assign(undo, { topicRouteId: String(topicRoute.id), topicRouteOrigin });
	} else {
		topicRouteOrigin = originOf(
			previous?.topicRouteId === String(topicRoute.id) ? previous.topicRouteOrigin : undefined,
		);
	}
	return {
		topicName,
		topicId,
		topicOrigin,
		eventRoutes,
		topicRouteId: String(topicRoute.id),
		topicRouteOrigin,
	};
}

export interface PartsLeft {
	/** What could not be removed, one line each. */
	problems: string[];
	/** The created parts still on the service, to try again. */
	left: NotificationParts;
}

/**
 * Removes the notification parts this trigger created: its topic-destination route, its event
 * routes, its topic. Adopted parts are left as they were. A topic that someone has since routed
 * to another destination stays, with the event routes feeding it: that destination receives
 * through them. Every step runs even when an earlier one fails; 404 counts as removed.
 */
export async function removeNotifications(
	api: RegistrationApi,
	paths: ServicePaths,
	stored: NotificationParts,
): Promise<PartsLeft> {
	const problems: string[] = [];
	const left: NotificationParts = { eventRoutes: [] };
	const step = async (label: string, work: () => Promise<unknown>): Promise<boolean> => {
		const outcome = await settle(work());
		if (!outcome.ok) problems.push(`${label}: ${messageOf(outcome.error)}`);
		return outcome.ok;
	};
	const topicLabel = `topic ${stored.topicName ?? stored.topicId ?? ''}`.trim();

	let shared = false;
	if (stored.topicId) {
		const topicId = stored.topicId;
		const outcome = await settle(
			must(api, 'GET', paths.topicRoutes, { qs: { topicId } }).then((routes) =>
				asList(routes).some((r) => String(r.id) !== stored.topicRouteId),
			),
		);
		if (!outcome.ok) {
			// Unknown whether another destination relies on the topic: remove nothing, try again later.
			problems.push(`${topicLabel}: ${messageOf(outcome.error)}`);
			return { problems, left: { ...stored } };
		}
		shared = outcome.value;
	}

	if (stored.topicRouteId && stored.topicRouteOrigin === 'created') {
		const id = stored.topicRouteId;
		const removed = await step(`topic-destination route ${id}`, async () =>
			remove(api, paths.topicRoute(id)),
		);
		if (!removed) Object.assign(left, { topicRouteId: id, topicRouteOrigin: 'created' });
	}
	if (shared) return { problems, left };

	for (const route of stored.eventRoutes) {
		if (route.origin !== 'created') continue;
		const removed = await step(
			`notification-event-topic route ${route.id} (${route.eventType})`,
			async () => remove(api, paths.eventRoute(route.id)),
		);
		if (!removed) left.eventRoutes.push(route);
	}
	if (stored.topicId && stored.topicOrigin === 'created') {
		const id = stored.topicId;
		const removed = await step(topicLabel, async () => remove(api, paths.topic(id)));
		if (!removed) {
			Object.assign(left, { topicId: id, topicName: stored.topicName, topicOrigin: 'created' });
		}
	}
	return { problems, left };
}

/** Whether any created notification part is still to be removed. */
export function anyLeft(parts: NotificationParts): boolean {
	return (
		parts.topicId !== undefined || parts.topicRouteId !== undefined || parts.eventRoutes.length > 0
	);
}
