/** Finding this node's stored registration in its static data. */
import type { DesiredRegistration, Registration } from './types';
import { normaliseUrl } from './urls';

/**
 * The end of a webhook URL that n8n's WEBHOOK_URL does not change: the endpoint (`webhook` or
 * `webhook-test`), the node's webhook id and its path.
 */
function webhookTail(url: string): string | undefined {
	const normal = normaliseUrl(url);
	if (!normal) return undefined;
	let path: string;
	try {
		path = new URL(normal).pathname;
	} catch {
		return undefined;
	}
	const segments = path.split('/').filter((s) => s !== '');
	return segments.length >= 3 ? segments.slice(-3).join('/') : undefined;
}

/**
 * The key of the stored registration that belongs to a webhook URL. The entry stored under that
 * URL; else, when n8n's URL changed since activation (WEBHOOK_URL), the one entry whose URL ends
 * in the same endpoint, webhook id and path (production and test listening differ in the
 * endpoint); else, given `desired`, the entry for the same project and destination name.
 * Activation and deactivation both look the entry up this way, so what activation stored (ids,
 * its own URL) still finds and removes what it created. Deactivation passes no `desired`: n8n
 * removes test and production webhooks in the same mode, so the destination name it would
 * compute could be the other one's.
 */
export function storedRegistrationKey(
	registrations: Record<string, Registration>,
	url: string,
	desired?: Pick<DesiredRegistration, 'project' | 'destinationName'>,
): string | undefined {
	if (Object.prototype.hasOwnProperty.call(registrations, url)) return url;
	const keys = Object.keys(registrations);
	const tail = webhookTail(url);
	const sameWebhook = tail
		? keys.filter((key) => webhookTail(registrations[key].url ?? key) === tail)
		: [];
	if (sameWebhook.length === 1) return sameWebhook[0];
	if (!desired) return undefined;
	return keys.find(
		(key) =>
			registrations[key].project === desired.project &&
			registrations[key].destinationName === desired.destinationName,
	);
}
