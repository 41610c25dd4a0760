import type { IExecuteSingleFunctions, IHttpRequestOptions, PreSendAction } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkWholeNumber } from '../../common/numbers';
import { describeInput } from '../../common/timestamps';

/**
 * preSend factory: parses a JSON parameter before any request is made, naming the parameter when
 * it is not valid JSON (or not the expected kind of value), and places it in the body.
 */
export function jsonBodyParameter(
	parameter: string,
	label: string,
	bodyPath: string[],
	kind: 'object' | 'array' = 'object',
): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const value = parseJsonParameter(this, parameter, label, kind);
		if (value === undefined) return requestOptions;
		const body = (requestOptions.body ?? {}) as Record<string, unknown>;
		let target = body;
		for (const key of bodyPath.slice(0, -1)) {
			target[key] = (target[key] as Record<string, unknown> | undefined) ?? {};
			target = target[key] as Record<string, unknown>;
		}
		target[bodyPath[bodyPath.length - 1]] = value;
		requestOptions.body = body;
		return requestOptions;
	};
}

export function parseJsonParameter(
	context: IExecuteSingleFunctions,
	parameter: string,
	label: string,
	kind: 'object' | 'array',
): unknown {
	const raw = context.getNodeParameter(parameter, undefined) as unknown;
	const fail = (problem: string) =>
		new NodeOperationError(context.getNode(), `"${label}" ${problem}`, {
			itemIndex: context.getItemIndex(),
			description:
				'No request was sent. Fix the JSON in the parameter, or the expression that produces it.',
		});
	// Every JSON parameter of the node is required where it is shown: empty is not "nothing".
	if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
		throw fail(`is empty: enter a JSON ${kind}`);
	}
	let value = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw fail(`is not valid JSON: ${(error as Error).message}`);
		}
	}
	const isArray = Array.isArray(value);
	const isObject = typeof value === 'object' && value !== null && !isArray;
	if (kind === 'object' && !isObject)
		throw fail(`must be a JSON object ({ … }), not ${describeKind(value)}`);
	if (kind === 'array' && !isArray)
		throw fail(`must be a JSON array ([ … ]), not ${describeKind(value)}`);
	return value;
}

function describeKind(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/**
 * A required parameter the operation puts in the body itself (not a template value): refused
 * before any request when empty; its type is left to the service to judge (its problem document names the field).
 * `extractValue` reads a resource locator's value (a text field's value passes unchanged).
 */
export function requiredParameter(
	context: IExecuteSingleFunctions,
	parameter: string,
	label: string,
	options: { extractValue?: boolean } = {},
): unknown {
	const value = context.getNodeParameter(parameter, undefined, options) as unknown;
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		throw new NodeOperationError(
			context.getNode(),
			`"${label}" is empty: the service requires it`,
			{
				itemIndex: context.getItemIndex(),
				description:
					'No request was sent. Fill in the parameter, or check the expression that sets it.',
			},
		);
	}
	return value;
}

/**
 * Return All and Limit of a list operation, checked: Limit a whole number of at least 1, Return
 * All a boolean (the text "false" from an expression would otherwise count as true). Read by the
 * first page's preSend, before anything is sent, and when the answer is cut to Limit.
 */
export function listLimit(
	context: Pick<IExecuteSingleFunctions, 'getNodeParameter' | 'getNode' | 'getItemIndex'>,
	sent = false,
): { returnAll: boolean; limit: number } {
	const fail = (problem: string) =>
		new NodeOperationError(context.getNode(), problem, {
			itemIndex: context.getItemIndex(),
			description: `${sent ? 'The list was read, but no item is returned.' : 'No request was sent.'} Fix the value, or the expression that sets it.`,
		});
	const returnAll = context.getNodeParameter('returnAll', false) as unknown;
	if (typeof returnAll !== 'boolean') {
		throw fail(`"Return All" must be true or false, not ${describeInput(returnAll)}`);
	}
	if (returnAll) return { returnAll, limit: Number.POSITIVE_INFINITY };
	const limit = checkWholeNumber('Limit', context.getNodeParameter('limit', 50), 1);
	if (typeof limit !== 'number') throw fail(limit.problem);
	return { returnAll, limit };
}

/** preSend of every list operation (defineOperation.ts): Return All and Limit checked before the list is asked for. */
export const checkListLimit: PreSendAction = async function (
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	listLimit(this);
	return requestOptions;
};
