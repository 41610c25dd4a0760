import type { INodeProperties } from 'n8n-workflow';

import { defineOperation } from '../shared/routing';

const resource = 'destination';

// GET /projects/{projectIdOrName}/destinations/{destination} — api-facts §1 op 7. The same GET
// rotates the signing secret when asked (`rotate=true`): a side effect on a GET, so it is its own,
// clearly labelled operation rather than a checkbox next to "Include Secrets".
export const destinationOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	default: 'get',
	options: [
		defineOperation('Destination', resource, {
			name: 'Get',
			value: 'get',
			action: 'Get a destination',
			description: 'Get a destination (webhook, stream, …), optionally with its signing secret',
			method: 'GET',
			path: '/projects/{project}/destinations/{destination}',
		}),
		defineOperation('Destination', resource, {
			name: 'Rotate Signing Secret',
			value: 'rotateSecret',
			action: 'Rotate the signing secret of a destination',
			description:
				'Replace the webhook signing secret with a new one; deliveries are signed with the new secret from then on',
			method: 'GET',
			path: '/projects/{project}/destinations/{destination}',
			qs: { rotate: true },
		}),
	],
};

export const destinationFields: INodeProperties[] = [
	{
		displayName:
			'Rotating takes effect at once: anything that verifies deliveries with the old secret must get the new one. The Integration Platform Trigger fetches it by itself.',
		name: 'rotateNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: [resource], operation: ['rotateSecret'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { resource: [resource] } },
		options: [
			{
				displayName: 'Include Secrets',
				name: 'includeSecrets',
				type: 'boolean',
				default: false,
				description:
					'Whether to return the webhook signing secret (secrets.webhookSigningKey). It then appears in the execution data.',
				routing: { send: { type: 'query', property: 'includeSecrets' } },
			},
		],
	},
];
