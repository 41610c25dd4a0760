/**
 * A minimal load-options context for the action node's listSearch methods, sending their requests
 * to a simulator with either credential (as the credentials' authenticate functions would).
 */
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { SEED, type Simulator } from './actionEngine';

export function searchContext(
	sim: Simulator,
	options: { authentication?: 'apiKey' | 'bearerToken'; current?: Record<string, string> } = {},
): ILoadOptionsFunctions {
	const authentication = options.authentication ?? 'apiKey';
	const node = {
		id: 'search',
		name: 'Integration Platform',
		type: 'n8n-nodes-integration-platform.integrationPlatform',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	return {
		getNode: () => node,
		getNodeParameter: (name: string, fallback?: unknown) =>
			name === 'authentication' ? authentication : fallback,
		getCurrentNodeParameter: (name: string) => options.current?.[name],
		helpers: {
			async httpRequestWithAuthentication(
				_type: string,
				request: { method: string; url: string; qs?: Record<string, string>; body?: unknown },
			) {
				const url = new URL(`${sim.apiUrl}/v1${request.url}`);
				for (const [k, v] of Object.entries(request.qs ?? {})) url.searchParams.set(k, String(v));
				const headers: Record<string, string> =
					authentication === 'apiKey'
						? { 'x-api-key': SEED.apiKey }
						: { authorization: `Bearer ${SEED.bearerToken}` };
				const response = await fetch(url, { method: request.method, headers });
				const text = await response.text();
				return {
					statusCode: response.status,
					body: text ? JSON.parse(text) : '',
					headers: Object.fromEntries(response.headers),
				};
			},
		},
	} as unknown as ILoadOptionsFunctions;
}
