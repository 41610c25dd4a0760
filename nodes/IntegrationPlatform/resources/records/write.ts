import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiPath } from '../../../common/paths';
import { ItemParameters } from '../../inCode/customContext';
import type { NodeRequestOptions } from '../../transport/requestOptions';
import { runPool, throttleOf } from '../../transport/requestOptions';
import { hostBaseUrl, runCredential, sendRequest } from '../../transport/send';
import type { RecordToWrite, WriteTarget } from './writeInput';
import { recordToWrite } from './writeInput';
import type { NodeError, Outcome } from './writeOutcomes';
import { failedRequest, itemRanges, outcomes } from './writeOutcomes';
import { EarlierTries, writeMemory } from './writeRetry';
import type { BatchAnswer } from './writeTrail';
import { WriteTrail } from './writeTrail';
import { asNodeError } from '../../transport/policy';

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

/** Why a retry of this run will send nothing: the memory could not hold what it sent. */
const notRemembered = () =>
	`This run sent more than the node can remember for a retry (${writeMemory.describeLimits()}): Retry On Fail will send nothing and fail, rather than risk writing records twice. Write fewer records per execution (e.g. split the input with Loop Over Items).`;

export async function writeRecords(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const baseUrl = hostBaseUrl('write', (await runCredential(this)).data);
	const params = new ItemParameters(this);
	const continueOnFail = this.continueOnFail();
	const byItem: Array<Outcome | undefined> = new Array(items.length);

	// An earlier try of this node run (Retry On Fail) may have written some of the items.
	const earlier = EarlierTries.recall(this, items);

	// Every item is read before anything is sent: an item that cannot be sent stops the node
	// (without Continue On Fail) before any record is written.
	const records: RecordToWrite[] = [];
	const sendable = new Set<number>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const recalled = earlier.outcomeOf(itemIndex);
		if (recalled) {
			byItem[itemIndex] = recalled;
			continue;
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
	const trail = new WriteTrail(this, batches.length);
	// Without Continue On Fail the node stops at the first failure: nothing more is sent once one
	// is known, including one an earlier try left.
	let stop = !continueOnFail && byItem.some(failed);
	const sendBatch = async (index: number) => {
		const batch = batches[index];
		const { target } = batch[0];
		const path = apiPath`/projects/${target.project}/integrations/${target.integration}/objects/${target.object}`;
		// Logged before sending: if this process dies before the answer, the log still says which
		// records may have been written (writeTrail.ts).
		trail.sending(index, batch);
		let results: Outcome[];
		let answer: BatchAnswer;
		try {
			const response = await sendRequest(this, {
				method: 'POST',
				path,
				baseUrl,
				body: requestBody(batch),
			});
			answer = { response };
			results = outcomes(this, batch, response);
		} catch (error) {
			answer = { error };
			results = failedRequest(this, batch, error);
		}
		trail.answered(index, batch, results, answer);
		batch.forEach((record, position) => (byItem[record.itemIndex] = results[position]));
		if (!continueOnFail && results.some(failed)) stop = true;
	};
	let clean = false;
	let remembered = true;
	try {
		const settings = this.getNodeParameter('requestOptions', 0, {}) as NodeRequestOptions;
		await runPool(batches.length, CONCURRENT_BATCHES, throttleOf(settings), sendBatch, () => stop);
		clean = !byItem.some(failed);
	} finally {
		// However this try ends, a retry must know what it sent. n8n retries a node that threw or
		// whose first item is an error; a try without any failed item is not retried.
		remembered = earlier.remember(byItem, clean);
	}

	if (!continueOnFail) {
		const first = byItem.findIndex(failed);
		if (first !== -1) {
			const { error } = byItem[first] as { error: NodeError };
			// Records written stay written when the node stops: say which, so nothing is lost or
			// written twice by a run of the whole workflow.
			error.description = [
				error.description,
				runSummary(byItem, sendable),
				remembered ? '' : notRemembered(),
			]
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
