// @ts-check
'use strict';

/**
 * The read host's data routes (docs/api-notes.md, "Data plane", "Trigger read and deliver
 * results"), X-Api-Key only like the rest of the read host. Pause and unpause are in
 * installations.js.
 *
 * triggerRead: 201 `{operationId}` at once; then, in the background, the operation (actionType
 * `read`) reads the object's stored records whose update time lies in [sinceTimestamp,
 * untilTimestamp) (both optional), logs started / records read / delivered / finished, ends with
 * status success, delivers the records as read messages with `readType: "triggered"` (Svix-signed,
 * to the destination the installation names for the object, in pages of the object's delivery
 * pageSize, 100 by default) and emits the `read.triggered.done` notification. No record: nothing
 * delivered, result "[object] No new data found". A failure (no destination) ends the operation with
 * `failure` and emits `read.triggered.error`.
 *
 * deliverResults (deprecated by the API): 204; the readiness `{pages}` is recorded in
 * `state.readReadiness` (key `installationId/objectName`). Triggered reads here do not wait for
 * it: the simulator delivers every page at once.
 *
 * Both declare their 400 as `application/json` problem documents (router: `badRequest: 'json'`);
 * the issues name the field. The object must be read by the installation (as for pauseReads: 400).
 */

const { created, noContent, requireBody } = require('./common');
const { invalid, issue } = require('../problems');
const { findIntegration } = require('./integrations');
const store = require('../dataStore');
const { nowIso } = require('../time');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 */

const DEFAULT_PAGE_SIZE = 100;

/** @param {unknown} value */
function timestampCheck(value) {
	return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(String(value)) &&
		!Number.isNaN(Date.parse(String(value)))
		? undefined
		: 'must be an RFC 3339 timestamp such as 2024-07-01T18:22:30Z';
}

/** ReadRequest. @type {Schema} */
const READ_REQUEST = {
	type: 'object',
	required: ['groupRef', 'mode'],
	properties: {
		groupRef: { type: 'string', minLength: 1 },
		mode: { type: 'string', enum: ['async'] },
		sinceTimestamp: { type: 'string', check: timestampCheck },
		untilTimestamp: { type: 'string', check: timestampCheck },
	},
};

/** ResultDeliveryRequestBody. @type {Schema} */
const DELIVERY_REQUEST = {
	type: 'object',
	required: ['groupRef', 'pages'],
	properties: {
		groupRef: { type: 'string', minLength: 1 },
		pages: { type: 'integer', minimum: 0 },
	},
};

/**
 * The installation (by the body's groupRef) and the provider name of the path's object, which the
 * installation must read.
 * @param {Ctx} ctx
 * @param {string} groupRef
 */
function readTarget(ctx, groupRef) {
	const integration = findIntegration(ctx, 'integrationId');
	const installation = store.installationForGroup(ctx.state, integration, groupRef, 'body');
	const requested = ctx.params.objectName;
	const objectName = store.providerObjectName(ctx.state, installation, requested);
	if (!store.readConfigOf(installation, objectName)) {
		throw invalid([
			issue(
				'path',
				'objectName',
				`Object '${requested}' is not read by this installation`,
				requested,
			),
		]);
	}
	return { installation, objectName };
}

/** @param {string} time */
const micros = (time) => Date.parse(time);

/**
 * Runs a triggered read to its end (in the background).
 * @param {Ctx} ctx
 * @param {Rec} installation
 * @param {string} objectName provider name
 * @param {Rec} operation
 * @param {{ since?: string, until?: string }} window
 */
async function runTriggeredRead(ctx, installation, objectName, operation, window) {
	const { state } = ctx;
	const sim = ctx.core.sim;
	const common = store.installationFields(state, installation);
	const since = window.since ? micros(window.since) : -Infinity;
	const until = window.until ? micros(window.until) : Infinity;
	try {
		const records = [...store.objectStore(state, installation.id, objectName).values()]
			.filter((r) => micros(r.updateTime) >= since && micros(r.updateTime) < until)
			.sort((a, b) => String(a.updateTime).localeCompare(String(b.updateTime)));
		store.logOperation(state, operation.id, 'INFO', 'Read records', {
			objectName,
			records: records.length,
		});
		operation.metadata.progress.recordsProcessed = records.length;

		const declared =
			((store.manifestOf(state, installation).read || {}).objects || []).find(
				(/** @type {Rec} */ o) => o.objectName === objectName,
			) || {};
		const pageSize = (declared.delivery && Number(declared.delivery.pageSize)) || DEFAULT_PAGE_SIZE;
		const entries = records.map((r) => store.resultEntry(installation, objectName, r));
		for (let start = 0; start < entries.length; start += pageSize) {
			const page = entries.slice(start, start + pageSize);
			const delivery = await sim.deliveries.emitRead({
				installationId: installation.id,
				objectName,
				records: page,
				readType: 'triggered',
				operationId: operation.id,
				extra: declared.mapToName
					? { objectName: declared.mapToName, rawObjectName: objectName }
					: undefined,
			});
			store.logOperation(
				state,
				operation.id,
				delivery.state === 'failed' ? 'WARNING' : 'INFO',
				delivery.state === 'pending'
					? 'Delivery to destination failed, retrying'
					: delivery.state === 'failed'
						? 'Delivery to destination failed'
						: 'Delivered records to destination',
				{
					destination: delivery.destinationName,
					records: page.length,
					messageId: delivery.id,
				},
			);
		}
		const result = records.length
			? `[${objectName}] Read ${records.length} records`
			: `[${objectName}] No new data found`;
		store.logOperation(state, operation.id, 'INFO', 'Read finished', {
			objectName,
			recordsRead: records.length,
		});
		store.finishOperation(state, operation, 'success', result);
		await sim.emitNotification(
			'read.triggered.done',
			{
				...common,
				objectName,
				fromTimestamp: window.since || '',
				untilTimestamp: window.until || operation.createTime,
			},
			{ projectId: installation.projectId },
		);
	} catch (err) {
		const message = err instanceof Error ? err.message : String(err);
		store.logOperation(state, operation.id, 'ERROR', 'Read failed', { objectName, error: message });
		store.finishOperation(state, operation, 'failure', `[${objectName}] Read failed`);
		await sim.emitNotification(
			'read.triggered.error',
			{
				...common,
				objectName,
				fromTimestamp: window.since || '',
				untilTimestamp: window.until || operation.createTime,
				error: message,
			},
			{ projectId: installation.projectId },
		);
	}
}

/** @param {Ctx} ctx */
function triggerRead(ctx) {
	const body = requireBody(ctx, READ_REQUEST);
	if (
		body.sinceTimestamp &&
		body.untilTimestamp &&
		Date.parse(body.sinceTimestamp) > Date.parse(body.untilTimestamp)
	) {
		throw invalid([
			issue(
				'body',
				'untilTimestamp',
				'untilTimestamp must not be before sinceTimestamp',
				body.untilTimestamp,
			),
		]);
	}
	const { installation, objectName } = readTarget(ctx, body.groupRef);
	const operation = store.createOperation(ctx.state, installation, {
		actionType: 'read',
		metadata: {
			objects: [objectName],
			progress: {
				installationId: installation.id,
				objectName,
				operationId: '',
				recordsProcessed: 0,
			},
		},
	});
	operation.metadata.progress.operationId = operation.id;
	store.logOperation(ctx.state, operation.id, 'INFO', 'Triggered read started', {
		objectName,
		readType: 'triggered',
		since: body.sinceTimestamp,
		until: body.untilTimestamp,
	});
	ctx.core.background(() =>
		runTriggeredRead(ctx, installation, objectName, operation, {
			since: body.sinceTimestamp,
			until: body.untilTimestamp,
		}),
	);
	return created({ operationId: operation.id });
}

/** @param {Ctx} ctx */
function deliverResults(ctx) {
	const body = requireBody(ctx, DELIVERY_REQUEST);
	const { installation, objectName } = readTarget(ctx, body.groupRef);
	ctx.state.readReadiness.set(store.storeKey(installation.id, objectName), {
		installationId: installation.id,
		objectName,
		groupRef: body.groupRef,
		pages: body.pages,
		time: nowIso(),
	});
	return noContent();
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'triggerRead',
		method: 'POST',
		host: 'read',
		auth: 'apiKey',
		badRequest: 'json',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/objects/{objectName}',
		handler: triggerRead,
	},
	{
		id: 'deliverResults',
		method: 'POST',
		host: 'read',
		auth: 'apiKey',
		badRequest: 'json',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/objects/{objectName}:deliverResults',
		handler: deliverResults,
	},
];

module.exports = { routes };
