import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkPathSegment } from '../../common/paths';

/**
 * What the operations run in code (defineOperation.ts, `custom`) share besides their requests
 * (transport/send.ts): their type, their items' URL values, and parameters read once.
 */

/** An operation run in code instead of routing (n8n's `customOperations`), with all items at once. */
export type CustomOperation = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/**
 * A value for one item that travels in the URL (a path segment or query value), checked like the
 * routed operations' placeholders (templates.ts): text or a number, not empty, not `.` or `..`.
 */
export function urlValue(node: INode, itemIndex: number, label: string, raw: unknown): string {
	const empty = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
	const checked = empty
		? { problem: `"${label}" is empty: the service requires it` }
		: checkPathSegment(label, raw);
	if (typeof checked !== 'string') {
		throw new NodeOperationError(node, checked.problem, {
			itemIndex,
			description:
				'No request was sent for this item. Fill in the parameter, or check the expression that sets it.',
		});
	}
	return checked;
}

/** Whether a parameter's stored value holds an expression anywhere (n8n marks them with a leading "="). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (typeof value === 'object' && value !== null)
		return Object.values(value).some(holdsExpression);
	return false;
}

/**
 * Node parameters for many items, each read once when it holds no expression: n8n's
 * getNodeParameter copies and checks the value on every call, which adds up over thousands of
 * items (docs/n8n-notes.md, "Per-item cost of expressions"). A parameter with an expression is
 * still evaluated for each item.
 */
export class ItemParameters {
	private readonly fixed = new Map<string, unknown>();

	constructor(private readonly context: IExecuteFunctions) {}

	get<T = unknown>(name: string, itemIndex: number, fallback?: unknown, extractValue = false): T {
		if (this.fixed.has(name)) return this.fixed.get(name) as T;
		const read = (index: number) =>
			this.context.getNodeParameter(name, index, fallback, extractValue ? { extractValue } : {});
		if (holdsExpression(this.context.getNode().parameters[name])) return read(itemIndex) as T;
		const value = read(itemIndex);
		this.fixed.set(name, value);
		return value as T;
	}
}
