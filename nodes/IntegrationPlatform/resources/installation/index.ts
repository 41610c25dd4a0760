import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationDefinition } from '../../routing/defineOperation';
import { resultItem } from '../../routing/defineOperation';

const resource = 'installation';
const showForUnpause = { show: { resource: [resource], operation: ['unpauseReads'] } };

/** Object names from comma-separated text or a list; undefined when neither (e.g. an object). */
function objectList(text: unknown): string[] | undefined {
	const scalar = (value: unknown) => typeof value === 'string' || typeof value === 'number';
	const absent = text === undefined || text === null;
	if (Array.isArray(text) ? !text.every(scalar) : !absent && !scalar(text)) return undefined;
	const values = Array.isArray(text) ? text : String(text ?? '').split(',');
	return values.map((value) => String(value).trim()).filter(Boolean);
}

/** Body `{ objects?, note? }`, both optional: without objects every paused object resumes. */
async function buildUnpauseBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const fields = this.getNodeParameter('unpauseFields', {}) as {
		objects?: string | string[];
		note?: string;
	};
	const body: IDataObject = {};
	const objects = objectList(fields.objects);
	if (objects === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			'"Objects" must be object names, comma-separated or as a list of text',
			{
				itemIndex: this.getItemIndex(),
				description: `No request was sent. Check the expression that sets the field; it gave ${JSON.stringify(fields.objects)?.slice(0, 60)}.`,
			},
		);
	}
	if (objects.length) body.objects = objects;
	if (fields.note) body.note = fields.note;
	requestOptions.body = body;
	return requestOptions;
}

export const installationOperations: OperationDefinition[] = [
	// POST {read_url}/v1/…/installations/{installationId}:unpause — docs/api-notes.md, "unpauseReads": the read
	// host, which accepts only X-Api-Key; 204.
	{
		name: 'Unpause Reads',
		value: 'unpauseReads',
		action: 'Unpause the reads of an installation',
		description:
			'Resume scheduled reads that were paused (by hand or after repeated failures). Uses the read API host.',
		method: 'POST',
		path: '/projects/{project}/integrations/{integration}/installations/{installation}:unpause',
		host: 'read',
		requires: 'apiKey',
		preSend: [buildUnpauseBody],
		output: [
			resultItem((values, context) => {
				const fields = context.getNodeParameter('unpauseFields', {}) as {
					objects?: string | string[];
				};
				const objects = objectList(fields.objects) ?? [];
				return {
					unpaused: true,
					installationId: values.installation,
					objects: objects.length ? objects : 'all',
				};
			}),
		],
	},
];

export const installationFields: INodeProperties[] = [
	{
		displayName: 'Additional Fields',
		name: 'unpauseFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showForUnpause,
		options: [
			{
				displayName: 'Note',
				name: 'note',
				type: 'string',
				default: '',
				description: 'A note recorded with the unpause, e.g. why reads resume',
			},
			{
				displayName: 'Objects',
				name: 'objects',
				type: 'string',
				default: '',
				placeholder: 'e.g. contacts, companies',
				description:
					'Objects whose reads resume (comma-separated, mapped or provider names). Leave out for all.',
			},
		],
	},
];
