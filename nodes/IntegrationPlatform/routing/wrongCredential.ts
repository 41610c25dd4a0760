import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Authentication } from '../../common/api';
import { CREDENTIAL_LABEL } from '../../common/api';

/** The hosts besides the management API's (docs/api-notes.md, "Hosts and base URLs"). */
export type RestrictedHost = 'read' | 'write' | 'search' | 'proxy';

const HOST_LABEL = {
	read: 'The read API',
	write: 'The write API',
	search: 'The search API',
	proxy: 'The proxy',
};

/** The error of an operation run with a credential its service refuses; nothing was sent. */
export function wrongCredentialError(
	node: INode,
	itemIndex: number,
	where: string,
	requires: Authentication,
	host?: RestrictedHost,
): NodeOperationError {
	return new NodeOperationError(node, `${where} needs the ${CREDENTIAL_LABEL[requires]}`, {
		itemIndex,
		description:
			requires === 'bearerToken'
				? 'The service accepts only a bearer token for this operation and refuses API keys. Set Authentication to Bearer Token and select an Integration Platform Token API credential. No request was sent.'
				: `${host ? HOST_LABEL[host] : 'The service'} accepts only an API key (X-Api-Key) and refuses bearer tokens. Set Authentication to API Key and select an Integration Platform API credential. No request was sent.`,
	});
}
