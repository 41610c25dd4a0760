// @ts-check
'use strict';

/**
 * The write host (docs/api-notes.md, "Data plane", "Write"): writeRecords, X-Api-Key only.
 *
 * - A malformed request is a 400 whose body is plain text (the write API declares its 400 as
 *   `text/plain`), every problem found in one sentence list; the router's `badRequest: 'text'`
 *   turns the handler's 400 into that, including a body that is not JSON at all.
 * - The groupRef must name an installation of the integration: otherwise a 404 problem document,
 *   as for every unknown resource.
 * - The fake provider (dataStore.js) decides per record: an `email` without "@" is refused,
 *   updating or deleting an unknown id fails "not found".
 * - Single record: 200 `{operationId, result: {success: true, recordId, data}}`, or 422
 *   `{operationId, errors: [{message}], result: {success: false}}`.
 * - Batch (1-100, create and update only): 200 `{operationId, successCount, failureCount,
 *   results, errors?}` with one WriteResult per record in order; a failed record is
 *   `{success: false, data: {message, errorCode}}` and adds `record <index>: <reason>` to errors
 *   (index from 0, its position in `batch` and `results`). Every record failed: the same body
 *   with 422. `batchPolicy.allOrNone` and any failure: 422, nothing kept, only the failing records
 *   carry their reason, errors `[{message: "Batch write failed: provider rolled back all records"}]`.
 * - Asynchronous mode: 200 `{operationId}` at once; the writes happen right after, and the
 *   `write.async.done` notification follows (routed like every notification).
 * - Every write is an operation of the installation (actionType `write`) with log entries.
 */

const { ok } = require('./common');
const { problem, issue } = require('../problems');
const { validate } = require('../validate');
const { findIntegration } = require('./integrations');
const store = require('../dataStore');

/**
 * @typedef {import('../router').Ctx} Ctx
 * @typedef {import('../validate').Schema} Schema
 * @typedef {import('../state').Rec} Rec
 * @typedef {import('../dataStore').ProviderError} ProviderError
 * @typedef {{ index: number, recordId?: string, data?: Rec, error?: ProviderError }} Outcome
 */

const MAX_BATCH = 100;

/** @type {Schema} */
const RECORD = { type: 'map' };
/** @type {Schema} */
const OBJECT_LIST = { type: 'array', items: { type: 'map' } };

/** WriteRequest as the write API declares it. @type {Schema} */
const WRITE_REQUEST = {
	type: 'object',
	required: ['groupRef', 'type'],
	properties: {
		groupRef: { type: 'string', minLength: 1 },
		type: { type: 'string', enum: ['create', 'update', 'delete'] },
		mode: { type: 'string', enum: ['synchronous', 'asynchronous'] },
		retryPolicy: {
			type: 'object',
			properties: { deadlineHours: { type: 'integer', minimum: 1, maximum: 48 } },
		},
		autoBatchPolicy: {
			type: 'object',
			required: ['maxDelayMinutes'],
			properties: {
				maxDelayMinutes: { type: 'integer', minimum: 1, maximum: 1440 },
				retryDeadlineHours: { type: 'integer', minimum: 1, maximum: 48 },
			},
		},
		record: RECORD,
		batchPolicy: { type: 'object', properties: { allOrNone: { type: 'boolean' } } },
		batch: {
			type: 'array',
			minItems: 1,
			maxItems: MAX_BATCH,
			items: {
				type: 'object',
				required: ['record'],
				properties: { record: RECORD, associations: OBJECT_LIST },
			},
		},
		associations: OBJECT_LIST,
		headers: {
			type: 'array',
			items: {
				type: 'object',
				properties: { key: { type: 'string' }, value: { type: 'string' } },
			},
		},
	},
};

/** @param {unknown} id */
const hasId = (id) => (typeof id === 'string' && id !== '') || typeof id === 'number';

/**
 * Every problem of the request, as issues (the 400 lists them all).
 * @param {unknown} body
 */
function requestIssues(body) {
	if (body === undefined) return [issue('body', undefined, 'a JSON request body is required')];
	const issues = validate(body, WRITE_REQUEST);
	if (issues.length) return issues;
	const req = /** @type {Rec} */ (body);
	const mode = req.mode || 'synchronous';
	if (req.record !== undefined && req.batch !== undefined)
		issues.push(issue('body', 'batch', 'send either record or batch, not both'));
	if (req.record === undefined && req.batch === undefined)
		issues.push(issue('body', 'record', 'record or batch is required'));
	if (req.batch !== undefined && req.type === 'delete')
		issues.push(
			issue(
				'body',
				'batch',
				'batch is supported for create and update only: delete one record per request',
			),
		);
	if (req.type === 'delete' && mode !== 'synchronous')
		issues.push(issue('body', 'mode', 'delete is synchronous only', req.mode));
	if (req.record !== undefined && req.type !== 'create' && !hasId(req.record.id))
		issues.push(issue('body', 'record.id', `record.id is required for ${req.type}`));
	if (req.batch !== undefined && req.type === 'update') {
		req.batch.forEach((/** @type {Rec} */ item, /** @type {number} */ index) => {
			if (!hasId(item.record.id))
				issues.push(
					issue(
						'body',
						`batch[${index}].record.id`,
						`batch[${index}].record.id is required for update`,
					),
				);
		});
	}
	if (req.autoBatchPolicy !== undefined && (mode !== 'asynchronous' || req.batch !== undefined))
		issues.push(
			issue(
				'body',
				'autoBatchPolicy',
				'autoBatchPolicy applies only to asynchronous single-record writes',
			),
		);
	return issues;
}

/**
 * Runs the writes against the object's records. With allOrNone, they run on a copy that is kept
 * only if every record succeeded.
 * @param {import('../state').State} state
 * @param {Rec} installation
 * @param {string} objectName
 * @param {Rec} req
 * @returns {{ outcomes: Outcome[], rolledBack: boolean }}
 */
function performWrites(state, installation, objectName, req) {
	const live = store.objectStore(state, installation.id, objectName);
	const allOrNone = Boolean(req.batch && req.batchPolicy && req.batchPolicy.allOrNone);
	const target = allOrNone
		? new Map([...live].map(([id, record]) => [id, structuredClone(record)]))
		: live;
	/** @type {Rec[]} */
	const records = req.batch ? req.batch.map((/** @type {Rec} */ b) => b.record) : [req.record];
	const outcomes = records.map((record, index) => {
		const fields = store.toProviderFields(installation, objectName, record);
		const done =
			req.type === 'create'
				? store.createRecord(target, fields)
				: req.type === 'update'
					? store.updateRecord(target, String(record.id), fields)
					: store.deleteRecord(target, String(record.id));
		if ('error' in done) return { index, error: done.error };
		/** @type {Outcome} */
		const outcome = { index };
		if (req.type !== 'delete') {
			outcome.recordId = done.record.id;
			outcome.data = { id: done.record.id, ...done.record.fields };
		}
		return outcome;
	});
	const failed = outcomes.some((o) => o.error);
	if (allOrNone && !failed) {
		live.clear();
		for (const [id, record] of target) live.set(id, record);
	}
	return { outcomes, rolledBack: allOrNone && failed };
}

/**
 * Logs the outcome on the operation and ends it.
 * @param {import('../state').State} state
 * @param {Rec} operation
 * @param {string} objectName
 * @param {{ outcomes: Outcome[], rolledBack: boolean }} result
 */
function recordOutcome(state, operation, objectName, result) {
	const { outcomes, rolledBack } = result;
	for (const o of outcomes.filter((x) => x.error)) {
		const error = /** @type {ProviderError} */ (o.error);
		store.logOperation(state, operation.id, 'WARNING', `Record ${o.index} failed`, {
			objectName,
			errorCode: error.errorCode,
			error: error.message,
		});
	}
	const succeeded = rolledBack ? 0 : outcomes.filter((o) => !o.error).length;
	const failed = outcomes.length - succeeded;
	if (rolledBack)
		store.logOperation(state, operation.id, 'ERROR', 'Batch rolled back', { objectName });
	store.logOperation(state, operation.id, failed ? 'WARNING' : 'INFO', 'Write finished', {
		objectName,
		succeeded,
		failed,
	});
	const successfulRecordIds = rolledBack
		? []
		: outcomes.filter((o) => !o.error && o.recordId).map((o) => String(o.recordId));
	store.finishOperation(
		state,
		operation,
		failed ? 'failure' : 'success',
		outcomes.length > 1 || rolledBack
			? `Batch write completed (${succeeded} succeeded, ${failed} failed)`
			: failed
				? `[${objectName}] Write failed`
				: `[${objectName}] Write completed`,
		{ successfulRecordIds },
	);
	return { succeeded, failed, successfulRecordIds };
}

/**
 * The response body and status for a synchronous write.
 * @param {string} operationId
 * @param {Rec} req
 * @param {{ outcomes: Outcome[], rolledBack: boolean }} result
 */
function responseFor(operationId, req, result) {
	const { outcomes, rolledBack } = result;
	if (!req.batch) {
		const [o] = outcomes;
		if (o.error) {
			return {
				status: 422,
				body: { operationId, errors: [{ message: o.error.message }], result: { success: false } },
			};
		}
		/** @type {Rec} */
		const writeResult = { success: true };
		if (o.recordId !== undefined) writeResult.recordId = o.recordId;
		if (o.data !== undefined) writeResult.data = o.data;
		return { status: 200, body: { operationId, result: writeResult } };
	}
	const results = outcomes.map((o) =>
		o.error
			? { success: false, data: { message: o.error.message, errorCode: o.error.errorCode } }
			: rolledBack
				? { success: false }
				: { success: true, recordId: o.recordId },
	);
	const failures = outcomes.filter((o) => o.error);
	const successCount = rolledBack ? 0 : outcomes.length - failures.length;
	/** @type {Rec} */
	const body = {
		operationId,
		successCount,
		failureCount: outcomes.length - successCount,
		results,
	};
	if (rolledBack)
		body.errors = [{ message: 'Batch write failed: provider rolled back all records' }];
	else if (failures.length)
		body.errors = failures.map((o) => ({
			message: `record ${o.index}: ${/** @type {ProviderError} */ (o.error).message}`,
		}));
	return { status: successCount === 0 ? 422 : 200, body };
}

/** @param {Ctx} ctx */
function writeRecords(ctx) {
	const issues = requestIssues(ctx.body);
	if (issues.length) {
		throw problem(400, issues.map((i) => i.detail).join('; '), { issues });
	}
	/** @type {Rec} */
	const req = ctx.body;
	const integration = findIntegration(ctx, 'integrationId');
	const installation = store.installationForGroup(ctx.state, integration, req.groupRef, 'body');
	const objectName = ctx.params.objectName;
	const mode = req.mode || 'synchronous';
	const count = req.batch ? req.batch.length : 1;
	const operation = store.createOperation(ctx.state, installation, {
		actionType: 'write',
		metadata: { objects: [objectName] },
	});
	store.logOperation(ctx.state, operation.id, 'INFO', 'Write started', {
		objectName,
		type: req.type,
		mode,
		records: count,
	});

	if (mode === 'asynchronous') {
		ctx.core.background(async () => {
			const result = performWrites(ctx.state, installation, objectName, req);
			const summary = recordOutcome(ctx.state, operation, objectName, result);
			const errors = result.outcomes
				.filter((o) => o.error)
				.map((o) => `record ${o.index}: ${/** @type {ProviderError} */ (o.error).message}`);
			await ctx.core.sim.emitNotification(
				'write.async.done',
				{
					...store.installationFields(ctx.state, installation),
					objectName,
					success: summary.failed === 0,
					successfulRecordIds: summary.successfulRecordIds,
					errors,
				},
				{ projectId: installation.projectId },
			);
		});
		return ok({ operationId: operation.id });
	}

	const result = performWrites(ctx.state, installation, objectName, req);
	recordOutcome(ctx.state, operation, objectName, result);
	return responseFor(operation.id, req, result);
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'writeRecords',
		method: 'POST',
		host: 'write',
		auth: 'apiKey',
		badRequest: 'text',
		path: '/v1/projects/{projectIdOrName}/integrations/{integrationId}/objects/{objectName}',
		handler: writeRecords,
	},
];

module.exports = { routes, requestIssues };
