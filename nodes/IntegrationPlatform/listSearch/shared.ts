import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { editorRequest } from '../transport/send';
import { encodePathSegment } from '../../common/paths';
import { currentValue, listOrReason, textOf } from '../../common/locator';

/**
 * What every list of the action node does: read the locators it depends on (`selected`), ask the
 * API for a list (`list`), filter by the search term (`matches`) and answer sorted, each entry
 * once, or with the reason the list is empty (`results`). The API's answers are taken as they
 * come: entries that are not objects, names that are not text and IDs that are not text are
 * left out or shown by their ID, never fed to string methods.
 */

export { textOf };

/** The value of a locator the search depends on (the project, the integration), as a path segment. */
export function selected(context: ILoadOptionsFunctions, parameter: string, label: string): string {
	const value = currentValue(context, parameter);
	if (value === '') {
		const article = /^[aeiou]/i.test(label) ? 'an' : 'a';
		throw new NodeOperationError(context.getNode(), `Select ${article} ${label} first`);
	}
	return encodePathSegment(value);
}

/** Whether any of the texts contains the search term (no term: every entry). */
export function matches(filter: string | undefined, ...texts: unknown[]): boolean {
	const needle = filter?.trim().toLowerCase();
	if (!needle) return true;
	return texts.some((text) => textOf(text)?.toLowerCase().includes(needle));
}

/** An entry of an answer that is a JSON object (arrays, null and plain values are not entries). */
export const isEntry = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object the entry embeds (its group, its consumer), or an empty one. */
export const embedded = (entry: IDataObject, key: string): IDataObject =>
	isEntry(entry[key]) ? (entry[key] as IDataObject) : {};

/** The entries of a list the API answers with; any other answer says what came instead. */
export async function list(
	context: ILoadOptionsFunctions,
	path: string,
	qs?: IDataObject,
): Promise<IDataObject[]> {
	const body = await editorRequest(context, 'GET', path, qs ? { qs } : {});
	return entriesOf(context, body, path);
}

/** The entries of a list answer: an array (an empty answer is an empty list). */
export function entriesOf(
	context: ILoadOptionsFunctions,
	body: unknown,
	path: string,
): IDataObject[] {
	if (body === undefined || body === null) return [];
	if (!Array.isArray(body)) {
		throw new NodeOperationError(
			context.getNode(),
			`The service answered GET ${path} with ${describe(body)} where a list was expected, so the list cannot be shown`,
		);
	}
	return body.filter(isEntry);
}

const describe = (value: unknown) =>
	Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`;

/**
 * The items sorted by name, each value once (the first entry wins); an empty list before any
 * search term is typed says why it is empty (`listOrReason`, nodes/common/locator.ts).
 */
export function results(
	context: ILoadOptionsFunctions,
	items: INodeListSearchItems[],
	filter: string | undefined,
	reason: string,
): INodeListSearchResult {
	return inOrder(
		context,
		[...items].sort((a, b) => a.name.localeCompare(b.name)),
		filter,
		reason,
	);
}

/** As `results`, in the order given. */
export function inOrder(
	context: ILoadOptionsFunctions,
	items: INodeListSearchItems[],
	filter: string | undefined,
	reason: string,
): INodeListSearchResult {
	return listOrReason(context.getNode(), onceEach(items), filter, reason);
}

/** Each value once, in the order given: the API may list an entry twice. */
export function onceEach<T extends { value: string | number | boolean }>(items: T[]): T[] {
	const seen = new Set<unknown>();
	return items.filter((item) => !seen.has(item.value) && seen.add(item.value));
}

/** Names by ID (a Map: an ID such as `__proto__` is an ordinary key). */
export function namesById(entries: IDataObject[], nameKey: string): Map<string, string> {
	const names = new Map<string, string>();
	for (const entry of entries) {
		const id = textOf(entry.id);
		const name = textOf(entry[nameKey]);
		if (id !== undefined && name !== undefined && !names.has(id)) names.set(id, name);
	}
	return names;
}
