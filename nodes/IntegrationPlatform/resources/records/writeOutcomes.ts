import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiResponse } from '../../../common/api';
import { problemError } from '../../../common/errors';
import { networkErrorCode } from '../../../common/network';
import { bodyExcerpt } from '../../../common/problem';
import type { RecordToWrite, WriteTarget } from './writeInput';
import { asNodeError } from '../../transport/policy';

/**
 * Record → Write, last step: what the service's answer (or its absence) says about each record of
 * a batch (docs/api-notes.md, "Write"; docs/architecture.md, "Record → Write: each record at most
 * once"). A record is written only when the answer says so for it; an answer that does not say
 * makes it "may have been written". Nothing is sent here.
 */

interface WriteResult {
	success?: unknown;
	recordId?: string;
	data?: IDataObject;
}

interface WriteAnswer {
	operationId?: unknown;
	result?: WriteResult;
	results?: unknown;
	errors?: Array<{ message?: string }>;
	successCount?: unknown;
	failureCount?: unknown;
}

export type NodeError = NodeApiError | NodeOperationError;

/**
 * One record's outcome. `written`: the answer says the record was written; `accepted`: an
 * asynchronous write was taken on; `refused`: the request or the record was refused, nothing
 * written; `unknown`: the record may have been written.
 */
export type Outcome =
	| { kind: 'written' | 'accepted'; item: INodeExecutionData }
	| { kind: 'refused'; error: NodeError; operationId?: string }
	| { kind: 'unknown'; error: NodeError; operationId?: string };

const describeTarget = (t: WriteTarget) =>
	`${t.type} of a ${t.object} record for group "${t.groupRef}"`;

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

const operationIdOf = (answer: WriteAnswer) =>
	typeof answer.operationId === 'string' && answer.operationId !== ''
		? answer.operationId
		: undefined;

/** Item positions as ranges: [0, 1, 2, 5] → "0–2, 5". */
export function itemRanges(items: number[]): string {
	const sorted = [...items].sort((a, b) => a - b);
	const parts: string[] = [];
	for (let i = 0; i < sorted.length; i++) {
		const start = sorted[i];
		while (i + 1 < sorted.length && sorted[i + 1] === sorted[i] + 1) i++;
		parts.push(start === sorted[i] ? `${start}` : `${start}–${sorted[i]}`);
	}
	return parts.join(', ');
}

/** The provider's reason for one record: its own result's data, else the answer's errors. */
function reasonOf(result: WriteResult | undefined, answer: WriteAnswer, position: number): string {
	const data = result?.data;
	for (const key of ['message', 'error', 'reason']) {
		if (data && typeof data[key] === 'string' && data[key] !== '') return data[key] as string;
	}
	const messages = (Array.isArray(answer.errors) ? answer.errors : [])
		.map((error) => error?.message)
		.filter((message): message is string => typeof message === 'string' && message !== '');
	// Batch answers may name the record by its position ("record 2: …").
	const own = messages.find((message) => new RegExp(`^record ${position}\\b`, 'i').test(message));
	return own ?? messages[0] ?? 'the provider gave no reason';
}

function refused(
	context: IExecuteFunctions,
	record: RecordToWrite,
	answer: WriteAnswer,
	result: WriteResult | undefined,
	position: number,
	batchSize: number,
): Outcome {
	const reason = reasonOf(result, answer, position);
	const code = result?.data?.errorCode;
	const operationId = operationIdOf(answer);
	const rolledBack = record.target.allOrNone && batchSize > 1;
	const error = new NodeOperationError(context.getNode(), `The record was not written: ${reason}`, {
		itemIndex: record.itemIndex,
		description: [
			`${describeTarget(record.target)}${record.recordId ? ` (record ID ${record.recordId})` : ''}`,
			typeof code === 'string' ? `Provider error code: ${code}.` : '',
			operationId ? `Operation ${operationId}.` : '',
			rolledBack
				? 'All or None is on, so no record of its batch was written.'
				: batchSize > 1
					? 'The other records of its batch are not affected.'
					: '',
		]
			.filter(Boolean)
			.join('. ')
			.replace(/\.\./g, '.'),
	});
	return { kind: 'refused', error, operationId };
}

function written(record: RecordToWrite, operationId: string, result: WriteResult): Outcome {
	const { target } = record;
	const json: IDataObject = {
		success: true,
		recordId: result.recordId ?? record.recordId,
		...(target.type === 'delete' ? { deleted: true } : {}),
		operationId,
		...(result.data ? { data: result.data } : {}),
	};
	return { kind: 'written', item: { json, pairedItem: { item: record.itemIndex } } };
}

/** An asynchronous write the platform took on: not written yet (docs/api-notes.md, "Write"). */
function accepted(record: RecordToWrite, operationId: string): Outcome {
	const json: IDataObject = { accepted: true, mode: 'asynchronous', operationId };
	return { kind: 'accepted', item: { json, pairedItem: { item: record.itemIndex } } };
}

/** The same error for another item of the batch (n8n reads the item from the error's context). */
function withItem<E extends NodeError>(error: E, itemIndex: number): E {
	if (error.context?.itemIndex === itemIndex) return error;
	const copy = Object.create(Object.getPrototypeOf(error) as object) as E;
	// message and stack are not enumerable: copy every own property.
	for (const name of Object.getOwnPropertyNames(error)) {
		Object.defineProperty(copy, name, Object.getOwnPropertyDescriptor(error, name)!);
	}
	copy.context = { ...error.context, itemIndex };
	return copy;
}

/**
 * What the user reads when a batch's outcome is unknown: which items, the operation, how to find
 * out, and that this node will not send them again in this execution. Never "retry".
 */
function unknownDescription(batch: RecordToWrite[], operationId: string | undefined): string {
	const items = batch.map((record) => record.itemIndex);
	return [
		`The ${batch.length} record(s) of this request (input item${items.length > 1 ? 's' : ''} ${itemRanges(items)}) may have been written${operationId ? ` by operation ${operationId}` : ''}: no answer says whether they were.`,
		`Check before writing them again: Record → Search finds them${operationId ? ', and Operation → Get or the operation logs show what the platform did' : ''}.`,
		'This node does not send them again in this execution, even with Retry On Fail.',
	].join(' ');
}

/** Every item of the batch "may have been written", for the reason given; `detail` adds facts. */
function unknownBatch(
	context: IExecuteFunctions,
	batch: RecordToWrite[],
	reason: string,
	operationId: string | undefined,
	detail?: string,
): Outcome[] {
	const error = new NodeOperationError(
		context.getNode(),
		`The record may have been written${operationId ? ` (operation ${operationId})` : ''}: ${reason}`,
		{ description: [unknownDescription(batch, operationId), detail].filter(Boolean).join('\n') },
	);
	if (operationId) error.context.operationId = operationId;
	return batch.map((record) => ({
		kind: 'unknown',
		error: withItem(error, record.itemIndex),
		operationId,
	}));
}

/** An error's details without its advice to retry, which does not hold for a possible write. */
const withoutRetryAdvice = (description: string | null | undefined) =>
	(description ?? '')
		.split('\n')
		.filter((line) => !/retry/i.test(line))
		.join('\n');

/** Network failures after which the request cannot have reached the service. */
const NOT_SENT = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'EPROTO',
	'ERR_SSL_WRONG_VERSION_NUMBER',
	'CERT_HAS_EXPIRED',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Each record's outcome when the request failed without an answer. */
export function failedRequest(
	context: IExecuteFunctions,
	batch: RecordToWrite[],
	cause: unknown,
): Outcome[] {
	const error = asNodeError(context.getNode(), cause);
	// The node's network errors keep the code in their details ("Network error ECONNREFUSED: …",
	// nodes/common/network.ts), not on the error.
	const code =
		networkErrorCode(cause) ??
		/^Network error ([A-Z][A-Z0-9_]+)\b/m.exec(error.description ?? '')?.[1];
	// Refused before anything left (the node's own checks), or a connection never made.
	if (error instanceof NodeOperationError || (code && NOT_SENT.has(code))) {
		return batch.map((record) => ({ kind: 'refused', error: withItem(error, record.itemIndex) }));
	}
	// Sent, or perhaps sent: a timeout, a reset, a broken pipe, an abort.
	const reason = error.message
		? error.message.charAt(0).toLowerCase() + error.message.slice(1)
		: 'the request failed without an answer';
	return unknownBatch(context, batch, reason, undefined, withoutRetryAdvice(error.description));
}

/**
 * Each record's outcome from the service's answer to its batch (docs/api-notes.md, "Write"). A
 * record is written only when a result at its own position of a list as long as the batch says
 * so; an answer that does not say is "may have been written" for every record it does not
 * account for.
 */
export function outcomes(
	context: IExecuteFunctions,
	batch: RecordToWrite[],
	response: ApiResponse,
): Outcome[] {
	const { status, body } = response;
	const answer = (isObject(body) ? body : {}) as WriteAnswer;
	const operationId = operationIdOf(answer);

	if (status >= 500 || status < 200 || (status >= 300 && status < 400)) {
		// A 5xx may come after the provider wrote (a gateway timing out, a crash after the write).
		const error = problemError(context.getNode(), status, body, response.headers);
		return unknownBatch(
			context,
			batch,
			`the service answered ${error.message}`,
			operationId,
			withoutRetryAdvice(error.description),
		);
	}
	if (status < 300 && typeof body === 'string' && body.trim() !== '') {
		// A success whose body did not parse (axios hands it over as text).
		return unknownBatch(
			context,
			batch,
			`the service answered HTTP ${status} with a body that is not valid JSON`,
			undefined,
			`First bytes: ${bodyExcerpt(body)}.`,
		);
	}
	if (status >= 400 && (status !== 422 || !isObject(body))) {
		// The request as a whole was refused (a problem document, or 400 with a text reason).
		return batch.map((record) => ({
			kind: 'refused',
			error: problemError(context.getNode(), status, body, response.headers, [], record.itemIndex),
		}));
	}

	const { target } = batch[0];
	if (status < 300 && target.mode === 'asynchronous') {
		// Asynchronous: the answer is the operation ID only; the outcome arrives later.
		if (operationId) return batch.map((record) => accepted(record, operationId));
		return unknownBatch(context, batch, 'the answer holds no operation ID', undefined);
	}

	if (batch.length === 1) {
		const [record] = batch;
		const result = isObject(answer.result) ? (answer.result as WriteResult) : undefined;
		if (status === 422 || result?.success === false) {
			return [refused(context, record, answer, result, 0, 1)];
		}
		if (result?.success === true && operationId) return [written(record, operationId, result)];
		return unknownBatch(
			context,
			batch,
			result === undefined
				? 'the answer holds no result for the record'
				: `the answer's result does not say whether the record was written`,
			operationId,
		);
	}

	const results = Array.isArray(answer.results) ? answer.results : undefined;
	const counted = (value: unknown) => (typeof value === 'number' ? value : undefined);
	const successCount = counted(answer.successCount);
	const failureCount = counted(answer.failureCount);
	if (status === 422) {
		// Nothing was written (the API answers 422 only then), unless its own counts say otherwise.
		if (successCount !== undefined && successCount > 0) {
			return unknownBatch(
				context,
				batch,
				`the answer refuses the batch but counts ${successCount} record(s) as written`,
				operationId,
			);
		}
		const matched = results?.length === batch.length ? results : [];
		return batch.map((record, position) => {
			const result = matched[position];
			return refused(
				context,
				record,
				answer,
				isObject(result) ? (result as WriteResult) : undefined,
				position,
				batch.length,
			);
		});
	}

	// A success: every record needs its own result, by position, in a list as long as the batch.
	if (results === undefined) {
		return unknownBatch(
			context,
			batch,
			`the answer holds no results for the batch of ${batch.length} records`,
			operationId,
		);
	}
	if (results.length !== batch.length) {
		return unknownBatch(
			context,
			batch,
			`the answer holds ${results.length} result(s) for a batch of ${batch.length} records, so none can be matched to its record`,
			operationId,
		);
	}
	const successes = results.filter((result) => isObject(result) && result.success === true).length;
	const failures = results.filter((result) => isObject(result) && result.success === false).length;
	if (
		(successCount !== undefined && successCount !== successes) ||
		(failureCount !== undefined && failureCount !== failures)
	) {
		return unknownBatch(
			context,
			batch,
			`the answer counts ${successCount ?? '?'} written and ${failureCount ?? '?'} failed, but its results say ${successes} and ${failures}`,
			operationId,
		);
	}
	if (!operationId) {
		return unknownBatch(context, batch, 'the answer holds no operation ID', undefined);
	}
	return batch.map((record, position): Outcome => {
		const result = results[position] as WriteResult;
		if (isObject(result) && result.success === true) return written(record, operationId, result);
		if (isObject(result) && result.success === false)
			return refused(context, record, answer, result, position, batch.length);
		return unknownBatch(
			context,
			[record],
			`the answer's result at position ${position} does not say whether the record was written`,
			operationId,
		)[0];
	});
}
