/**
 * A minimal load-options context for the nodes' list methods, sending their requests to a
 * simulator with either credential (as the credentials' authenticate functions would), or
 * answering them with a scripted answer (`answeringContext`).
 *
 * `getCurrentNodeParameter` reads the parameters as n8n-core's load-options context does: a path
 * starting with `&` is resolved against the list's own `path` (its collection), dotted paths
 * reach into collections, and `extractValue` gives a locator's value. Given the node's
 * `properties`, extracting a value at a path where n8n finds no shown parameter fails as n8n-core
 * fails ("Could not find property").
 */
import type { ILoadOptionsFunctions, INodeProperties } from 'n8n-workflow';
import { findDisplayedProperty, NodeOperationError } from 'n8n-workflow';

import { SEED, type Simulator } from './actionEngine';

export interface SearchContextOptions {
	authentication?: 'apiKey' | 'bearerToken';
	/** The node's parameters as the editor holds them (text, locators, collections). */
	current?: Record<string, unknown>;
	/** The list's own parameter path, as n8n gives it, e.g. `parameters.connectionFilters.groupRef`. */
	path?: string;
	/** The node's properties and version, to fail as n8n-core does on a parameter not shown. */
	properties?: INodeProperties[];
	typeVersion?: number;
}

/** What a scripted API answers: the status and body for a request. */
export type Answer = (request: { method: string; url: string; qs?: Record<string, unknown> }) => {
	statusCode?: number;
	body: unknown;
};

export function searchContext(
	sim: Simulator,
	options: SearchContextOptions = {},
): ILoadOptionsFunctions {
	const authentication = options.authentication ?? 'apiKey';
	return answeringContext(async (request) => {
		const url = new URL(`${sim.apiUrl}/v1${request.url}`);
		for (const [k, v] of Object.entries(request.qs ?? {})) url.searchParams.set(k, String(v));
		const headers: Record<string, string> =
			authentication === 'apiKey'
				? { 'x-api-key': SEED.apiKey }
				: { authorization: `Bearer ${SEED.bearerToken}` };
		const response = await fetch(url, { method: request.method, headers });
		const text = await response.text();
		return { statusCode: response.status, body: text ? JSON.parse(text) : '' };
	}, options);
}

/** A context whose every request is answered by `answer` (status 200 unless it says). */
export function answeringContext(
	answer: (request: Parameters<Answer>[0]) => ReturnType<Answer> | Promise<ReturnType<Answer>>,
	options: SearchContextOptions = {},
): ILoadOptionsFunctions {
	const authentication = options.authentication ?? 'apiKey';
	const current = options.current ?? {};
	const path = options.path ?? 'parameters.list';
	const node = {
		id: 'search',
		name: 'Integration Platform',
		type: 'n8n-nodes-integration-platform.integrationPlatform',
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0] as [number, number],
		parameters: current,
	};
	const read = (parameterPath: string, extract?: { extractValue?: boolean }) => {
		const resolved = parameterPath.startsWith('&')
			? `${path.split('.').slice(1, -1).join('.')}.${parameterPath.slice(1)}`
			: parameterPath;
		const value = valueAt(current, resolved);
		if (!extract?.extractValue) return value;
		if (
			options.properties &&
			!findDisplayedProperty(
				resolved,
				options.properties,
				current as never,
				node as never,
				{ properties: options.properties } as never,
			)
		) {
			throw new NodeOperationError(node as never, 'Could not find property');
		}
		return isLocator(value) ? value.value : value;
	};
	return {
		getNode: () => node,
		getNodeParameter: (name: string, fallback?: unknown) =>
			name === 'authentication' ? authentication : fallback,
		getCurrentNodeParameter: read,
		getCurrentNodeParameters: () => current,
		helpers: {
			async httpRequestWithAuthentication(
				_type: string,
				request: { method: string; url: string; qs?: Record<string, unknown> },
			) {
				const { statusCode = 200, body } = await answer(request);
				return { statusCode, body, headers: { 'content-type': 'application/json' } };
			},
		},
	} as unknown as ILoadOptionsFunctions;
}

/** lodash's `get` for the dotted paths n8n's parameters use (a leading dot finds nothing). */
function valueAt(parameters: Record<string, unknown>, dotted: string): unknown {
	let value: unknown = parameters;
	for (const part of dotted.split('.')) {
		if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part))
			return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	return value;
}

const isLocator = (value: unknown): value is { value: unknown } =>
	typeof value === 'object' && value !== null && 'mode' in value && 'value' in value;
