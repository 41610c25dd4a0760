/**
 * create: makes the service match the desired registration (destination → topic → event routes
 * → topic route, the order of docs/api-notes.md, "Topics and routes"), and undoes its own
 * changes when a step fails.
 */
import { claimDestination } from './destination';
import { removeNotifications, routeNotifications } from './notifications';
import { servicePaths, settle } from './requests';
import { NAME_PATTERN, RegistrationError } from './types';
import type { DesiredRegistration, Registration, RegistrationApi } from './types';
import { unregister } from './unregister';

/**
 * Makes the service match `desired`, reusing what is already there, and returns what to store.
 * `previous` is this trigger's stored registration (see storedRegistrationKey), if any: a
 * registration whose checkExists failed (something was deleted on the service, the
 * configuration changed, or n8n's URL changed). What it recorded as created stays created; what
 * is found without such a record is adopted and will be left as it was.
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
	const paths = servicePaths(desired.project);
	const destination = await claimDestination(api, paths, desired, previous, undo);
	const registration: Registration = {
		url: desired.url,
		project: desired.project,
		destinationName: desired.destinationName,
		...destination,
		eventRoutes: [],
		notificationTypes: [...desired.notificationTypes],
		registeredAt: now().toISOString(),
	};
	if (desired.notificationTypes.length > 0) {
		const parts = await routeNotifications(
			api,
			paths,
			desired,
			destination.destinationId,
			previous,
			undo,
		);
		return { ...registration, ...parts };
	}
	if (previous && (previous.topicId || previous.topicRouteId || previous.eventRoutes.length)) {
		// Notifications were switched off: what this trigger created for them goes.
		const removal = await removeNotifications(api, paths, previous);
		if (removal.problems.length) {
			throw new RegistrationError(
				'The notification routes of the previous registration could not be removed',
				removal.problems.join('\n'),
			);
		}
	}
	return registration;
}
