/**
 * delete: removes what this trigger created and still holds, and gives back what it took over.
 */
import { destinationHolder, releaseDestination } from './destination';
import { anyLeft, removeNotifications } from './notifications';
import { messageOf, servicePaths, settle } from './requests';
import type { Registration, RegistrationApi } from './types';

export interface RemovalResult {
	/** What could not be removed, one line each; empty when everything is gone. */
	problems: string[];
	/** The part of the registration still on the service, to keep in static data. */
	remaining?: Registration;
}

/**
 * Works from the stored registration alone (ids and the URL at activation), never from n8n's
 * current webhook URL. First asks who holds the destination now:
 * - this trigger: the notification parts it created go (topic-destination route, event routes,
 *   topic), then the destination is deleted if the trigger created it, or gets its previous URL
 *   back if the trigger took it over;
 * - nobody (deleted on the service), or the previous owner of a taken-over destination (its URL
 *   was put back by hand): only the notification parts the trigger created go;
 * - someone else (another workflow took it over, or it was pointed elsewhere): the destination
 *   and everything feeding it are theirs now and stay as they are.
 * Adopted parts (there before activation) are never deleted. Every step runs even when an
 * earlier one fails; 404 counts as removed.
 */
export async function unregister(
	api: RegistrationApi,
	stored: Registration,
): Promise<RemovalResult> {
	const holder = await settle(
		(async () => {
			const paths = servicePaths(stored.project);
			return { paths, holder: await destinationHolder(api, paths, stored) };
		})(),
	);
	if (!holder.ok) {
		return {
			problems: [`destination ${stored.destinationName}: ${messageOf(holder.error)}`],
			remaining: stored,
		};
	}
	const { paths } = holder.value;
	if (holder.value.holder === 'someoneElse') return { problems: [] };

	const notifications = await removeNotifications(api, paths, stored);
	const problems = [...notifications.problems];
	let destinationId = '';
	if (holder.value.holder === 'trigger') {
		const released = await settle(releaseDestination(api, paths, stored));
		if (!released.ok) {
			const what =
				stored.destinationMode === 'takenOver'
					? `destination ${stored.destinationName} (putting its URL back)`
					: `destination ${stored.destinationName}`;
			problems.push(`${what}: ${messageOf(released.error)}`);
			destinationId = stored.destinationId;
		}
	}
	if (destinationId === '' && !anyLeft(notifications.left)) return { problems };
	const remaining: Registration = {
		url: stored.url,
		project: stored.project,
		destinationName: stored.destinationName,
		destinationId,
		destinationMode: stored.destinationMode,
		...(stored.previousUrl !== undefined ? { previousUrl: stored.previousUrl } : {}),
		...notifications.left,
		notificationTypes: stored.notificationTypes,
		registeredAt: stored.registeredAt,
	};
	return { problems, remaining };
}
