/** checkExists: whether the stored registration is still in place on the service. */
import { asList, call, servicePaths } from './requests';
import type { DesiredRegistration, Json, Registration, RegistrationApi } from './types';
import { sameUrl, urlOf } from './urls';

function sameTypes(a: string[], b: string[]): boolean {
	const left = [...new Set(a)].sort();
	const right = [...new Set(b)].sort();
	return left.length === right.length && left.every((t, i) => t === right[i]);
}

/**
 * True only when the stored registration is for this very URL and configuration and everything
 * it lists is still on the service, pointing here. A test registration never satisfies a
 * production check (different URL), nor the reverse.
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
	if (!stored.destinationId) return false;
	const paths = servicePaths(desired.project);
	const destination = await call<Json>(
		api,
		'GET',
		paths.destination(stored.destinationId),
		undefined,
		[404],
	);
	if (!destination || !sameUrl(urlOf(destination), desired.url)) return false;
	if (destination.name !== desired.destinationName) return false;
	if (desired.notificationTypes.length === 0) return true;
	if (!stored.topicId || !stored.topicRouteId) return false;
	const [eventRoutes, topicRoutes] = await Promise.all([
		call(api, 'GET', paths.eventRoutes, { qs: { topicId: stored.topicId } }),
		call(api, 'GET', paths.topicRoutes, {
			qs: { topicId: stored.topicId, destinationId: stored.destinationId },
		}),
	]);
	const routed = new Set(asList(eventRoutes).map((r) => r.eventType));
	return (
		desired.notificationTypes.every((t) => routed.has(t)) &&
		asList(topicRoutes).some((r) => r.id === stored.topicRouteId)
	);
}
