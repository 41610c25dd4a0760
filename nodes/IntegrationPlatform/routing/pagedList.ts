import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { encodePathSegment } from '../../common/paths';
import { entriesUpToLimit } from './results';
import { listLimit } from './parameters';
import { lookupRequest } from '../transport/send';
import { pathValues } from './templates';

/**
 * Lists the API pages with `pageSize` and `pageToken` and answers
 * `{ results, pagination: { done, nextPageToken? } }` (docs/api-notes.md, "Operations of an
 * installation"). The operation's own request is the first page; `pagedEntries` follows
 * `nextPageToken` itself, under the same request policy as the node's lookups
 * (requestPolicy.ts). The pagination hook of n8n's routing stays the request policy
 * (docs/architecture.md, "Paged lists").
 */

/** The API's largest page. */
export const MAX_PAGE_SIZE = 1000;

interface Wanted {
	returnAll: boolean;
	limit: number;
}

function wanted(context: IExecuteSingleFunctions, sent: boolean): Wanted {
	return listLimit(context, sent);
}

const pageSizeFor = (want: Wanted, have: number) =>
	want.returnAll ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, want.limit - have);

/** preSend: the first page asks only for what Limit needs (all of a page with Return All). */
export const firstPageSize: PreSendAction = async function (
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.qs = {
		...(requestOptions.qs ?? {}),
		pageSize: pageSizeFor(wanted(this, false), 0),
	};
	return requestOptions;
};

interface Page {
	results?: IDataObject[];
	pagination?: { done?: boolean; nextPageToken?: string };
}

/**
 * postReceive for a paged list: one item per entry, up to Limit. Each page becomes items before
 * the next is asked for, and a page is asked for only while Limit needs more, so memory holds the
 * items and one page, never the whole history as pages.
 */
export function pagedEntries(path: string): PostReceiveAction {
	return async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const want = wanted(this, true);
		const values = pathValues(this);
		// The same path as the first request, its values already checked by resolveRequest.
		const url = path.replace(/\{(\w+)\}/g, (_match, name: string) =>
			encodePathSegment(values[name]),
		);
		const items: IDataObject[] = [];
		let page = (response.body ?? {}) as Page;
		// Every token asked for: a token the service gives again (the same one, or A, B, A…) would
		// ask for pages for ever.
		const asked = new Set<string>();
		for (;;) {
			const results = Array.isArray(page.results) ? page.results : [];
			let leftOver = false;
			for (const json of results) {
				if (!want.returnAll && items.length >= want.limit) {
					leftOver = true;
					break;
				}
				items.push(json);
			}
			const token = page.pagination?.nextPageToken;
			const more = page.pagination?.done === false && typeof token === 'string' && token !== '';
			if (!more || (!want.returnAll && items.length >= want.limit)) {
				// Entries beyond Limit: on this page, or on pages not asked for.
				return entriesUpToLimit(this, items, leftOver || more);
			}
			if (asked.has(token)) throw pageLoop(this, token, asked.size);
			asked.add(token);
			page = await lookupRequest<Page>(this, 'GET', url, {
				pageSize: pageSizeFor(want, items.length),
				pageToken: token,
			});
		}
	};
}

/** The error for a next-page token the service already gave: its pages go round in a loop. */
function pageLoop(
	context: IExecuteSingleFunctions,
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
