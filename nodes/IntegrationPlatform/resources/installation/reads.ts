import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	PostReceiveAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { resultItem } from '../../routing/results';

/** Installation → Pause Reads and Unpause Reads: their shared body and their result item. */

/** Object names from comma-separated text or a list; undefined when neither (e.g. an object). */
function objectList(text: unknown): string[] | undefined {
	const scalar = (value: unknown) => typeof value === 'string' || typeof value === 'number';
	const absent = text === undefined || text === null;
	if (Array.isArray(text) ? !text.every(scalar) : !absent && !scalar(text)) return undefined;
	const values = Array.isArray(text) ? text : String(text ?? '').split(',');
	return values.map((value) => String(value).trim()).filter(Boolean);
}

/** Body `{ objects?, note? }` of pause and unpause, both optional: without objects, all objects. */
export async function buildUnpauseBody(
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

/** The item of Pause Reads and Unpause Reads (204, no body): what was asked, for which objects. */
export function readsResult(flag: 'paused' | 'unpaused'): PostReceiveAction {
	return resultItem((values, context) => {
		const fields = context.getNodeParameter('unpauseFields', {}) as {
			objects?: string | string[];
		};
		const objects = objectList(fields.objects) ?? [];
		return {
			[flag]: true,
			installationId: values.installation,
			objects: objects.length ? objects : 'all',
		};
	});
}
