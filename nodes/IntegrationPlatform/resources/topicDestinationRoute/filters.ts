import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkUrlText } from '../../../common/paths';

/**
 * Query parameters from a list operation's Filters collection: each filter the user added, checked
 * as text (an object would turn into `name[key]=…`); an empty filter is left out.
 */
export function filterQuery(
	context: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
	labels: Record<string, string>,
): IHttpRequestOptions {
	const filters = context.getNodeParameter('filters', {}) as IDataObject;
	const qs: IDataObject = {};
	for (const [name, label] of Object.entries(labels)) {
		if (!(name in filters)) continue;
		// Version 2's filters are resource locators: their value, as a text filter's.
		const raw = context.getNodeParameter(`filters.${name}`, '', { extractValue: true }) as unknown;
		if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
			continue;
		}
		const checked = checkUrlText(`Filters → ${label}`, raw);
		if (typeof checked !== 'string') {
			throw new NodeOperationError(context.getNode(), checked.problem, {
				itemIndex: context.getItemIndex(),
				description: 'No request was sent. Check the filter, or the expression that sets it.',
			});
		}
		qs[name] = checked;
	}
	if (Object.keys(qs).length) requestOptions.qs = { ...(requestOptions.qs ?? {}), ...qs };
	return requestOptions;
}
