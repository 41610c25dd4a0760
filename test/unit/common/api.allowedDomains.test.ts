/**
 * apiResponse (nodes/common/api.ts) under the credential's Allowed HTTP Request Domains: a host
 * outside them is refused before the HTTP helper is called, in n8n's words; a host inside gets the
 * list as n8n's `allowedDomains` request option; the credential is read once per request, and the
 * helper is handed it rather than reading it again (as n8n's helper does without
 * `credentialsDecrypted`).
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IHttpRequestOptions,
	INode,
} from 'n8n-workflow';

import { apiRequest, apiResponse, type ApiContext } from '../../../nodes/common/api';
import { domainRefusal } from '../../../nodes/common/domains';

const node: INode = {
	id: 'n',
	name: 'Integration Platform',
	type: 'n8n-nodes-integration-platform.integrationPlatform',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	credentials: { integrationPlatformApi: { id: 'c1', name: 'Key' } },
};

const KEY = 'sk-allowed-domains-test';

/** A context over one credential that counts reads of it, as n8n decrypts it on each. */
function contextWith(
	credential: ICredentialDataDecryptedObject,
	answer: { statusCode: number; body?: unknown } = { statusCode: 200, body: { ok: true } },
) {
	const seen: { reads: number; requests: IHttpRequestOptions[] } = { reads: 0, requests: [] };
	const context: ApiContext = {
		getNode: () => node,
		getNodeParameter: (_name: string, fallback?: unknown) => fallback,
		getCredentials: async () => {
			seen.reads++;
			return { ...credential };
		},
		helpers: {
			async httpRequestWithAuthentication(
				_type: string,
				request: IHttpRequestOptions,
				options?: { credentialsDecrypted?: ICredentialsDecrypted },
			) {
				// n8n's helper reads the credential itself unless it is handed one.
				if (!options?.credentialsDecrypted) seen.reads++;
				request.baseURL ??= 'https://api.example.test/v1';
				seen.requests.push(request);
				return { headers: {}, ...answer };
			},
		},
	};
	return { context, seen };
}

const base = { apiKey: KEY, baseUrl: 'https://api.example.test' };
const restricted = (allowedDomains: string) => ({
	...base,
	allowedHttpRequestDomains: 'domains',
	allowedDomains,
});

describe('a credential restricted to other domains', () => {
	test('the request is refused before the helper is called, naming the host and the allowed domains', async () => {
		const { context, seen } = contextWith(restricted('other.example, *.other.example'));
		const error = await apiRequest(context, 'GET', '/projects').catch((e: unknown) => e);
		expect(seen.requests).toEqual([]);
		expect((error as Error).message).toBe(
			'Domain not allowed: This credential is restricted from accessing api.example.test. Only the following domains are allowed: other.example, *.other.example',
		);
		expect((error as { description?: string }).description).toContain('No request was sent.');
	});

	test('a request to another of the credential’s hosts is checked against that host', async () => {
		const { context, seen } = contextWith(restricted('api.example.test'));
		await expect(
			apiResponse(context, 'POST', '/write', { baseUrl: 'https://write.example.test/v1' }),
		).rejects.toThrow('restricted from accessing write.example.test');
		expect(seen.requests).toEqual([]);
	});

	test('Specific Domains with none listed: n8n’s own refusal, nothing sent', async () => {
		const { context, seen } = contextWith(restricted(''));
		await expect(apiResponse(context, 'GET', '/projects')).rejects.toThrow(
			'No allowed domains specified',
		);
		expect(seen.requests).toEqual([]);
	});
});

describe('a credential whose domains include the host', () => {
	test('the request goes with the list as n8n’s allowedDomains option (checked again on any redirect)', async () => {
		const { context, seen } = contextWith(restricted('api.example.test'));
		await apiRequest(context, 'GET', '/projects');
		expect(seen.requests).toHaveLength(1);
		expect(seen.requests[0].allowedDomains).toBe('api.example.test');
	});

	test('the credential is read once per request, an error answer included', async () => {
		const ok = contextWith(restricted('api.example.test'));
		await apiRequest(ok.context, 'GET', '/projects');
		expect(ok.seen.reads).toBe(1);

		const failing = contextWith(restricted('api.example.test'), {
			statusCode: 404,
			body: { title: 'Not Found', detail: `no such key ${KEY}` },
		});
		const error = await apiRequest(failing.context, 'GET', '/projects/x').catch(
			(e: unknown) => e as Error,
		);
		expect(failing.seen.reads).toBe(1);
		// The secret read for the request still masks the answer.
		expect(JSON.stringify(error)).not.toContain(KEY);
	});

	test('All, or no setting (n8n before the setting existed): no allowedDomains option', async () => {
		for (const credential of [{ ...base, allowedHttpRequestDomains: 'all' }, base]) {
			const { context, seen } = contextWith(credential);
			await apiRequest(context, 'GET', '/projects');
			expect(seen.requests[0]).not.toHaveProperty('allowedDomains');
		}
	});
});

test('a context without getCredentials (a hand-written one) still sends', async () => {
	const { context, seen } = contextWith(base);
	delete (context as { getCredentials?: unknown }).getCredentials;
	await expect(apiRequest(context, 'GET', '/projects')).resolves.toEqual({ ok: true });
	expect(seen.requests).toHaveLength(1);
});

test('domainRefusal names a URL that does not parse without its query or user info', () => {
	const refusal = domainRefusal(
		node,
		restricted('api.example.test'),
		'https://user:pw@[bad/v1?token=t',
	);
	const message = refusal?.().message ?? '';
	expect(message).toContain('restricted from accessing https://[bad/v1.');
	expect(message).not.toContain('pw');
	expect(message).not.toContain('token=t');
});
