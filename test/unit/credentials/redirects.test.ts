import type { IHttpRequestOptions } from 'n8n-workflow';

import { IntegrationPlatformApi } from '../../../credentials/IntegrationPlatformApi.credentials';
import { IntegrationPlatformTokenApi } from '../../../credentials/IntegrationPlatformTokenApi.credentials';

const keyData = { apiKey: 'ak-secret-1', baseUrl: 'http://127.0.0.1:4010' };
const tokenData = { accessToken: 'tok-secret-1', baseUrl: 'http://127.0.0.1:4010' };

/** What n8n reads to decide whether to follow redirects, in both request shapes. */
const NO_REDIRECTS = {
	// n8n's httpRequest helpers (httpRequestWithAuthentication)
	disableFollowRedirect: true,
	// the legacy request options of requestWithAuthentication (n8n's HTTP Request node)
	followRedirect: false,
	followAllRedirects: false,
	maxRedirects: 0,
	sendCredentialsOnCrossOriginRedirect: false,
};

describe.each([
	['the API key', new IntegrationPlatformApi(), keyData],
	['the bearer token', new IntegrationPlatformTokenApi(), tokenData],
])('%s never follows a redirect', (_name, credential, data) => {
	test('a routed request (n8n’s httpRequest options) is told not to follow', async () => {
		const out = await credential.authenticate(data, { url: '/projects' } as IHttpRequestOptions);
		expect(out).toMatchObject(NO_REDIRECTS);
	});

	test('the HTTP Request node’s request, set to follow every redirect, is told not to', async () => {
		// What n8n's HTTP Request node (4.x) hands to requestWithAuthentication by default.
		const request = {
			uri: 'http://127.0.0.1:4010/v1/projects',
			method: 'POST',
			followRedirect: true,
			followAllRedirects: true,
			maxRedirects: undefined,
			sendCredentialsOnCrossOriginRedirect: true,
		};
		const out = await credential.authenticate(data, request as unknown as IHttpRequestOptions);
		expect(out).toMatchObject(NO_REDIRECTS);
	});

	test('a request to another host, which gets no secret, keeps its redirect settings', async () => {
		const request = { url: 'https://elsewhere.example/x', followAllRedirects: true };
		const out = await credential.authenticate(data, { ...request } as IHttpRequestOptions);
		expect(out).toEqual(request);
	});
});
