import type {
	IDisplayOptions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	PreSendAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { projectLocator } from '../shared/project';

/**
 * Fields used by several operations. Each is defined ONCE with display options that cover every
 * operation using it: n8n's routing engine evaluates every property object on every item, so a
 * parameter defined five times would have its expression evaluated five times per item.
 */

/** Resources whose operations live under /projects/{projectIdOrName}. */
export const PROJECT_RESOURCES = [
	'apiKey',
	'connection',
	'customField',
	'destination',
	'installation',
	'integration',
	'jwtKey',
	'notificationEventTopicRoute',
	'operation',
	'revision',
	'topic',
	'topicDestinationRoute',
];

const show = (options: IDisplayOptions['show']): IDisplayOptions => ({ show: options });

export const projectField: INodeProperties = {
	...projectLocator,
	displayOptions: show({ resource: PROJECT_RESOURCES }),
};

export const integrationField: INodeProperties = {
	displayName: 'Integration',
	name: 'integration',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'An integration of the project, from the list or by ID',
	displayOptions: show({ resource: ['installation', 'revision'] }),
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an integration…',
			typeOptions: { searchListMethod: 'searchIntegrations', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 1a7e…' },
	],
};

export const installationField: INodeProperties = {
	displayName: 'Installation',
	name: 'installation',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'An installation of the integration, from the list (shown by group) or by ID',
	displayOptions: show({ resource: ['installation'] }),
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an installation…',
			typeOptions: { searchListMethod: 'searchInstallations', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 9b3e…' },
	],
};

export const connectionField: INodeProperties = {
	displayName: 'Connection',
	name: 'connectionId',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description:
		"The consumer's connection to the provider; the service uses its credentials to read field metadata",
	displayOptions: show({ resource: ['revision'] }),
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a connection…',
			typeOptions: { searchListMethod: 'searchConnections', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 4c0d…' },
	],
};

export const destinationField: INodeProperties = {
	displayName: 'Destination',
	name: 'destination',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'The destination, by name (as the API documents it) or ID',
	displayOptions: show({ resource: ['destination'] }),
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a destination…',
			typeOptions: { searchListMethod: 'searchDestinations', searchable: true },
		},
		{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. n8n-webhook' },
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 0c5e…' },
	],
};

export const topicField: INodeProperties = {
	displayName: 'Topic',
	name: 'topic',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'The topic, from the list or by ID',
	displayOptions: show({ resource: ['topic'] }),
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a topic…',
			typeOptions: { searchListMethod: 'searchTopics', searchable: true },
		},
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 2d4f…' },
	],
};

/** Limit for list operations; the API returns whole lists, so the node slices them. */
export function returnAllAndLimit(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...displayOptions.show, returnAll: [false] } },
		},
	];
}

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
 * before any request when empty; its type is left to the service to judge (README, "Errors").
 */
export function requiredParameter(
	context: IExecuteSingleFunctions,
	parameter: string,
	label: string,
): unknown {
	const value = context.getNodeParameter(parameter, undefined) as unknown;
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

export const orgIdField: INodeProperties = {
	displayName: 'Organization ID',
	name: 'orgId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 8d2b…',
	description: 'ID of the organization (shown as orgId on every project)',
	displayOptions: show({ resource: ['organization', 'invite'] }),
};
