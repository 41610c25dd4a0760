import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import { jsonParse, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { credentialSecrets } from '../../../common/api';
import { groupInstallationLocator, integrationLocator } from '../../../common/installation';
import { locatorProblem } from '../../../common/locator';
import { problemError } from '../../../common/errors';
import { isRedirect, locationOf } from '../../../common/redirect';
import { bodyExcerpt, maskValue } from '../../../common/problem';
import { ItemParameters, urlValue } from '../../inCode/customContext';
import type { NodeRequestOptions } from '../../transport/requestOptions';
import { runPool, throttleOf } from '../../transport/requestOptions';
import { hostBaseUrl, runCredential, sendRequest } from '../../transport/send';
import { GroupInstallations, groupFieldMode, isGroupRefMode } from './groupInstallation';

/**
 * Provider API → Send Request: a request to the consumer's own provider API through the
 * platform's proxy, which adds the provider credentials of the group's installation
 * (docs/api-notes.md, "Proxy"). The platform's headers are set here; the API key by the credential, which sends it
 * to its own proxy origin only.
 */

/** Header names the node sets itself; a user header must not replace them. */
const RESERVED_HEADER = /^(x-api-key|authorization|x-amp-.*|cookie)$/i;

/**
 * Headers that frame the message or concern one connection (RFC 9110, section 7.6.1): n8n's HTTP
 * client sets them for the request it sends. A user's Transfer-Encoding beside the client's
 * Content-Length would make the proxy and the provider disagree on where the request ends.
 */
const CONNECTION_HEADER =
	/^(transfer-encoding|content-length|connection|host|te|trailer|upgrade|keep-alive|proxy-.*)$/i;

/**
 * The methods the node sends; anything else (TRACE, CONNECT, made-up words) is refused. n8n's
 * type of request methods lacks OPTIONS, which its HTTP client sends as it is.
 */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Control characters (C0, DEL, C1). URL parsing drops tabs and line breaks from a path, so
 * `a/.\n./admin` would become `a/../admin`; in a header they would end the line.
 */
const CONTROL = /\p{Cc}/u;

/** What a header value may hold: visible ASCII, space and Latin-1 letters (Node sends no more). */
const HEADER_VALUE = /^[\x20-\x7e\xa0-\xff]*$/;

/** Requests in flight at once. */
const CONCURRENT_REQUESTS = 4;

interface NameValue {
	name?: string;
	value?: unknown;
}

interface ProxyOptions {
	fullResponse?: boolean;
	neverError?: boolean;
}

const itemError = (context: IExecuteFunctions, itemIndex: number, message: string, hint: string) =>
	new NodeOperationError(context.getNode(), message, {
		itemIndex,
		description: `No request was sent for this item. ${hint}`,
	});

/** The provider path below the proxy, which may not leave it (no scheme, host, `..` or backslash). */
function providerPath(context: IExecuteFunctions, itemIndex: number, raw: unknown): string {
	const path = typeof raw === 'string' ? raw.trim().replace(/^\/+/, '') : '';
	const refuse = (why: string) =>
		itemError(
			context,
			itemIndex,
			`"Path" ${why}`,
			"Give the path of the provider's API below its base URL, e.g. crm/v3/objects/contacts.",
		);
	if (typeof raw !== 'string') throw refuse('must be text');
	// Checked before the dot segments: URL parsing would drop these characters and join the dots.
	if (CONTROL.test(raw))
		throw refuse('cannot contain control characters (tab, line break, NUL, …)');
	if (/^[a-z][a-z0-9+.-]*:/i.test(path) || raw.trim().startsWith('//'))
		throw refuse('must be a path, not a URL: the request always goes to the proxy');
	if (/\\/.test(path) || /(^|\/)(\.|%2e){1,2}(\/|$|\?|#)/i.test(path))
		throw refuse('cannot contain "..", "." or backslash segments');
	if (/[?#]/.test(path)) throw refuse('cannot contain ? or #: use Query Parameters');
	return path;
}

/** The Method field's value: one of METHODS, exactly (an expression may give anything). */
function requestMethod(context: IExecuteFunctions, itemIndex: number, raw: unknown) {
	const method = METHODS.find((known) => known === raw);
	if (method) return method as IHttpRequestMethods;
	const shown = typeof raw === 'string' ? JSON.stringify(raw.slice(0, 40)) : describeValue(raw);
	throw itemError(
		context,
		itemIndex,
		`"Method" must be one of ${METHODS.join(', ')}, not ${shown}`,
		'Choose a method from the list, or check the expression that sets it (methods are upper case).',
	);
}

const describeValue = (value: unknown) =>
	value === null ? 'null' : Array.isArray(value) ? 'a list' : `a value of type ${typeof value}`;

/**
 * One of the user's headers, checked: a token as its name (RFC 9110), not one the node or the
 * HTTP client sets, and a value of one line without control characters.
 */
function headerValue(
	context: IExecuteFunctions,
	itemIndex: number,
	header: string,
	value: unknown,
): string {
	const shownName = JSON.stringify(header.slice(0, 40));
	const refuse = (why: string, hint: string) =>
		itemError(context, itemIndex, `"Headers" → ${shownName}: ${why}`, hint);
	if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) {
		throw refuse(
			'is not a valid header name',
			"A header name is a single word of letters, digits and - _ . ! # $ % & ' * + ^ ` | ~, without spaces or control characters.",
		);
	}
	if (RESERVED_HEADER.test(header)) {
		throw refuse(
			'is set by the node and cannot be given',
			'The node sends the API key and the x-amp-* headers itself; remove this header.',
		);
	}
	if (CONNECTION_HEADER.test(header)) {
		throw refuse(
			'is a framing or connection header, which the HTTP client sets itself',
			'Remove this header: Transfer-Encoding, Content-Length, Connection, Host, TE, Trailer, Upgrade, Keep-Alive and Proxy-* headers cannot be given.',
		);
	}
	if (typeof value === 'object' && value !== null) {
		throw refuse(
			`its value must be text, not ${describeValue(value)}`,
			'Give the value as text, or check the expression that sets it.',
		);
	}
	const text = String(value ?? '');
	// A header is one line: a line break would start another header of the user's making.
	if (CONTROL.test(text)) {
		throw refuse(
			'its value cannot contain control characters (line break, tab, NUL, …)',
			'Remove the control characters from the value, or check the expression that sets it.',
		);
	}
	if (!HEADER_VALUE.test(text)) {
		throw refuse(
			'its value can hold only ASCII and Latin-1 characters',
			'Encode other characters as the provider expects (e.g. percent-encoding).',
		);
	}
	return text;
}

function pairs(value: unknown, key: string): NameValue[] {
	const list = (value as Record<string, unknown> | undefined)?.[key];
	return Array.isArray(list) ? (list as NameValue[]) : [];
}

/** The answer's body: JSON when it says so (or looks so), else its text. */
function parsedBody(body: unknown, headers: Record<string, unknown>): unknown {
	if (typeof body !== 'string') return body;
	const type = String(headers['content-type'] ?? '');
	if (body.trim() === '') return undefined;
	if (/json/i.test(type) || (!type && /^\s*[[{]/.test(body))) {
		try {
			return jsonParse(body);
		} catch {
			return body;
		}
	}
	return body;
}

/** Items of an answer as n8n's HTTP Request node makes them: a list becomes one item per entry. */
function answerItems(
	itemIndex: number,
	status: number,
	headers: Record<string, unknown>,
	body: unknown,
	options: ProxyOptions,
): INodeExecutionData[] {
	const pairedItem = { item: itemIndex };
	if (options.fullResponse) {
		return [
			{ json: { statusCode: status, headers, body: body ?? null } as IDataObject, pairedItem },
		];
	}
	// A redirect is the provider's answer; the credential keeps n8n from following it with the
	// key (hosts.ts, withoutRedirects), and its Location is what the user needs from it.
	if (isRedirect(status)) {
		return [{ json: { statusCode: status, location: locationOf(headers) ?? null }, pairedItem }];
	}
	if (Array.isArray(body)) {
		return body.map((entry) => ({
			json:
				typeof entry === 'object' && entry !== null && !Array.isArray(entry)
					? (entry as IDataObject)
					: { data: entry as IDataObject[string] },
			pairedItem,
		}));
	}
	if (typeof body === 'object' && body !== null) return [{ json: body as IDataObject, pairedItem }];
	return [
		{ json: body === undefined ? { statusCode: status } : { data: body as string }, pairedItem },
	];
}

export async function sendProviderRequest(
	this: IExecuteFunctions,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const { data: credential } = await runCredential(this);
	const baseUrl = hostBaseUrl('proxy', credential);
	// Masked in every answer before it becomes an item or an error: a provider or the proxy may
	// echo the request's headers, the API key among them.
	const secrets = credentialSecrets(credential);
	const settings = this.getNodeParameter('requestOptions', 0, {}) as NodeRequestOptions;
	const params = new ItemParameters(this);
	const continueOnFail = this.continueOnFail();
	const byGroupRef = isGroupRefMode(groupFieldMode(this));
	const groups = new GroupInstallations(this, secrets);

	const sendOne = async (itemIndex: number): Promise<INodeExecutionData[]> => {
		const node = this.getNode();
		const locator = (name: string, label: string) =>
			urlValue(node, itemIndex, label, params.get(name, itemIndex, undefined, true));
		const project = locator('project', 'Project');
		// Not sent (the installation ID selects the consumer), but the installation belongs to it:
		// an empty one means the node was not set up as intended. By Group Ref looks it up there.
		const integration = locator('integration', 'Integration');
		const group = locator('installation', 'Group');
		// An expression's value "By ID" is checked as n8n checks a typed one
		// (nodes/common/locator.ts, `locatorProblem`).
		for (const [field, value] of [
			[integrationLocator, integration],
			[groupInstallationLocator, group],
		] as const) {
			const mode = params.get(`${field.name}.mode`, itemIndex, '');
			const notAnId = locatorProblem(field, mode, value);
			if (notAnId) {
				throw itemError(
					this,
					itemIndex,
					notAnId,
					'Pick it from the list, or check the expression that sets it.',
				);
			}
		}
		const installation = byGroupRef
			? await groups.installationOf(itemIndex, project, integration, group)
			: group;
		const method = requestMethod(this, itemIndex, params.get('proxyMethod', itemIndex, 'GET'));
		const path = providerPath(this, itemIndex, params.get('proxyPath', itemIndex, ''));
		const options = params.get<ProxyOptions>('proxyOptions', itemIndex, {});

		const qs: IDataObject = {};
		for (const { name, value } of pairs(params.get('proxyQuery', itemIndex, {}), 'parameter')) {
			if (name?.trim()) qs[name.trim()] = String(value ?? '');
		}
		const headers: IDataObject = {};
		for (const { name, value } of pairs(params.get('proxyHeaders', itemIndex, {}), 'header')) {
			const header = name?.trim() ?? '';
			if (!header) continue;
			headers[header] = headerValue(this, itemIndex, header, value);
		}
		let body: string | undefined;
		if (method !== 'GET' && method !== 'HEAD' && params.get('proxySendBody', itemIndex, false)) {
			const raw = params.get('proxyBody', itemIndex, '{}');
			if (typeof raw === 'string') {
				try {
					jsonParse(raw);
				} catch {
					throw itemError(
						this,
						itemIndex,
						'"Body (JSON)" is not valid JSON',
						'Write the body as JSON.',
					);
				}
				body = raw;
			} else {
				body = JSON.stringify(raw);
			}
			headers['Content-Type'] = 'application/json';
		}

		// The answer as it comes (the provider's, any status, any type), masked here.
		const response = await sendRequest(this, {
			method,
			path: `${baseUrl}/${path}`,
			qs,
			headers: {
				Accept: 'application/json, */*;q=0.5',
				...headers,
				'x-amp-project-id': project,
				'x-amp-installation-id': installation,
				'x-amp-proxy-version': '1',
			},
			...(body !== undefined ? { body } : {}),
			secrets,
			itemIndex,
			answerAsIs: true,
		});
		const responseHeaders = maskValue(response.headers ?? {}, secrets);
		const answer = parsedBody(maskValue(response.body, secrets), responseHeaders);
		const status = response.status;
		const declared = String(responseHeaders['content-type'] ?? '');
		if (/json/i.test(declared) && typeof answer === 'string' && !options.neverError) {
			throw new NodeApiError(node, { status } as JsonObject, {
				message: `The service answered HTTP ${status} with a body that is not valid JSON`,
				description: `First bytes: ${bodyExcerpt(answer, secrets)}. This is a fault of the service or of a proxy in between; retrying later may help (Settings → Retry On Fail). The answer says it is JSON; turn on Options → Never Error to get its text as the item.`,
				httpCode: String(status),
				itemIndex,
			});
		}
		if (status >= 400 && !options.neverError) {
			// The platform's own refusals are problem documents; anything else is the provider's answer.
			if (/problem\+json/i.test(String(responseHeaders['content-type'] ?? ''))) {
				throw problemError(node, status, answer, responseHeaders, secrets, itemIndex);
			}
			const text = typeof answer === 'string' ? answer : JSON.stringify(answer ?? '');
			throw new NodeApiError(node, { status } as JsonObject, {
				message: `The provider answered HTTP ${status} to ${method} /${path}`,
				description: `Its answer: ${bodyExcerpt(text, secrets, 300)}. Turn on Options → Never Error to get such answers as items.`,
				httpCode: String(status),
				itemIndex,
			});
		}
		return answerItems(itemIndex, status, responseHeaders, answer, options);
	};

	const results: INodeExecutionData[][] = new Array(items.length);
	let failure: unknown;
	const sendItem = async (itemIndex: number) => {
		try {
			results[itemIndex] = await sendOne(itemIndex);
		} catch (error) {
			if (!continueOnFail) {
				failure ??= error;
				return;
			}
			results[itemIndex] = [
				{
					json: { error: (error as Error).message },
					error: error as NodeApiError,
					pairedItem: { item: itemIndex },
				},
			];
		}
	};
	await runPool(
		items.length,
		CONCURRENT_REQUESTS,
		throttleOf(settings),
		sendItem,
		() => failure !== undefined,
	);
	if (failure !== undefined) throw failure;
	return [results.flat()];
}
