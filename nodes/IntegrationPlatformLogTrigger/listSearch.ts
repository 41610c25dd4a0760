import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../common/api';
import { currentValue, withReason } from '../common/locator';
import { recentOperations } from '../common/operationList';
import { encodePathSegment } from '../common/paths';

/**
 * The list behind each of version 3's Operations: the project's recent operations, as the action
 * node's Operation ID list shows them (nodes/common/operationList.ts). The project is the
 * trigger's top-level one, read from inside the Operations collection.
 */
export const searchOperations = withReason(async function (
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = currentValue(this, 'project');
	if (!project) throw new NodeOperationError(this.getNode(), 'Select the project first');
	return await recentOperations(
		this,
		async (path, qs) => await apiRequest(this, 'GET', path, qs ? { qs } : {}),
		encodePathSegment(project),
		filter,
	);
});
