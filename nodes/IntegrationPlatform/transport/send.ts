import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	NodeOperationError,
} from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import type { ApiContext, ApiResponse, Authentication } from '../../common/api';
import { answerJson, apiRequest, apiResponse, CREDENTIAL_TYPE } from '../../common/api';
import { domainRefusal } from '../../common/domains';
import { problemError } from '../../common/errors';
import { DEFAULT_WRITE_URL, proxyBaseUrl, versionedBaseUrl } from '../../common/hosts';
import { asNodeError, withRateLimitRetries } from './policy';
import type { NodeRequestOptions } from './requestOptions';
import { connectionSettings, requestSettings } from './requestOptions';
import { secretsOf } from './secrets';
import { wrongCredentialError } from './wrongCredential';

/**
 * The action node's request room: every request the node sends itself (the operations run in
 * code, and the lookups routed operations make in their own steps) goes through `send`, under the
 * node's policy: the credential of the node's Authentication choice, read once per run; its
 * Allowed HTTP Request Domains (refused before sending, and handed to n8n's HTTP helper, which
 * checks them again on every redirect); Request Options (requestOptions.ts); the rate-limit
 * retries and the errors that name the host (policy.ts). The editor's lists ask through
 * `editorRequest`, the same request without the rate-limit waits. The requests n8n's routing sends
 * get the same retries and errors from routing/requestHook.ts; n8n applies the rest to them itself.
 */

/** The hosts of the operations run in code (docs/api-notes.md, "Hosts and base URLs"). */
export type InCodeHost = 'write' | 'proxy';

/** The base URL an operation run in code sends to, from the credential (or the default). */
export function hostBaseUrl(host: InCodeHost, credential: ICredentialDataDecryptedObject): string {
	return host === 'write'
		? versionedBaseUrl(credential.writeUrl, DEFAULT_WRITE_URL)
		: proxyBaseUrl(credential.proxyUrl);
}

/** The credential of a run: the Authentication choice and the data n8n decrypted once. */
export interface RunCredential {
	authentication: Authentication;
	data: ICredentialDataDecryptedObject;
}

/** The contexts the node sends from: an operation run in code, a routed operation's step. */
type SendContext = IExecuteFunctions | IExecuteSingleFunctions;

/**
 * Node-wide settings (Authentication, Request Options), read for the first item in an operation
 * run in code: n8n offers no expression there.
 */
function nodeSetting<T>(context: SendContext, name: string, fallback: T, item: boolean): T {
	return (
		item
			? (context as IExecuteSingleFunctions).getNodeParameter(name, fallback)
			: (context as IExecuteFunctions).getNodeParameter(name, 0, fallback)
	) as T;
}

/** The credential each context read, so that a run reads it once (n8n decrypts on every read). */
const credentials = new WeakMap<object, RunCredential>();

async function credentialOf(context: SendContext, item: boolean): Promise<RunCredential> {
	let credential = credentials.get(context);
	if (!credential) {
		const authentication =
			nodeSetting<unknown>(context, 'authentication', 'apiKey', item) === 'bearerToken'
				? 'bearerToken'
				: 'apiKey';
		const data = await context.getCredentials(CREDENTIAL_TYPE[authentication]);
		credential = { authentication, data };
		credentials.set(context, credential);
	}
	return credential;
}

/**
 * What n8n's routing engine checks before it sends a routed request, for an operation run in code
 * before it sends anything: the credential kind the service accepts, and the credential's Allowed
 * HTTP Request Domains for the operation's host. Answers the refusal, for any item, or reads the
 * credential for the run (send reads it from here).
 */
export async function openRun(
	context: IExecuteFunctions,
	where: string,
	operation: { requires?: Authentication; host: InCodeHost },
): Promise<((itemIndex: number) => NodeOperationError) | undefined> {
	const node = context.getNode();
	const chosen = nodeSetting<unknown>(context, 'authentication', 'apiKey', false);
	const authentication: Authentication = chosen === 'bearerToken' ? 'bearerToken' : 'apiKey';
	const { requires, host } = operation;
	if (requires && requires !== authentication) {
		return (itemIndex) => wrongCredentialError(node, itemIndex, where, requires, host);
	}
	const { data } = await credentialOf(context, false);
	return domainRefusal(node, data, hostBaseUrl(host, data));
}

/** The credential of the run openRun opened (read now for a context it did not open). */
export async function runCredential(context: IExecuteFunctions): Promise<RunCredential> {
	return await credentialOf(context, false);
}

export interface SendRequest {
	method: IHttpRequestMethods;
	/** Below the base URL, or absolute. */
	path: string;
	/** Another host's base URL than the management API's (hostBaseUrl). */
	baseUrl?: string;
	qs?: IDataObject;
	body?: unknown;
	headers?: IDataObject;
	/** Values to mask in errors besides the credential's own (a secret in the path). */
	secrets?: string[];
	itemIndex?: number;
	/** The answer as text and as it comes (apiResponse's answerAsIs); the caller masks it. */
	answerAsIs?: boolean;
}

/** A dated rate limit's answer as the error the retries read its wait from. */
function rateLimited(context: SendContext, answer: ApiResponse, request: SendRequest): Error {
	let body = answer.body;
	if (typeof body === 'string' && /^\s*[[{]/.test(body)) {
		try {
			body = jsonParse(body);
		} catch {
			// Not JSON: the Retry-After header may still date it.
		}
	}
	return problemError(
		context.getNode(),
		answer.status,
		body,
		answer.headers,
		request.secrets,
		request.itemIndex,
	);
}

/**
 * One request under the node's policy, answered whatever its status once the rate-limit retries
 * are spent (the caller decides what a status means). Failures without an answer throw, naming the
 * host; a host outside the credential's Allowed HTTP Request Domains is refused before sending.
 */
async function send(
	context: SendContext,
	request: SendRequest,
	item: boolean,
): Promise<ApiResponse> {
	const settings = nodeSetting<NodeRequestOptions>(context, 'requestOptions', {}, item);
	const { authentication, data } = await credentialOf(context, item);
	const options = requestSettings(context.getNode(), settings, data);
	let last: ApiResponse | undefined;
	try {
		return await withRateLimitRetries(
			context,
			settings,
			async () => {
				last = undefined;
				// Authentication and credential are given: apiResponse asks the context for neither.
				last = await apiResponse(context as unknown as ApiContext, request.method, request.path, {
					baseUrl: request.baseUrl,
					qs: request.qs,
					body: request.body as IDataObject,
					headers: request.headers,
					request: options,
					authentication,
					credential: data,
					secrets: request.secrets,
					itemIndex: request.itemIndex,
					answerAsIs: request.answerAsIs,
				});
				// Only rate limits are thrown here, so that withRateLimitRetries can wait and retry them.
				if (last.status === 429 || last.status === 503) throw rateLimited(context, last, request);
				return last;
			},
			(error) => error as Error,
		);
	} catch (error) {
		// A rate limit that outlasted the retries is an answer like any other.
		if (last && (last.status === 429 || last.status === 503)) return last;
		throw asNodeError(context.getNode(), error);
	}
}

/** A request of an operation run in code (Record → Write, Provider API → Send Request). */
export async function sendRequest(
	context: IExecuteFunctions,
	request: SendRequest,
): Promise<ApiResponse> {
	return await send(context, request, false);
}

/**
 * A request a routed operation makes in its own steps (a lookup before or after its own request),
 * under the same policy, with the item's secrets masked (secrets.ts); an error answer is thrown as
 * a problem document error.
 */
export async function lookupRequest<T = unknown>(
	context: IExecuteSingleFunctions,
	method: IHttpRequestMethods,
	path: string,
	qs?: IDataObject,
): Promise<T> {
	const secrets = secretsOf(context);
	const answer = await send(context, { method, path, qs, secrets }, true);
	return answerJson<T>(context.getNode(), answer, secrets);
}

/**
 * A request of the editor's lists (list searches, the resource mapper's fields): the credential,
 * its Allowed HTTP Request Domains and Request Options → Timeout, Proxy and Ignore SSL Issues as
 * for every request of the node, but a rate limit is not waited out: the editor waits for the
 * list, so the reason is shown at once, and opening the list again asks again. The credential is
 * read per request (apiResponse): a list has no run to read it once for.
 */
export async function editorRequest<T = unknown>(
	context: ILoadOptionsFunctions,
	method: IHttpRequestMethods,
	path: string,
	options: { qs?: IDataObject } = {},
): Promise<T> {
	const settings = context.getNodeParameter('requestOptions', {}) as NodeRequestOptions;
	return await apiRequest<T>(context, method, path, {
		...options,
		request: connectionSettings(context.getNode(), settings ?? {}),
	});
}
