import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	PreSendAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Helpers for the management API's recurring request shapes (docs/api-notes.md, "The wider API"):
 * field-mask updates (`{ updateMask: [...], <object>: { ... } }`) and boolean query flags set from
 * an Options collection.
 */

/** A field of an Update Fields collection and where its value goes in the update object. */
export interface MaskedField {
	/** The option's name in the collection. */
	option: string;
	/** The option's display name, for error messages. */
	label: string;
	/** The mask entry the service expects (also the key in the update object). */
	mask: string;
	/** Turns the option's value into what the service expects (e.g. a comma-separated list). */
	convert?: (value: unknown) => unknown;
}

/**
 * preSend factory: builds `{ updateMask, [objectKey]: {...} }` from the options the user added to
 * the `updateFields` collection; refuses before sending when none was added (the service needs a
 * non-empty mask).
 */
export function maskedUpdate(objectKey: string, fields: MaskedField[]): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const chosen = this.getNodeParameter('updateFields', {}) as IDataObject;
		const updateMask: string[] = [];
		const object: IDataObject = {};
		for (const field of fields) {
			const value = chosen?.[field.option];
			if (value === undefined) continue;
			updateMask.push(field.mask);
			object[field.mask] = (field.convert ? field.convert(value) : value) as IDataObject[string];
		}
		if (updateMask.length === 0) {
			throw new NodeOperationError(
				this.getNode(),
				`Add at least one field to update: ${fields.map((f) => f.label).join(', ')}`,
				{
					itemIndex: this.getItemIndex(),
					description: 'The service needs a non-empty update mask. No request was sent.',
				},
			);
		}
		requestOptions.body = { updateMask, [objectKey]: object };
		return requestOptions;
	};
}

/**
 * A comma-separated list (or a list from an expression) as an array of trimmed, non-empty texts;
 * anything else is passed on as it is, for the service to judge (its problem names the field).
 */
export function textList(value: unknown): unknown {
	if (typeof value === 'string') {
		return value
			.split(',')
			.map((entry) => entry.trim())
			.filter((entry) => entry !== '');
	}
	return value;
}

/**
 * preSend factory: a boolean query parameter from an option of the `options` collection, read
 * strictly (true or false, or their text); anything else an expression produces is refused, since
 * n8n's request would send an object as `name[key]=…`. Left out when the option is not set.
 */
export function booleanOptionQuery(option: string, query: string, label: string): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const raw = options?.[option];
		if (raw === undefined) return requestOptions;
		const flag =
			raw === true || raw === 'true' ? true : raw === false || raw === 'false' ? false : undefined;
		if (flag === undefined) {
			throw new NodeOperationError(
				this.getNode(),
				`"${label}" must be true or false, but its value is ${JSON.stringify(raw)?.slice(0, 40) ?? typeof raw}`,
				{
					itemIndex: this.getItemIndex(),
					description: 'No request was sent. Check the expression that sets the option.',
				},
			);
		}
		requestOptions.qs = { ...(requestOptions.qs ?? {}), [query]: flag };
		return requestOptions;
	};
}
