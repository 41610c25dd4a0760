import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runsAsTool } from './writeInput';
import type { Outcome } from './writeOutcomes';
import type { RememberedItem, RememberedOutcome } from './writeMemory';
import { fingerprintOf, WriteMemory } from './writeMemory';

/**
 * Record → Write across the tries of one node run: what earlier tries wrote, had accepted or may
 * have written is reported again without being sent again (docs/architecture.md, "Record → Write:
 * each record at most once"). The memory itself is writeMemory.ts; this file decides which run a
 * try belongs to and turns remembered outcomes back into outcomes.
 */

/** What earlier tries of each node run sent (module memory: one per n8n process). */
export const writeMemory = new WriteMemory();

/**
 * Routing's call for one item (routing/customAsRouting.ts) comes with the item's own index; a run
 * of all items does not. n8n routes only when the node runs as a tool through n8n-core's tool
 * invocation (MCP Server Trigger, agents that call tools themselves).
 */
const isPerItemCall = (context: IExecuteFunctions) =>
	typeof (context as { getItemIndex?: unknown }).getItemIndex === 'function';

/**
 * One number per tool call. n8n's tool invocation runs every try of a call under a new run index
 * and a new context, often without an execution ID (an MCP Server Trigger in a single process),
 * but hands every try the same object as the call's arguments, which is the input item here; a
 * new call gets a new object. A WeakMap forgets a call once n8n drops its arguments.
 */
const callNumbers = new WeakMap<object, number>();
let lastCall = 0;
function callNumberOf(json: object): number {
	let number = callNumbers.get(json);
	if (number === undefined) {
		number = ++lastCall;
		callNumbers.set(json, number);
	}
	return number;
}

/**
 * The node run this try belongs to. In a workflow, n8n's Retry On Fail runs the same execution,
 * node and run index again (without an execution ID nothing is remembered). Routed per item, a
 * try belongs to its call: the arguments object all its tries share.
 */
function runKeyOf(context: IExecuteFunctions, items: INodeExecutionData[]): string | undefined {
	const node = context.getNode();
	const nodeKey = node.id ?? node.name;
	const executionId = context.getExecutionId();
	if (isPerItemCall(context)) {
		const json = items[0]?.json;
		if (typeof json !== 'object' || json === null) return undefined;
		return JSON.stringify([executionId ?? '', nodeKey, 'call', callNumberOf(json)]);
	}
	if (!executionId) return undefined;
	let runIndex: unknown = 0;
	try {
		runIndex = context.getWorkflowDataProxy(0).$runIndex;
	} catch {
		// A context without a data proxy: the fingerprints still tell items apart.
	}
	return JSON.stringify([executionId, nodeKey, runIndex]);
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

/** What earlier tries of this node run left, for one try; and what this try leaves for the next. */
export class EarlierTries {
	private readonly fingerprints = new Map<number, string>();
	private readonly earlier = new Map<string, RememberedItem>();
	private readonly positions = new Set<number>();
	private readonly matched = new Set<string>();

	private constructor(
		private readonly context: IExecuteFunctions,
		private readonly items: INodeExecutionData[],
		private readonly runKey: string | undefined,
		recalled: RememberedItem[],
		/** Whether a try without failures must still be remembered (see remember()). */
		private readonly keepWhenClean: boolean,
	) {
		for (const entry of recalled) {
			this.earlier.set(this.keyOf(entry.item, entry.fingerprint), entry);
			this.positions.add(entry.item);
		}
	}

	/** Throws when an earlier try of this run sent records the memory no longer holds. */
	static recall(context: IExecuteFunctions, items: INodeExecutionData[]): EarlierTries {
		const runKey = runKeyOf(context, items);
		const recalled = runKey ? writeMemory.recall(runKey, Date.now()) : undefined;
		if (recalled === 'forgotten') {
			throw new NodeOperationError(
				context.getNode(),
				'Record → Write sent nothing in this try: an earlier try of this node in this execution sent records it no longer remembers',
				{
					description: `The node remembers what it sent up to ${writeMemory.describeLimits()}; this run went beyond that. Sending again could write records twice, so nothing was sent. Check which records exist (Record → Search) before running it again, and write fewer records per execution (e.g. split the input with Loop Over Items) so that a retry can be told what was written.`,
				},
			);
		}
		// A routed call for one item of many is not the end of the node's run: a retry runs every
		// item again. A tool call has one item, and a call without failures is not retried.
		const keepWhenClean = isPerItemCall(context) && !runsAsTool(context);
		return new EarlierTries(context, items, runKey, recalled ?? [], keepWhenClean);
	}

	/** The item's outcome from an earlier try, when both its position and its JSON match. */
	outcomeOf(itemIndex: number): Outcome | undefined {
		if (!this.positions.has(itemIndex)) return undefined;
		const key = this.keyOf(itemIndex, this.fingerprint(itemIndex));
		const entry = this.earlier.get(key);
		if (!entry) return undefined;
		this.matched.add(key);
		return recalledOutcome(this.context, itemIndex, entry.outcome);
	}

	/**
	 * Leaves this try's outcomes for the next try. Returns false when the memory could not keep
	 * them (a retry would then send nothing and say so).
	 */
	remember(byItem: Array<Outcome | undefined>, clean: boolean): boolean {
		if (!this.runKey) return true;
		// Read again: calls for other items may have run meanwhile (routing runs them side by side).
		const now = Date.now();
		const current = writeMemory.recall(this.runKey, now);
		if (current === 'forgotten') return false;
		// Entries this try did not match (another call's items) are kept.
		const others = (current ?? []).filter(
			(entry) => !this.matched.has(this.keyOf(entry.item, entry.fingerprint)),
		);
		const keep =
			clean && !this.keepWhenClean
				? others
				: [...others, ...toRemember(byItem, (item) => this.fingerprint(item))];
		if (keep.length === 0) {
			writeMemory.forget(this.runKey);
			return true;
		}
		return writeMemory.remember(this.runKey, keep, now);
	}

	private keyOf(item: number, fingerprint: string): string {
		return `${item}:${fingerprint}`;
	}

	private fingerprint(itemIndex: number): string {
		let value = this.fingerprints.get(itemIndex);
		if (value === undefined) {
			value = fingerprintOf(this.items[itemIndex].json);
			this.fingerprints.set(itemIndex, value);
		}
		return value;
	}
}
