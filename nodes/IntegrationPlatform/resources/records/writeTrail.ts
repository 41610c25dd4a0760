import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiResponse } from '../../../common/api';
import { networkErrorCode } from '../../../common/network';
import type { RecordToWrite } from './writeInput';
import type { Outcome } from './writeOutcomes';
import { itemRanges } from './writeOutcomes';

/**
 * Record → Write's trail in n8n's log: one line before each batch is sent and one for its answer,
 * so that an execution cut short (a worker killed, n8n restarted) still says which records may
 * have been written (docs/operations.md, "Records and the provider's API"). n8n keeps no run data
 * of such an execution and does not run it again (docs/n8n-notes.md, "Queue mode").
 *
 * Every fact is in the message itself: n8n's default text format prints the message alone, its
 * JSON format (and its log file) adds the metadata. Lines are at info, the level n8n shows by
 * default; an answer leaving records unknown is a warning. Never a record's values (they may be
 * personal data) nor the provider's reasons (they may quote them): counts, input items, the
 * object, the group, the operation ID.
 */

const PREFIX = 'Record → Write';

type Kind = Outcome['kind'];

/** What came back for a batch: the service's answer, or the error of a request without one. */
export type BatchAnswer = { response: ApiResponse } | { error: unknown };

const KIND_LABELS: Array<[Kind, string]> = [
	['written', 'written'],
	['accepted', 'accepted for asynchronous writing'],
	['refused', 'not written (refused)'],
	['unknown', 'may have been written'],
];

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operation ID an answer names, whatever else it says. */
function answeredOperation(body: unknown): string | undefined {
	const id = isObject(body) ? body.operationId : undefined;
	return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The first line of a thrown error's message, shortened: n8n's and the node's own texts. */
function errorSummary(cause: unknown): string {
	const error = cause as { message?: unknown; description?: unknown };
	const description = typeof error?.description === 'string' ? error.description : '';
	const code =
		networkErrorCode(cause) ?? /^Network error ([A-Z][A-Z0-9_]+)\b/m.exec(description)?.[1];
	const message = typeof error?.message === 'string' ? error.message.split('\n')[0] : '';
	const short = message.length > 160 ? `${message.slice(0, 159)}…` : message;
	return [code, short].filter(Boolean).join(': ') || 'unknown error';
}

export class WriteTrail {
	private readonly where: string;
	private readonly meta: IDataObject;
	/** A tool call's one item is routing's item, not item 0. */
	private readonly itemOf: (index: number) => number;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly batchCount: number,
	) {
		const node = context.getNode();
		const executionId = context.getExecutionId();
		let workflowId: string | undefined;
		try {
			workflowId = context.getWorkflow().id;
		} catch {
			// A context without a workflow: the execution and node still place the line.
		}
		this.where = `${executionId ? `execution ${executionId}` : 'no execution ID'}, workflow ${workflowId ?? '?'}, node "${node.name}"`;
		this.meta = { executionId, workflowId, nodeName: node.name };
		const getItemIndex = (context as { getItemIndex?: () => number }).getItemIndex;
		const routed = typeof getItemIndex === 'function' ? getItemIndex.call(context) : undefined;
		this.itemOf = (index) => routed ?? index;
	}

	/** Logged before the batch's request leaves. */
	sending(index: number, batch: RecordToWrite[]): void {
		const { target } = batch[0];
		const items = itemRanges(batch.map((record) => this.itemOf(record.itemIndex)));
		this.log(
			'info',
			`${PREFIX}: sending batch ${index + 1}/${this.batchCount} (${this.where}): ${target.type}, ${target.mode}, ${batch.length} record(s) of object "${target.object}" for group "${target.groupRef}" (project "${target.project}", integration "${target.integration}"), input items ${items}`,
			{
				batch: index + 1,
				batches: this.batchCount,
				items,
				records: batch.length,
				writeType: target.type,
				mode: target.mode,
				object: target.object,
				groupRef: target.groupRef,
				project: target.project,
				integration: target.integration,
			},
		);
	}

	/** Logged once the batch's outcomes are known: from an answer, or from an error without one. */
	answered(index: number, batch: RecordToWrite[], results: Outcome[], answer: BatchAnswer): void {
		const operationId = 'response' in answer ? answeredOperation(answer.response.body) : undefined;
		const how =
			'response' in answer
				? `answered HTTP ${answer.response.status}${operationId ? `, operation ${operationId}` : ', no operation ID'}`
				: `got no answer (${errorSummary(answer.error)})`;
		const counts: IDataObject = {};
		const parts = KIND_LABELS.flatMap(([kind, label]) => {
			const items = batch
				.filter((_, position) => results[position]?.kind === kind)
				.map((record) => this.itemOf(record.itemIndex));
			counts[kind] = items.length;
			return items.length ? [`${label} ${items.length} (input items ${itemRanges(items)})`] : [];
		});
		this.log(
			(counts.unknown as number) > 0 ? 'warn' : 'info',
			`${PREFIX}: batch ${index + 1}/${this.batchCount} ${how} (${this.where}): ${parts.join(', ')}`,
			{
				batch: index + 1,
				batches: this.batchCount,
				...('response' in answer ? { status: answer.response.status } : {}),
				operationId,
				...counts,
			},
		);
	}

	private log(level: 'info' | 'warn', message: string, metadata: IDataObject): void {
		// A context built by hand (tests, other callers) may come without n8n's logger.
		this.context.logger?.[level](message, { ...this.meta, ...metadata });
	}
}
