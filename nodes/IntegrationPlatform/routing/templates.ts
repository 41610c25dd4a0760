import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	PreSendAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkPathSegment, checkUrlText, encodePathSegment } from '../../shared/paths';
import type { Checked } from '../../shared/paths';

/**
 * Operations declare their request as the API reference writes it, with `{placeholders}` named
 * after node parameters: path `/projects/{project}/topic-destination-routes`, body
 * `{ topicId: '{topicId}', destinationId: '{destinationId}' }`. `resolveRequest` fills them in
 * plain code, reading each parameter once per item. Routing expressions
 * (`'=/projects/{{$parameter.project}}'`) or `routing.send` would do the same, but n8n 2.x
 * evaluates those again for every item, at up to a millisecond each (README, "Speed").
 */
export interface TemplateParameter {
	displayName: string;
	/** The value is a secret (it travels in the URL): masked in every error message. */
	secret?: boolean;
}

export const TEMPLATE_PARAMETERS: Record<string, TemplateParameter> = {
	project: { displayName: 'Project' },
	apiKey: { displayName: 'API Key to Delete', secret: true },
	provider: { displayName: 'Provider' },
	integration: { displayName: 'Integration' },
	installation: { displayName: 'Installation' },
	revision: { displayName: 'Revision ID' },
	destination: { displayName: 'Destination' },
	operationId: { displayName: 'Operation ID' },
	topic: { displayName: 'Topic' },
	route: { displayName: 'Route' },
	jwtKey: { displayName: 'JWT Key' },
	orgId: { displayName: 'Organization ID' },
	inviteId: { displayName: 'Invite ID' },
	topicId: { displayName: 'Topic' },
	destinationId: { displayName: 'Destination' },
	connectionId: { displayName: 'Connection' },
	domain: { displayName: 'Domain' },
	parentId: { displayName: 'Organization ID' },
	parentType: { displayName: 'Parent Type' },
	label: { displayName: 'Label' },
	name: { displayName: 'Name' },
	specVersion: { displayName: 'Spec Version' },
};

/**
 * Values resolved for one item, keyed by the item's execution context: preSend and postReceive of
 * an item share that object, so outputs such as `{ deleted: true, topicId }` reuse the values
 * without evaluating the parameters' expressions again.
 */
const resolvedValues = new WeakMap<object, Record<string, string>>();

export function pathValues(context: object): Record<string, string> {
	let values = resolvedValues.get(context);
	if (!values) {
		values = {};
		resolvedValues.set(context, values);
	}
	return values;
}

export function secretPathValues(context: object): string[] {
	const values = resolvedValues.get(context) ?? {};
	return Object.entries(values)
		.filter(([name]) => TEMPLATE_PARAMETERS[name]?.secret)
		.map(([, value]) => value);
}

/** Checks a path value and explains, naming the parameter, why it cannot be sent. */
export function checkPathValue(name: string, raw: unknown): Checked {
	return checkPathSegment(TEMPLATE_PARAMETERS[name]?.displayName ?? name, raw);
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

/** A path value: read once per item, checked, kept for the item's output. */
function pathValue(
	context: IExecuteSingleFunctions,
	values: Record<string, string>,
	name: string,
): string {
	if (values[name] === undefined) {
		const checked = checkPathValue(
			name,
			context.getNodeParameter(name, undefined, { extractValue: true }),
		);
		if (typeof checked !== 'string') throw notSent(context, checked.problem);
		values[name] = checked;
	}
	return values[name];
}

/**
 * A query or body value, never empty (the API requires every field it names). A query value is
 * text or a number, checked like a path value: an object or a list would turn into extra query
 * parameters (`name[key]=…`). A body value may be any JSON value; the service judges its type
 * (README, "Errors"), but a number JSON cannot carry (NaN, Infinity would arrive as null) is
 * refused here.
 */
function fieldValue(
	context: IExecuteSingleFunctions,
	values: Record<string, string>,
	slot: Slot,
): unknown {
	const { name } = slot;
	const raw = context.getNodeParameter(name, undefined, { extractValue: true }) as unknown;
	const label = TEMPLATE_PARAMETERS[name]?.displayName ?? name;
	if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
		throw notSent(context, `"${label}" is empty: the service requires it`);
	}
	if (slot.where === 'qs') {
		const checked = checkUrlText(label, raw);
		if (typeof checked !== 'string') throw notSent(context, checked.problem);
		values[name] = checked;
		return checked;
	}
	if (typeof raw === 'number' && !Number.isFinite(raw)) {
		throw notSent(context, `"${label}" must be text or a number, but its value is ${raw}`);
	}
	if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean')
		values[name] = String(raw);
	return raw;
}

interface Slot {
	where: 'qs' | 'body';
	path: string[];
	name: string;
}

const VALUE_PLACEHOLDER = /^\{(\w+)\}$/;

/** Where a query or body template has `'{parameter}'` values. */
function slotsOf(template: unknown, where: Slot['where'], path: string[] = []): Slot[] {
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
export function resolveRequest(templates: { qs?: IDataObject; body?: IDataObject }): PreSendAction {
	const slots = [...slotsOf(templates.qs, 'qs'), ...slotsOf(templates.body, 'body')];
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const values = pathValues(this);
		requestOptions.url = (requestOptions.url ?? '').replace(/\{(\w+)\}/g, (_match, name: string) =>
			encodePathSegment(pathValue(this, values, name)),
		);
		for (const slot of slots) {
			const target = (requestOptions[slot.where] ??= {}) as IDataObject;
			setAt(target, slot.path, fieldValue(this, values, slot));
		}
		return requestOptions;
	};
}
