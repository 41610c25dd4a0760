import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { entriesUpToLimit } from '../../routing/results';
import { byName, listLocator } from '../../../common/locator';

const resource = 'provider';
const showFor = (...operation: string[]) => ({ show: { resource: [resource], operation } });

/**
 * The catalog is an object keyed by provider name, not a list (docs/api-notes.md, "Provider
 * catalog"): one item per provider, in name order, honouring Return All / Limit.
 */
async function catalogEntries(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = response.body;
	const catalog =
		typeof body === 'object' && body !== null && !Array.isArray(body)
			? (body as Record<string, IDataObject>)
			: {};
	const entries = Object.keys(catalog)
		.sort()
		.map((name) => ({ name, ...(catalog[name] ?? {}) }));
	return entriesUpToLimit(this, entries);
}

// The catalog needs no authentication (`security: []`); the node still sends its requests to the
// selected credential's API host, which is where the catalog is served.
export const providerOperations: OperationDefinition[] = [
	// GET /providers/{provider} — docs/api-notes.md, "Provider catalog".
	{
		name: 'Get',
		value: 'get',
		action: 'Get a provider',
		description:
			'Get a provider by name. Returns its display name, authentication type, modules and supported operations.',
		method: 'GET',
		path: '/providers/{providerName}',
	},
	// GET /providers — docs/api-notes.md, "Provider catalog".
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many providers',
		description:
			'List the SaaS providers the platform supports, with their capabilities. Returns one item per provider, sorted by name (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/providers',
		outputShape: 'providerCatalog',
		output: [catalogEntries],
	},
];

export const providerFields: INodeProperties[] = [
	listLocator({
		displayName: 'Provider',
		name: 'providerName',
		description: 'The provider, from the list or by its name in the catalog',
		search: 'searchProviders',
		select: 'Select a provider…',
		typed: [byName('hubspot')],
		displayOptions: showFor('get'),
	}),
	...returnAllAndLimit({ show: { resource: [resource], operation: ['getAll'] } }),
];
