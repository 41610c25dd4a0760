import type {
	IDisplayOptions,
	ILoadOptionsFunctions,
	INode,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyMode,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, UserError } from 'n8n-workflow';

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

/**
 * Text the API gave as a name: a string with something in it, or a finite number written out.
 * Anything else (null, an object, an array) is no name, and is never handed to string methods.
 */
export function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/** An ID the API gave: only text is one (a number or an object is not sent back as an ID). */
export const idOf = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * The value of the node's parameter `name` as a list sees it, trimmed ('' when not given): the
 * parameter beside the list in the same collection when the list is an option of one, else the
 * top-level one. n8n's load-options context resolves a path starting with `&` against the list's
 * own path (`parameters.connectionFilters.consumerRef` makes `&groupRef` read
 * `connectionFilters.groupRef`); a top-level list has no such sibling. n8n extracts a locator's
 * value only for a parameter it finds shown at that path, so a value is extracted only where one
 * is set (docs/n8n-notes.md, "List searches").
 */
export function currentValue(context: ILoadOptionsFunctions, name: string): string {
	for (const path of [`&${name}`, name]) {
		const raw = context.getCurrentNodeParameter(path);
		if (raw === undefined || raw === null || raw === '') continue;
		let value: unknown;
		try {
			value = context.getCurrentNodeParameter(path, { extractValue: true });
		} catch {
			// n8n shows no such parameter there for this operation: a value left over from another
			// operation is not given.
			continue;
		}
		return typeof value === 'string' ? value.trim() : '';
	}
	return '';
}

/**
 * A list method (list search, load options) whose every failure reaches the editor as a reason.
 * n8n 2.41 answers the editor's list request with HTTP 500, and logs a server fault, for any
 * error but a `UserError`, which it answers with 400 and its message; the editor shows either
 * message under "Could not load list" (docs/n8n-notes.md, "List searches").
 */
export function withReason<A extends unknown[], R>(
	method: (this: ILoadOptionsFunctions, ...args: A) => Promise<R>,
): (this: ILoadOptionsFunctions, ...args: A) => Promise<R> {
	return async function (this: ILoadOptionsFunctions, ...args: A): Promise<R> {
		try {
			return await method.apply(this, args);
		} catch (error) {
			throw asReason(error);
		}
	};
}

/**
 * The error as a UserError with the same message and description. n8n passes only a UserError's
 * message on to the editor, where it used to pass an API error whole: an API error's description
 * (what the service said) joins its message.
 */
export function asReason(error: unknown): UserError {
	if (error instanceof UserError) return error;
	const message =
		error instanceof Error && error.message ? error.message : 'The list could not be loaded';
	const described = (error as { description?: unknown } | undefined)?.description;
	const description = typeof described === 'string' ? described.trim() : '';
	const text =
		error instanceof NodeApiError && description && !message.includes(description)
			? `${message.replace(/[.:]?\s*$/, '.')} ${description}`
			: message;
	// No `cause`: an API error holds the request, which the reason has no need to carry.
	return new UserError(text, description ? { description } : {});
}
