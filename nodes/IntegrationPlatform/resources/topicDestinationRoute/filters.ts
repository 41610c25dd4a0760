import type {
	IDataObject,
	IDisplayOptions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { byId, listLocator } from '../../../common/locator';
import { checkUrlText } from '../../../common/paths';
import { fromVersion2, inVersion1 } from '../../fields';

/** A filter on something the project can list, taken by its ID. */
export interface IdFilter {
	displayName: string;
	name: string;
	/** What the filter keeps, e.g. "Only routes from this topic". */
	keeps: string;
	search: string;
	select: string;
	example: string;
}

/** The Topic filter of both route resources; `keeps` says which way the routes go. */
export const TOPIC_FILTER = (keeps: string): IdFilter => ({
	displayName: 'Topic',
	name: 'topicId',
	keeps,
	search: 'searchTopics',
	select: 'Select a topic…',
	example: '2d4f…',
});

/**
 * The route resources' Filters collection once per version span: version 1 keeps the text
 * fields its saved workflows hold, version 2 picks the IDs from lists (a resource locator's saved
 * value has another shape than text, docs/architecture.md "Node versions"). `other` are filters
 * both versions share.
 */
export function routeFilters(
	show: NonNullable<IDisplayOptions['show']>,
	ids: IdFilter[],
	other: INodeProperties[] = [],
): INodeProperties[] {
	const collection = (version: IDisplayOptions['show'], options: INodeProperties[]) => ({
		displayName: 'Filters',
		name: 'filters',
		type: 'collection' as const,
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { ...show, ...version } },
		options: [...other, ...options],
	});
	return [
		collection(
			inVersion1,
			ids.map(({ displayName, name, keeps }) => ({
				displayName,
				name,
				type: 'string' as const,
				default: '',
				description: keeps,
			})),
		),
		collection(
			fromVersion2,
			ids.map(({ displayName, name, keeps, search, select, example }) =>
				listLocator({
					displayName,
					name,
					description: `${keeps} (its ID; the list shows names)`,
					search,
					select,
					typed: [byId(example, { noun: displayName.toLowerCase(), format: 'hex' })],
					required: false,
				}),
			),
		),
	];
}

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
