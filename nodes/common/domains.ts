import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';
import { getCredentialAllowedDomains, isDomainAllowed, NodeOperationError } from 'n8n-workflow';

/**
 * The credential's Allowed HTTP Request Domains (a setting n8n adds to every credential), for the
 * requests that n8n's routing engine does not send itself: operations written in code, the lookups
 * that routed operations make in their own steps, and every request of api.ts (editor lists, the
 * resource mapper, both triggers).
 */

/**
 * The allowed domains as n8n's routing engine reads them for a routed request whose host the
 * credential supplies (n8n-workflow's getCredentialAllowedDomains), or undefined when the
 * credential sets none. n8n releases older than the setting have neither it nor the helper:
 * there is nothing to apply. Throws n8n's own error for a list left empty.
 */
export function allowedDomainsOf(
	node: INode,
	credential: ICredentialDataDecryptedObject,
): string | undefined {
	if (typeof getCredentialAllowedDomains !== 'function') return undefined;
	return getCredentialAllowedDomains({
		node,
		credentialData: credential,
		credentialOwnedSurface: true,
	});
}

/**
 * The refusal of a request to `url` that the credential's allowed domains exclude, worded as
 * n8n's own, for one item or for a request of no item (nothing sent); undefined when the request
 * may go.
 */
export function domainRefusal(
	node: INode,
	credential: ICredentialDataDecryptedObject,
	url: string,
): ((itemIndex?: number) => NodeOperationError) | undefined {
	let message: string | undefined;
	let description = "The credential's Allowed HTTP Request Domains do not include this host.";
	try {
		const allowed = allowedDomainsOf(node, credential);
		if (allowed && !isDomainAllowed({ url, allowedDomains: allowed })) {
			message = `Domain not allowed: This credential is restricted from accessing ${hostOf(url)}. Only the following domains are allowed: ${allowed}`;
		}
	} catch (error) {
		// n8n's own refusal of the setting itself (specific domains, but none listed).
		message = (error as Error).message;
		description = "Check the credential's Allowed HTTP Request Domains.";
	}
	if (message === undefined) return undefined;
	const text = message;
	return (itemIndex) =>
		new NodeOperationError(node, text, {
			itemIndex,
			description: `${description} No request was sent.`,
		});
}

/** The host of `url` for the message; when it does not parse, the URL without query or user info. */
function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return url.split(/[?#]/)[0].replace(/^([a-z][\w+.-]*:\/\/)[^/@]*@/i, '$1');
	}
}
