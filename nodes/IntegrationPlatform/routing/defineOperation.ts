import type {
	DeclarativeRestApiSettings,
	IDisplayOptions,
	IExecutePaginationFunctions,
	IDataObject,
	INodeProperties,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodePropertyOptions,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Authentication } from '../../common/api';
import { authenticationOf, CREDENTIAL_TYPE, ownSecrets } from '../../common/api';
import { problemError } from '../../common/errors';
import { DEFAULT_READ_URL, DEFAULT_SEARCH_URL, versionedBaseUrl } from '../../common/hosts';
import { isRedirect, redirectError } from '../../common/redirect';
import type { FieldLabeler } from '../../common/problem';
import { bodyExcerpt } from '../../common/problem';
import { customAsRouting } from './customAsRouting';
import type { CustomOperation } from '../inCode/customContext';
import type { InCodeHost } from '../transport/send';
import { customOperation } from '../inCode/customOperation';
import { issueLabeler } from './issueFields';
import type { OutputShape } from './outputShape';
import { checkListLimit } from './parameters';
import { wrongCredentialError } from '../transport/wrongCredential';
import { placeholderFields, placeholderNames, resolveRequest, secretPathValues } from './templates';

/** The hosts a routed operation may name besides the management API's. */
type RoutedHost = 'read' | 'search';

/**
 * preSend of the operations on the read and search hosts (docs/api-notes.md, "Hosts and base
 * URLs"): the base URL from the credential's field for that host. Like the management API's,
 * which the credential's authenticate sets, it is the credential's, not the node's: so n8n's
 * routing applies the credential's Allowed HTTP Request Domains to it as to every other host
 * (a `baseURL` in the routing would be read as the node's own endpoint and allowed).
 */
function onHost(field: string, fallback: string): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const credential = await this.getCredentials(CREDENTIAL_TYPE[authenticationOf(this)]);
		requestOptions.baseURL = versionedBaseUrl(credential[field], fallback);
		return requestOptions;
	};
}

/** The first preSend step of each operation on the read or search host. */
export const HOST_STEP: Record<RoutedHost, PreSendAction> = {
	read: onHost('readUrl', DEFAULT_READ_URL),
	search: onHost('searchUrl', DEFAULT_SEARCH_URL),
};

export interface OperationDefinition {
	name: string;
	value: string;
	action: string;
	description: string;
	method: IHttpRequestMethods;
	/** The API path below /v1, with `{placeholders}` named after node parameters. */
	path: string;
	/** The host of the request when it is not the management API (docs/api-notes.md, "Hosts and base URLs"). */
	host?: 'read' | 'search' | 'write' | 'proxy';
	/**
	 * Runs the operation in code with all input items at once (batching, a response that is not
	 * JSON) instead of routing it item by item. `method`, `path` and `host` still say which request
	 * it sends, for the coverage contract.
	 */
	custom?: CustomOperation;
	/**
	 * Query parameters and body of the request as the API reference writes them: fixed values, and
	 * `'{parameter}'` for a node parameter's value (templates.ts).
	 */
	qs?: IDataObject;
	body?: IDataObject;
	/** The only credential the service accepts for this operation (docs/api-notes.md, "Credentials per operation"). */
	requires?: Authentication;
	/** Steps that compute path values before the path is resolved (e.g. a default revision). */
	preparePath?: PreSendAction[];
	/** Body builders and checks, run after the path is resolved. */
	preSend?: PreSendAction[];
	/** Output shaping, run after the error check. Without it the body becomes the item(s). */
	output?: PostReceiveAction[];
	/**
	 * The operation's own pagination (n8n's `routing.operations.pagination`), run instead of the
	 * node-wide request hook: it sends each page (under the request policy) and makes the items.
	 */
	pagination?: (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	) => Promise<INodeExecutionData[]>;
	/**
	 * The service answers this operation with text/plain instead of JSON (oauthConnect's
	 * authorization URL; docs/api-notes.md, "OAuth connect and upload URLs"): the text becomes
	 * the item's property of this name.
	 */
	textAnswer?: string;
	/** What one output item is, for the output schemas (outputShape.ts). */
	outputShape?: OutputShape;
}

function requireCredential(
	resource: string,
	def: OperationDefinition,
	requires: Authentication,
): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		if (authenticationOf(this) !== requires) {
			throw wrongCredentialError(
				this.getNode(),
				this.getItemIndex(),
				`${resource} → ${def.name}`,
				requires,
				def.host,
			);
		}
		return requestOptions;
	};
}

/**
 * First postReceive step of every operation. Requests are sent with `ignoreHttpStatusErrors`, so
 * that error bodies reach this function: n8n's default handling would replace the service's
 * problem document with "Your request is invalid…" (docs/n8n-notes.md, "Errors from routed requests").
 * `labelOf` names the operation's fields behind the inputs the service names (issueFields.ts).
 */
export function throwOnProblem(labelOf?: (context: object) => FieldLabeler): PostReceiveAction {
	// Named, for stack traces.
	return async function throwOnProblem(
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		// The credential tells n8n not to follow redirects (hosts.ts, withoutRedirects).
		if (isRedirect(response.statusCode)) {
			throw redirectError(this.getNode(), response.statusCode, response.headers, {
				secrets: secretPathValues(this),
				itemIndex: this.getItemIndex(),
			});
		}
		const { statusCode, body, headers } = response;
		const failed = statusCode >= 400 || (typeof body === 'string' && body.trim() !== '');
		// The service may echo the credential's own key or token in an error answer.
		const secrets = failed ? [...secretPathValues(this), ...(await ownSecrets(this))] : [];
		if (statusCode >= 400) {
			throw problemError(
				this.getNode(),
				statusCode,
				body,
				headers,
				secrets,
				this.getItemIndex(),
				labelOf?.(this),
			);
		}
		// A success status with a body that did not parse as JSON (axios hands it over as a string).
		if (typeof body === 'string' && body.trim() !== '') {
			throw new NodeApiError(
				this.getNode(),
				{ status: statusCode },
				{
					message: `The service answered HTTP ${statusCode} with a body that is not valid JSON`,
					description: `First bytes: ${bodyExcerpt(body, secrets)}. This is a fault of the service or of a proxy in between; retrying later may help (Settings → Retry On Fail).`,
					httpCode: String(statusCode),
					itemIndex: this.getItemIndex(),
				},
			);
		}
		return items;
	};
}

/** Sets `pairedItem`, so that downstream nodes can refer back to the item each result came from. */
async function pairWithInput(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const item = this.getItemIndex();
	return items.map((entry) => ({ ...entry, pairedItem: { item } }));
}

/** One resource of the node: its selector entry, its operations and the fields they use. */
export interface ResourceDefinition {
	/** The resource's name in the selector (`name` there; not so here, where n8n's lint would read
	 * this object as a selector option). */
	displayName: string;
	value: string;
	description: string;
	/** The operation the selector starts on, from version 2: one that only reads when the resource
	 * can read, never one that deletes or changes anything. */
	defaultOperation: string;
	/** The operation version 1 started on, when it differs. n8n saves a workflow without the
	 * parameters left at their default, so a version 1 node saved on this operation must keep it. */
	version1DefaultOperation?: string;
	operations: OperationDefinition[];
	/** The resource's own fields; placeholders may also name the shared fields passed to defineResource. */
	fields: INodeProperties[];
}

/** What defineResource makes of a ResourceDefinition: parts of the node's description. */
export interface ResourceDescription {
	name: string;
	value: string;
	description: string;
	/** The resource's "Operation" selector as the newest version shows it, each option with its
	 * routing. */
	operations: INodeProperties;
	/** The selectors the node lists: `operations`, or one per version span when the default
	 * operation changed between versions (same options, shown by `@version`). */
	selectors: INodeProperties[];
	fields: INodeProperties[];
	/** Operations that accept only one kind of credential, for the node's notices and checks. */
	credentialRequirements: Array<{ operation: string; requires: Authentication }>;
	/** The operations written in code, by operation value, for the node's `customOperations`
	 * (every other operation is routed by n8n). */
	customOperations: Record<string, CustomOperation>;
	/** The request each operation run in code sends (it has no routing that would say so). */
	customRequests: Array<Pick<OperationDefinition, 'value' | 'method' | 'path' | 'host'>>;
}

/**
 * Builds a resource's part of the node description. Each operation gets the shared steps:
 * credential check, placeholder resolution (labels and password flags read from the fields that
 * `sharedFields` and the resource define), the request policy, problem-document errors and paired
 * items.
 */
export function defineResource(
	resource: ResourceDefinition,
	sharedFields: readonly INodeProperties[],
): ResourceDescription {
	const fields = [...resource.fields, ...sharedFields];
	const { defaultOperation, version1DefaultOperation } = resource;
	const options = resource.operations.map((operation) =>
		routedOperation(resource.displayName, operation, fields, resource.value),
	);
	const selector = (version: IDisplayOptions['show'], defaultValue: string): INodeProperties => ({
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { ...version, resource: [resource.value] } },
		default: defaultValue,
		options,
	});
	const operations = selector({}, defaultOperation);
	const selectors =
		version1DefaultOperation && version1DefaultOperation !== defaultOperation
			? [
					selector({ '@version': [1] }, version1DefaultOperation),
					selector({ '@version': [{ _cnd: { gte: 2 } }] }, defaultOperation),
				]
			: [operations];
	return {
		name: resource.displayName,
		value: resource.value,
		description: resource.description,
		operations,
		selectors,
		fields: resource.fields,
		credentialRequirements: resource.operations
			.filter((operation) => operation.requires)
			.map((operation) => ({ operation: operation.value, requires: operation.requires! })),
		customOperations: Object.fromEntries(
			resource.operations
				.filter((operation) => operation.custom)
				.map((operation) => [operation.value, inCode(resource.displayName, operation)]),
		),
		customRequests: resource.operations
			.filter((operation) => operation.custom)
			.map(({ value, method, path, host }) => ({ value, method, path, host })),
	};
}

/** An operation written in code, refused before it sends anything as routing would refuse it. */
function inCode(resourceName: string, def: OperationDefinition): CustomOperation {
	if (def.host !== 'write' && def.host !== 'proxy') {
		// A developer error: only the write and proxy hosts' operations are written in code.
		throw new Error(`${resourceName} → ${def.name}: an operation in code names its host`);
	}
	return customOperation(def.custom!, {
		where: `${resourceName} → ${def.name}`,
		requires: def.requires,
		host: def.host as InCodeHost,
	});
}

/** The labels of the fields shown for this operation by name (their display rules name it). */
function ownFieldLabels(
	resource: string,
	operation: string,
	fields: readonly INodeProperties[],
): Record<string, string> {
	const labels: Record<string, string> = {};
	for (const field of fields) {
		const show = field.displayOptions?.show ?? {};
		const resources = show.resource as unknown[] | undefined;
		const operations = show.operation as unknown[] | undefined;
		if (operations?.includes(operation) && (!resources || resources.includes(resource))) {
			labels[field.name] ??= field.displayName;
		}
	}
	return labels;
}

/** One operation as an option of the selector, with its routing (docs/architecture.md). */
function routedOperation(
	resourceName: string,
	def: OperationDefinition,
	fields: readonly INodeProperties[],
	resource: string,
): INodePropertyOptions {
	if (def.custom) {
		// In a workflow n8n runs customOperations instead of routing, with all items at once. As an
		// AI tool it always routes: the request hook then runs the operation item by item.
		const custom = inCode(resourceName, def);
		return {
			name: def.name,
			value: def.value,
			action: def.action,
			description: def.description,
			routing: {
				request: { method: def.method, url: def.path },
				send: { paginate: true },
				operations: { pagination: customAsRouting(custom) },
			},
		};
	}
	if (def.host === 'write' || def.host === 'proxy') {
		// A developer error: these hosts' base URLs are read in code, not by a routing expression.
		throw new Error(`${resourceName} → ${def.name}: the ${def.host} host needs a custom operation`);
	}
	const templates = { qs: def.qs, body: def.body };
	// A list operation (it shows Return All): Limit is checked before the list is asked for.
	const listed = fields.some(
		(field) =>
			field.name === 'returnAll' &&
			(field.displayOptions?.show?.operation as unknown[] | undefined)?.includes(def.value),
	);
	const placeholders = placeholderFields(
		placeholderNames(def.path, templates),
		fields,
		`${resourceName} → ${def.name}`,
	);
	return {
		name: def.name,
		value: def.value,
		action: def.action,
		description: def.description,
		routing: {
			request: {
				method: def.method,
				url: def.path,
				...(def.qs ? { qs: def.qs } : {}),
				...(def.body ? { body: def.body } : {}),
			},
			// A paged list's own pagination replaces the node-wide hook for this operation.
			...(def.pagination ? { operations: { pagination: def.pagination } } : {}),
			send: {
				// Not pagination (unless the operation has its own): n8n runs
				// requestOperations.pagination around the request of every operation that sets this,
				// and the node's hook there is its request policy (requestHook.ts: rate-limit
				// retries, network errors naming the host).
				paginate: true,
				preSend: [
					...(def.requires ? [requireCredential(resourceName, def, def.requires)] : []),
					...(def.host ? [HOST_STEP[def.host]] : []),
					...(listed ? [checkListLimit] : []),
					...(def.preparePath ?? []),
					resolveRequest(templates, placeholders),
					...(def.preSend ?? []),
				],
			},
			output: {
				postReceive: [
					...(def.textAnswer ? [textAnswer(def.textAnswer)] : []),
					throwOnProblem(
						issueLabeler(templates, placeholders, ownFieldLabels(resource, def.value, fields)),
					),
					...(def.output ?? []),
					pairWithInput,
				],
			},
		},
	};
}

/**
 * postReceive, before the error check, for operations that answer text/plain: a success's text
 * becomes `{ [key]: text }`. Anything else (an error, or a body declared as JSON that did not
 * parse) is left to throwOnProblem.
 */
function textAnswer(key: string): PostReceiveAction {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const type = String(response.headers?.['content-type'] ?? '');
		if (
			response.statusCode < 400 &&
			typeof response.body === 'string' &&
			/^text\/plain\b/i.test(type)
		) {
			response.body = { [key]: response.body.trim() };
			return [{ json: response.body as IDataObject }];
		}
		return items;
	};
}
