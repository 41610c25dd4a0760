import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { listLocator, typedMode } from '../../../common/locator';
import { fromVersion2, inVersion1, integrationField } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';

const resource = 'objectMetadata';
const showFor = (...operation: string[]) => ({ show: { resource: [resource], operation } });

/** `?excludeReadOnly=true` only when asked (docs/api-notes.md, "Object metadata"). */
async function excludeReadOnly(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const options = this.getNodeParameter('metadataOptions', {}) as IDataObject;
	if (options.excludeReadOnly === true) {
		requestOptions.qs = { ...(requestOptions.qs ?? {}), excludeReadOnly: true };
	}
	return requestOptions;
}

export const objectMetadataOperations: OperationDefinition[] = [
	// GET /projects/{projectIdOrName}/providers/{provider}/objects/{objectName}/metadata?groupRef= —
	// docs/api-notes.md, "Object metadata": read through the group's connection to the provider.
	{
		name: 'Get via Connection',
		value: 'getForConnection',
		action: 'Get object metadata via a connection',
		description:
			"Get an object's fields as the provider reports them, read through a group's connection. Returns the object's name, display name and fields.",
		method: 'GET',
		path: '/projects/{project}/providers/{provider}/objects/{objectName}/metadata',
		qs: { groupRef: '{groupRef}' },
		preSend: [excludeReadOnly],
	},
	// GET /projects/{projectIdOrName}/integrations/{integrationId}/objects/{objectName}/metadata?groupRef=
	// — docs/api-notes.md, "Object metadata": the object may be named as the integration maps it.
	{
		name: 'Get via Installation',
		value: 'getForInstallation',
		action: 'Get object metadata via an installation',
		description:
			"Get an object's fields as the provider reports them, read through a group's installation. Returns the object's name, display name and fields.",
		method: 'GET',
		path: '/projects/{project}/integrations/{integration}/objects/{objectName}/metadata',
		qs: { groupRef: '{groupRef}' },
		preSend: [excludeReadOnly],
	},
];

export const objectMetadataFields: INodeProperties[] = [
	{ ...integrationField, displayOptions: showFor('getForInstallation') },
	{
		displayName: 'Provider Name or ID',
		name: 'provider',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getProviders' },
		required: true,
		default: '',
		description:
			'The provider of the connection. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: showFor('getForConnection'),
	},
	// Version 1 keeps its text field; version 2 picks the object from a list (a resource
	// locator's saved value has another shape than text, docs/architecture.md "Node versions").
	{
		displayName: 'Object Name',
		name: 'objectName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. contacts',
		description:
			"The object: the provider's name, or (via an installation) the name the integration maps it to",
		displayOptions: {
			show: { ...showFor('getForConnection', 'getForInstallation').show, ...inVersion1 },
		},
	},
	listLocator({
		// The label version 1 shows: errors name the field by it in both versions.
		displayName: 'Object Name',
		name: 'objectName',
		description:
			"The object: from the objects the project's integrations read or write, or by the provider's name (via an installation, the name the integration maps it to)",
		search: 'searchMetadataObjects',
		select: 'Select an object…',
		typed: [typedMode('By Name', 'id', 'contacts')],
		displayOptions: {
			show: { ...showFor('getForConnection', 'getForInstallation').show, ...fromVersion2 },
		},
	}),
	{
		displayName: 'Options',
		name: 'metadataOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor('getForConnection', 'getForInstallation'),
		options: [
			{
				displayName: 'Exclude Read-Only Fields',
				name: 'excludeReadOnly',
				type: 'boolean',
				default: false,
				description: 'Whether to leave out fields that cannot be written',
			},
		],
	},
];
