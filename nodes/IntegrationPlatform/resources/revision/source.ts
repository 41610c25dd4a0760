import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { encodePathSegment } from '../../../common/paths';
import { requiredParameter } from '../../routing/parameters';
import { lookupRequest } from '../../transport/send';
import { pathValues } from '../../routing/templates';

/**
 * The source of integrations that createRevision and batchUpsertIntegrations take: an amp.yaml
 * document as text, or the URL of a zip of the source files, and `?destructive=`
 * (docs/api-notes.md, "Integrations and revisions").
 */
export function sourceFields(resource: string, operation: string): INodeProperties[] {
	const show = { resource: [resource], operation: [operation] };
	return [
		{
			displayName: 'Source',
			name: 'source',
			type: 'options',
			default: 'yaml',
			options: [
				{ name: 'YAML', value: 'yaml', description: 'An amp.yaml document' },
				{ name: 'Zip URL', value: 'zipUrl', description: 'Where a zip of the source files is' },
			],
			displayOptions: { show },
		},
		{
			displayName: 'Source YAML',
			name: 'sourceYaml',
			type: 'string',
			typeOptions: { rows: 8 },
			required: true,
			default: '',
			placeholder:
				'specVersion: 1.0.0\nintegrations:\n  - name: hubspot-sync\n    provider: hubspot',
			description: 'The amp.yaml that defines the integrations',
			displayOptions: { show: { ...show, source: ['yaml'] } },
		},
		{
			displayName: 'Source Zip URL',
			name: 'sourceZipUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://storage.googleapis.com/my-bucket/integrations.zip',
			description: 'URL the service downloads a zip of the source files from',
			displayOptions: { show: { ...show, source: ['zipUrl'] } },
		},
		{
			displayName: 'Options',
			name: 'sourceOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: { show },
			options: [
				{
					displayName: 'Destructive',
					name: 'destructive',
					type: 'boolean',
					default: false,
					description:
						'Whether to allow destructive changes, such as pausing the reads of objects the new revision no longer has',
				},
			],
		},
	];
}

/** Body `{ sourceYaml }` or `{ sourceZipUrl }`, and `?destructive=true` when asked. */
export async function buildSourceBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const zip = this.getNodeParameter('source', 'yaml') === 'zipUrl';
	const body: IDataObject = zip
		? { sourceZipUrl: requiredParameter(this, 'sourceZipUrl', 'Source Zip URL') as string }
		: { sourceYaml: requiredParameter(this, 'sourceYaml', 'Source YAML') as string };
	requestOptions.body = body;
	const { destructive } = this.getNodeParameter('sourceOptions', {}) as IDataObject;
	if (destructive === true) requestOptions.qs = { ...(requestOptions.qs ?? {}), destructive: true };
	return requestOptions;
}

/**
 * createRevision answers 201 without a body; the node then reads the integration, whose latest
 * revision is the new one. If that lookup fails, the create still succeeded and the item says so.
 */
export async function returnLatestRevision(
	this: IExecuteSingleFunctions,
): Promise<INodeExecutionData[]> {
	const { project, integration } = pathValues(this);
	try {
		const found = await lookupRequest<{ id?: string; latestRevision?: IDataObject }>(
			this,
			'GET',
			`/projects/${encodePathSegment(project)}/integrations/${encodePathSegment(integration)}`,
		);
		const revision = found.latestRevision ?? {};
		return [{ json: { created: true, integrationId: found.id ?? integration, ...revision } }];
	} catch {
		return [{ json: { created: true, integrationId: integration } }];
	}
}
