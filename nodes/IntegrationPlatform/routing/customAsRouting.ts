import type {
	IExecuteFunctions,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { CustomOperation } from '../inCode/customContext';
import { asNodeError } from '../transport/policy';

/**
 * An operation run in code (n8n's customOperations) as routing's request hook, for the one path
 * where n8n 2.41 does not look at customOperations: the node called as an AI tool, which always
 * routes (docs/n8n-notes.md, "The node as an AI tool"). Routing calls the hook once per item; the
 * hook runs the operation for that item alone, seen as an execute context with one input item,
 * and hands its output back paired with the item. Errors are thrown, so that n8n's own handling
 * of the item (Continue On Fail, the tool's error answer) applies. A tool's one input item, the
 * call's arguments, comes on the tool connection, not the main one (docs/n8n-notes.md, "The node
 * as an AI tool"); the operation sees it as its input item.
 */
export function customAsRouting(custom: CustomOperation) {
	return async function (this: IExecutePaginationFunctions): Promise<INodeExecutionData[]> {
		const item = this.getItemIndex();
		const input = this.getNode().type.endsWith('Tool')
			? this.getInputData(0, NodeConnectionTypes.AiTool)
			: this.getInputData();
		const oneItem = Object.create(this, {
			getInputData: { value: () => [input] },
			// The item's own values: the single-item context reads parameters for its item.
			getNodeParameter: {
				value: (name: string, _itemIndex: number, fallback?: unknown, options?: object) =>
					this.getNodeParameter(name, fallback, options),
			},
			continueOnFail: { value: () => false },
		}) as IExecuteFunctions;
		try {
			const [output = []] = await custom.call(oneItem);
			return output.map((entry) => ({ ...entry, pairedItem: { item } }));
		} catch (error) {
			// The operation saw one item, number 0: the error is this item's.
			const nodeError = asNodeError(this.getNode(), error);
			nodeError.context.itemIndex = item;
			throw nodeError;
		}
	};
}
