import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeOperationError,
} from 'n8n-workflow';

import type { Authentication } from '../../common/api';
import { authenticationOf, CREDENTIAL_TYPE } from '../../common/api';
import type { CustomOperation, InCodeHost } from './customContext';
import { domainRefusal } from '../../common/domains';
import { apiContextOf, hostBaseUrl } from './customContext';
import { wrongCredentialError } from '../routing/wrongCredential';

/**
 * What n8n's routing engine checks before it sends a routed request, applied to an operation
 * written in code (n8n's `customOperations`) before it sends anything: the credential kind the
 * service accepts, and the credential's Allowed HTTP Request Domains. A refusal fails the run, or
 * with Continue On Fail gives each input item its own error item, paired with it.
 *
 * The credential is read here once and handed to the operation through the context, so the
 * operation does not read it again.
 */
export function customOperation(
	run: CustomOperation,
	operation: { where: string; requires?: Authentication; host: InCodeHost },
): CustomOperation {
	const { where, requires, host } = operation;
	return async function (this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const node = this.getNode();
		const authentication = authenticationOf(apiContextOf(this));
		let refusal: ((itemIndex: number) => NodeOperationError) | undefined;
		let credential: { type: string; data: ICredentialDataDecryptedObject } | undefined;
		if (requires && requires !== authentication) {
			refusal = (itemIndex) => wrongCredentialError(node, itemIndex, where, requires, host);
		} else {
			const type = CREDENTIAL_TYPE[authentication];
			const data = await this.getCredentials(type);
			refusal = domainRefusal(node, data, hostBaseUrl(host, data));
			credential = { type, data };
		}
		if (refusal) {
			if (!this.continueOnFail()) throw refusal(0);
			return [items.map((_, item) => ({ json: {}, error: refusal(item), pairedItem: { item } }))];
		}
		const read = this.getCredentials.bind(this);
		const withCredential = Object.create(this, {
			getCredentials: {
				value: async (type: string, itemIndex?: number) =>
					type === credential?.type ? { ...credential.data } : await read(type, itemIndex),
			},
		}) as IExecuteFunctions;
		return await run.call(withCredential);
	};
}
