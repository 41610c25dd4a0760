import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Authentication } from '../../common/api';
import { CREDENTIAL_LABEL, CREDENTIAL_TYPE_NAME } from '../../common/api';

/** The hosts besides the management API's (docs/api-notes.md, "Hosts and base URLs"). */
export type RestrictedHost = 'read' | 'write' | 'search' | 'proxy';

const HOST_LABEL = {
	read: 'The read API',
	write: 'The write API',
	search: 'The search API',
	proxy: 'The proxy',
};

/**
 * The error of an operation run with a credential its service refuses; nothing was sent. It names
 * the control the editor shows: n8n merges the node's two credential types into one field,
 * "Credential" (n8n 2.41; "Credential to connect with" in n8n 2.0), and hides the Authentication
 * option behind it (docs/n8n-notes.md, "Credentials in the editor").
 */
export function wrongCredentialError(
	node: INode,
	itemIndex: number,
	where: string,
	requires: Authentication,
	host?: RestrictedHost,
): NodeOperationError {
	return new NodeOperationError(node, `${where} needs ${CREDENTIAL_LABEL[requires]}`, {
		itemIndex,
		description:
			requires === 'bearerToken'
				? `The service accepts only a bearer token for this operation and refuses API keys. Under Credential, select an ${CREDENTIAL_TYPE_NAME.bearerToken} credential (or create one there). No request was sent.`
				: `${host ? HOST_LABEL[host] : 'The service'} accepts only an API key (X-Api-Key) and refuses bearer tokens. Under Credential, select an ${CREDENTIAL_TYPE_NAME.apiKey} credential (or create one there). No request was sent.`,
	});
}
