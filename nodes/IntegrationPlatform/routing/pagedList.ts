import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listLimit } from './parameters';
import { sendRouted } from './requestHook';
import { entriesUpToLimit } from './results';

/**
 * A paged list of the API: pages asked for with `pageSize` and `pageToken`, each answered
 * `{ results, pagination: { done, nextPageToken? } }` (docs/api-notes.md, "Operations of an
 * installation"). It is the operation's own pagination (`routing.operations.pagination`, which n8n
 * runs instead of the node-wide hook), a function rather than n8n's declarative `generic` form,
 * which cannot express what the list needs: each page under the node's request policy (requestHook.ts:
 * rate-limit retries, network errors naming the host), a page size from Limit, stopping once Limit
 * is reached, and stopping on a token the service already gave (docs/architecture.md, "Paged
 * lists"). n8n sends every page (`makeRoutingRequest`): its Request Options, allowed domains and
 * the operation's error check apply to each, and each page comes back as one item.
 */

/** The API's largest page. */
export const MAX_PAGE_SIZE = 1000;

interface Page {
	results?: IDataObject[];
	pagination?: { done?: boolean; nextPageToken?: string };
}

export async function pagedList(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const want = listLimit(this, true);
	const pageSize = (have: number) =>
		want.returnAll ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, want.limit - have);
	const entries: IDataObject[] = [];
	// Every token asked for: a token the service gives again (the same one, or A, B, A…) would
	// ask for pages for ever.
	const asked = new Set<string>();
	let token: string | undefined;
	let leftOver = false;
	let more = false;
	// Each page becomes entries before the next is asked for, and a page is asked for only while
	// Limit needs more: memory holds the entries and one page, never the whole history as pages.
	for (;;) {
		const qs: IDataObject = { ...requestData.options.qs, pageSize: pageSize(entries.length) };
		if (token !== undefined) qs.pageToken = token;
		const [answer] = await sendRouted(this, {
			...requestData,
			options: { ...requestData.options, qs },
		});
		const page = (answer?.json ?? {}) as Page;
		for (const json of Array.isArray(page.results) ? page.results : []) {
			if (!want.returnAll && entries.length >= want.limit) {
				leftOver = true;
				break;
			}
			entries.push(json);
		}
		const next = page.pagination?.nextPageToken;
		more = page.pagination?.done === false && typeof next === 'string' && next !== '';
		if (!more || (!want.returnAll && entries.length >= want.limit)) break;
		if (asked.has(next!)) throw pageLoop(this, next!, asked.size);
		asked.add(next!);
		token = next;
	}
	// Entries beyond Limit: on the last page read, or on pages not asked for.
	const item = this.getItemIndex();
	return entriesUpToLimit(this, entries, leftOver || more).map((entry) => ({
		...entry,
		pairedItem: { item },
	}));
}

/** The error for a next-page token the service already gave: its pages go round in a loop. */
function pageLoop(
	context: IExecutePaginationFunctions,
	token: string,
	pages: number,
): NodeOperationError {
	const shown = token.length > 40 ? `${token.slice(0, 39)}…` : token;
	return new NodeOperationError(
		context.getNode(),
		`The service's pages go round in a loop: after ${pages + 1} pages it gave the next-page token "${shown}" again, so reading on would never end`,
		{
			description:
				'The list was stopped rather than read again and again. This is a fault of the service; try again later, or set a Limit.',
		},
	);
}
