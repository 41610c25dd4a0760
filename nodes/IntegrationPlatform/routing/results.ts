import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	PostReceiveAction,
} from 'n8n-workflow';

import { listLimit } from './parameters';
import { pathValues } from './templates';

/** The items routed operations output: a list's entries up to Limit, or one item that says what happened. */

/**
 * A list's entries as items, up to Limit (all with Return All). `more` says that entries exist
 * beyond those given (a paged list that stopped early). When the node answers an AI tool call
 * and the list was cut, a last item says so: a model reads a list of exactly Limit items as the
 * whole list otherwise (docs/n8n-notes.md, "The node as an AI tool"). Workflows get the entries
 * only.
 */
export function entriesUpToLimit(
	context: Pick<IExecuteSingleFunctions, 'getNodeParameter' | 'getNode' | 'getItemIndex'>,
	entries: IDataObject[],
	more = false,
): INodeExecutionData[] {
	const wanted = listLimit(context, true);
	const returnAll = wanted.returnAll;
	const limit = returnAll ? entries.length : wanted.limit;
	const items: INodeExecutionData[] = entries.slice(0, limit).map((json) => ({ json }));
	const cut = !returnAll && (more || entries.length > limit);
	if (cut && context.getNode().type.endsWith('Tool')) {
		const total = more ? `more than ${limit}` : String(entries.length);
		items.push({
			json: {
				listCutAtLimit: true,
				returned: items.length,
				available: more ? null : entries.length,
				note: `Only the first ${items.length} of ${total} entries are listed (the limit). Call again with a higher limit to see more.`,
			},
		});
	}
	return items;
}

/** postReceive for list operations: one item per entry, honouring Return All / Limit. */
export async function listEntries(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const entries = Array.isArray(response.body) ? (response.body as IDataObject[]) : [];
	return entriesUpToLimit(this, entries);
}

/**
 * postReceive for answers without a body (204, or 201 with an empty body): one small item that
 * says what happened, built from the path values of the request.
 */
export function resultItem(
	build: (values: Record<string, string>, context: IExecuteSingleFunctions) => IDataObject,
): PostReceiveAction {
	return async function (this: IExecuteSingleFunctions) {
		return [{ json: build(pathValues(this), this) }];
	};
}
