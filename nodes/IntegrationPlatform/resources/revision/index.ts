import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { integrationField, projectField } from '../../fields';
import { checkPathSegment, encodePathSegment } from '../../../common/paths';
import { pathValues, setPathValue } from '../../routing/templates';
import { lookupRequest } from '../../transport/send';
import type { OperationDefinition } from '../../routing/defineOperation';
import { buildSourceBody, returnLatestRevision, sourceFields } from './source';

const resource = 'revision';
const showForHydrate = { show: { resource: [resource], operation: ['getHydrated'] } };

/**
 * The revision ID is optional: empty means the integration's latest revision, which is
 * `integration.latestRevision.id` (docs/api-notes.md, "getHydratedRevision"; the spec calls it "{base_url}").
 */
async function defaultToLatestRevision(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const given = this.getNodeParameter('revision', '') as unknown;
	// Only "nothing" means the latest revision; any other value is checked as a path value.
	if (given !== undefined && given !== null && !(typeof given === 'string' && given.trim() === ''))
		return requestOptions;
	const values = pathValues(this);
	const ids: Record<string, string> = {};
	for (const { name, displayName } of [projectField, integrationField]) {
		const checked =
			name in values
				? values[name]
				: checkPathSegment(
						displayName,
						this.getNodeParameter(name, undefined, { extractValue: true }),
					);
		if (typeof checked !== 'string') {
			throw new NodeOperationError(this.getNode(), checked.problem, {
				itemIndex: this.getItemIndex(),
				description:
					'No request was sent. Fill in the parameter, or check the expression that sets it.',
			});
		}
		ids[name] = values[name] = checked;
	}
	const integration = await lookupRequest<{ latestRevision?: { id?: string } }>(
		this,
		'GET',
		`/projects/${encodePathSegment(ids.project)}/integrations/${encodePathSegment(ids.integration)}`,
	);
	const latest = integration.latestRevision?.id;
	if (!latest) {
		throw new NodeOperationError(
			this.getNode(),
			'The integration has no latest revision to hydrate',
			{
				itemIndex: this.getItemIndex(),
				description: 'Give a Revision ID explicitly.',
			},
		);
	}
	setPathValue(this, 'revision', latest);
	return requestOptions;
}

export const revisionOperations: OperationDefinition[] = [
	// POST …/integrations/{integrationId}/revisions — docs/api-notes.md, "Integrations and
	// revisions": amp.yaml text or a zip URL; 201 without a body.
	{
		name: 'Create',
		value: 'create',
		action: 'Create a revision',
		description:
			'Deploy a new revision of an integration from its amp.yaml or a zip of its source. Returns the new revision with created: true.',
		method: 'POST',
		path: '/projects/{project}/integrations/{integration}/revisions',
		preSend: [buildSourceBody],
		outputShape: 'latestRevision',
		output: [returnLatestRevision],
	},
	// GET …/integrations/{integrationId}/revisions/{revisionId}:hydrate?connectionId=
	// (docs/api-notes.md, "getHydratedRevision"). Hydrated content has no subscribe and no
	// watchSchema sections.
	{
		name: 'Get Hydrated',
		value: 'getHydrated',
		action: 'Get a hydrated revision',
		description:
			"Get a revision with the provider's field metadata filled in, read through a consumer's connection. Returns the revision with its content.",
		method: 'GET',
		path: '/projects/{project}/integrations/{integration}/revisions/{revision}:hydrate',
		qs: { connectionId: '{connectionId}' },
		preparePath: [defaultToLatestRevision],
	},
];

export const revisionFields: INodeProperties[] = [
	...sourceFields(resource, 'create'),
	{
		displayName: 'Revision ID',
		name: 'revision',
		type: 'string',
		default: '',
		placeholder: 'Latest revision',
		description: "Leave empty for the integration's latest revision",
		displayOptions: showForHydrate,
	},
];
