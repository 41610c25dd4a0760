import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	INode,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { describeNetworkFailure, hostOf } from '../../shared/network';
import { secretPathValues } from './templates';

/** Errors from the routing engine are already n8n errors; NodeApiError hands those back as they are. */
function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	return error instanceof NodeOperationError ? error : new NodeApiError(node, error as JsonObject);
}

/**
 * The request policy of every operation. n8n's declarative engine offers one hook around the HTTP
 * call, the pagination function; every operation turns it on (`send.paginate: true`) so that
 * network failures are reported with the host that failed, instead of n8n's generic text
 * (its NodeApiError replaces messages that mention ECONNREFUSED and the like).
 */
export async function requestPolicy(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	try {
		return await this.makeRoutingRequest(requestData);
	} catch (error) {
		const { url, baseURL } = requestData.options;
		const failure =
			error instanceof NodeOperationError
				? undefined
				: describeNetworkFailure(error, hostOf(url, baseURL), secretPathValues(this));
		if (!failure) throw asNodeError(this.getNode(), error);
		throw new NodeApiError(this.getNode(), { host: hostOf(url, baseURL) } as JsonObject, {
			...failure,
			itemIndex: this.getItemIndex(),
		});
	}
}
