import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';
import { getCredentialAllowedDomains, isDomainAllowed, NodeOperationError } from 'n8n-workflow';

/**
 * The credential's Allowed HTTP Request Domains (a setting n8n adds to every credential), for the
 * requests that n8n's routing engine does not send itself: operations written in code and the
 * lookups that routed operations make in their own steps.
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
 * n8n's own, for one item (nothing sent); undefined when the request may go.
 */
export function domainRefusal(
	node: INode,
	credential: ICredentialDataDecryptedObject,
	url: string,
): ((itemIndex: number) => NodeOperationError) | undefined {
	let message: string | undefined;
	try {
		const allowed = allowedDomainsOf(node, credential);
		if (allowed && !isDomainAllowed({ url, allowedDomains: allowed })) {
			message = `Domain not allowed: This credential is restricted from accessing ${new URL(url).host}. Only the following domains are allowed: ${allowed}`;
		}
	} catch (error) {
		message = (error as Error).message;
	}
	if (message === undefined) return undefined;
	const text = message;
	return (itemIndex) =>
		new NodeOperationError(node, text, {
			itemIndex,
			description:
				"The credential's Allowed HTTP Request Domains do not include this host. No request was sent.",
		});
}
