/** Classifying, selecting and splitting messages (nodes/IntegrationPlatformTrigger/events.ts). */
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
} from '../../../nodes/IntegrationPlatformTrigger/events';
import type {
	DeliveryInfo,
	EventSelection,
	Json,
} from '../../../nodes/IntegrationPlatformTrigger/events';

const common = {
	projectId: 'p1',
	provider: 'hubspot',
	groupRef: 'g',
	groupName: 'G',
	installationId: 'i1',
	installationUpdateTime: '2025-06-01T00:00:00Z',
	consumerRef: 'c',
	consumerName: 'C',
};

const read = (result: unknown, extra: Json = {}): Json => ({
	action: 'read',
	...common,
	objectName: 'contacts',
	operationId: 'op1',
	readType: 'scheduled',
	resultInfo: { type: 'inline', numRecords: Array.isArray(result) ? result.length : 0 },
	result,
	...extra,
});

const subscribe = (entries: Json[]): Json => ({
	action: 'subscribe',
	...common,
	objectName: 'contacts',
	resultInfo: { type: 'inline', numRecords: entries.length },
	result: entries,
});

const schemaWatch: Json = {
	action: 'schema.watch',
	...common,
	objectName: 'contacts',
	result: {
		createdFields: [{ fieldName: 'nickname', valueType: 'string' }],
		deletedFields: [{ fieldName: 'fax' }],
		changedFields: [
			{
				oldSchema: { fieldName: 'age', valueType: 'string' },
				newSchema: { fieldName: 'age', valueType: 'int' },
			},
		],
	},
};

const notification = (type: string, data: Json = {}): Json => ({
	notificationType: type,
	data: { projectId: 'p1', ...data },
});

const ALL: EventSelection = {
	events: ['read', 'subscribe', 'schema.watch', 'notification'],
	subscribeEventTypes: [],
	notificationTypes: [],
	objectNames: [],
};

const delivery: DeliveryInfo = {
	id: 'msg_1',
	timestamp: '2025-06-01T00:00:00.000Z',
	verified: true,
	receivedAt: '2025-06-01T00:00:01.000Z',
	headers: { 'svix-id': 'msg_1' },
};

describe('classify', () => {
	test('data messages by action, notifications by notificationType and data', () => {
		expect(classify(read([])).kind).toBe('read');
		expect(classify(subscribe([])).kind).toBe('subscribe');
		expect(classify(schemaWatch).kind).toBe('schema.watch');
		expect(classify(notification('connection.created'))).toMatchObject({
			kind: 'notification',
			notificationType: 'connection.created',
		});
		expect(classify(notification('read.backfill.done', { objectName: 'contacts' }))).toMatchObject({
			objectName: 'contacts',
		});
	});

	test('anything else is unknown, and is never selected', () => {
		for (const body of [
			{},
			{ action: 'write' },
			{ notificationType: 'x' },
			{ resultInfo: {} },
			{ action: 42 },
		]) {
			const c = classify(body);
			expect(c.kind).toBe('unknown');
			expect(selectMessage(c, ALL)).toMatchObject({
				accept: false,
				reason: expect.stringMatching(/unrecognised/),
			});
		}
		// A future notification type is still a notification (selected when "all types" is on).
		expect(classify(notification('installation.paused')).kind).toBe('notification');
	});

	test('the 15 notification types', () => {
		expect(NOTIFICATION_TYPES).toHaveLength(15);
		expect(new Set(NOTIFICATION_TYPES).size).toBe(15);
	});
});

describe('selectMessage', () => {
	test('by event', () => {
		const onlyNotifications = { ...ALL, events: ['notification' as const] };
		expect(selectMessage(classify(read([])), onlyNotifications)).toMatchObject({ accept: false });
		expect(selectMessage(classify(notification('connection.created')), onlyNotifications)).toEqual({
			accept: true,
		});
		expect(selectMessage(classify(schemaWatch), { ...ALL, events: ['read'] })).toMatchObject({
			accept: false,
		});
	});

	test('by notification type', () => {
		const some = { ...ALL, notificationTypes: ['connection.error', 'write.async.done'] };
		expect(selectMessage(classify(notification('connection.error')), some)).toEqual({
			accept: true,
		});
		expect(selectMessage(classify(notification('connection.created')), some)).toMatchObject({
			accept: false,
			reason: expect.stringContaining('connection.created'),
		});
	});

	test('by object name: case-insensitive, mapped or raw name; object-less notifications pass', () => {
		const contacts = { ...ALL, objectNames: parseNameList(' Contacts , deals,') };
		expect(selectMessage(classify(read([])), contacts)).toEqual({ accept: true });
		expect(
			selectMessage(
				classify(read([], { objectName: 'people', rawObjectName: 'contacts' })),
				contacts,
			),
		).toEqual({
			accept: true,
		});
		expect(selectMessage(classify(read([], { objectName: 'companies' })), contacts)).toMatchObject({
			accept: false,
		});
		expect(selectMessage(classify(notification('connection.created')), contacts)).toEqual({
			accept: true,
		});
		expect(
			selectMessage(
				classify(notification('read.backfill.done', { objectName: 'companies' })),
				contacts,
			),
		).toMatchObject({ accept: false });
	});

	test('parseNameList', () => {
		expect(parseNameList('a, b ,,c')).toEqual(['a', 'b', 'c']);
		expect(parseNameList('')).toEqual([]);
		expect(parseNameList(undefined)).toEqual([]);
		expect(parseNameList(['a,b', 'c'])).toEqual(['a', 'b', 'c']);
	});
});

describe('results', () => {
	test('inline, url, schema object, none', () => {
		expect(resultLocation(classify(read([{ fields: { a: 1 } }])))).toEqual({
			type: 'inline',
			records: [{ fields: { a: 1 } }],
		});
		const url = read(undefined, {
			resultInfo: { type: 'url', numRecords: 3, downloadUrl: 'https://dl/x?sig=1' },
		});
		delete url.result;
		expect(resultLocation(classify(url))).toEqual({ type: 'url', url: 'https://dl/x?sig=1' });
		expect(resultLocation(classify(schemaWatch))).toMatchObject({ type: 'object' });
		const none = read(undefined);
		delete none.result;
		expect(resultLocation(classify(none))).toEqual({ type: 'none' });
		expect(resultLocation(classify(notification('connection.created')))).toEqual({ type: 'none' });
		// A result that is not an array is one record, not a crash.
		expect(resultLocation(classify(read({ fields: {} })))).toEqual({
			type: 'inline',
			records: [{ fields: {} }],
		});
	});

	test('recordsFromDownload: array, wrapped, NDJSON, single, text and bytes', () => {
		expect(recordsFromDownload([{ a: 1 }, 2, { b: 2 }])).toEqual([{ a: 1 }, { b: 2 }]);
		expect(recordsFromDownload({ result: [{ a: 1 }] })).toEqual([{ a: 1 }]);
		expect(recordsFromDownload({ data: [{ a: 1 }] })).toEqual([{ a: 1 }]);
		expect(recordsFromDownload({ fields: { a: 1 } })).toEqual([{ fields: { a: 1 } }]);
		expect(recordsFromDownload('[{"a":1}]')).toEqual([{ a: 1 }]);
		expect(recordsFromDownload('{"a":1}\n{"a":2}\n')).toEqual([{ a: 1 }, { a: 2 }]);
		expect(recordsFromDownload(Buffer.from('[{"a":1}]'))).toEqual([{ a: 1 }]);
		expect(recordsFromDownload('')).toEqual([]);
		expect(recordsFromDownload(null)).toEqual([]);
	});

	test('filterEntries keeps the selected subscribe event types (untyped counts as other)', () => {
		const entries = [
			{ subscribeEventType: 'create', id: '1' },
			{ subscribeEventType: 'delete', id: '2' },
			{ subscribeEventType: 'associationUpdate', id: '3' },
			{ id: '4' },
		];
		const c = classify(subscribe(entries));
		expect(filterEntries(c, entries, ALL)).toHaveLength(4);
		expect(
			filterEntries(c, entries, { ...ALL, subscribeEventTypes: ['create', 'other'] }).map(
				(e) => e.id,
			),
		).toEqual(['1', '4']);
		// Read messages are never filtered by subscribe type.
		expect(
			filterEntries(classify(read(entries)), entries, { ...ALL, subscribeEventTypes: ['create'] }),
		).toHaveLength(4);
	});
});

describe('buildItems', () => {
	const entries = [{ fields: { email: 'a@x' } }, { fields: { email: 'b@x' } }];

	test('one item per message: the message with its records and the delivery', () => {
		const c = classify(read(entries));
		const [item, ...rest] = buildItems(c, entries, 'message', delivery);
		expect(rest).toEqual([]);
		expect(item).toMatchObject({
			event: 'read',
			action: 'read',
			objectName: 'contacts',
			result: entries,
			delivery,
		});
	});

	test('downloaded records replace the absent result', () => {
		const message = read(undefined, {
			resultInfo: { type: 'url', numRecords: 2, downloadUrl: 'u' },
		});
		delete message.result;
		const [item] = buildItems(classify(message), entries, 'message', delivery);
		expect(item.result).toEqual(entries);
		const [record] = buildItems(classify(message), entries, 'record', delivery);
		expect(record).toMatchObject({ event: 'read', fields: { email: 'a@x' } });
	});

	test('one item per record, each with its message (without result) and the delivery', () => {
		const items = buildItems(classify(read(entries)), entries, 'record', delivery);
		expect(items).toHaveLength(2);
		expect(items[1]).toMatchObject({ event: 'read', fields: { email: 'b@x' }, delivery });
		expect(items[1].message).toMatchObject({ action: 'read', operationId: 'op1' });
		expect(items[1].message).not.toHaveProperty('result');
		expect(buildItems(classify(read([])), [], 'record', delivery)).toEqual([]);
	});

	test('schema.watch: result object kept per message; one item per field change per record', () => {
		const c = classify(schemaWatch);
		expect(buildItems(c, undefined, 'message', delivery)[0].result).toEqual(schemaWatch.result);
		const items = buildItems(c, undefined, 'record', delivery);
		expect(items.map((i) => i.change)).toEqual(['created', 'deleted', 'changed']);
		expect(items[0]).toMatchObject({ event: 'schema.watch', field: { fieldName: 'nickname' } });
		expect(items[2]).toMatchObject({
			field: { valueType: 'int' },
			oldSchema: { valueType: 'string' },
			newSchema: { valueType: 'int' },
		});
		expect(items[2].message).not.toHaveProperty('result');
	});

	test('notifications are one item in either mode', () => {
		const c = classify(notification('write.async.done', { success: true }));
		for (const mode of ['message', 'record'] as const) {
			expect(buildItems(c, undefined, mode, delivery)).toEqual([
				{
					event: 'write.async.done',
					notificationType: 'write.async.done',
					data: { projectId: 'p1', success: true },
					delivery,
				},
			]);
		}
	});
});

test('pickHeaders passes the delivery headers on, never the signature or custom ones', () => {
	expect(
		pickHeaders({
			'svix-id': 'msg_1',
			'svix-timestamp': '1',
			'svix-signature': 'v1,secret-derived',
			authorization: 'Bearer x',
			'x-custom': 'y',
			'content-type': 'application/json',
		}),
	).toEqual({ 'svix-id': 'msg_1', 'svix-timestamp': '1', 'content-type': 'application/json' });
});

describe('prototype names are ordinary names in messages and selections', () => {
	const NAMES = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];
	// Parsed from JSON text, as a delivery is: `__proto__` is then an own key.
	const parsed = (text: string): Json => JSON.parse(text) as Json;

	test.each(NAMES)('action %s is an unknown action, not a data message', (name) => {
		const classified = classify(parsed(`{"action":${JSON.stringify(name)}}`));
		expect(classified.kind).toBe('unknown');
		expect(selectMessage(classified, ALL).accept).toBe(false);
	});

	test('notification types and object names of those names are selected only when chosen', () => {
		for (const name of NAMES) {
			const message = parsed(
				`{"notificationType":${JSON.stringify(name)},"data":{"objectName":${JSON.stringify(name)}}}`,
			);
			const classified = classify(message);
			expect(classified).toMatchObject({ kind: 'notification', notificationType: name });
			const only = (names: string[]) => ({ ...ALL, notificationTypes: names, objectNames: names });
			expect(selectMessage(classified, only([name]))).toEqual({ accept: true });
			const others = NAMES.filter((other) => other !== name);
			expect(selectMessage(classified, only(others)).accept).toBe(false);
		}
	});

	test('subscribe entries of an event type of those names are kept only when chosen', () => {
		const entries = NAMES.map((name) => parsed(`{"subscribeEventType":${JSON.stringify(name)}}`));
		const classified = classify(subscribe(entries));
		for (const name of NAMES) {
			const kept = filterEntries(classified, entries, { ...ALL, subscribeEventTypes: [name] });
			expect(kept.map((entry) => entry.subscribeEventType)).toEqual([name]);
		}
	});

	test('a message with a __proto__ key becomes an item with that key, its prototype untouched', () => {
		const message = parsed(
			'{"notificationType":"connection.created","data":{},"__proto__":{"polluted":true},"constructor":"x"}',
		);
		const [item] = buildItems(classify(message), undefined, 'message', delivery);
		expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
		expect((item as { polluted?: unknown }).polluted).toBeUndefined();
		expect(JSON.parse(JSON.stringify(item))).toMatchObject({ constructor: 'x' });
		expect(Object.keys(item)).toContain('__proto__');
	});
});
