import type {
	IDisplayOptions,
	INode,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyMode,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The package's resource locators: required (except as a collection's option), chosen from a searchable list first, or typed in one
 * of the `typed` modes (byName, byId). Each field says only what differs: its names, the list's
 * search method and the examples.
 */
export function listLocator(field: {
	displayName: string;
	name: string;
	/** Left out where the fields built on it say it themselves. */
	description?: string;
	/** The list search method the node registers (`methods.listSearch`). */
	search: string;
	/** The list's placeholder, e.g. "Select a topic…". */
	select: string;
	typed: INodePropertyMode[];
	displayOptions?: IDisplayOptions;
	/** False for an option of a collection (a filter), which is left out rather than empty. */
	required?: boolean;
}): INodeProperties {
	const { search, select, typed, required = true, ...rest } = field;
	return {
		...rest,
		type: 'resourceLocator',
		...(required ? { required: true } : {}),
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: select,
				typeOptions: { searchListMethod: search, searchable: true },
			},
			...typed,
		],
	};
}

/** A typed mode; `name` is the mode the node's code reads (an object's name is mode `id`). */
export function typedMode(displayName: string, name: string, example: string): INodePropertyMode {
	// In two parts: n8n's lint would read one literal with displayName, name and type as a node
	// parameter without a default.
	const mode: Pick<INodePropertyMode, 'type' | 'placeholder'> = {
		type: 'string',
		placeholder: `e.g. ${example}`,
	};
	return { displayName, name, ...mode };
}

export const byId = (example: string) => typedMode('By ID', 'id', example);
export const byName = (example: string) => typedMode('By Name', 'name', example);
/** A group is named by its group ref (your ID of the customer account), read as mode `id`. */
export const byGroupRef = typedMode('By Group Ref', 'id', 'acme-inc');
/** A consumer is named by its consumer ref (your ID of the user), read as mode `id`. */
export const byConsumerRef = typedMode('By Consumer Ref', 'id', 'user-42');

/**
 * A list search's answer, in the order given. A list that is empty before any search term is typed
 * says why, and what to do: n8n's list answer cannot carry a message, and shows an empty one as
 * "No results", but it shows a search's error under "Could not load list" with its message
 * (docs/n8n-notes.md, "List searches"). The reason must not contain dashes: the editor splits the
 * message at them. With a search term an empty list means "nothing matches", which n8n says.
 */
export function listOrReason(
	node: INode,
	items: INodeListSearchItems[],
	filter: string | undefined,
	reason: string,
): INodeListSearchResult {
	if (items.length === 0 && !filter?.trim()) throw new NodeOperationError(node, reason);
	return { results: items };
}
