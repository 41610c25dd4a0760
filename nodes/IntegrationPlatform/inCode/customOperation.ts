import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Authentication } from '../../common/api';
import type { CustomOperation } from './customContext';
import type { InCodeHost } from '../transport/send';
import { openRun } from '../transport/send';

/**
 * What n8n's routing engine checks before it sends a routed request, applied to an operation
 * written in code (n8n's `customOperations`) before it sends anything (transport/send.ts,
 * openRun): the credential kind the service accepts, and the credential's Allowed HTTP Request
 * Domains. A refusal fails the run, or with Continue On Fail gives each input item its own error
 * item, paired with it. The credential read here is the one the operation's requests use.
 */
export function customOperation(
	run: CustomOperation,
	operation: { where: string; requires?: Authentication; host: InCodeHost },
): CustomOperation {
	const { where, requires, host } = operation;
	return async function (this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const refusal = await openRun(this, where, { requires, host });
		if (refusal) {
			if (!this.continueOnFail()) throw refusal(0);
			const items = this.getInputData();
			return [items.map((_, item) => ({ json: {}, error: refusal(item), pairedItem: { item } }))];
		}
		return await run.call(this);
	};
}
