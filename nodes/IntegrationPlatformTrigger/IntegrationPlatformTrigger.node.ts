import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { apiRequest, CREDENTIAL_TYPE, nodeCredentials } from '../shared/api';
import { problemError } from '../shared/errors';
import { searchProjects } from '../shared/project';
import { encodePathSegment } from '../shared/paths';
import { triggerProperties } from './description';
import {
	buildItems,
	classify,
	filterEntries,
	NOTIFICATION_TYPES,
	parseNameList,
	pickHeaders,
	recordsFromDownload,
	resultLocation,
	selectMessage,
} from './events';
import type { DeliveryInfo, EventChoice, EventSelection, Json, OutputMode } from './events';
import {
	NAME_PATTERN,
	register,
	RegistrationError,
	registrationExists,
	safeUrl,
	TEST_SUFFIX,
	unregister,
} from './registration';
import type { DesiredRegistration, Registration, RegistrationApi } from './registration';
import { SecretCache } from './secrets';
import {
	checkTimestamp,
	decodeSecret,
	DEFAULT_TOLERANCE_SECONDS,
	FAILURE_TEXT,
	readSignatureHeaders,
	ReplayGuard,
	splitSecrets,
	verifySignature,
} from './svix';
import type { HeaderBag, VerifyFailure } from './svix';

/**
 * Largest body accepted. The service sends at most 300 KB (api-facts §4.1); anything far above is
 * not from it. Checked before the signature, so a huge body costs no HMAC work: 413.
 */
export const MAX_BODY_BYTES = 1024 * 1024;
/** The signing-secret fetch must end well within Svix's 15 s delivery timeout. */
const SECRET_FETCH_TIMEOUT_MS = 8_000;
/** A download URL result must arrive well within the sender's own timeout. */
const DOWNLOAD_TIMEOUT_MS = 10_000;

// Per process (see secrets.ts and svix.ts ReplayGuard for why, and what that means in queue mode).
const secretCache = new SecretCache();
const replayGuard = new ReplayGuard();

/** For tests that run several scenarios in one process. */
export function resetTriggerMemory(): void {
	secretCache.clear();
	replayGuard.clear();
}

type Context = IHookFunctions | IWebhookFunctions;

function authentication(context: Context): 'apiKey' | 'bearerToken' | 'none' {
	const value = context.getNodeParameter('authentication', 'apiKey');
	return value === 'none' || value === 'bearerToken' ? value : 'apiKey';
}

function projectOf(context: Context): string {
	const value = context.getNodeParameter('project', '', { extractValue: true });
	const project = typeof value === 'string' ? value.trim() : '';
	if (project === '') throw new NodeOperationError(context.getNode(), 'Select a project');
	return project;
}

/** The configured name, or one derived from the node's webhook id (stable across activations). */
function baseDestinationName(context: Context): string {
	const value = context.getNodeParameter('destinationName', '');
	const name = typeof value === 'string' ? value.trim() : '';
	if (name !== '') return name;
	const node = context.getNode();
	return `n8n-${(node.webhookId ?? node.id).replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}`;
}

/** Test listening registers (and verifies against) its own destination: `<name>-test`. */
function destinationNameFor(context: Context, test: boolean): string {
	const base = baseDestinationName(context);
	const registering = context.getNodeParameter('registerDestination', true) !== false;
	return test && registering ? `${base}${TEST_SUFFIX}` : base;
}

function selectedEvents(context: Context): EventChoice[] {
	const value = context.getNodeParameter('events', []);
	return Array.isArray(value) ? (value as EventChoice[]) : [];
}

function stringList(context: Context, name: string): string[] {
	const value = context.getNodeParameter(name, []);
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Registration requests: every status comes back; problem documents become readable errors. */
function apiFor(context: IHookFunctions): RegistrationApi {
	const type =
		CREDENTIAL_TYPE[authentication(context) === 'bearerToken' ? 'bearerToken' : 'apiKey'];
	return {
		send: async (method, path, options = {}) => {
			const response = (await context.helpers.httpRequestWithAuthentication.call(context, type, {
				method,
				url: path,
				qs: options.qs as IDataObject | undefined,
				body: options.body as IDataObject | undefined,
				json: true,
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
			})) as { statusCode: number; body: unknown; headers?: Record<string, unknown> };
			return { status: response.statusCode, body: response.body, headers: response.headers };
		},
		error: (response) =>
			problemError(context.getNode(), response.status, response.body, response.headers ?? {}),
	};
}

interface StoredRegistrations {
	registrations?: Record<string, Registration>;
}

function stored(context: IHookFunctions): Record<string, Registration> {
	const data = context.getWorkflowStaticData('node') as StoredRegistrations;
	data.registrations ??= {};
	return data.registrations;
}

function registering(context: IHookFunctions): boolean {
	return (
		authentication(context) !== 'none' &&
		context.getNodeParameter('registerDestination', true) !== false
	);
}

function desiredRegistration(context: IHookFunctions, url: string): DesiredRegistration {
	const test = context.getMode() === 'manual';
	const name = destinationNameFor(context, test);
	if (!NAME_PATTERN.test(name)) {
		throw new NodeOperationError(context.getNode(), `"${name}" is not a valid destination name`, {
			description: 'Use at most 59 letters, digits and dashes ("-test" is added while testing).',
		});
	}
	const notifications = selectedEvents(context).includes('notification');
	const types = stringList(context, 'notificationTypes');
	return {
		project: projectOf(context),
		destinationName: name,
		url,
		onExisting:
			context.getNodeParameter('onExistingDestination', 'fail') === 'takeOver'
				? 'takeOver'
				: 'fail',
		notificationTypes: notifications ? (types.length ? types : [...NOTIFICATION_TYPES]) : [],
	};
}

function webhookUrl(context: IHookFunctions): string {
	const url = context.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(context.getNode(), 'n8n did not provide a webhook URL');
	return url;
}

/** RegistrationErrors become NodeOperationErrors with their explanation; others pass as they are. */
function asNodeError(context: IHookFunctions, error: unknown): Error {
	if (error instanceof RegistrationError) {
		return new NodeOperationError(context.getNode(), error.message, {
			description: error.description,
		});
	}
	return error instanceof Error ? error : new NodeOperationError(context.getNode(), String(error));
}

// ---------------------------------------------------------------------------------------------
// Deliveries

/** Sends the answer itself, so the workflow does not start (n8n-conventions §6.3). */
function refuse(context: IWebhookFunctions, status: number, text: string): IWebhookResponseData {
	const res = context.getResponseObject();
	res.status(status).type('text/plain').send(text);
	return { noWebhookResponse: true };
}

function acknowledge(context: IWebhookFunctions, reason: string): IWebhookResponseData {
	context.logger.debug(
		`Integration Platform Trigger: message acknowledged, not started (${reason})`,
	);
	return { webhookResponse: { received: true, started: false } };
}

/** The raw body bytes n8n read (gunzipped already), reading them if n8n has not. */
async function rawBodyOf(context: IWebhookFunctions): Promise<Buffer | undefined> {
	const req = context.getRequestObject();
	const contentType = String(req.headers['content-type'] ?? '');
	// The form parser consumes multipart bodies and keeps no raw bytes (n8n-conventions §6.2).
	if (contentType.toLowerCase().startsWith('multipart/')) return undefined;
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') {
		try {
			await req.readRawBody();
		} catch (error) {
			context.logger.debug(
				`Integration Platform Trigger: could not read the raw body: ${(error as Error).message}`,
			);
			return undefined;
		}
	}
	return Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined;
}

function secretCacheKey(context: IWebhookFunctions, project: string, destination: string): string {
	const type =
		CREDENTIAL_TYPE[authentication(context) === 'bearerToken' ? 'bearerToken' : 'apiKey'];
	const credentialId = context.getNode().credentials?.[type]?.id ?? '';
	return JSON.stringify([type, credentialId, project, destination]);
}

async function fetchSigningSecret(
	context: IWebhookFunctions,
	project: string,
	destination: string,
): Promise<string[]> {
	const body = await apiRequest<IDataObject>(
		context,
		'GET',
		`/projects/${encodePathSegment(project)}/destinations/${encodePathSegment(destination)}`,
		// Deliveries wait on this fetch (and share it), so it must end well within the sender's
		// own 15 s timeout: a hung request would otherwise time out every delivery meanwhile.
		{ qs: { includeSecrets: true }, timeout: SECRET_FETCH_TIMEOUT_MS },
	);
	const secrets = (body?.secrets ?? {}) as IDataObject;
	const key = secrets.webhookSigningKey;
	if (typeof key !== 'string' || key === '') {
		throw new NodeOperationError(
			context.getNode(),
			`The destination "${destination}" has no webhook signing key (is it a webhook destination?)`,
		);
	}
	return [key];
}

function keysOf(secrets: string[]): Buffer[] {
	return secrets.map(decodeSecret).filter((k): k is Buffer => k !== undefined);
}

type Verification =
	| { ok: true; id: string; timestampSeconds: number; scope: string }
	| { ok: false; response: IWebhookResponseData };

async function verify(context: IWebhookFunctions, body: Buffer | undefined): Promise<Verification> {
	const headers = context.getHeaderData() as HeaderBag;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const tolerance =
		typeof options.toleranceSeconds === 'number' && options.toleranceSeconds > 0
			? options.toleranceSeconds
			: DEFAULT_TOLERANCE_SECONDS;
	const now = Math.floor(Date.now() / 1000);
	const fail = (reason: VerifyFailure, id?: string): Verification => {
		context.logger.debug(
			`Integration Platform Trigger: delivery ${id ?? '(no id)'} refused: ${FAILURE_TEXT[reason]}`,
		);
		return { ok: false, response: refuse(context, 401, `Unauthorized: ${FAILURE_TEXT[reason]}`) };
	};

	// Cheap checks first: nothing unsigned or out of date reaches the secret lookup.
	const parsed = readSignatureHeaders(headers);
	if (parsed === undefined) return fail('missing-headers');
	if (parsed === 'invalid') return fail('invalid-headers');
	if (!body) return fail('missing-body', parsed.id);
	const window = checkTimestamp(parsed.timestampSeconds, now, tolerance);
	if (window) return fail(window, parsed.id);

	const fromField =
		authentication(context) === 'none' ||
		context.getNodeParameter('signingSecretSource', 'destination') === 'field';
	let scope: string;
	let keys: Buffer[];
	let refresh: (() => Promise<Buffer[] | undefined>) | undefined;
	if (fromField) {
		const secrets = splitSecrets(String(context.getNodeParameter('signingSecret', '') ?? ''));
		keys = keysOf(secrets);
		scope = `field:${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
		if (keys.length === 0) {
			context.logger.warn(
				'Integration Platform Trigger: the Signing Secret field holds no usable secret (whsec_… or base64); every delivery is refused',
			);
		}
	} else {
		const project = projectOf(context);
		const destination = destinationNameFor(context, context.getMode() === 'manual');
		const cacheKey = secretCacheKey(context, project, destination);
		const fetch = async () => await fetchSigningSecret(context, project, destination);
		scope = cacheKey;
		try {
			keys = keysOf(await secretCache.get(cacheKey, fetch));
		} catch (error) {
			context.logger.error(
				`Integration Platform Trigger: could not fetch the signing secret of destination "${destination}": ${(error as Error).message}`,
			);
			// The service retries refused deliveries; by then the secret may be reachable again.
			return {
				ok: false,
				response: refuse(
					context,
					503,
					'Service Unavailable: the signing secret could not be fetched',
				),
			};
		}
		refresh = async () => {
			try {
				const fresh = await secretCache.refresh(cacheKey, fetch);
				return fresh ? keysOf(fresh) : undefined;
			} catch (error) {
				context.logger.warn(
					`Integration Platform Trigger: could not refresh the signing secret of destination "${destination}": ${(error as Error).message}`,
				);
				return undefined;
			}
		};
	}

	const input = { headers, body, nowSeconds: now, toleranceSeconds: tolerance };
	let result = verifySignature({ ...input, keys });
	if (!result.ok && result.reason === 'bad-signature' && refresh) {
		// Perhaps the secret was rotated: one fresh look (rate-limited in SecretCache).
		const fresh = await refresh();
		if (fresh) result = verifySignature({ ...input, keys: fresh });
	}
	if (!result.ok) return fail(result.reason, result.id);

	const verdict = replayGuard.claim(scope, result.id, result.timestampSeconds, now, tolerance);
	if (verdict === 'replay') {
		context.logger.debug(`Integration Platform Trigger: delivery ${result.id} refused: replayed`);
		return {
			ok: false,
			response: refuse(context, 401, 'Unauthorized: this message was already received'),
		};
	}
	if (verdict === 'redelivery') {
		// A fresh signature for an id already accepted: the service trying again after our answer
		// was lost. Acknowledge, so it stops, but start nothing a second time.
		return {
			ok: false,
			response: acknowledge(context, `message ${result.id} was already received`),
		};
	}
	return { ok: true, id: result.id, timestampSeconds: result.timestampSeconds, scope };
}

/** The body as a JSON object, or undefined (not UTF-8, not JSON, or not an object). */
function parseJsonObject(body: Buffer): Json | undefined {
	let text: string;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(body);
	} catch {
		return undefined;
	}
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	try {
		const value = JSON.parse(text) as unknown;
		return typeof value === 'object' && value !== null && !Array.isArray(value)
			? (value as Json)
			: undefined;
	} catch {
		return undefined;
	}
}

function selectionOf(context: IWebhookFunctions): EventSelection {
	return {
		events: selectedEvents(context),
		subscribeEventTypes: stringList(context, 'subscribeEventTypes'),
		notificationTypes: stringList(context, 'notificationTypes'),
		objectNames: parseNameList(context.getNodeParameter('objectNames', '')),
	};
}

async function download(context: IWebhookFunctions, url: string): Promise<Json[]> {
	const response = (await context.helpers.httpRequest({
		method: 'GET',
		url,
		json: true,
		timeout: DOWNLOAD_TIMEOUT_MS,
	})) as unknown;
	return recordsFromDownload(response);
}

/** One delivery, from the raw bytes to the items that start the workflow (or the refusal). */
async function handleDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const receivedAt = new Date().toISOString();
	const body = await rawBodyOf(context);
	// Size before anything else: a body this large is not from the service (300 KB limit).
	if (body && body.length > MAX_BODY_BYTES) {
		return refuse(context, 413, 'Payload Too Large');
	}

	const verifying = context.getNodeParameter('verifySignature', true) !== false;
	let verified: Extract<Verification, { ok: true }> | undefined;
	if (verifying) {
		const outcome = await verify(context, body);
		if (!outcome.ok) return outcome.response;
		verified = outcome;
	}
	// The message id was claimed by verify(). Unless the message ends up acknowledged (2xx), the
	// claim is dropped again, so that the service's next attempt is processed, not taken as a copy.
	let acknowledged = false;
	try {
		const result = await processMessage(context, body, verified, receivedAt);
		acknowledged = result.acknowledged;
		return result.response;
	} finally {
		if (verified && !acknowledged) replayGuard.release(verified.scope, verified.id);
	}
}

async function processMessage(
	context: IWebhookFunctions,
	body: Buffer | undefined,
	verified: Extract<Verification, { ok: true }> | undefined,
	receivedAt: string,
): Promise<{ response: IWebhookResponseData; acknowledged: boolean }> {
	const ack = (reason: string) => ({ response: acknowledge(context, reason), acknowledged: true });
	const fail = (status: number, text: string) => ({
		response: refuse(context, status, text),
		acknowledged: false,
	});

	// Only JSON objects are messages. Checked after the signature, so unsigned junk gets 401.
	let message: Json | undefined;
	if (body) {
		message = parseJsonObject(body);
	} else if (!verified) {
		const parsed = context.getBodyData() as unknown;
		message =
			typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
				? (parsed as Json)
				: undefined;
	}
	if (!message) return fail(400, 'Bad Request: the body is not a JSON object');

	const classified = classify(message);
	const selection = selectionOf(context);
	const decision = selectMessage(classified, selection);
	if (!decision.accept) return ack(decision.reason);

	const options = context.getNodeParameter('options', {}) as IDataObject;
	const location = resultLocation(classified);
	let records: Json[] | undefined;
	if (location.type === 'inline') records = location.records;
	// Only a verified message's URL is fetched: an unverified one could make n8n request any
	// address an outsider chooses (server-side request forgery).
	if (location.type === 'url' && options.downloadResults !== false && verified) {
		try {
			records = await download(context, location.url);
		} catch (error) {
			// Not acknowledged: the service delivers again (5 s, 5 min later), while the URL is
			// still valid (15 minutes).
			context.logger.warn(
				`Integration Platform Trigger: could not download the result of message ${verified.id} from ${safeUrl(location.url)}: ${(error as Error).message}`,
			);
			return fail(502, 'Bad Gateway: the result could not be downloaded');
		}
	}
	if (records !== undefined) records = filterEntries(classified, records, selection);
	if (classified.kind === 'subscribe' && records !== undefined && records.length === 0) {
		return ack('no subscribe event of the selected types');
	}

	const headers = context.getHeaderData() as Record<string, unknown>;
	const delivery: DeliveryInfo = {
		...(verified
			? { id: verified.id, timestamp: new Date(verified.timestampSeconds * 1000).toISOString() }
			: {}),
		verified: verified !== undefined,
		receivedAt,
		headers: pickHeaders(headers),
	};
	if (!verified) {
		const id = headers['svix-id'] ?? headers['webhook-id'];
		if (typeof id === 'string') delivery.id = id;
	}
	const mode: OutputMode =
		context.getNodeParameter('output', 'message') === 'record' ? 'record' : 'message';
	const items = buildItems(classified, records, mode, delivery);
	if (items.length === 0) return ack('the message holds no records');
	const data: INodeExecutionData[] = items.map((json) => ({ json: json as IDataObject }));
	return { response: { workflowData: [data] }, acknowledged: true };
}

export class IntegrationPlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Integration Platform Trigger',
		name: 'integrationPlatformTrigger',
		icon: {
			light: 'file:../../icons/integrationPlatform.svg',
			dark: 'file:../../icons/integrationPlatform.dark.svg',
		},
		group: ['trigger'],
		// Version 2 behaves exactly like 1. For version-1 webhook nodes, n8n evaluates the expression
		// `$parameter["options"]["binaryData"]` on every request (webhook-helpers.js
		// parseRequestBody), about 4 ms per delivery in n8n 2.x's isolated expression runtime;
		// for later versions it does not (README, "Speed", P2).
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{ ($parameter["events"] || []).join(", ") }}',
		description:
			'Starts the workflow when the Integration Platform (Ampersand) delivers a signed read, subscribe, schema-watch or notification message',
		defaults: { name: 'Integration Platform Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: nodeCredentials,
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = {
		listSearch: { searchProjects },
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (!registering(this)) return true;
				const url = webhookUrl(this);
				const desired = desiredRegistration(this, url);
				try {
					return await registrationExists(apiFor(this), stored(this)[url], desired);
				} catch (error) {
					this.logger.warn(
						`Integration Platform Trigger: could not check the registration of ${safeUrl(url)}: ${(error as Error).message}`,
					);
					throw asNodeError(this, error);
				}
			},

			async create(this: IHookFunctions): Promise<boolean> {
				if (!registering(this)) return true;
				const url = webhookUrl(this);
				const registrations = stored(this);
				const desired = desiredRegistration(this, url);
				// The entry for this URL, or this node's entry for the same destination under an
				// earlier URL (n8n moved, WEBHOOK_URL changed): registration then moves it here.
				const previousKey =
					url in registrations
						? url
						: Object.keys(registrations).find(
								(key) =>
									registrations[key].destinationName === desired.destinationName &&
									registrations[key].project === desired.project,
							);
				try {
					registrations[url] = await register(
						apiFor(this),
						desired,
						previousKey ? registrations[previousKey] : undefined,
					);
					if (previousKey && previousKey !== url) delete registrations[previousKey];
				} catch (error) {
					this.logger.error(
						`Integration Platform Trigger: registering ${safeUrl(url)} as destination "${desired.destinationName}" failed: ${(error as Error).message}`,
					);
					throw asNodeError(this, error);
				}
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				const url = webhookUrl(this);
				const registrations = stored(this);
				const registration = registrations[url];
				if (!registration) return true;
				if (authentication(this) === 'none') {
					this.logger.warn(
						`Integration Platform Trigger: destination "${registration.destinationName}" stays on the service: the trigger has no credential to remove it`,
					);
					delete registrations[url];
					return true;
				}
				const result = await unregister(apiFor(this), registration);
				if (result.remaining) registrations[url] = result.remaining;
				else delete registrations[url];
				if (result.problems.length > 0) {
					const problems = result.problems.join('\n');
					this.logger.error(
						`Integration Platform Trigger: could not remove everything registered for ${safeUrl(url)}:\n${problems}`,
					);
					throw new NodeOperationError(
						this.getNode(),
						'Could not remove the registration from the service',
						{
							description: `Still on the service:\n${problems}`,
						},
					);
				}
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		try {
			return await handleDelivery(this);
		} catch (error) {
			// A throw would make n8n record a failed execution for a request nothing vouched for:
			// answer 500 instead (the service retries) and say why in the log.
			this.logger.error(
				`Integration Platform Trigger: the delivery could not be handled: ${(error as Error).message}`,
			);
			if (this.getResponseObject().headersSent) return { noWebhookResponse: true };
			return refuse(this, 500, 'Internal Server Error');
		}
	}
}
