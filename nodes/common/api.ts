import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { allowedDomainsOf, domainRefusal } from './domains';
import { problemError } from './errors';
import { DEFAULT_API_URL, versionedBaseUrl } from './hosts';
import { withWholeJsonBody } from './jsonBody';
import { describeNetworkFailure, hostOf } from './network';
import { maskText, maskValue } from './problem';
import { isRedirect, redirectError } from './redirect';

/**
 * The credential choice shared by all nodes of the package, and requests made in code (resource
 * locator searches, lookups, triggers) with the same error messages as the action node.
 */
export type Authentication = 'apiKey' | 'bearerToken';

export const CREDENTIAL_TYPE: Record<Authentication, string> = {
	apiKey: 'integrationPlatformApi',
	bearerToken: 'integrationPlatformTokenApi',
};

/** The credential types' display names, as the editor lists them under each credential. */
export const CREDENTIAL_TYPE_NAME: Record<Authentication, string> = {
	apiKey: 'Integration Platform API',
	bearerToken: 'Integration Platform Token API',
};

/**
 * What each credential choice is called in messages that say which one to use: the credential
 * type the editor's "Credential" field lists (it hides the Authentication option; see
 * authenticationParameter), and what it holds.
 */
export const CREDENTIAL_LABEL: Record<Authentication, string> = {
	apiKey: `an ${CREDENTIAL_TYPE_NAME.apiKey} credential (API key)`,
	bearerToken: `an ${CREDENTIAL_TYPE_NAME.bearerToken} credential (bearer token)`,
};

export const authenticationParameter: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	noDataExpression: true,
	default: 'apiKey',
	options: [
		{ name: 'API Key', value: 'apiKey', description: 'A project API key (X-Api-Key)' },
		{
			name: 'Bearer Token',
			value: 'bearerToken',
			description: 'A builder token (Authorization: Bearer)',
		},
	],
};

/** The node's `credentials` entries, each shown for its choice of `authentication`. */
export const nodeCredentials = [
	{
		name: CREDENTIAL_TYPE.apiKey,
		required: true,
		displayOptions: { show: { authentication: ['apiKey'] } },
	},
	{
		name: CREDENTIAL_TYPE.bearerToken,
		required: true,
		displayOptions: { show: { authentication: ['bearerToken'] } },
	},
];

/** The parts of n8n's function contexts (load options, execute, poll, hook, webhook) used here. */
export interface ApiContext {
	getNode(): INode;
	getNodeParameter(name: string, fallbackValue?: unknown): unknown;
	/** Every n8n context that makes requests has it; optional for hand-written test contexts. */
	getCredentials?(type: string): Promise<ICredentialDataDecryptedObject>;
	helpers: {
		httpRequestWithAuthentication(
			this: unknown,
			credentialsType: string,
			requestOptions: IHttpRequestOptions,
			additionalCredentialOptions?: { credentialsDecrypted?: ICredentialsDecrypted },
		): Promise<unknown>;
	};
}

/** The secrets of a credential of either type: the API key and the bearer token. */
export function credentialSecrets(data: ICredentialDataDecryptedObject | undefined): string[] {
	return [data?.apiKey, data?.accessToken].filter(
		(value): value is string => typeof value === 'string' && value !== '',
	);
}

/**
 * The secrets of the credential the node uses, for masking an answer that may echo them: read on
 * error paths only (n8n decrypts the credential on every read). None when the context cannot read
 * it (no credential chosen, a trigger without authentication).
 */
export async function ownSecrets(
	context: Pick<ApiContext, 'getNodeParameter'> & {
		getCredentials?(type: string): Promise<ICredentialDataDecryptedObject>;
	},
): Promise<string[]> {
	try {
		return credentialSecrets(
			await context.getCredentials?.(CREDENTIAL_TYPE[authenticationOf(context)]),
		);
	} catch {
		return [];
	}
}

/**
 * An answer's body with the given secrets masked (maskValue), and for a text body also secret-named
 * fields and credential headers written out (maskText): for answers that errors are built from.
 */
export function maskedAnswerBody(body: unknown, secrets: readonly string[]): unknown {
	return typeof body === 'string' ? maskText(body, secrets) : maskValue(body, secrets);
}

export function authenticationOf(context: Pick<ApiContext, 'getNodeParameter'>): Authentication {
	return context.getNodeParameter('authentication', 'apiKey') === 'bearerToken'
		? 'bearerToken'
		: 'apiKey';
}

export interface ApiRequestOptions {
	qs?: IDataObject;
	body?: IDataObject;
	/**
	 * The base URL of another host than the management API's (docs/api-notes.md, "Hosts and base
	 * URLs"), e.g. the write API's; the credential sends its secret there only if it is one of its own.
	 */
	baseUrl?: string;
	/** Secrets that must be masked in error messages (e.g. an API key travelling in the path). */
	secrets?: string[];
	/** Milliseconds to wait for an answer (n8n's default is 300 s). */
	timeout?: number;
	/** Request Options of the action node (timeout, proxy, SSL) and the credential's allowed domains. */
	request?: Pick<
		IHttpRequestOptions,
		'timeout' | 'proxy' | 'skipSslCertificateValidation' | 'allowedDomains'
	>;
	/** The credential's data when the caller has read it already (it is then not read again). */
	credential?: ICredentialDataDecryptedObject;
	/** The Authentication choice when the caller has read it (the context is then not asked). */
	authentication?: Authentication;
	headers?: IDataObject;
	/**
	 * The answer as it comes, as text, whatever it is: a redirect is not an error and nothing is
	 * masked (for a caller that passes on someone else's answers and masks them itself).
	 */
	answerAsIs?: boolean;
	/** The input item the request is for, named by its errors. */
	itemIndex?: number;
}

/**
 * A credential read once, as n8n's HTTP helper takes it (`credentialsDecrypted`): without it the
 * helper reads and decrypts the credential again for every request (docs/n8n-notes.md, "Per-item
 * cost of routing").
 */
export function decryptedCredential(
	node: INode,
	type: string,
	data: ICredentialDataDecryptedObject,
): ICredentialsDecrypted {
	const { id, name } = node.credentials?.[type] ?? {};
	return { id: id ?? '', name: name ?? '', type, data };
}

/**
 * Where a request goes, for the allowed-domains check: an absolute URL stands alone; a path goes
 * below the base URL given, or the management API's (as the credential's authenticate sets it).
 */
function targetUrl(
	path: string,
	baseUrl: string | undefined,
	credential: ICredentialDataDecryptedObject,
): string {
	if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
	return baseUrl ?? versionedBaseUrl(credential.baseUrl, DEFAULT_API_URL);
}

/** An answer of the API, whatever its status (apiResponse). */
export interface ApiResponse {
	status: number;
	body: unknown;
	headers: Record<string, unknown>;
}

/**
 * One request to the API with the credential the user picked, answered whatever its status, for
 * callers that decide themselves what a 404 or a 409 means (the event trigger's registration).
 * `path` is relative to /v1; the credential's authenticate function adds the base URL. A host
 * outside the credential's Allowed HTTP Request Domains is refused before anything is sent. Network
 * failures become errors that name the host, and so do redirects: the credential tells n8n not to
 * follow them (hosts.ts, withoutRedirects), and no answer of the API is one.
 */
export async function apiResponse(
	context: ApiContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<ApiResponse> {
	const type = CREDENTIAL_TYPE[options.authentication ?? authenticationOf(context)];
	// Read once for the request: the allowed domains, n8n's helper (credentialsDecrypted) and the
	// secrets to mask. Hand-written test contexts may have no getCredentials; n8n's all have it.
	const credential = options.credential ?? (await context.getCredentials?.(type));
	let allowedDomains = options.request?.allowedDomains;
	if (credential) {
		// The credential's Allowed HTTP Request Domains, which n8n's routing engine applies to
		// routed requests only: refused here before anything is sent, in n8n's words, and handed
		// to n8n's HTTP helper, which checks them again (and on any redirect).
		const refusal = domainRefusal(
			context.getNode(),
			credential,
			targetUrl(path, options.baseUrl, credential),
		);
		if (refusal) throw refusal();
		allowedDomains ??= allowedDomainsOf(context.getNode(), credential);
	}
	// A body key axios would drop (`constructor`, a record field) travels as JSON text (jsonBody.ts).
	const request: IHttpRequestOptions = withWholeJsonBody({
		method,
		url: path,
		qs: options.qs,
		body: options.body,
		...(options.headers ? { headers: options.headers } : {}),
		...(options.answerAsIs ? { encoding: 'text' as const, json: false } : { json: true }),
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
		...(options.timeout ? { timeout: options.timeout } : {}),
		...options.request,
		...(allowedDomains ? { allowedDomains } : {}),
	});
	let response: { statusCode: number; body: unknown; headers?: Record<string, unknown> };
	try {
		response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			type,
			request,
			credential
				? { credentialsDecrypted: decryptedCredential(context.getNode(), type, credential) }
				: undefined,
		)) as typeof response;
	} catch (error) {
		// The credential's authenticate function has set request.baseURL by now.
		const host = hostOf(request.url, request.baseURL);
		const failure = describeNetworkFailure(error, host, options.secrets);
		const item = options.itemIndex !== undefined ? { itemIndex: options.itemIndex } : {};
		if (!failure) throw new NodeApiError(context.getNode(), error as JsonObject, item);
		throw new NodeApiError(context.getNode(), { host } as JsonObject, { ...failure, ...item });
	}
	if (options.answerAsIs) {
		return { status: response.statusCode, body: response.body, headers: response.headers ?? {} };
	}
	if (isRedirect(response.statusCode)) {
		// As axios joins them: an absolute URL stands alone, a path goes below the base URL.
		const requestUrl =
			/^[a-z][a-z0-9+.-]*:/i.test(request.url) || !request.baseURL
				? request.url
				: `${request.baseURL.replace(/\/+$/, '')}/${request.url.replace(/^\/+/, '')}`;
		throw redirectError(context.getNode(), response.statusCode, response.headers ?? {}, {
			requestUrl,
			secrets: [...(options.secrets ?? []), ...(await secretsOf(context, credential))],
		});
	}
	const status = response.statusCode;
	let body = response.body;
	// An error answer, or text that did not parse as JSON, becomes an error message: the service
	// may echo the credential's key or token there (docs/api-notes.md, "Problem documents").
	if (status >= 400 || (typeof body === 'string' && body.trim() !== '')) {
		body = maskedAnswerBody(body, [
			...(options.secrets ?? []),
			...(await secretsOf(context, credential)),
		]);
	}
	return { status, body, headers: response.headers ?? {} };
}

/** The credential's secrets, from the data read for the request, or read now when there is none. */
async function secretsOf(
	context: ApiContext,
	credential: ICredentialDataDecryptedObject | undefined,
): Promise<string[]> {
	return credential ? credentialSecrets(credential) : await ownSecrets(context);
}

/**
 * One request to the API with the credential the user picked (apiResponse). Error answers become
 * problemError().
 */
export async function apiRequest<T = unknown>(
	context: ApiContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<T> {
	return answerJson<T>(
		context.getNode(),
		await apiResponse(context, method, path, options),
		options.secrets,
	);
}

/** The JSON of an answer of the API (apiResponse); error answers become problemError(). */
export function answerJson<T = unknown>(node: INode, response: ApiResponse, secrets?: string[]): T {
	if (response.status >= 400) {
		throw problemError(node, response.status, response.body, response.headers, secrets);
	}
	// axios hands over the raw text when a JSON answer does not parse.
	if (typeof response.body === 'string' && response.body.trim() !== '') {
		throw new NodeApiError(node, { status: response.status } as JsonObject, {
			message: `The service answered HTTP ${response.status} with a body that is not valid JSON`,
			description: `First bytes: ${JSON.stringify(response.body.slice(0, 80))}. This is a fault of the service or of a proxy in between; retrying later may help.`,
			httpCode: String(response.status),
		});
	}
	return (response.body === '' ? undefined : response.body) as T;
}
