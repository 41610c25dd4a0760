import type { IHttpRequestOptions } from 'n8n-workflow';

import { IntegrationPlatformApi } from '../../../credentials/IntegrationPlatformApi.credentials';
import { IntegrationPlatformTokenApi } from '../../../credentials/IntegrationPlatformTokenApi.credentials';

const apiKey = new IntegrationPlatformApi();
const token = new IntegrationPlatformTokenApi();
const keyData = {
	apiKey: 'ak-secret-1',
	baseUrl: 'http://127.0.0.1:4010',
	readUrl: 'http://127.0.0.1:4011/',
};
const tokenData = { accessToken: 'tok-secret-1', baseUrl: 'https://api.example.test/v1' };

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

	test.each([
		['another host', { url: 'https://collector.example/x' }],
		['the read host of an API-key credential', { url: 'http://127.0.0.1:4011/v1/x' }],
	])('%s gets no token', async (_name, request) => {
		expect(await sent(token, tokenData, request)).not.toContain('tok-secret-1');
	});
});
