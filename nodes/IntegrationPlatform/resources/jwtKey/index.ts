import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { OperationDefinition } from '../../routing/defineOperation';


const resource = 'jwtKey';
const showForUpdate = { show: { resource: [resource], operation: ['update'] } };

/**
 * Builds `{ updateMask, jwtKey }` from the fields the user added (docs/api-notes.md, "updateJWTKey").
 *
 * The API contradicts itself on the label: the mask's enum says `label`, its description, examples
 * and error remedy say `name`. We send the mask value `label` (the schema, and what generated SDKs
 * send) and put the new text in both `jwtKey.label` and `jwtKey.name` (the object accepts extra
 * properties), so the update lands whichever field the server reads. README, "Spec vs. real API".
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
	// PATCH /projects/{projectIdOrName}/jwt-keys/{keyId} — 200 JWTKey; errors carry validationIssues.
	{
		name: 'Update',
		value: 'update',
		action: 'Update a JWT key',
		description: 'Rename a JWT signing key, or activate or deactivate it',
		method: 'PATCH',
		path: '/projects/{project}/jwt-keys/{jwtKey}',
		preSend: [buildJwtKeyUpdate],
	},
];

export const jwtKeyFields: INodeProperties[] = [
	{
		displayName: 'JWT Key',
		name: 'jwtKey',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description: 'The key to update, from the list or by ID',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a key…',
				typeOptions: { searchListMethod: 'searchJwtKeys', searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 3b7c…' },
		],
		displayOptions: showForUpdate,
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
