import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	INode,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { secretPathValues } from './paths';

/** Network failures that deserve their own words; n8n's generic texts do not name the host. */
const NETWORK_FAILURES: Record<string, string> = {
	ECONNREFUSED: 'refused the connection',
	ECONNRESET: 'closed the connection before answering',
	ETIMEDOUT: 'did not answer in time',
	ECONNABORTED: 'did not answer in time',
	ENOTFOUND: 'could not be found (DNS lookup failed)',
	EAI_AGAIN: 'could not be resolved (DNS lookup failed)',
	EHOSTUNREACH: 'is unreachable',
	EPIPE: 'closed the connection while the request was sent',
};

function findErrorCode(error: unknown): string | undefined {
	let current = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined;
	for (let depth = 0; current && depth < 5; depth++) {
		if (typeof current.code === 'string' && NETWORK_FAILURES[current.code]) return current.code;
		if (typeof current.message === 'string' && /timeout of \d+ms exceeded/.test(current.message))
			return 'ETIMEDOUT';
		current = current.cause as typeof current;
	}
	return undefined;
}

/** Errors from the routing engine are already n8n errors; NodeApiError hands those back as they are. */
function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	return error instanceof NodeOperationError ? error : new NodeApiError(node, error as JsonObject);
}

function hostOf(options: DeclarativeRestApiSettings.HttpRequestOptions): string {
	try {
		return new URL(options.url ?? '', options.baseURL).host || String(options.baseURL);
	} catch {
		return String(options.baseURL ?? options.url ?? 'the service');
	}
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
		const code = error instanceof NodeOperationError ? undefined : findErrorCode(error);
		if (!code) throw asNodeError(this.getNode(), error);
		const host = hostOf(requestData.options);
		const secrets = secretPathValues(this);
		const technical = `${code}${typeof (error as Error).message === 'string' ? `: ${(error as Error).message}` : ''}`;
		throw new NodeApiError(this.getNode(), { host } as JsonObject, {
			message: `The Integration Platform API at ${host} ${NETWORK_FAILURES[code]}`,
			description: [
				`Network error ${secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), technical)}.`,
				'Check the base URL in the credential and that the service is reachable from n8n; retrying later may help (Settings → Retry On Fail).',
			].join('\n'),
			itemIndex: this.getItemIndex(),
		});
	}
}
