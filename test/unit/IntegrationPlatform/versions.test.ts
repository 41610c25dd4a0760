/**
 * The action node's versions: what a new node starts on (version 3, as version 2 did), and what
 * saved version 1 workflows keep. n8n saves a workflow without the parameters left at their
 * default, so a version 1 node saved on its resource's default operation has no `operation` in its
 * parameters: its default must never change.
 */
import type { INode, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';

const description = new IntegrationPlatform().description;
const resources = (
	description.properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]
).map((o) => String(o.value));

/** What n8n shows for `operation` in a node of this version on this resource. */
function selectorFor(version: number, resource: string): INodeProperties {
	const node = { typeVersion: version, parameters: { resource } } as unknown as INode;
	const shown = description.properties.filter(
		(p) =>
			p.name === 'operation' && NodeHelpers.displayParameter(node.parameters, p, node, description),
	);
	expect(shown).toHaveLength(1);
	return shown[0];
}

/** The defaults of version 1, as saved workflows rely on them. */
const VERSION_1_DEFAULTS: Record<string, string> = {
	apiKey: 'delete',
	claimedDomain: 'claim',
	connection: 'generate',
	customField: 'upsert',
	destination: 'get',
	installation: 'unpauseReads',
	integration: 'getAll',
	invite: 'get',
	jwtKey: 'update',
	notificationEventTopicRoute: 'delete',
	oauth: 'getAuthorizationUrl',
	objectMetadata: 'getForInstallation',
	operation: 'getLogs',
	organization: 'update',
	project: 'getAll',
	provider: 'getAll',
	providerApi: 'sendRequest',
	providerApp: 'getAll',
	records: 'write',
	revision: 'getHydrated',
	topic: 'delete',
	topicDestinationRoute: 'create',
	uploadUrl: 'generate',
	user: 'getCurrent',
};

/**
 * Version 2 defaults that are not a GET, and why they change nothing: Search and Send Request
 * (whose method starts on GET) read; the authorization and upload URLs are only signed links.
 */
const READS_WITHOUT_GET = new Set([
	'records.search',
	'providerApi.sendRequest',
	'oauth.getAuthorizationUrl',
	'uploadUrl.generate',
]);

describe('action node versions', () => {
	it('offers versions 1, 2 and 3 and creates new nodes as version 3', () => {
		expect(description.version).toEqual([1, 2, 3]);
		expect(description.defaultVersion).toBe(3);
	});

	it.each(resources)('version 1 keeps the default operation of %s', (resource) => {
		expect(selectorFor(1, resource).default).toBe(VERSION_1_DEFAULTS[resource]);
	});

	// Version 3 changes only Record → Write's fields: it starts where version 2 does.
	it.each(resources.flatMap((resource) => [2, 3].map((version) => [version, resource] as const)))(
		'version %i starts %s on an operation that deletes or changes nothing',
		(version, resource) => {
			const selector = selectorFor(version, resource);
			const option = (selector.options as INodePropertyOptions[]).find(
				(o) => o.value === selector.default,
			);
			expect(option).toBeDefined();
			const key = `${resource}.${String(option!.value)}`;
			const method = option!.routing?.request?.method;
			if (!READS_WITHOUT_GET.has(key)) expect({ key, method }).toEqual({ key, method: 'GET' });
			expect(String(option!.name)).not.toMatch(/delete|remove|revoke|update|create|claim/i);
		},
	);

	it('shows the same operations in every version', () => {
		for (const resource of resources) {
			const values = (version: number) =>
				(selectorFor(version, resource).options as INodePropertyOptions[]).map((o) => o.value);
			expect(values(2)).toEqual(values(1));
			expect(values(3)).toEqual(values(1));
		}
	});
});
