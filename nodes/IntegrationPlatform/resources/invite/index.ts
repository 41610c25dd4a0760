import type { INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from '../../routing/defineOperation';
import { resultItem } from '../../routing/defineOperation';

const resource = 'invite';

export const inviteOperations: OperationDefinition[] = [
	// GET /orgs/{orgId}/invites/{inviteId} — docs/api-notes.md, "getOrgInvite": bearer only; 200 Invite.
	{
		name: 'Get',
		value: 'get',
		action: 'Get an invite',
		description: 'Get an invitation to an organization, with its status',
		method: 'GET',
		path: '/orgs/{orgId}/invites/{inviteId}',
		requires: 'bearerToken',
	},
	// DELETE /orgs/{orgId}/invites/{inviteId} — docs/api-notes.md, "deleteOrgInvite": bearer only; 204.
	{
		name: 'Revoke',
		value: 'revoke',
		action: 'Revoke an invite',
		description: 'Revoke a pending invitation to an organization',
		method: 'DELETE',
		path: '/orgs/{orgId}/invites/{inviteId}',
		requires: 'bearerToken',
		output: [
			resultItem((values) => ({ revoked: true, orgId: values.orgId, inviteId: values.inviteId })),
		],
	},
];

export const inviteFields: INodeProperties[] = [
	{
		displayName: 'Invite ID',
		name: 'inviteId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 5b1f…',
		displayOptions: { show: { resource: [resource] } },
	},
];
