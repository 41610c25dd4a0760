import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkDateTime } from '../../../common/timestamps';

/** Request and answer shaping of Record → Search and Trigger Read (docs/api-notes.md, "Data plane"). */

interface FilterInput {
	fieldName?: string;
	value?: string | number | boolean;
	valueType?: 'string' | 'number' | 'boolean';
}

const notSent = (context: IExecuteSingleFunctions, message: string, hint: string) =>
	new NodeOperationError(context.getNode(), message, {
		itemIndex: context.getItemIndex(),
		description: `No request was sent. ${hint}`,
	});

/** A filter's value as the type the field has in the provider (the API takes text, numbers and booleans). */
function typedValue(context: IExecuteSingleFunctions, filter: FilterInput, position: number) {
	const { value, valueType = 'string' } = filter;
	const label = `Field Filters → filter ${position} ("${filter.fieldName}")`;
	if (valueType === 'number') {
		const number = typeof value === 'number' ? value : Number(String(value ?? '').trim());
		if (String(value ?? '').trim() === '' || !Number.isFinite(number)) {
			throw notSent(
				context,
				`${label}: "${String(value)}" is not a number`,
				'Set Value Type to Text, or give a number.',
			);
		}
		return number;
	}
	if (valueType === 'boolean') {
		const text = String(value).trim().toLowerCase();
		if (text !== 'true' && text !== 'false') {
			throw notSent(
				context,
				`${label}: "${String(value)}" is not true or false`,
				'Set Value Type to Text, or give true or false.',
			);
		}
		return text === 'true';
	}
	return String(value ?? '');
}

/** preSend of Search: `fieldFilters` from the node's filters, each `{ fieldName, operator: 'eq', value }`. */
export async function buildSearchFilters(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const { filter = [] } = this.getNodeParameter('fieldFilters', {}) as { filter?: FilterInput[] };
	if (filter.length === 0) {
		throw notSent(
			this,
			'Add at least one field filter',
			'The search API needs a field and the value it must equal.',
		);
	}
	const fieldFilters = filter.map((entry, index) => {
		const fieldName = String(entry.fieldName ?? '').trim();
		if (fieldName === '') {
			throw notSent(
				this,
				`Field Filters → filter ${index + 1} has no field name`,
				'Name the field the value is compared with.',
			);
		}
		return {
			fieldName,
			operator: 'eq',
			value: typedValue(this, { ...entry, fieldName }, index + 1),
		};
	});
	(requestOptions.body as IDataObject).fieldFilters = fieldFilters;
	return requestOptions;
}

/** postReceive of Search: one item per record found. */
export async function searchResults(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const result = (response.body as { result?: unknown } | undefined)?.result;
	return (Array.isArray(result) ? (result as IDataObject[]) : []).map((json) => ({ json }));
}

/** preSend of Trigger Read: the optional time window, as the UTC timestamps the API takes. */
export async function readWindow(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const { since, until } = this.getNodeParameter('readOptions', {}) as {
		since?: unknown;
		until?: unknown;
	};
	const body = requestOptions.body as IDataObject;
	for (const [name, label, value] of [
		['sinceTimestamp', 'Since', since],
		['untilTimestamp', 'Until', until],
	] as const) {
		if (value === undefined || value === null || value === '') continue;
		// n8n's date picker gives text, expressions may give anything (timestamps.ts).
		const checked = checkDateTime(label, value);
		if ('problem' in checked) {
			throw notSent(this, checked.problem, 'Pick a date, or give an ISO 8601 timestamp.');
		}
		body[name] = checked.iso;
	}
	return requestOptions;
}
