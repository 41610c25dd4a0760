import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { editorRequest } from '../transport/send';
import { recentOperations } from '../../common/operationList';
import { selected } from './shared';

/**
 * Operation ID's list: the project's recent operations (nodes/common/operationList.ts), each
 * request sent with the node's Request Options.
 */
export async function searchOperations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	return await recentOperations(
		this,
		async (path, qs) => await editorRequest(this, 'GET', path, qs ? { qs } : {}),
		project,
		filter,
	);
}
