import type { INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { listOutput } from '../outputs';
import { resultItem } from '../../routing/results';

const resource = 'claimedDomain';
const showForClaim = { show: { resource: [resource], operation: ['claim'] } };

export const claimedDomainOperations: OperationDefinition[] = [
	// GET /claimed-domains?domain= — bearer only; 200 { id, parentType, parentId, domain }; 404 when no
	// organization has claimed the domain (docs/api-notes.md, "Organizations and builders").
	{
		name: 'Check',
		value: 'check',
		action: 'Check a domain',
		description:
			'Find which organization has claimed an email domain; fails with 404 when none has. Returns the claim: the domain and its organization.',
		method: 'GET',
		path: '/claimed-domains',
		requires: 'bearerToken',
		qs: { domain: '{domain}' },
	},
	// POST /claimed-domains — docs/api-notes.md, "claimDomain": bearer only; 201 with no body; 409 if another
	// organization holds the domain.
	{
		name: 'Claim',
		value: 'claim',
		action: 'Claim a domain',
		description:
			'Claim an email domain for an organization, so that people with addresses at it can join. Returns claimed: true with the domain.',
		method: 'POST',
		path: '/claimed-domains',
		requires: 'bearerToken',
		body: { domain: '{domain}', parentId: '{parentId}', parentType: '{parentType}' },
		outputShape: 'claimed',
		output: [
			resultItem((values) => ({
				claimed: true,
				domain: values.domain,
				parentType: values.parentType,
				parentId: values.parentId,
			})),
		],
	},
	// GET /orgs/{orgId}/claimed-domains — bearer only; a bare array of { id, parentType, parentId, domain }.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many claimed domains',
		description:
			'List the email domains an organization has claimed. Returns one item per domain (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/orgs/{orgId}/claimed-domains',
		requires: 'bearerToken',
		...listOutput,
	},
];

export const claimedDomainFields: INodeProperties[] = [
	{
		displayName: 'Domain',
		name: 'domain',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. acme.com, jane@acme.com or https://www.acme.com',
		description:
			'An email address, a domain name or a URL; the service keeps the part after @ of an email and the host name (without www.) of a URL',
		displayOptions: { show: { resource: [resource], operation: ['claim', 'check'] } },
	},
	{
		displayName: 'Organization ID',
		name: 'parentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 8d2b…',
		description: 'ID of the organization that claims the domain',
		displayOptions: showForClaim,
	},
	{
		displayName: 'Parent Type',
		name: 'parentType',
		type: 'options',
		default: 'org',
		options: [{ name: 'Organization', value: 'org' }],
		description: 'Kind of entity that claims the domain; the service knows only organizations',
		displayOptions: showForClaim,
	},
	...returnAllAndLimit({ show: { resource: [resource], operation: ['getAll'] } }),
];
