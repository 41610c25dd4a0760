/**
 * Answers of the API that no document promises: the list tests feed them to every list method of
 * the nodes (list searches, load options, the resource mapper's fields) through
 * `answeringContext` (listSearch.ts), which answers each request with the body shaped for its
 * path that `oddAnswer` gives.
 */
import { UserError } from 'n8n-workflow';

import type { Answer } from './listSearch';

/** Names that are keys of every object's prototype: a list must treat them as ordinary names. */
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];

/** Values where the API documents text: numbers, null, objects, arrays, blanks. */
export const ODD_VALUES: unknown[] = [
	null,
	0,
	42,
	-1.5,
	true,
	{},
	[],
	['a'],
	// String() and template literals throw on this one: its toString is not a function.
	{ toString: 'x', valueOf: 1 },
	'',
	'   ',
];

const ENTRY_KEYS = [
	'id',
	'name',
	'type',
	'provider',
	'appName',
	'orgId',
	'label',
	'active',
	'clientId',
	'externalRef',
	'invitedEmail',
	'status',
	'topicId',
	'destinationId',
	'eventType',
	'integrationId',
	'createTime',
	'actionType',
	// An API key's identifier is the key itself.
	'key',
];

/** An object with every key the lists read set to `value`, embedded objects included. */
function entryOf(value: unknown, id?: string): Record<string, unknown> {
	const entry: Record<string, unknown> = Object.fromEntries(ENTRY_KEYS.map((k) => [k, value]));
	const objects = [value, { objectName: value, mapToName: value }];
	Object.assign(entry, {
		group: { groupRef: value, groupName: value },
		consumer: { consumerRef: value, consumerName: value },
		latestRevision: {
			content: { read: { objects }, write: { objects }, subscribe: { objects } },
		},
	});
	if (id !== undefined) {
		// Text IDs and the provider the searches filter on, everything else odd.
		Object.assign(entry, {
			id,
			integrationId: id,
			provider: 'hubspot',
			group: { groupRef: `${id}-group`, groupName: value },
			consumer: { consumerRef: `${id}-consumer`, consumerName: value },
		});
	}
	return entry;
}

/** A JSON round trip: `__proto__` in a JSON text becomes an own key, as in an API answer. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** Entries of a list: every odd value, as everything and with text IDs, each twice, and non-objects. */
export function oddEntries(): unknown[] {
	const entries = ODD_VALUES.flatMap((value, index) => [
		entryOf(value),
		entryOf(value, `odd-${index}`),
		entryOf(value, `odd-${index}`),
	]);
	return [...(asJson(entries) as unknown[]), ...ODD_VALUES];
}

/** Entries named by the prototype names everywhere a list reads a name or an ID. */
export function prototypeEntries(): unknown[] {
	return PROTOTYPE_NAMES.map((name) =>
		JSON.parse(
			JSON.stringify({
				...entryOf(name),
				status: 'pending',
				type: 'webhook',
				provider: 'hubspot',
				group: { groupRef: name, groupName: name },
				consumer: { consumerRef: name, consumerName: name },
				createTime: '2026-01-01T00:00:00Z',
			}),
		),
	);
}

/** Object metadata: fields of every odd kind, or (given names) fields of those names. */
function metadataOf(names: string[]): unknown {
	if (names.length === 0) {
		const fields: Record<string, unknown> = {};
		ODD_VALUES.forEach((value, index) => {
			fields[`odd${index}`] = {
				fieldName: value,
				displayName: value,
				valueType: value,
				readOnly: value,
				isRequired: value,
				values: [null, value, { value, displayValue: value }, ['a']],
			};
		});
		return asJson({ fields });
	}
	// Written into the JSON text, so that `__proto__` is an own key, as in an API answer.
	const named = names.map(
		(name) =>
			`${JSON.stringify(name)}:${JSON.stringify({ fieldName: name, displayName: name, valueType: name, values: [{ value: name }] })}`,
	);
	return JSON.parse(`{"fields":{${named.join(',')}}}`);
}

/** The provider catalog, an object of providers by name: the entries, or (given names) those names. */
function catalogOf(entries: unknown[], names: string[]): unknown {
	if (names.length === 0) {
		return asJson(Object.fromEntries(entries.map((entry, index) => [`odd${index}`, entry])));
	}
	const named = names.map(
		(name) => `${JSON.stringify(name)}:${JSON.stringify({ name, displayName: name })}`,
	);
	return JSON.parse(`{${named.join(',')}}`);
}

/** One integration whose latest revision reads the objects of all the entries. */
function integrationOf(entries: unknown[]): unknown {
	const objects = entries.flatMap((entry) => {
		const read = (entry as { latestRevision?: { content?: { read?: { objects?: unknown } } } })
			?.latestRevision?.content?.read?.objects;
		return Array.isArray(read) ? read : [];
	});
	const first = entries.find((entry) => typeof entry === 'object' && entry !== null) ?? {};
	return { ...first, latestRevision: { content: { read: { objects } } } };
}

/** The body for a request: the shape its path has, filled with `entries`. */
export function oddAnswer(entries: unknown[], names: string[] = []): Answer {
	return ({ url }) => {
		if (url === '/providers') return { body: catalogOf(entries, names) };
		if (/\/metadata$/.test(url)) return { body: metadataOf(names) };
		if (/\/operations$/.test(url)) return { body: { results: entries, pagination: {} } };
		if (/^\/orgs\/[^/]+$/.test(url)) return { body: entries[0] };
		if (/\/integrations\/[^/]+$/.test(url)) return { body: integrationOf(entries) };
		return { body: entries };
	};
}

/** Whole answers of the wrong shape, for every request. */
export const WRONG_BODIES: unknown[] = [null, 42, true, {}, { results: 'x' }, [[]], ['a', 1]];

const SCRIPT_ERROR =
	/is not a function|Cannot read prop|Cannot convert|is not iterable|Cannot destructure|is not an object|Cannot use 'in'/;

/** What a list method may end with: a list of text items, or a UserError (a reason). */
export function expectListOrReason(
	outcome: PromiseSettledResult<unknown>,
	label: string,
	/** Only that it is a UserError: for a method whose reasons another change makes readable. */
	anyReason = false,
): void {
	if (outcome.status === 'rejected') {
		const error = outcome.reason as Error;
		if (!(error instanceof UserError)) {
			throw new Error(`${label}: failed with ${error?.constructor?.name}: ${error?.message}`);
		}
		// A JavaScript error's text is no reason.
		if (!anyReason && SCRIPT_ERROR.test(error.message)) {
			throw new Error(`${label}: gave a JavaScript error as its reason: ${error.message}`);
		}
		return;
	}
	const value = outcome.value as {
		results?: unknown[];
		fields?: unknown[];
	};
	const items = Array.isArray(value) ? value : (value.results ?? value.fields);
	if (!Array.isArray(items)) throw new Error(`${label}: answered ${JSON.stringify(value)}`);
	for (const item of items as Array<Record<string, unknown>>) {
		const name = item.name ?? item.displayName;
		const itemValue = item.value ?? item.id;
		if (typeof name !== 'string' || /\[native code\]|\[object Object\]/.test(name)) {
			throw new Error(`${label}: an item named ${JSON.stringify(name)}`);
		}
		if (typeof itemValue !== 'string') {
			throw new Error(`${label}: an item with the value ${JSON.stringify(itemValue)}`);
		}
	}
	const values = (items as Array<Record<string, unknown>>).map((i) => i.value ?? i.id);
	if (new Set(values).size !== values.length) {
		throw new Error(`${label}: lists a value twice: ${JSON.stringify(values)}`);
	}
}
