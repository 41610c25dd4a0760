import type {
	IDisplayOptions,
	ILoadOptionsFunctions,
	INode,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyMode,
	INodePropertyRegexValidation,
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

/**
 * What an ID of a kind looks like. The API documents integration, installation and JWT key IDs as
 * UUIDs; its other IDs have UUIDs or runs of hexadecimal digits as examples, never names
 * (docs/api-notes.md, "IDs"). Either pattern also passes an empty value, which the field's
 * "required" check reports on its own (and the node, for a value of spaces), and spaces around
 * an ID, which the node trims.
 */
export const ID_FORMATS = {
	uuid: {
		regex: '\\s*(?:[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\\s*)?',
		says: 'IDs are UUIDs',
	},
	hex: {
		regex: '\\s*(?:[0-9a-fA-F]{8,}(?:-[0-9a-fA-F]+)*\\s*)?',
		says: 'IDs are hexadecimal, such as UUIDs',
	},
} as const;

/** The kind of thing an ID mode takes, for its check and its message. */
export interface IdKind {
	/** What the ID is of, in a sentence: "integration", "JWT key". */
	noun: string;
	format: keyof typeof ID_FORMATS;
	/** The field's mode for a name, where it has one: the message sends names there. */
	nameMode?: string;
}

/**
 * The message of an ID mode's check. n8n's editor shows it under the field (it cannot quote the
 * value); `locatorProblem` quotes the value for the run. It names the mode that takes a name, or
 * the list where the field has no such mode.
 */
export function idMessage({ noun, format, nameMode }: IdKind): string {
	const article = /^[aeiou]/i.test(noun) ? 'an' : 'a';
	const fix = nameMode
		? `choose "${nameMode}" or pick it from the list`
		: `pick it from the list ("From List")`;
	return `Not ${article} ${noun} ID (${ID_FORMATS[format].says}): ${fix}`;
}

/**
 * "By ID", checked with n8n's locator validation: the editor marks a value that is no ID of that
 * kind (a name, say), and n8n refuses to run or publish a workflow holding one. An expression is
 * not checked there; `locatorProblem` checks its result when the node runs.
 */
export function byId(example: string, kind: IdKind): INodePropertyMode {
	return {
		...typedMode('By ID', 'id', example),
		validation: [
			{
				type: 'regex',
				properties: { regex: ID_FORMATS[kind.format].regex, errorMessage: idMessage(kind) },
			},
		],
	};
}

/**
 * What is wrong with a locator's value in the mode it is given in, as the run reports it (the
 * field's label, the value, the mode's message), or undefined. n8n checks a mode's validation in
 * the editor and before a run, but skips an expression: this checks the value an expression gave,
 * with the same rules. A value without a mode (a plain text value saved by an older version) is
 * not checked.
 */
export function locatorProblem(
	field: Pick<INodeProperties, 'displayName' | 'modes'>,
	mode: unknown,
	value: unknown,
): string | undefined {
	if (typeof mode !== 'string' || typeof value !== 'string' || value === '') return undefined;
	const given = field.modes?.find((candidate) => candidate.name === mode);
	for (const rule of given?.validation ?? []) {
		if (typeof rule !== 'object' || rule.type !== 'regex') continue;
		const { regex, errorMessage } = (rule as INodePropertyRegexValidation).properties;
		if (new RegExp(`^(?:${regex})$`).test(value)) continue;
		const said = errorMessage.replace(/^Not /, 'is not ');
		return `"${field.displayName}" (${given?.displayName}): "${value}" ${said}`;
	}
	return undefined;
}
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
