import type { OperationDefinition } from '../../routing/defineOperation';
import type { INodeProperties } from 'n8n-workflow';


const resource = 'organization';

export const organizationOperations: OperationDefinition[] = [
	// PATCH /orgs/{orgId} — docs/api-notes.md, "updateOrg": bearer only (the spec says X-Api-Key); 200 Org.
	{
		name: 'Update',
		value: 'update',
		action: 'Update an organization',
		description: "Rename an organization (the service's update mask allows only the label)",
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
		description: 'New display name of the organization',
		displayOptions: { show: { resource: [resource], operation: ['update'] } },
	},
];
