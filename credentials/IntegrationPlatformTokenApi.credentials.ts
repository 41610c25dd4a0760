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
	DEFAULT_SEARCH_URL,
	isOwnHost,
	versionedBaseUrl,
	withoutRedirects,
} from '../nodes/common/hosts';

/**
 * A builder (dashboard user) bearer token. The service accepts only this for organization,
 * invite and claimed-domain operations (docs/api-notes.md, "Credentials per operation"); project API keys are refused there.
 */
export class IntegrationPlatformTokenApi implements ICredentialType {
	name = 'integrationPlatformTokenApi';

	displayName = 'Integration Platform Token API';

	icon: Icon = {
		light: 'file:../icons/integrationPlatform.svg',
		dark: 'file:../icons/integrationPlatform.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-integration-platform/n8n-nodes-integration-platform#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Bearer Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'A builder session token (JWT), sent as Authorization: Bearer. These tokens are short-lived; refresh the credential when the service answers 401.',
		},
		{
			displayName: 'API Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_API_URL,
			description: 'Origin of the management API. The node adds /v1.',
		},
		{
			displayName: 'Search API Base URL',
			name: 'searchUrl',
			type: 'string',
			default: DEFAULT_SEARCH_URL,
			description:
				'Origin of the search API, used by Records → Search (the only data-plane operation that accepts a bearer token). The node adds /v1.',
		},
		{
			// n8n's HTTP Request node follows redirects by default; this credential overrides that.
			displayName:
				"Requests with this token never follow redirects, in n8n's HTTP Request node too, so that the token cannot reach another host: a redirect fails the request with its status (such as 302), or comes back as the answer where the node returns answers. Enter base URLs that answer directly (https rather than http).",
			name: 'redirectNotice',
			type: 'notice',
			default: '',
		},
	];

	// A function for the same reason as in IntegrationPlatformApi: no expression per request.
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		// The secret goes only to the credential's own hosts (docs/n8n-notes.md, "Credentials").
		if (
			!isOwnHost(requestOptions, [
				versionedBaseUrl(credentials.baseUrl, DEFAULT_API_URL),
				versionedBaseUrl(credentials.searchUrl, DEFAULT_SEARCH_URL),
			])
		)
			return requestOptions;
		requestOptions.headers = {
			...requestOptions.headers,
			Authorization: `Bearer ${credentials.accessToken as string}`,
		};
		// Never carried to wherever a redirect points (hosts.ts, withoutRedirects).
		withoutRedirects(requestOptions);
		requestOptions.baseURL ??= versionedBaseUrl(credentials.baseUrl, DEFAULT_API_URL);
		return requestOptions;
	};

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
						'The service refused the bearer token (HTTP 401). Builder tokens are short-lived: paste a fresh one, and check the API Base URL.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The token was accepted but may not list projects (HTTP 403). Check the roles of the user.',
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
