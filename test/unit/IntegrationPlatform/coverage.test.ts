/**
 * Coverage contract: every endpoint of the specification (shared/spec, "Endpoints", copied here
 * because CI sees only this repository) has a node operation, a simulator route, an example
 * workflow and a row in the README's operations table. Adding an endpoint here without the rest,
 * or dropping one of them, fails this test.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { READ_BASE_URL } from '../../../nodes/IntegrationPlatform/routing/defineOperation';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ROUTES } = require('../../simulator') as { ROUTES: Array<{ id: string; method: string; host: string; path: string; seedOp?: number }> };

const ROOT = path.join(__dirname, '..', '..', '..');

/** The specification's endpoint table: number, method, host, path (below /v1). */
const SPEC_ENDPOINTS: Array<[number, string, 'api' | 'read', string]> = [
	[1, 'DELETE', 'api', '/projects/{projectIdOrName}/api-keys/{apiKey}'],
	[2, 'POST', 'api', '/projects/{projectIdOrName}/connections:generate'],
	[3, 'PUT', 'api', '/projects/{projectIdOrName}/providers/{provider}/object-metadata'],
	[4, 'POST', 'api', '/projects/{projectIdOrName}/integrations'],
	[5, 'POST', 'read', '/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}:unpause'],
	[6, 'GET', 'api', '/projects/{projectIdOrName}/integrations/{integrationId}/revisions/{revisionId}:hydrate'],
	[7, 'GET', 'api', '/projects/{projectIdOrName}/destinations/{destination}'],
	[8, 'GET', 'api', '/projects/{projectIdOrName}/integrations'],
	[9, 'GET', 'api', '/projects/{projectIdOrName}/operations/{operationId}/logs'],
	[10, 'DELETE', 'api', '/projects/{projectIdOrName}/topics/{topicId}'],
	[11, 'DELETE', 'api', '/orgs/{orgId}/invites/{inviteId}'],
	[12, 'PATCH', 'api', '/projects/{projectIdOrName}/jwt-keys/{keyId}'],
	[13, 'POST', 'api', '/claimed-domains'],
	[14, 'PATCH', 'api', '/orgs/{orgId}'],
	[15, 'POST', 'api', '/projects/{projectIdOrName}/topic-destination-routes'],
	[16, 'GET', 'api', '/projects'],
	[17, 'GET', 'api', '/orgs/{orgId}/invites/{inviteId}'],
	[18, 'DELETE', 'api', '/projects/{projectIdOrName}/notification-event-topic-routes/{routeId}'],
];

const shape = (p: string) => p.replace(/^\/v1/, '').replace(/\{[^}]+\}/g, '{}');

interface NodeOperation {
	resource: string;
	operation: string;
	name: string;
	method: string;
	host: 'api' | 'read';
	path: string;
}

function nodeOperations(): NodeOperation[] {
	const { properties } = new IntegrationPlatform().description;
	return properties
		.filter((p: INodeProperties) => p.name === 'operation')
		.flatMap((p: INodeProperties) =>
			(p.options as INodePropertyOptions[]).map((option) => ({
				resource: (p.displayOptions?.show?.resource as string[])[0],
				operation: option.value as string,
				name: option.name,
				method: option.routing?.request?.method as string,
				host: option.routing?.request?.baseURL === READ_BASE_URL ? ('read' as const) : ('api' as const),
				path: option.routing?.request?.url as string,
			})),
		);
}

function exampleOperations(): Array<{ file: string; resource: string; operation: string }> {
	const dir = path.join(ROOT, 'examples');
	return fs.readdirSync(dir).flatMap((file) => {
		const workflow = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
		return workflow.nodes
			.filter((n: { type: string }) => n.type === 'n8n-nodes-integration-platform.integrationPlatform')
			.map((n: { parameters: { resource: string; operation: string } }) => ({ file, ...n.parameters }));
	});
}

const operations = nodeOperations();
const examples = exampleOperations();
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe.each(SPEC_ENDPOINTS)('spec endpoint %i: %s %s %s', (number, method, host, specPath) => {
	const matching = operations.filter((o) => o.method === method && o.host === host && shape(o.path) === shape(specPath));

	test('has a node operation with that method, host and path', () => {
		expect(matching.length).toBeGreaterThan(0);
	});

	test('has a simulator route, marked as this seed operation', () => {
		const route = ROUTES.find((r) => r.seedOp === number);
		expect(route).toBeDefined();
		expect([route!.method, route!.host, shape(route!.path)]).toEqual([method, host, shape(specPath)]);
	});

	test('has an example workflow for each of its node operations', () => {
		for (const op of matching) {
			expect(examples.filter((e) => e.resource === op.resource && e.operation === op.operation).map((e) => e.file)).not.toEqual([]);
		}
	});

	test("is in the README's operations table", () => {
		for (const op of matching) {
			expect(readme).toContain(`| ${method} | \`${specPath.replace(/^\//, '/')}\``);
			expect(readme).toMatch(new RegExp(`\\| [^|]+ \\| ${op.name} \\| ${method} \\|`));
		}
	});
});

test('every node operation maps to a spec endpoint (no unexplained extras)', () => {
	const unmapped = operations.filter(
		(o) => !SPEC_ENDPOINTS.some(([, method, host, p]) => o.method === method && o.host === host && shape(o.path) === shape(p)),
	);
	expect(unmapped.map((o) => `${o.resource}.${o.operation}`)).toEqual([]);
});
