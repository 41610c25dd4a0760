import type { IHttpRequestOptions } from 'n8n-workflow';

import { IntegrationPlatformApi } from '../../../credentials/IntegrationPlatformApi.credentials';
import { IntegrationPlatformTokenApi } from '../../../credentials/IntegrationPlatformTokenApi.credentials';

const apiKey = new IntegrationPlatformApi();
const token = new IntegrationPlatformTokenApi();
const keyData = {
	apiKey: 'ak-secret-1',
	baseUrl: 'http://127.0.0.1:4010',
	readUrl: 'http://127.0.0.1:4011/',
	writeUrl: 'http://127.0.0.1:4012',
	searchUrl: 'http://127.0.0.1:4013/v1',
	proxyUrl: 'http://127.0.0.1:4014/',
};
const tokenData = {
	accessToken: 'tok-secret-1',
	baseUrl: 'https://api.example.test/v1',
	searchUrl: 'https://search.example.test',
};

const sent = async (
	credential: IntegrationPlatformApi | IntegrationPlatformTokenApi,
	data: Record<string, string>,
	request: Partial<IHttpRequestOptions> & { uri?: string },
) => JSON.stringify(await credential.authenticate(data, { ...request } as IHttpRequestOptions));

describe('the API key goes only to the credential’s own hosts', () => {
	test.each([
		['a routed path (no URL of its own)', { url: '/projects' }],
		['the management host', { url: 'http://127.0.0.1:4010/v1/projects' }],
		['the read host', { url: 'http://127.0.0.1:4011/v1/projects/p/x:unpause' }],
		['a base URL of the read host', { baseURL: 'http://127.0.0.1:4011/v1', url: '/x' }],
		['the write host', { baseURL: 'http://127.0.0.1:4012/v1', url: '/projects/p/x' }],
		['the search host', { url: 'http://127.0.0.1:4013/v1/projects/p/integrations/i' }],
		['the proxy (no /v1)', { url: 'http://127.0.0.1:4014/crm/v3/objects/contacts' }],
	])('%s gets the key', async (_name, request) => {
		expect(await sent(apiKey, keyData, request)).toContain('ak-secret-1');
	});

	test.each([
		['another host', { url: 'https://collector.example/steal' }],
		['another port of the same host', { url: 'http://127.0.0.1:9999/v1/projects' }],
		['another scheme', { url: 'https://127.0.0.1:4010/v1/projects' }],
		['a base URL of another host', { baseURL: 'https://collector.example', url: '/x' }],
		['a request library uri', { uri: 'https://collector.example/x' }],
		['a URL that does not parse', { url: 'http://[bad' }],
		['a lookalike host', { url: 'http://127.0.0.1:4010.collector.example/v1' }],
		['the proxy host under another scheme', { url: 'https://127.0.0.1:4014/crm' }],
	])('%s gets no key', async (_name, request) => {
		const out = await sent(apiKey, keyData, request);
		expect(out).not.toContain('ak-secret-1');
	});

	test('a routed path gets the management base URL', async () => {
		const out = await apiKey.authenticate(keyData, { url: '/projects' } as IHttpRequestOptions);
		expect(out.baseURL).toBe('http://127.0.0.1:4010/v1');
	});
});

describe('the bearer token goes only to the credential’s own host', () => {
	test('its own host gets the token', async () => {
		expect(await sent(token, tokenData, { url: 'https://API.example.test:443/v1/orgs' })).toContain(
			'tok-secret-1',
		);
	});

	test('its search host gets the token (Record → Search accepts a bearer token)', async () => {
		expect(
			await sent(token, tokenData, {
				url: 'https://search.example.test/v1/projects/p/integrations/i',
			}),
		).toContain('tok-secret-1');
	});

	test('without a Search API Base URL, the default search host is its own', async () => {
		const { searchUrl: _omitted, ...withoutSearch } = tokenData;
		expect(
			await sent(token, withoutSearch, {
				url: 'https://search.withampersand.com/v1/projects/p/integrations/i',
			}),
		).toContain('tok-secret-1');
	});

	test.each([
		['another host', { url: 'https://collector.example/x' }],
		['the read host of an API-key credential', { url: 'http://127.0.0.1:4011/v1/x' }],
		[
			'the default write host (the write API refuses tokens)',
			{ url: 'https://write.withampersand.com/v1/x' },
		],
		['the default proxy', { url: 'https://proxy.withampersand.com/crm' }],
	])('%s gets no token', async (_name, request) => {
		expect(await sent(token, tokenData, request)).not.toContain('tok-secret-1');
	});
});
