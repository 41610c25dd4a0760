import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { deletedOutput, listOutput } from '../outputs';
import { booleanOptionQuery } from '../../routing/updateMask';
import { byId, listLocator } from '../../../common/locator';

const resource = 'jwtKey';
const showFor = (...operation: string[]) => ({ show: { resource: [resource], operation } });
const showForUpdate = showFor('update');

/**
 * Builds `{ updateMask, jwtKey }` from the fields the user added (docs/api-notes.md, "updateJWTKey").
 *
 * The API contradicts itself on the label: the mask's enum says `label`, its description, examples
 * and error remedy say `name`. We send the mask value `label` (the schema, and what generated SDKs
 * send) and put the new text in both `jwtKey.label` and `jwtKey.name` (the object accepts extra
 * properties), so the update lands whichever field the server reads. README, "Compatibility".
 */
async function buildJwtKeyUpdate(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const fields = this.getNodeParameter('updateFields', {}) as { label?: string; active?: boolean };
	const updateMask: string[] = [];
	const jwtKey: IDataObject = {};
	if (fields.label !== undefined) {
		updateMask.push('label');
		jwtKey.label = fields.label;
		jwtKey.name = fields.label;
	}
	if (fields.active !== undefined) {
		updateMask.push('active');
		jwtKey.active = fields.active;
	}
	if (updateMask.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			'Add at least one field to update: Label or Active',
			{
				itemIndex: this.getItemIndex(),
				description: 'The service needs a non-empty update mask. No request was sent.',
			},
		);
	}
	requestOptions.body = { updateMask, jwtKey };
	return requestOptions;
}

export const jwtKeyOperations: OperationDefinition[] = [
	// POST /projects/{projectIdOrName}/jwt-keys — docs/api-notes.md, "JWT keys": 201 `{ kid }` only.
	{
		name: 'Create',
		value: 'create',
		action: 'Create a JWT key',
		description:
			"Register an RSA public key that verifies the tokens your frontend signs. Returns the new key's ID (kid).",
		method: 'POST',
		path: '/projects/{project}/jwt-keys',
		body: { label: '{jwtKeyLabel}', algorithm: '{algorithm}', publicKeyPem: '{publicKeyPem}' },
	},
	// DELETE /projects/{projectIdOrName}/jwt-keys/{keyId} — docs/api-notes.md, "JWT keys": 204.
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a JWT key',
		description:
			'Delete a JWT key for good; tokens it verified are refused from then on. Returns deleted: true and the key ID.',
		method: 'DELETE',
		path: '/projects/{project}/jwt-keys/{jwtKey}',
		...deletedOutput('jwtKeyId', 'jwtKey'),
	},
	// GET /projects/{projectIdOrName}/jwt-keys/{keyId} — docs/api-notes.md, "JWT keys".
	{
		name: 'Get',
		value: 'get',
		action: 'Get a JWT key',
		description: 'Get a JWT key. Returns its ID, label, algorithm, state and public key.',
		method: 'GET',
		path: '/projects/{project}/jwt-keys/{jwtKey}',
	},
	// GET /projects/{projectIdOrName}/jwt-keys — docs/api-notes.md, "JWT keys": a bare array; `?active=`.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many JWT keys',
		description:
			"List the project's JWT keys. Returns one item per key (at most Limit of them unless Return All is on).",
		method: 'GET',
		path: '/projects/{project}/jwt-keys',
		preSend: [booleanOptionQuery('activeOnly', 'active', 'Active Keys Only')],
		...listOutput,
	},
	// PATCH /projects/{projectIdOrName}/jwt-keys/{keyId} — 200 JWTKey; errors carry validationIssues.
	{
		name: 'Update',
		value: 'update',
		action: 'Update a JWT key',
		description: 'Rename a JWT signing key, or activate or deactivate it. Returns the updated key.',
		method: 'PATCH',
		path: '/projects/{project}/jwt-keys/{jwtKey}',
		preSend: [buildJwtKeyUpdate],
	},
];

export const jwtKeyFields: INodeProperties[] = [
	listLocator({
		displayName: 'JWT Key',
		name: 'jwtKey',
		description: 'The JWT key, from the list or by ID',
		search: 'searchJwtKeys',
		select: 'Select a key…',
		typed: [byId('3b7c…', { noun: 'JWT key', format: 'uuid' })],
		displayOptions: showFor('delete', 'get', 'update'),
	}),
	{
		displayName: 'Label',
		name: 'jwtKeyLabel',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. production-key-1',
		description: 'Human-readable name of the key (1 to 255 characters)',
		displayOptions: showFor('create'),
	},
	{
		displayName: 'Algorithm',
		name: 'algorithm',
		type: 'options',
		default: 'RS256',
		// The request schema's enum says RS256; the same operation's error example asks for "RSA"
		// (docs/api-notes.md, "JWT keys"), so both are offered.
		options: [
			{ name: 'RS256', value: 'RS256' },
			{ name: 'RSA', value: 'RSA' },
		],
		description: 'Signing algorithm of the tokens; only RSA keys are supported',
		displayOptions: showFor('create'),
	},
	{
		displayName: 'Public Key (PEM)',
		name: 'publicKeyPem',
		type: 'string',
		typeOptions: { rows: 6 },
		required: true,
		default: '',
		placeholder: '-----BEGIN PUBLIC KEY-----…',
		description: 'The RSA public key in PEM format (never the private key)',
		displayOptions: showFor('create'),
	},
	...returnAllAndLimit({ show: { resource: [resource], operation: ['getAll'] } }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor('getAll'),
		options: [
			{
				displayName: 'Active Keys Only',
				name: 'activeOnly',
				type: 'boolean',
				default: false,
				description: 'Whether to list only the keys that are active',
			},
		],
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showForUpdate,
		options: [
			{
				displayName: 'Active',
				name: 'active',
				type: 'boolean',
				default: true,
				description:
					'Whether the key may verify tokens; deactivate a key to stop accepting tokens it signed',
			},
			{
				displayName: 'Label',
				name: 'label',
				type: 'string',
				default: '',
				description: 'Human-readable name of the key',
			},
		],
	},
];
