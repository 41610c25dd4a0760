import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiResponse } from '../../../common/api';
import { problemError } from '../../../common/errors';
import { bodyExcerpt } from '../../../common/problem';
import { DEFAULT_WRITE_URL, versionedBaseUrl } from '../../../common/hosts';
import { apiPath } from '../../../common/paths';
import {
	credentialFor,
	ItemParameters,
	runPool,
	sendWithPolicy,
	throttleOf,
} from '../../inCode/customContext';
import type { RecordToWrite, WriteTarget } from './writeInput';
import { recordToWrite } from './writeInput';
import { asNodeError } from '../../routing/requestPolicy';

/**
 * Records → Write, run in code with all input items at once (n8n's customOperations): records of
 * equal target are sent in batches of up to 100 (the API's batch form), a few batches at a time,
 * and each record's result goes back to its own input item (docs/api-notes.md, "Data plane";
 * docs/architecture.md, "Records → Write"). A record the provider refuses fails its item only.
 */

/** Batches in flight at once: enough to hide latency, few enough not to trip the rate limit. */
const CONCURRENT_BATCHES = 4;

interface WriteResult {
	success?: boolean;
	recordId?: string;
	data?: IDataObject;
}

interface WriteAnswer {
	operationId?: string;
	result?: WriteResult;
	results?: WriteResult[];
	errors?: Array<{ message?: string }>;
	successCount?: number;
	failureCount?: number;
}

type Outcome = { item: INodeExecutionData } | { error: NodeApiError | NodeOperationError };

const targetKey = (t: WriteTarget) =>
	JSON.stringify([
		t.project,
		t.integration,
		t.object,
		t.groupRef,
		t.type,
		t.mode,
		t.allOrNone,
		t.batchSize,
		t.deadlineHours,
	]);

/** Records of equal target, in input order, cut into batches of the target's size. */
function batchesOf(records: RecordToWrite[]): RecordToWrite[][] {
	const groups = new Map<string, RecordToWrite[]>();
	for (const record of records) {
		const key = targetKey(record.target);
		const group = groups.get(key) ?? [];
		group.push(record);
		groups.set(key, group);
	}
	const batches: RecordToWrite[][] = [];
	for (const group of groups.values()) {
		const size = group[0].target.batchSize;
		for (let start = 0; start < group.length; start += size) {
			batches.push(group.slice(start, start + size));
		}
	}
	return batches;
}

/** The request body: the single form for one record, the batch form for more (docs/api-notes.md, "Data plane"). */
function requestBody(batch: RecordToWrite[]): IDataObject {
	const { target } = batch[0];
	const body: IDataObject = { groupRef: target.groupRef, type: target.type };
	if (target.type !== 'delete') body.mode = target.mode;
	if (target.deadlineHours) body.retryPolicy = { deadlineHours: target.deadlineHours };
	if (batch.length === 1) return { ...body, ...batch[0].entry };
	if (target.allOrNone) body.batchPolicy = { allOrNone: true };
	return { ...body, batch: batch.map((record) => record.entry) };
}

const describeTarget = (t: WriteTarget) =>
	`${t.type} of a ${t.object} record for group "${t.groupRef}"`;

/** The provider's reason for one record: its own result's data, else the answer's errors. */
function reasonOf(result: WriteResult | undefined, answer: WriteAnswer, position: number): string {
	const data = result?.data;
	for (const key of ['message', 'error', 'reason']) {
		if (data && typeof data[key] === 'string' && data[key] !== '') return data[key] as string;
	}
	const messages = (answer.errors ?? [])
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
): NodeOperationError {
	const reason = reasonOf(result, answer, position);
	const code = result?.data?.errorCode;
	const rolledBack = record.target.allOrNone && batchSize > 1;
	return new NodeOperationError(context.getNode(), `The record was not written: ${reason}`, {
		itemIndex: record.itemIndex,
		description: [
			`${describeTarget(record.target)}${record.recordId ? ` (record ID ${record.recordId})` : ''}`,
			typeof code === 'string' ? `Provider error code: ${code}.` : '',
			answer.operationId ? `Operation ${answer.operationId}.` : '',
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
}

function written(record: RecordToWrite, answer: WriteAnswer, result?: WriteResult): Outcome {
	const { target } = record;
	const json: IDataObject =
		target.mode === 'asynchronous'
			? { accepted: true, mode: 'asynchronous', operationId: answer.operationId }
			: {
					success: true,
					recordId: result?.recordId ?? record.recordId,
					...(target.type === 'delete' ? { deleted: true } : {}),
					operationId: answer.operationId,
					...(result?.data ? { data: result.data } : {}),
				};
	return { item: { json, pairedItem: { item: record.itemIndex } } };
}

/** The same error for another item of the batch (n8n reads the item from the error's context). */
function withItem<E extends NodeApiError | NodeOperationError>(error: E, itemIndex: number): E {
	if (error.context?.itemIndex === itemIndex) return error;
	const copy = Object.create(Object.getPrototypeOf(error) as object) as E;
	// message and stack are not enumerable: copy every own property.
	for (const name of Object.getOwnPropertyNames(error)) {
		Object.defineProperty(copy, name, Object.getOwnPropertyDescriptor(error, name)!);
	}
	copy.context = { ...error.context, itemIndex };
	return copy;
}

/** Each record's outcome from the service's answer to its batch. */
function outcomes(
	context: IExecuteFunctions,
	batch: RecordToWrite[],
	response: ApiResponse,
): Outcome[] {
	const answer = (
		typeof response.body === 'object' && response.body !== null ? response.body : {}
	) as WriteAnswer;
	if (response.status < 300 && typeof response.body === 'string' && response.body.trim() !== '') {
		// A success whose body did not parse (axios hands it over as text): the records may
		// have been written, but nothing says which.
		const error = new NodeApiError(context.getNode(), { status: response.status } as JsonObject, {
			message: `The service answered HTTP ${response.status} with a body that is not valid JSON`,
			description: `First bytes: ${bodyExcerpt(response.body)}. This is a fault of the service or of a proxy in between; retrying later may help (Settings → Retry On Fail), but the ${batch.length} record(s) of this request may have been written: check before writing them again (Records → Search finds them).`,
			httpCode: String(response.status),
		});
		return batch.map((record) => ({ error: withItem(error, record.itemIndex) }));
	}
	const writeAnswer = response.status < 300 || response.status === 422;
	if (!writeAnswer || (response.status === 422 && typeof response.body !== 'object')) {
		// The request as a whole was refused (a problem document, or 400 with a text reason).
		return batch.map((record) => ({
			error: problemError(
				context.getNode(),
				response.status,
				response.body,
				response.headers,
				[],
				record.itemIndex,
			),
		}));
	}
	const single = batch.length === 1;
	return batch.map((record, position) => {
		const result = single ? answer.result : answer.results?.[position];
		const ok =
			response.status < 300 &&
			(result === undefined ? (answer.failureCount ?? 0) === 0 : result.success !== false);
		return ok
			? written(record, answer, result)
			: { error: refused(context, record, answer, result, position, batch.length) };
	});
}

export async function writeRecords(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const { data: credentials } = await credentialFor(this, 'Records → Write', {
		requires: 'apiKey',
		host: 'write',
	});
	const baseUrl = versionedBaseUrl(credentials.writeUrl, DEFAULT_WRITE_URL);
	const params = new ItemParameters(this);
	const continueOnFail = this.continueOnFail();
	const byItem: Array<Outcome | undefined> = new Array(items.length);

	// Every item is read before anything is sent: an item that cannot be sent stops the node
	// (without Continue On Fail) before any record is written.
	const records: RecordToWrite[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			records.push(recordToWrite(this, params, itemIndex, items[itemIndex].json));
		} catch (error) {
			if (!continueOnFail) throw asNodeError(this.getNode(), error);
			byItem[itemIndex] = { error: error as NodeOperationError };
		}
	}

	const batches = batchesOf(records);
	let stop = false;
	const sendBatch = async (index: number) => {
		const batch = batches[index];
		const { target } = batch[0];
		const path = apiPath`/projects/${target.project}/integrations/${target.integration}/objects/${target.object}`;
		let results: Outcome[];
		try {
			const response = await sendWithPolicy(this, 'POST', path, {
				baseUrl,
				body: requestBody(batch),
			});
			results = outcomes(this, batch, response);
		} catch (error) {
			// A network failure: none of the batch's records is known to be written.
			results = batch.map((record) => ({
				error: withItem(error as NodeApiError, record.itemIndex),
			}));
		}
		batch.forEach((record, position) => (byItem[record.itemIndex] = results[position]));
		if (!continueOnFail && results.some((outcome) => 'error' in outcome)) stop = true;
	};
	await runPool(batches.length, CONCURRENT_BATCHES, throttleOf(this), sendBatch, () => stop);

	if (!continueOnFail) {
		const failed = byItem.findIndex((outcome) => outcome !== undefined && 'error' in outcome);
		if (failed !== -1) {
			const error = (byItem[failed] as { error: NodeApiError | NodeOperationError }).error;
			const writtenCount = byItem.filter((outcome) => outcome && 'item' in outcome).length;
			const notSent = records.length - byItem.filter((outcome) => outcome !== undefined).length;
			// Written records stay written when the node stops: say how many, so nothing is lost.
			if (writtenCount > 0) {
				error.description = [
					error.description,
					`In this run ${writtenCount} record(s) were written${notSent ? ` and ${notSent} not sent` : ''} before the node stopped; turn on Settings → On Error → Continue to get one result per item.`,
				]
					.filter(Boolean)
					.join(' ');
			}
			throw error;
		}
	}
	const output = byItem.map((outcome, itemIndex): INodeExecutionData => {
		if (outcome && 'item' in outcome) return outcome.item;
		const error = outcome?.error;
		return {
			json: { success: false, error: error?.message ?? 'not written' },
			...(error ? { error } : {}),
			pairedItem: { item: itemIndex },
		};
	});
	return [output];
}
