import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	PreSendAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkPathSegment, checkUrlText, encodePathSegment } from '../../common/paths';
import { locatorProblem } from '../../common/locator';
import { addSecrets, secretsOf } from '../transport/secrets';

/**
 * Operations declare their request as the API reference writes it, with `{placeholders}` named
 * after node parameters: path `/projects/{project}/topic-destination-routes`, body
 * `{ topicId: '{topicId}', destinationId: '{destinationId}' }`. `resolveRequest` fills them in
 * plain code, reading each parameter once per item. Routing expressions
 * (`'=/projects/{{$parameter.project}}'`) or `routing.send` would do the same, but n8n 2.x
 * evaluates those again for every item (docs/n8n-notes.md, "Per-item cost of expressions").
 * docs/architecture.md follows one parameter from its field to the request.
 */

/** What a placeholder's field says about it, read from the field's own definition. */
export interface PlaceholderField {
	/** The field's displayName: error messages name the field as the user sees it. */
	label: string;
	/** A password field: its value travels in the URL and is masked in every error message. */
	secret: boolean;
	/** A resource locator's modes: their checks apply to the value an expression gives. */
	modes?: INodeProperties['modes'];
}

export type PlaceholderFields = Record<string, PlaceholderField>;

/** The placeholder fields of `names`, looked up in the node's field definitions. */
export function placeholderFields(
	names: Iterable<string>,
	fields: readonly INodeProperties[],
	where: string,
): PlaceholderFields {
	const result: PlaceholderFields = {};
	for (const name of names) {
		const field = fields.find((candidate) => candidate.name === name);
		// A developer error, caught when the node loads (and by the unit tests).
		if (!field) throw new Error(`${where}: no field named "${name}" for the placeholder {${name}}`);
		result[name] = {
			label: field.displayName,
			secret: field.typeOptions?.password === true,
			...(field.modes ? { modes: field.modes } : {}),
		};
	}
	return result;
}

/** The names of the `{placeholders}` in a path and in query and body templates. */
export function placeholderNames(
	path: string,
	templates: { qs?: IDataObject; body?: IDataObject },
): Set<string> {
	const names = new Set([...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]));
	for (const slot of [...slotsOf(templates.qs, 'qs'), ...slotsOf(templates.body, 'body')]) {
		names.add(slot.name);
	}
	return names;
}

interface ItemValues {
	values: Record<string, string>;
}

/**
 * Values resolved for one item, keyed by the item's execution context: preSend and postReceive of
 * an item share that object, so outputs such as `{ deleted: true, topicId }` reuse the values
 * without evaluating the parameters' expressions again.
 */
const resolvedValues = new WeakMap<object, ItemValues>();

function itemValues(context: object): ItemValues {
	let entry = resolvedValues.get(context);
	if (!entry) {
		entry = { values: {} };
		resolvedValues.set(context, entry);
	}
	return entry;
}

export function pathValues(context: object): Record<string, string> {
	return itemValues(context).values;
}

/** Values of password fields resolved for the item: masked in every error message. */
export function secretPathValues(context: object): string[] {
	return secretsOf(context);
}

/**
 * Records a secret the item sends outside a placeholder (e.g. a client secret a body builder
 * puts in the body): masked in every error message of the item, like password placeholders.
 */
export function addSecretValue(context: object, value: string): void {
	addSecrets(context, value);
}

/** Records a value for a placeholder (used when an operation computes one, e.g. the latest revision). */
export function setPathValue(context: object, name: string, value: string): void {
	pathValues(context)[name] = value;
}

const notSent = (context: IExecuteSingleFunctions, problem: string) =>
	new NodeOperationError(context.getNode(), problem, {
		itemIndex: context.getItemIndex(),
		description:
			'No request was sent. Fill in the parameter, or check the expression that sets it.',
	});

/**
 * A locator's value that its mode's check refuses (a name in "By ID"), which n8n lets through when
 * an expression gives it (nodes/common/locator.ts, `locatorProblem`).
 */
function checkMode(
	context: IExecuteSingleFunctions,
	name: string,
	field: PlaceholderField,
	value: unknown,
): void {
	if (!field.modes) return;
	const mode = context.getNodeParameter(`${name}.mode`, '');
	const problem = locatorProblem({ displayName: field.label, modes: field.modes }, mode, value);
	if (problem) throw notSent(context, problem);
}

/** A path value: read once per item, checked, kept for the item's output. */
function pathValue(
	context: IExecuteSingleFunctions,
	item: ItemValues,
	name: string,
	field: PlaceholderField,
): string {
	const { values } = item;
	if (values[name] === undefined) {
		const checked = checkPathSegment(
			field.label,
			context.getNodeParameter(name, undefined, { extractValue: true }),
		);
		if (typeof checked !== 'string') throw notSent(context, checked.problem);
		checkMode(context, name, field, checked);
		values[name] = checked;
		// Masked as typed and as it appears in the URL (percent-encoded).
		if (field.secret) addSecrets(context, checked, encodePathSegment(checked));
	}
	return values[name];
}

/**
 * A query or body value, never empty (the API requires every field it names). A query value is
 * text or a number, checked like a path value: an object or a list would turn into extra query
 * parameters (`name[key]=…`). A body value may be any JSON value; the service judges its type
 * (its problem document names the field), but a number JSON cannot carry (NaN, Infinity would arrive as null) is
 * refused here.
 */
function fieldValue(
	context: IExecuteSingleFunctions,
	values: Record<string, string>,
	slot: Slot,
	field: PlaceholderField,
): unknown {
	const { name } = slot;
	const { label } = field;
	const raw = context.getNodeParameter(name, undefined, { extractValue: true }) as unknown;
	if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
		throw notSent(context, `"${label}" is empty: the service requires it`);
	}
	if (slot.where === 'qs') {
		const checked = checkUrlText(label, raw);
		if (typeof checked !== 'string') throw notSent(context, checked.problem);
		checkMode(context, name, field, checked);
		values[name] = checked;
		return checked;
	}
	checkMode(context, name, field, raw);
	if (typeof raw === 'number' && !Number.isFinite(raw)) {
		throw notSent(context, `"${label}" must be text or a number, but its value is ${raw}`);
	}
	if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean')
		values[name] = String(raw);
	return raw;
}

export interface Slot {
	where: 'qs' | 'body';
	path: string[];
	name: string;
}

const VALUE_PLACEHOLDER = /^\{(\w+)\}$/;

/** Where a query or body template has `'{parameter}'` values. */
export function slotsOf(template: unknown, where: Slot['where'], path: string[] = []): Slot[] {
	if (typeof template === 'string') {
		const match = VALUE_PLACEHOLDER.exec(template);
		return match ? [{ where, path, name: match[1] }] : [];
	}
	if (typeof template !== 'object' || template === null || Array.isArray(template)) return [];
	return Object.entries(template).flatMap(([key, value]) => slotsOf(value, where, [...path, key]));
}

function setAt(target: IDataObject, path: string[], value: unknown): void {
	let node = target;
	for (const key of path.slice(0, -1)) {
		node[key] = (node[key] as IDataObject | undefined) ?? {};
		node = node[key] as IDataObject;
	}
	node[path[path.length - 1]] = value as IDataObject[string];
}

/**
 * preSend for an operation whose routing carries the templates: fills the path's placeholders
 * (each value one encoded segment) and the placeholder values of the query and body templates
 * (the parameter's value as it is: text, number, boolean or object).
 */
export function resolveRequest(
	templates: { qs?: IDataObject; body?: IDataObject },
	fields: PlaceholderFields,
): PreSendAction {
	const slots = [...slotsOf(templates.qs, 'qs'), ...slotsOf(templates.body, 'body')];
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const item = itemValues(this);
		requestOptions.url = (requestOptions.url ?? '').replace(/\{(\w+)\}/g, (_match, name: string) =>
			encodePathSegment(pathValue(this, item, name, fields[name])),
		);
		for (const slot of slots) {
			const target = (requestOptions[slot.where] ??= {}) as IDataObject;
			const value = fieldValue(this, item.values, slot, fields[slot.name]);
			// A password field's value in the body (a client secret) is masked in errors too.
			if (fields[slot.name].secret && typeof value === 'string') addSecrets(this, value);
			setAt(target, slot.path, value);
		}
		return requestOptions;
	};
}
