/**
 * The webhook destination of a registration: find, create or point it here on activation, and
 * on removal find out who holds it now and give it back (docs/api-notes.md, "Delivered messages":
 * data messages go to the destination the integration names, so the user names it here).
 */
import { manifestDeliveries } from '../manifests';
import type { ServicePaths } from './requests';
import { asList, call, messageOf, must, remove, settle } from './requests';
import { RegistrationError } from './types';
import type { DesiredRegistration, Json, Registration, RegistrationApi } from './types';
import { safeUrl, sameUrl, urlOf } from './urls';

/**
 * Creates or updates the destination. A refused http URL becomes the explanation the user needs
 * (webhook URLs must be https: docs/api-notes.md, "Webhook signatures (Svix)"; the simulator's
 * httpsWebhooksOnly mirrors it).
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

async function pointAt(api: RegistrationApi, path: string, url: string): Promise<void> {
	await writeDestination(
		api,
		'PATCH',
		path,
		{ updateMask: ['metadata.url'], destination: { metadata: { url } } },
		url,
	);
}

export type ClaimedDestination = Pick<
	Registration,
	'destinationId' | 'destinationMode' | 'previousUrl'
>;

/**
 * Makes the destination named `desired.destinationName` send to `desired.url`: creates it, reuses
 * it when it already does (or did, under this registration's earlier URL), or, on request, points
 * it here and remembers its URL. Records in `undo` what it created or changed.
 */
export async function claimDestination(
	api: RegistrationApi,
	paths: ServicePaths,
	desired: DesiredRegistration,
	previous: Registration | undefined,
	undo: Registration,
): Promise<ClaimedDestination> {
	const destinations = asList(await must(api, 'GET', paths.destinations));
	const found = destinations.find((d) => d.name === desired.destinationName);
	if (!found) {
		const created = await writeDestination(
			api,
			'POST',
			paths.destinations,
			{ name: desired.destinationName, type: 'webhook', metadata: { url: desired.url } },
			desired.url,
		);
		const destinationId = String(created.id);
		Object.assign(undo, { destinationId, destinationMode: 'created' });
		return { destinationId, destinationMode: 'created' };
	}
	if (found.type !== 'webhook') {
		throw new RegistrationError(
			`The destination "${desired.destinationName}" exists but is a ${String(found.type)} destination, not a webhook`,
			'Choose another Destination Name for this trigger.',
		);
	}
	const destinationId = String(found.id);
	const current = urlOf(found);
	const recorded = previous?.destinationId === destinationId ? previous : undefined;
	const asRecorded = (): ClaimedDestination =>
		recorded
			? {
					destinationId,
					destinationMode: recorded.destinationMode,
					...(recorded.previousUrl !== undefined ? { previousUrl: recorded.previousUrl } : {}),
				}
			: { destinationId, destinationMode: 'created' };

	if (sameUrl(current, desired.url)) {
		// Already points here: registered by this node before. Keep what was recorded then.
		return asRecorded();
	}
	if (recorded && sameUrl(current, recorded.url)) {
		// Registered by this node under an earlier URL of this n8n (WEBHOOK_URL changed): move it.
		await pointAt(api, paths.destination(destinationId), desired.url);
		Object.assign(undo, { destinationId, destinationMode: 'takenOver', previousUrl: recorded.url });
		return asRecorded();
	}
	if (
		desired.onExisting === 'takeOver' ||
		(desired.onExisting === 'takeOverIfManifest' &&
			(await namedByManifest(api, paths, desired.destinationName)))
	) {
		const previousUrl = typeof current === 'string' ? current : '';
		await pointAt(api, paths.destination(destinationId), desired.url);
		Object.assign(undo, { destinationId, destinationMode: 'takenOver', previousUrl });
		return { destinationId, destinationMode: 'takenOver', previousUrl };
	}
	const manifestRule = desired.onExisting === 'takeOverIfManifest';
	throw new RegistrationError(
		`A webhook destination named "${desired.destinationName}" already exists and sends to ${safeUrl(current)}` +
			(manifestRule ? ", and no integration's manifest in this project delivers to it" : ''),
		(manifestRule
			? "The trigger points an existing destination here only when an integration's manifest names it. "
			: '') +
			'Choose another Destination Name, delete that destination, or set "If the Destination Exists" to ' +
			'"Point It at This Workflow" (its URL is put back when the workflow is deactivated).',
	);
}

/**
 * Whether a manifest of the project's integrations (their latest revisions) names the destination
 * for read, subscribe or schema-watch deliveries: the service sends those only there, so
 * pointing it here is what makes them reach the workflow.
 */
async function namedByManifest(
	api: RegistrationApi,
	paths: ServicePaths,
	destinationName: string,
): Promise<boolean> {
	const integrations = await settle(must(api, 'GET', paths.integrations));
	if (!integrations.ok) {
		throw new RegistrationError(
			`The destination "${destinationName}" already sends elsewhere, and whether an integration's manifest delivers to it could not be checked: the integrations could not be listed`,
			`${messageOf(integrations.error)}. Activate again, or set "If the Destination Exists" to "Point It at This Workflow" or "Stop With an Error".`,
			integrations.error,
		);
	}
	return manifestDeliveries(integrations.value).has(destinationName);
}

/**
 * Who holds the destination now:
 * - `trigger`: it still sends to this registration's URL;
 * - `gone`: deleted on the service (or never recorded);
 * - `previousOwner`: taken over by this trigger, and someone has since put its previous URL back;
 * - `someoneElse`: it sends elsewhere, for instance after another workflow took it over.
 */
export type Holder = 'trigger' | 'gone' | 'previousOwner' | 'someoneElse';

export async function destinationHolder(
	api: RegistrationApi,
	paths: ServicePaths,
	stored: Registration,
): Promise<Holder> {
	if (!stored.destinationId) return 'gone';
	const current = await call<Json>(api, 'GET', paths.destination(stored.destinationId), undefined, [
		404,
	]);
	if (!current) return 'gone';
	const url = urlOf(current);
	if (sameUrl(url, stored.url)) return 'trigger';
	if (stored.destinationMode === 'takenOver' && sameUrl(url, stored.previousUrl)) {
		return 'previousOwner';
	}
	return 'someoneElse';
}

/**
 * Gives back a destination this trigger holds: deletes it if the trigger created it, puts the
 * previous URL back if the trigger took it over.
 */
export async function releaseDestination(
	api: RegistrationApi,
	paths: ServicePaths,
	stored: Registration,
): Promise<void> {
	const path = paths.destination(stored.destinationId);
	if (stored.destinationMode === 'created') {
		await remove(api, path);
		return;
	}
	await must(api, 'PATCH', path, {
		body: {
			updateMask: ['metadata.url'],
			destination: { metadata: { url: stored.previousUrl ?? '' } },
		},
	});
}
