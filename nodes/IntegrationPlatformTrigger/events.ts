/**
 * What a verified delivery is, whether the user asked for it, and the items it becomes. Pure: no
 * n8n imports (test/unit/IntegrationPlatformTrigger/events.test.ts).
 *
 * Two families reach a webhook destination (docs/api-notes.md, "Delivered messages" and
 * "Notifications"):
 * - data messages, `{action, resultInfo, result?, …}`: `read`, `subscribe` and `schema.watch`.
 *   `result` is an array of entries, absent when `resultInfo.type` is `url` (then the records are
 *   behind `resultInfo.downloadUrl`, valid 15 minutes), and an object
 *   `{createdFields, deletedFields, changedFields}` for `schema.watch`;
 * - notifications, `{notificationType, data}`, of the 15 types below.
 */

export type Json = Record<string, unknown>;

export const DATA_ACTIONS = ['read', 'subscribe', 'schema.watch'] as const;
export type DataAction = (typeof DATA_ACTIONS)[number];

/** The node's event choices: the three data actions and "notification". */
export type EventChoice = DataAction | 'notification';

export const SUBSCRIBE_EVENT_TYPES = [
	'create',
	'update',
	'delete',
	'associationUpdate',
	'other',
] as const;

/** `NotificationEventType` (docs/api-notes.md, "Notifications"). */
export const NOTIFICATION_TYPES = [
	'installation.created',
	'installation.updated',
	'installation.deleted',
	'read.backfill.done',
	'read.schedule.paused',
	'read.triggered.done',
	'read.triggered.error',
	'write.async.done',
	'subscribe.create.error',
	'connection.created',
	'connection.refreshed',
	'connection.updated',
	'connection.deleted',
	'connection.error',
	'destination.webhook.disabled',
] as const;

export type Classified =
	| { kind: DataAction; message: Json; objectName?: string }
	| { kind: 'notification'; message: Json; notificationType: string; objectName?: string }
	| { kind: 'unknown'; message: Json; description: string };

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Tells a data message from a notification: `action` vs `notificationType` and `data`. */
export function classify(body: Json): Classified {
	const notificationType = text(body.notificationType);
	if (notificationType !== undefined && 'data' in body) {
		const data = isObject(body.data) ? body.data : {};
		return {
			kind: 'notification',
			message: body,
			notificationType,
			objectName: text(data.objectName),
		};
	}
	const action = text(body.action);
	if (action !== undefined && (DATA_ACTIONS as readonly string[]).includes(action)) {
		return {
			kind: action as DataAction,
			message: body,
			objectName: text(body.objectName),
		};
	}
	return {
		kind: 'unknown',
		message: body,
		description:
			action !== undefined
				? `a data message with the unknown action "${action.slice(0, 60)}"`
				: 'neither a data message (action) nor a notification (notificationType and data)',
	};
}

export interface EventSelection {
	events: EventChoice[];
	/** Empty: every type. */
	subscribeEventTypes: string[];
	/** Empty: every type. */
	notificationTypes: string[];
	/** Empty: every object. Compared case-insensitively with objectName and rawObjectName. */
	objectNames: string[];
}

/** Splits a comma-separated list of object names (trimmed, empty parts dropped). */
export function parseNameList(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap((v) => parseNameList(v));
	if (typeof value !== 'string') return [];
	return value
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
}

export type Decision = { accept: true } | { accept: false; reason: string };

function objectSelected(classified: Classified, selection: EventSelection): boolean {
	if (selection.objectNames.length === 0) return true;
	const wanted = new Set(selection.objectNames.map((n) => n.toLowerCase()));
	const names =
		classified.kind === 'notification'
			? [classified.objectName]
			: [text(classified.message.objectName), text(classified.message.rawObjectName)];
	const present = names.filter((n): n is string => n !== undefined);
	// Notifications about a connection or an installation name no object: the filter lets them
	// through, since it is about objects, not about the other events.
	if (present.length === 0) return classified.kind === 'notification';
	return present.some((n) => wanted.has(n.toLowerCase()));
}

/** Whether the user's event selection wants this message at all (entries are filtered later). */
export function selectMessage(classified: Classified, selection: EventSelection): Decision {
	if (classified.kind === 'unknown') {
		return { accept: false, reason: `unrecognised message: ${classified.description}` };
	}
	const choice: EventChoice = classified.kind === 'notification' ? 'notification' : classified.kind;
	if (!selection.events.includes(choice)) {
		return { accept: false, reason: `${choice} messages are not selected` };
	}
	if (
		classified.kind === 'notification' &&
		selection.notificationTypes.length > 0 &&
		!selection.notificationTypes.includes(classified.notificationType)
	) {
		return {
			accept: false,
			reason: `notification type ${classified.notificationType} is not selected`,
		};
	}
	if (!objectSelected(classified, selection)) {
		return { accept: false, reason: 'the object is not selected' };
	}
	return { accept: true };
}

export type ResultLocation =
	| { type: 'inline'; records: Json[] }
	| { type: 'url'; url: string }
	| { type: 'object'; result: Json }
	| { type: 'none' };

function asRecords(value: unknown): Json[] {
	if (Array.isArray(value)) return value.filter(isObject);
	return isObject(value) ? [value] : [];
}

/** Where a data message's result is: inline, behind a download URL, an object, or nowhere. */
export function resultLocation(classified: Classified): ResultLocation {
	if (classified.kind === 'notification' || classified.kind === 'unknown') return { type: 'none' };
	const { message } = classified;
	const info = isObject(message.resultInfo) ? message.resultInfo : {};
	if (classified.kind === 'schema.watch' && isObject(message.result)) {
		return { type: 'object', result: message.result };
	}
	if (message.result === undefined && info.type === 'url' && text(info.downloadUrl)) {
		return { type: 'url', url: info.downloadUrl as string };
	}
	if (message.result === undefined) return { type: 'none' };
	return { type: 'inline', records: asRecords(message.result) };
}

/**
 * The records behind a `downloadUrl`. The format is not documented beyond "GET it to fetch the
 * result" (docs/api-notes.md, "Delivered messages"), so this accepts a JSON array of entries, an
 * object with a `result` (or `data`) array, newline-delimited JSON, or a single entry.
 */
export function recordsFromDownload(body: unknown): Json[] {
	if (Buffer.isBuffer(body)) return recordsFromDownload(body.toString('utf8'));
	if (typeof body === 'string') {
		const trimmed = body.trim();
		if (trimmed === '') return [];
		try {
			return recordsFromDownload(JSON.parse(trimmed) as unknown);
		} catch {
			// Not one JSON document: newline-delimited JSON, one entry per line.
			return trimmed
				.split(/\r?\n/)
				.filter((line) => line.trim() !== '')
				.map((line) => JSON.parse(line) as unknown)
				.filter(isObject);
		}
	}
	if (Array.isArray(body)) return body.filter(isObject);
	if (isObject(body)) {
		if (Array.isArray(body.result)) return body.result.filter(isObject);
		if (Array.isArray(body.data)) return body.data.filter(isObject);
		return [body];
	}
	return [];
}

/** Subscribe entries of the selected event types; an entry without a type counts as `other`. */
export function filterEntries(
	classified: Classified,
	records: Json[],
	selection: EventSelection,
): Json[] {
	if (classified.kind !== 'subscribe' || selection.subscribeEventTypes.length === 0) return records;
	const wanted = new Set(selection.subscribeEventTypes);
	return records.filter((r) => wanted.has(text(r.subscribeEventType) ?? 'other'));
}

/** The delivery facts every item carries. Never the signature, never the secret. */
export interface DeliveryInfo {
	/** svix-id: the same on every attempt of a message; the key to deduplicate on. */
	id?: string;
	/** svix-timestamp as ISO 8601. */
	timestamp?: string;
	/** Whether the signature was checked and matched (false when verification is switched off). */
	verified: boolean;
	receivedAt: string;
	headers: Json;
}

/** Headers worth passing on. Custom destination headers may carry credentials, so no others. */
export const OUTPUT_HEADERS = [
	'svix-id',
	'svix-timestamp',
	'webhook-id',
	'webhook-timestamp',
	'content-type',
	'user-agent',
];

export function pickHeaders(headers: Record<string, unknown>): Json {
	const out: Json = {};
	for (const name of OUTPUT_HEADERS) {
		const value = headers[name];
		if (typeof value === 'string' || Array.isArray(value)) out[name] = value;
	}
	return out;
}

export type OutputMode = 'message' | 'record';

function withoutResult(message: Json): Json {
	const rest = { ...message };
	delete rest.result;
	return rest;
}

function eventName(classified: Classified): string {
	if (classified.kind === 'notification') return classified.notificationType;
	return classified.kind;
}

const SCHEMA_CHANGES: Array<[string, 'created' | 'deleted' | 'changed']> = [
	['createdFields', 'created'],
	['deletedFields', 'deleted'],
	['changedFields', 'changed'],
];

/** One item per field change of a schema.watch result. */
function schemaItems(result: Json, event: string, context: Json): Json[] {
	const items: Json[] = [];
	for (const [key, change] of SCHEMA_CHANGES) {
		for (const entry of asRecords(result[key])) {
			items.push(
				change === 'changed'
					? {
							event,
							change,
							field: entry.newSchema ?? entry.oldSchema ?? null,
							oldSchema: entry.oldSchema ?? null,
							newSchema: entry.newSchema ?? null,
							...context,
						}
					: { event, change, field: entry, ...context },
			);
		}
	}
	return items;
}

/**
 * The items one message becomes.
 * - `message`: one item, the message as sent (with `result` holding the downloaded or filtered
 *   records), plus `event` and `delivery`.
 * - `record`: one item per record (read, subscribe) or per field change (schema.watch), each
 *   with `message` (the message without `result`) and `delivery`; notifications stay one item.
 * `records` are the message's entries after download and filtering (undefined: no result).
 */
export function buildItems(
	classified: Classified,
	records: Json[] | undefined,
	mode: OutputMode,
	delivery: DeliveryInfo,
): Json[] {
	const event = eventName(classified);
	const message = classified.message;
	if (classified.kind === 'notification' || classified.kind === 'unknown') {
		return [{ event, ...message, delivery }];
	}
	if (mode === 'message') {
		return [
			{
				event,
				...message,
				...(records !== undefined ? { result: records } : {}),
				delivery,
			},
		];
	}
	const context = { message: withoutResult(message), delivery };
	if (classified.kind === 'schema.watch') {
		return isObject(message.result) ? schemaItems(message.result, event, context) : [];
	}
	return (records ?? []).map((record) => ({ event, ...record, ...context }));
}
