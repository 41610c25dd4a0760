/**
 * What the trigger's parameters ask for, read the same way by the registration hooks and by
 * webhook(): one reading of each parameter, with its fallbacks and checks, in one place.
 */
import type { IDataObject, IHookFunctions, INode, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../common/api';
import { DEFAULT_DOWNLOAD_HOSTS, parseHostList } from './download';
import type { DownloadPolicy } from './download';
import { NOTIFICATION_TYPES, parseNameList } from './events';
import type { EventChoice, EventSelection, OutputMode } from './events';
import { NAME_PATTERN, TEST_SUFFIX } from './registration';
import type { DesiredRegistration, OnExisting } from './registration';
import { checkTolerance } from './svix';

export type Context = IHookFunctions | IWebhookFunctions;

export type TriggerAuthentication = 'apiKey' | 'bearerToken' | 'none';

export function authentication(context: Context): TriggerAuthentication {
	const value = context.getNodeParameter('authentication', 'apiKey');
	return value === 'none' || value === 'bearerToken' ? value : 'apiKey';
}

/** The API credential type in use (API key unless the bearer token is chosen). */
export function apiCredentialType(auth: TriggerAuthentication): string {
	return CREDENTIAL_TYPE[auth === 'bearerToken' ? 'bearerToken' : 'apiKey'];
}

/** Test listening (the editor's "Listen for test event") rather than an active workflow. */
export function isTest(context: Context): boolean {
	return context.getMode() === 'manual';
}

export function projectOf(context: Context): string {
	const value = context.getNodeParameter('project', '', { extractValue: true });
	const project = typeof value === 'string' ? value.trim() : '';
	if (project === '') throw new NodeOperationError(context.getNode(), 'Select a project');
	return project;
}

/**
 * The configured name, or one derived from the node's webhook id (stable across activations).
 * Version 2 saves a string, version 3 a resource locator ({ mode, value }); both are read here,
 * without extractValue, which looks the parameter up by name and could find the other version's.
 */
function baseDestinationName(context: Context): string {
	const saved = context.getNodeParameter('destinationName', '') as unknown;
	const value =
		typeof saved === 'object' && saved !== null && 'value' in saved
			? (saved as { value: unknown }).value
			: saved;
	const name = typeof value === 'string' ? value.trim() : '';
	if (name !== '') return name;
	const node = context.getNode();
	return `n8n-${(node.webhookId ?? node.id).replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}`;
}

/** Test listening registers (and verifies against) its own destination: `<name>-test`. */
export function destinationNameFor(context: Context, test: boolean): string {
	const base = baseDestinationName(context);
	const registers = context.getNodeParameter('registerDestination', true) !== false;
	return test && registers ? `${base}${TEST_SUFFIX}` : base;
}

/** Whether activation registers the destination (it needs an API credential to). */
export function registering(context: Context): boolean {
	return (
		authentication(context) !== 'none' &&
		context.getNodeParameter('registerDestination', true) !== false
	);
}

export function verifying(context: Context): boolean {
	return context.getNodeParameter('verifySignature', true) !== false;
}

/**
 * Whether the signing secret is the one in the signing-secret credential (else: fetched); `auth`
 * is authentication(context), read once by the caller.
 */
export function secretFromCredential(context: Context, auth: TriggerAuthentication): boolean {
	return (
		auth === 'none' ||
		context.getNodeParameter('signingSecretSource', 'destination') === 'credential'
	);
}

function selectedEvents(context: Context): EventChoice[] {
	const value = context.getNodeParameter('events', []);
	return Array.isArray(value) ? (value as EventChoice[]) : [];
}

function stringList(context: Context, name: string): string[] {
	const value = context.getNodeParameter(name, []);
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Reads `read()` on first access only, then answers the same value. */
function once<T>(read: () => T): () => T {
	let value: { v: T } | undefined;
	return () => (value ??= { v: read() }).v;
}

/**
 * The event selection. Each parameter is read when the message first needs it, once: a read
 * message needs only the events and the object names, never the subscribe or notification types.
 */
export function selectionOf(context: Context): EventSelection {
	const events = once(() => selectedEvents(context));
	const subscribeEventTypes = once(() => stringList(context, 'subscribeEventTypes'));
	const notificationTypes = once(() => stringList(context, 'notificationTypes'));
	const objectNames = once(() => parseNameList(context.getNodeParameter('objectNames', '')));
	return {
		get events() {
			return events();
		},
		get subscribeEventTypes() {
			return subscribeEventTypes();
		},
		get notificationTypes() {
			return notificationTypes();
		},
		get objectNames() {
			return objectNames();
		},
	};
}

export function outputModeOf(context: Context): OutputMode {
	return context.getNodeParameter('output', 'message') === 'record' ? 'record' : 'message';
}

/**
 * The Options collection, read on first use and once per delivery: the tolerance and the download
 * rules both come from it.
 */
export function optionsOf(context: Context): () => IDataObject {
	return once(() => {
		const value = context.getNodeParameter('options', {});
		return typeof value === 'object' && value !== null ? (value as IDataObject) : {};
	});
}

/**
 * The timestamp tolerance: 30–3600 s, a whole number even when an expression sets it. Checked
 * when the workflow is activated (checkExists), so that a wrong value stops the activation
 * rather than every delivery.
 */
export function toleranceOf(chosen: IDataObject, node: INode): number {
	const checked = checkTolerance(chosen.toleranceSeconds);
	if (typeof checked === 'number') return checked;
	throw new NodeOperationError(node, checked.problem, {
		description: 'Set Options → Timestamp Tolerance (Seconds), or the expression that gives it.',
	});
}

/** Whether `url` results are downloaded, and under which rules (download.ts). */
export function downloadsOf(chosen: IDataObject): { enabled: boolean; policy: DownloadPolicy } {
	return {
		enabled: chosen.downloadResults !== false,
		policy: {
			allowInsecure: chosen.allowInsecureDownloads === true,
			hosts: parseHostList(chosen.downloadHosts ?? DEFAULT_DOWNLOAD_HOSTS),
		},
	};
}

/** "If the Destination Exists": anything but the two ways to point it here leaves it alone. */
function onExistingOf(value: unknown): OnExisting {
	return value === 'takeOver' || value === 'takeOverIfManifest' ? value : 'fail';
}

/** What activation should find on the service for this node at `url`. */
export function desiredRegistration(context: IHookFunctions, url: string): DesiredRegistration {
	const name = destinationNameFor(context, isTest(context));
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
		onExisting: onExistingOf(context.getNodeParameter('onExistingDestination', 'fail')),
		notificationTypes: notifications ? (types.length ? types : [...NOTIFICATION_TYPES]) : [],
	};
}
