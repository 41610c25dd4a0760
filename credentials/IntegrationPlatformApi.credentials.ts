import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	DEFAULT_API_URL,
	DEFAULT_PROXY_URL,
	DEFAULT_READ_URL,
	DEFAULT_SEARCH_URL,
	DEFAULT_WRITE_URL,
	isOwnHost,
	proxyBaseUrl,
	versionedBaseUrl,
	withoutRedirects,
} from '../nodes/common/hosts';

export class IntegrationPlatformApi implements ICredentialType {
	name = 'integrationPlatformApi';

	displayName = 'Integration Platform API';

	icon: Icon = {
		light: 'file:../icons/integrationPlatform.svg',
		dark: 'file:../icons/integrationPlatform.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-integration-platform/n8n-nodes-integration-platform#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				"A project API key, created in the dashboard under the project's API keys. Sent as the X-Api-Key header.",
		},
		{
			displayName: 'API Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_API_URL,
			description:
				'Origin of the management API. The node adds /v1. Point it at the local simulator to try the nodes without an account.',
		},
		{
			displayName: 'Read API Base URL',
			name: 'readUrl',
			type: 'string',
			default: DEFAULT_READ_URL,
			description:
				'Origin of the read API, used by Records → Trigger Read and Deliver Results and by Installation → Pause Reads and Unpause Reads. The node adds /v1.',
		},
		{
			displayName: 'Write API Base URL',
			name: 'writeUrl',
			type: 'string',
			default: DEFAULT_WRITE_URL,
			description: 'Origin of the write API, used by Records → Write. The node adds /v1.',
		},
		{
			displayName: 'Search API Base URL',
			name: 'searchUrl',
			type: 'string',
			default: DEFAULT_SEARCH_URL,
			description: 'Origin of the search API, used by Records → Search. The node adds /v1.',
		},
		{
			displayName: 'Proxy Base URL',
			name: 'proxyUrl',
			type: 'string',
			default: DEFAULT_PROXY_URL,
			description:
				"Origin of the proxy to the consumers' provider APIs, used by Provider API → Send Request",
		},
		{
			// n8n's HTTP Request node follows redirects by default; this credential overrides that.
			displayName:
				"Requests with this API key never follow redirects, in n8n's HTTP Request node too, so that the API key cannot reach another host: a redirect fails the request with its status (such as 302), or comes back as the answer where the node returns answers. Enter base URLs that answer directly (https rather than http).",
			name: 'redirectNotice',
			type: 'notice',
			default: '',
		},
	];

	// A function rather than a generic `{ headers: { 'X-Api-Key': '={{$credentials.apiKey}}' } }`:
	// generic authentication evaluates an expression on every request, which costs about a
	// millisecond per item in n8n 2.x (docs/n8n-notes.md, "Per-item cost of expressions"). It also supplies the management base URL
	// when a request carries none, so routing needs no `$credentials` expression either.
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		// The secret goes only to the credential's own hosts (docs/n8n-notes.md, "Credentials").
		if (
			!isOwnHost(requestOptions, [
				versionedBaseUrl(credentials.baseUrl, DEFAULT_API_URL),
				versionedBaseUrl(credentials.readUrl, DEFAULT_READ_URL),
				versionedBaseUrl(credentials.writeUrl, DEFAULT_WRITE_URL),
				versionedBaseUrl(credentials.searchUrl, DEFAULT_SEARCH_URL),
				proxyBaseUrl(credentials.proxyUrl),
			])
		)
			return requestOptions;
		requestOptions.headers = {
			...requestOptions.headers,
			'X-Api-Key': credentials.apiKey as string,
		};
		// Never carried to wherever a redirect points (hosts.ts, withoutRedirects).
		withoutRedirects(requestOptions);
		requestOptions.baseURL ??= versionedBaseUrl(credentials.baseUrl, DEFAULT_API_URL);
		return requestOptions;
	};

	// GET /v1/projects needs no scope and lists what the key can reach (docs/api-notes.md, "listProjects").
	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{ ($credentials.baseUrl || "https://api.withampersand.com").trim().replace(/\\/+$/, "").replace(/\\/v1$/, "") + "/v1" }}',
			url: '/projects',
			method: 'GET',
		},
		// n8n shows only the status text otherwise ("Unauthorized").
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The service refused the API key (HTTP 401). Check that it is a current API key of the project, and that the API Base URL is right.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API key was accepted but may not list projects (HTTP 403). Check its scopes.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answers /v1/projects at the API Base URL (HTTP 404). Check the API Base URL.',
				},
			},
		],
	};
}
