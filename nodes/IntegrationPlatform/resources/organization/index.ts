import type { INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { listOutput } from '../outputs';
import { resultItem } from '../../routing/results';

const resource = 'organization';
const showFor = (operation: string[]) => ({ show: { resource: [resource], operation } });

// docs/api-notes.md, "Organizations and builders". Every operation but Create is bearer only.
export const organizationOperations: OperationDefinition[] = [
	// POST /orgs/{orgId}/memberships — { builderId } → 201 with no body; 400 when already a member, 403 unless owner.
	{
		name: 'Add Member',
		value: 'addMember',
		action: 'Add a member to an organization',
		description:
			'Add a builder (a dashboard user) to an organization; needs the owner role. Returns added: true with the organization and builder IDs.',
		method: 'POST',
		path: '/orgs/{orgId}/memberships',
		requires: 'bearerToken',
		body: { builderId: '{builderId}' },
		outputShape: 'memberAdded',
		output: [
			resultItem((values) => ({ added: true, orgId: values.orgId, builderId: values.builderId })),
		],
	},
	// POST /orgs — { label } → 201 Org. The API declares no security of its own: either credential.
	{
		name: 'Create',
		value: 'create',
		action: 'Create an organization',
		description:
			'Create an organization; with a bearer token, its builder becomes the owner. Returns the new organization.',
		method: 'POST',
		path: '/orgs',
		body: { label: '{label}' },
	},
	// GET /orgs/{orgId} — 200 Org.
	{
		name: 'Get',
		value: 'get',
		action: 'Get an organization',
		description: 'Get an organization. Returns its ID, label, default team and creation time.',
		method: 'GET',
		path: '/orgs/{orgId}',
		requires: 'bearerToken',
	},
	// GET /orgs/{orgId}/billingAccount — 200 BillingAccount; 404 when the organization has none.
	{
		name: 'Get Billing Account',
		value: 'getBillingAccount',
		action: 'Get the billing account of an organization',
		description:
			'Get the billing account of an organization. Returns its ID, billing provider and customer reference.',
		method: 'GET',
		path: '/orgs/{orgId}/billingAccount',
		requires: 'bearerToken',
	},
	// GET /orgs/{orgId}/builders — a bare array of Builder.
	{
		name: 'Get Members',
		value: 'getMembers',
		action: 'Get members of an organization',
		description:
			'List the builders (dashboard users) of an organization. Returns one item per builder: ID, name and email (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/orgs/{orgId}/builders',
		requires: 'bearerToken',
		...listOutput,
	},
	// PATCH /orgs/{orgId} — docs/api-notes.md, "updateOrg": bearer only (the spec says X-Api-Key); 200 Org.
	{
		name: 'Update',
		value: 'update',
		action: 'Update an organization',
		description:
			"Rename an organization (the service's update mask allows only the label). Returns the updated organization.",
		method: 'PATCH',
		path: '/orgs/{orgId}',
		requires: 'bearerToken',
		body: { updateMask: ['label'], org: { label: '{label}' } },
	},
];

export const organizationFields: INodeProperties[] = [
	{
		displayName: 'Label',
		name: 'label',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme Integrations',
		description: 'Display name of the organization',
		displayOptions: showFor(['create', 'update']),
	},
	{
		displayName: 'Builder ID',
		name: 'builderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 5e0b…',
		description:
			'ID of the builder to add (User → Get Current shows it as builder ID to that person); they must have signed in once',
		displayOptions: showFor(['addMember']),
	},
	...returnAllAndLimit(showFor(['getMembers'])),
];
