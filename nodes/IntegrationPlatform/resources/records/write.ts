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
import type { RememberedItem, RememberedOutcome } from './writeMemory';
import { fingerprintOf, WriteMemory } from './writeMemory';
import { asNodeError } from '../../routing/requestPolicy';

/**
 * Record → Write, run in code with all input items at once (n8n's customOperations): records of
 * equal target are sent in batches of up to 100 (the API's batch form), a few batches at a time,
 * and each record's result goes back to its own input item (docs/api-notes.md, "Data plane";
 * docs/architecture.md, "Record → Write"). A record the provider refuses fails its item only.
 *
 * Each record is sent at most once per execution: an item is reported written only when the
 * answer says so for it, an answer that does not say (5xx, timeout, reset, a results list that
 * does not match the batch) marks its batch "may have been written", and a retry of the node
 * (Retry On Fail) does not send again what an earlier try wrote or may have written
 * (writeMemory.ts).
 */

/** Batches in flight at once: enough to hide latency, few enough not to trip the rate limit. */
const CONCURRENT_BATCHES = 4;

/** What earlier tries of each node run sent (module memory: one per n8n process). */
const memory = new WriteMemory();

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

type NodeError = NodeApiError | NodeOperationError;

/**
 * One record's outcome. `written`: the answer says the record was written; `accepted`: an
 * asynchronous write was taken on; `refused`: the request or the record was refused, nothing
 * written; `unknown`: the record may have been written.
 */
type Outcome =
	| { kind: 'written' | 'accepted'; item: INodeExecutionData }
	| { kind: 'refused'; error: NodeError; operationId?: string }
	| { kind: 'unknown'; error: NodeError; operationId?: string };

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
function failedRequest(
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
function outcomes(
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

/**
 * The node run this try belongs to: n8n's Retry On Fail runs the same execution, node and run
 * index again. Without an execution ID (no run of a workflow) nothing is remembered.
 */
function runKeyOf(context: IExecuteFunctions): string | undefined {
	const executionId = context.getExecutionId();
	if (!executionId) return undefined;
	let runIndex: unknown = 0;
	try {
		runIndex = context.getWorkflowDataProxy(0).$runIndex;
	} catch {
		// A context without a data proxy: the fingerprints still tell items apart.
	}
	const node = context.getNode();
	return JSON.stringify([executionId, node.id ?? node.name, runIndex]);
}

/** An outcome remembered from an earlier try, for this try's output. */
function recalledOutcome(
	context: IExecuteFunctions,
	itemIndex: number,
	remembered: RememberedOutcome,
): Outcome {
	if (remembered.kind !== 'unknown') {
		return {
			kind: remembered.kind,
			item: { json: { ...remembered.json } as IDataObject, pairedItem: { item: itemIndex } },
		};
	}
	const error = new NodeOperationError(context.getNode(), remembered.message, {
		itemIndex,
		description: remembered.description,
	});
	if (remembered.operationId) error.context.operationId = remembered.operationId;
	return { kind: 'unknown', error, operationId: remembered.operationId };
}

/** What a retry must not send again: items written, accepted or possibly written. */
function toRemember(
	byItem: Array<Outcome | undefined>,
	fingerprint: (itemIndex: number) => string,
): RememberedItem[] {
	const remembered: RememberedItem[] = [];
	byItem.forEach((outcome, item) => {
		if (!outcome || outcome.kind === 'refused') return;
		const kept: RememberedOutcome =
			outcome.kind === 'unknown'
				? {
						kind: 'unknown',
						message: outcome.error.message,
						description: outcome.error.description ?? '',
						operationId: outcome.operationId,
					}
				: { kind: outcome.kind, json: outcome.item.json };
		remembered.push({ item, fingerprint: fingerprint(item), outcome: kept });
	});
	return remembered;
}

/** Which items ended how, for the error that stops the node: counts and item ranges. */
function runSummary(byItem: Array<Outcome | undefined>, sendable: Set<number>): string {
	const of = (kind: Outcome['kind']) =>
		byItem.flatMap((outcome, item) => (outcome?.kind === kind ? [item] : []));
	const notSent = [...sendable].filter((item) => byItem[item] === undefined);
	const unknown = of('unknown');
	const operations = [
		...new Set(
			unknown.map((item) => (byItem[item] as { operationId?: string }).operationId).filter(Boolean),
		),
	];
	const part = (label: string, items: number[], extra = '') =>
		items.length
			? `${label}: ${items.length} (item${items.length > 1 ? 's' : ''} ${itemRanges(items)}${extra})`
			: '';
	const parts = [
		part('written', of('written')),
		part('accepted for asynchronous writing', of('accepted')),
		part(
			'may have been written',
			unknown,
			operations.length ? `; operation ${operations.join(', ')}` : '',
		),
		part('not written (refused)', of('refused')),
		part('not sent', notSent),
	].filter(Boolean);
	return `Records of this run (input items counted from 0): ${parts.join('; ')}. Settings → On Error → Continue gives each item its own result.`;
}

export async function writeRecords(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const { data: credentials } = await credentialFor(this, 'Record → Write', {
		requires: 'apiKey',
		host: 'write',
	});
	const baseUrl = versionedBaseUrl(credentials.writeUrl, DEFAULT_WRITE_URL);
	const params = new ItemParameters(this);
	const continueOnFail = this.continueOnFail();
	const byItem: Array<Outcome | undefined> = new Array(items.length);

	// An earlier try of this node run (Retry On Fail) may have written some of the items.
	const runKey = runKeyOf(this);
	// Routing's call for one item (the node as an AI tool, routing/customAsRouting.ts) comes with
	// the item's own index; a run of all items does not.
	const perItemCall = typeof (this as { getItemIndex?: unknown }).getItemIndex === 'function';
	const recalled = runKey ? memory.recall(runKey, Date.now()) : undefined;
	if (recalled === 'forgotten') {
		throw new NodeOperationError(
			this.getNode(),
			'Record → Write sent nothing in this try: an earlier try of this node in this execution sent records it no longer remembers',
			{
				description:
					'The node remembers what it sent for a limited number of records and time; this run went beyond that. Sending again could write records twice, so nothing was sent. Check which records exist (Record → Search) before running it again.',
			},
		);
	}
	const fingerprints = new Map<number, string>();
	const fingerprint = (itemIndex: number) => {
		let value = fingerprints.get(itemIndex);
		if (value === undefined) {
			value = fingerprintOf(items[itemIndex].json);
			fingerprints.set(itemIndex, value);
		}
		return value;
	};
	// An item is the remembered one when both its position and its JSON match. Entries this try
	// does not match (another call's items, as an AI tool calls the node per item) are kept.
	const keyOf = (item: number, itemFingerprint: string) => `${item}:${itemFingerprint}`;
	const earlierItems = new Map(
		(recalled ?? []).map((entry) => [keyOf(entry.item, entry.fingerprint), entry]),
	);
	const earlierPositions = new Set((recalled ?? []).map((entry) => entry.item));
	const matched = new Set<string>();

	// Every item is read before anything is sent: an item that cannot be sent stops the node
	// (without Continue On Fail) before any record is written.
	const records: RecordToWrite[] = [];
	const sendable = new Set<number>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		if (earlierPositions.has(itemIndex)) {
			const key = keyOf(itemIndex, fingerprint(itemIndex));
			const earlier = earlierItems.get(key);
			if (earlier) {
				matched.add(key);
				byItem[itemIndex] = recalledOutcome(this, itemIndex, earlier.outcome);
				continue;
			}
		}
		try {
			records.push(recordToWrite(this, params, itemIndex, items[itemIndex].json));
			sendable.add(itemIndex);
		} catch (error) {
			if (!continueOnFail) throw asNodeError(this.getNode(), error);
			byItem[itemIndex] = { kind: 'refused', error: error as NodeOperationError };
		}
	}

	const failed = (outcome: Outcome | undefined) =>
		outcome !== undefined && (outcome.kind === 'refused' || outcome.kind === 'unknown');
	const batches = batchesOf(records);
	// Without Continue On Fail the node stops at the first failure: nothing more is sent once one
	// is known, including one an earlier try left.
	let stop = !continueOnFail && byItem.some(failed);
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
			results = failedRequest(this, batch, error);
		}
		batch.forEach((record, position) => (byItem[record.itemIndex] = results[position]));
		if (!continueOnFail && results.some(failed)) stop = true;
	};
	let clean = false;
	try {
		await runPool(batches.length, CONCURRENT_BATCHES, throttleOf(this), sendBatch, () => stop);
		clean = !byItem.some(failed);
	} finally {
		// However this try ends, a retry must know what it sent. n8n retries a node that threw or
		// whose first item is an error; a try without any failed item is not retried.
		if (runKey) {
			// Read again: calls for other items may have run meanwhile (routing runs them side by side).
			const now = Date.now();
			const current = memory.recall(runKey, now);
			if (current !== 'forgotten') {
				const others = (current ?? []).filter(
					(entry) => !matched.has(keyOf(entry.item, entry.fingerprint)),
				);
				// A call for one item of many is not the end of the node's run: a retry runs every
				// item again, so what it wrote is kept even when nothing failed.
				const keep =
					clean && !perItemCall ? others : [...others, ...toRemember(byItem, fingerprint)];
				if (keep.length) memory.remember(runKey, keep, now);
				else memory.forget(runKey);
			}
		}
	}

	if (!continueOnFail) {
		const first = byItem.findIndex(failed);
		if (first !== -1) {
			const { error } = byItem[first] as { error: NodeError };
			// Records written stay written when the node stops: say which, so nothing is lost or
			// written twice by a run of the whole workflow.
			error.description = [error.description, runSummary(byItem, sendable)]
				.filter(Boolean)
				.join('\n');
			throw error;
		}
	}
	const output = byItem.map((outcome, itemIndex): INodeExecutionData => {
		if (outcome && 'item' in outcome) return outcome.item;
		const error = outcome?.error;
		return {
			// n8n keeps only the error's message as the item's JSON (so the message names the operation).
			json: { success: false, error: error?.message ?? 'not written' },
			...(error ? { error } : {}),
			pairedItem: { item: itemIndex },
		};
	});
	return [output];
}
