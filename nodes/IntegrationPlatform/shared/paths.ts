import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Operations declare their path as the API reference writes it, with `{placeholders}` named after
 * node parameters: `/projects/{project}/topics/{topic}`. `resolvePath` fills them in plain code.
 * An expression such as `'=/projects/{{$parameter.project}}/…'` would do the same, but n8n 2.x
 * evaluates routing expressions per item at about a millisecond each (README, "Speed").
 */
export interface PathParameter {
	displayName: string;
	/** The value is a secret (it travels in the URL): masked in every error message. */
	secret?: boolean;
}

export const PATH_PARAMETERS: Record<string, PathParameter> = {
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
};

/** Longest value accepted in a path segment; real IDs and names are far shorter. */
export const MAX_PATH_VALUE_LENGTH = 512;

/**
 * Path values resolved for one item, keyed by the item's execution context: preSend and
 * postReceive of an item share that object, so outputs such as `{ deleted: true, topicId }` reuse
 * the values without evaluating the parameters' expressions again.
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
		.filter(([name]) => PATH_PARAMETERS[name]?.secret)
		.map(([, value]) => value);
}

/**
 * Encodes one path segment so that no value can change the path or add a query: `/`, `?`, `#`
 * and `%` are percent-encoded by encodeURIComponent, and a segment of `.` or `..` (which URL
 * resolution would collapse) gets its dots encoded too.
 */
export function encodePathSegment(value: string): string {
	const encoded = encodeURIComponent(value);
	return encoded === '.' || encoded === '..' ? encoded.replace(/\./g, '%2E') : encoded;
}

/** Checks a path value and explains, naming the parameter, why it cannot be sent. */
export function checkPathValue(name: string, raw: unknown): string | { problem: string } {
	const label = PATH_PARAMETERS[name]?.displayName ?? name;
	if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
		return { problem: `"${label}" is empty: it is required to build the request path` };
	}
	if (typeof raw !== 'string' && typeof raw !== 'number') {
		return {
			problem: `"${label}" must be text, but its value is ${Array.isArray(raw) ? 'a list' : typeof raw}`,
		};
	}
	const value = String(raw).trim();
	if (value.length > MAX_PATH_VALUE_LENGTH) {
		return {
			problem: `"${label}" is ${value.length} characters long; the service accepts at most ${MAX_PATH_VALUE_LENGTH}`,
		};
	}
	return value;
}

/** Records a value for a placeholder (used when an operation computes one, e.g. the latest revision). */
export function setPathValue(context: object, name: string, value: string): void {
	pathValues(context)[name] = value;
}

/** preSend: fills the path template's placeholders from node parameters, each once per item. */
export async function resolvePath(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const values = pathValues(this);
	requestOptions.url = (requestOptions.url ?? '').replace(/\{(\w+)\}/g, (_match, name: string) => {
		if (values[name] === undefined) {
			const checked = checkPathValue(
				name,
				this.getNodeParameter(name, undefined, { extractValue: true }),
			);
			if (typeof checked !== 'string') {
				throw new NodeOperationError(this.getNode(), checked.problem, {
					itemIndex: this.getItemIndex(),
					description:
						'No request was sent. Fill in the parameter, or check the expression that sets it.',
				});
			}
			values[name] = checked;
		}
		return encodePathSegment(values[name]);
	});
	return requestOptions;
}
