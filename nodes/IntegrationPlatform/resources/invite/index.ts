import type { INodeProperties } from 'n8n-workflow';

import { orgIdField, returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { listOutput } from '../outputs';
import { resultItem } from '../../routing/results';
import { byId, listLocator } from '../../../common/locator';

const resource = 'invite';
const showFor = (operation: string[]) => ({ show: { resource: [resource], operation } });

export const inviteOperations: OperationDefinition[] = [
	// POST /orgs/{orgId}/invites — { email } → 201 Invite (status pending); bearer only.
	{
		name: 'Create',
		value: 'create',
		action: 'Create an invite',
		description:
			'Invite someone to an organization by email. Returns the new invitation: ID, email and status (pending).',
		method: 'POST',
		path: '/orgs/{orgId}/invites',
		requires: 'bearerToken',
		body: { email: '{email}' },
	},
	// GET /orgs/{orgId}/invites/{inviteId} — docs/api-notes.md, "getOrgInvite": bearer only; 200 Invite.
	{
		name: 'Get',
		value: 'get',
		action: 'Get an invite',
		description: 'Get an invitation to an organization. Returns it with its status.',
		method: 'GET',
		path: '/orgs/{orgId}/invites/{inviteId}',
		requires: 'bearerToken',
	},
	// GET /orgs/{orgId}/invites — a bare array of Invite, of every status; bearer only.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many invites',
		description:
			'List the invitations of an organization (pending, accepted, revoked, expired). Returns one item per invitation (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/orgs/{orgId}/invites',
		requires: 'bearerToken',
		...listOutput,
	},
	// DELETE /orgs/{orgId}/invites/{inviteId} — docs/api-notes.md, "deleteOrgInvite": bearer only; 204.
	{
		name: 'Revoke',
		value: 'revoke',
		action: 'Revoke an invite',
		description:
			'Revoke a pending invitation to an organization. Returns revoked: true with the organization and invitation IDs.',
		method: 'DELETE',
		path: '/orgs/{orgId}/invites/{inviteId}',
		requires: 'bearerToken',
		outputShape: 'revoked',
		output: [
			resultItem((values) => ({ revoked: true, orgId: values.orgId, inviteId: values.inviteId })),
		],
	},
];

export const inviteFields: INodeProperties[] = [
	// The shared Organization locator (fields.ts) is hidden for every Create; this copy shows it for
	// this one, since n8n's display rules cannot hide a field for one resource's Create only.
	{ ...orgIdField, displayOptions: showFor(['create']) },
	// A resource locator; a plain string saved by an older workflow still works (fields.ts, orgIdField).
	listLocator({
		displayName: 'Invite',
		name: 'inviteId',
		description: 'The invitation, from the list of the organization or by ID',
		search: 'searchInvites',
		select: 'Select an invite…',
		typed: [byId('5b1f…', { noun: 'invitation', format: 'hex' })],
		displayOptions: showFor(['get', 'revoke']),
	}),
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: 'Email address of the person to invite',
		displayOptions: showFor(['create']),
	},
	...returnAllAndLimit(showFor(['getAll'])),
];
