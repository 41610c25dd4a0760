import type { IHttpRequestOptions, INode } from 'n8n-workflow';

import { apiRequest, apiResponse, type ApiContext } from '../../../nodes/common/api';
import { redirectError } from '../../../nodes/common/redirect';

const node: INode = {
	id: 'n',
	name: 'Integration Platform',
	type: 'n8n-nodes-integration-platform.integrationPlatform',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** A context whose HTTP helper answers `answer` after setting the base URL, as the credential does. */
function contextAnswering(answer: {
	statusCode: number;
	headers?: Record<string, unknown>;
	body?: unknown;
}): ApiContext {
	return {
		getNode: () => node,
		getNodeParameter: (_name: string, fallback?: unknown) => fallback,
		helpers: {
			async httpRequestWithAuthentication(_type: string, request: IHttpRequestOptions) {
				request.baseURL ??= 'https://api.example.test/v1';
				return { body: '', headers: {}, ...answer };
			},
		},
	};
}

describe('a redirect answered to a request that carried the secret', () => {
	test.each([301, 302, 303, 307, 308])('%s is an error naming where it points', async (status) => {
		const context = contextAnswering({
			statusCode: status,
			headers: { Location: 'https://elsewhere.example/landing?token=abc#x' },
		});
		const error = await apiRequest(context, 'GET', '/projects').catch((e: Error) => e);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toBe(
			`The service answered HTTP ${status}, a redirect to https://elsewhere.example/landing, which the node does not follow`,
		);
		// The query string may carry anything: it stays out of the message.
		expect(JSON.stringify(error)).not.toContain('token=abc');
	});

	test('apiResponse, which hands back every other status, refuses a redirect too', async () => {
		const context = contextAnswering({ statusCode: 307, headers: { location: '/v1/moved' } });
		await expect(apiResponse(context, 'POST', '/projects/p/x')).rejects.toThrow(
			'The service answered HTTP 307, a redirect to https://api.example.test/v1/moved, which the node does not follow',
		);
	});

	test('a relative Location is resolved against the request URL below the base URL', async () => {
		const context = contextAnswering({ statusCode: 302, headers: { location: 'other' } });
		await expect(apiRequest(context, 'GET', '/projects/p')).rejects.toThrow(
			'a redirect to https://api.example.test/v1/projects/other,',
		);
	});

	test('secrets in the Location are masked', () => {
		const error = redirectError(
			node,
			302,
			{ location: 'https://h.example/keys/sk-12345/x' },
			{
				secrets: ['sk-12345'],
			},
		);
		expect(error.message).toContain('https://h.example/keys/[redacted]/x');
		expect(JSON.stringify(error)).not.toContain('sk-12345');
	});

	test('a redirect without a Location says so', () => {
		expect(redirectError(node, 301, {}).message).toBe(
			'The service answered HTTP 301, a redirect without a Location, which the node does not follow',
		);
	});

	test('304 Not Modified is no redirect', async () => {
		const context = contextAnswering({ statusCode: 304 });
		await expect(apiResponse(context, 'GET', '/projects')).resolves.toMatchObject({
			status: 304,
		});
	});
});
