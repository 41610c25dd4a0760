/**
 * Registers the trigger on the service and removes it again. No n8n imports: requests go through
 * the `RegistrationApi` the node passes in (apiRequest of nodes/common/api.ts), so the logic is
 * tested directly against the simulator (test/unit/IntegrationPlatformTrigger/registration.test.ts
 * and registration.ownership.test.ts).
 *
 * What a registration is (docs/api-notes.md, "Delivered messages" and "Topics and routes"):
 * - a webhook destination named `destinationName` whose URL is this node's webhook URL. Data
 *   messages (read, subscribe, schema.watch) go to the destination the integration's manifest or
 *   installation config NAMES, so the user puts this name there. If a destination of that name
 *   already points elsewhere, the node stops, or points it here and puts the old URL back when it
 *   is removed: on request, or (version 4's default) when a manifest of the project names it;
 * - for notifications: a topic of the same name, one notification-event-topic route per selected
 *   event type, and a topic-destination route.
 *
 * Removal deletes exactly what this trigger created and still holds. What it found on the
 * service and adopted is recorded as adopted and left as it was; a destination another workflow
 * has taken over since is left to it, with what feeds it.
 *
 * Modules: types.ts (shapes), requests.ts (requests and paths), urls.ts (URL comparison),
 * destination.ts, notifications.ts (the two parts), register.ts, unregister.ts, exists.ts
 * (checkExists), stored.ts (finding the stored entry).
 */

export { NAME_PATTERN, RegistrationError, TEST_SUFFIX } from './types';
export type {
	ApiResponse,
	DesiredRegistration,
	EventRoute,
	Json,
	OnExisting,
	Origin,
	Registration,
	RegistrationApi,
} from './types';
export { normaliseUrl, safeUrl, sameUrl } from './urls';
export { registrationExists } from './exists';
export { register } from './register';
export { unregister } from './unregister';
export type { RemovalResult } from './unregister';
export { storedRegistrationKey } from './stored';
