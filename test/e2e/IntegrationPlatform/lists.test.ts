/**
 * Version 2's lists as n8n's editor loads them, through the real n8n's list-search endpoint: the
 * Group list of an operation, and the reason an empty list gives, which the editor shows under
 * "Could not load list" (docs/n8n-notes.md, "List searches").
 */
import * as fs from 'node:fs';

import { SEED } from '../../harness/actionEngine';
import { setUpE2e, type E2eContext } from '../../harness/e2eContext';

let ctx: E2eContext;
beforeAll(async () => (ctx = await setUpE2e('lists')));
afterAll(async () => await ctx.sim.close());

/** What the editor sends when a list opens, and n8n's answer (status and JSON body). */
async function listSearch(
	methodName: string,
	currentNodeParameters: Record<string, unknown>,
	path = 'parameters.groupRef',
) {
	const { baseUrl, cookie } = JSON.parse(fs.readFileSync(process.env.N8N_E2E_INFO!, 'utf8'));
	const res = await fetch(`${baseUrl}/rest/dynamic-node-parameters/resource-locator-results`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({
			nodeTypeAndVersion: {
				name: 'n8n-nodes-integration-platform.integrationPlatform',
				version: 2,
			},
			path,
			methodName,
			currentNodeParameters: { authentication: 'apiKey', ...currentNodeParameters },
			credentials: { integrationPlatformApi: ctx.credentials.integrationPlatformApi },
		}),
	});
	const body = (await res.json()) as {
		message?: string;
		data: { results: Array<{ name: string; value: string }> };
	};
	return { status: res.status, body };
}

const project = { __rl: true, mode: 'id', value: SEED.projectId };
const integration = (id: string) => ({ __rl: true, mode: 'id', value: id });

test('Object Metadata → Get via Installation: the Group list shows the groups installed', async () => {
	const { status, body } = await listSearch('searchGroupRefs', {
		resource: 'objectMetadata',
		operation: 'getForInstallation',
		project,
		integration: integration(SEED.integrationId),
	});
	expect(status).toBe(200);
	expect(body.data.results).toEqual(
		expect.arrayContaining([
			{ name: `${SEED.groupName} (${SEED.groupRef})`, value: SEED.groupRef },
		]),
	);
});

test('an integration without installations: the answer is the reason, as the editor shows it', async () => {
	const { status, body } = await listSearch('searchGroupRefs', {
		resource: 'objectMetadata',
		operation: 'getForInstallation',
		project,
		integration: integration(SEED.deletableIntegrationId),
	});
	expect(status).toBeGreaterThanOrEqual(400);
	expect(body.message).toBe(
		'No installations yet for this integration: create one (Installation → Create) or pick another integration',
	);
});

test("Connection → Get Many's Group filter: a list inside the Filters collection", async () => {
	const { status, body } = await listSearch(
		'searchGroupRefs',
		{ resource: 'connection', operation: 'getAll', project, connectionFilters: {} },
		'parameters.connectionFilters.groupRef',
	);
	expect(status).toBe(200);
	expect(body.data.results.map((r) => r.value)).toEqual(
		expect.arrayContaining([SEED.groupRef, SEED.apiKeyGroupRef]),
	);
});

test('Object Metadata → Get via Connection: the Object list shows the objects of the provider’s integrations', async () => {
	const { status, body } = await listSearch(
		'searchMetadataObjects',
		{ resource: 'objectMetadata', operation: 'getForConnection', project, provider: 'hubspot' },
		'parameters.objectName',
	);
	expect(status).toBe(200);
	expect(body.data.results).toEqual(
		expect.arrayContaining([
			{ name: 'contacts', value: 'contacts' },
			{ name: 'companies', value: 'companies' },
		]),
	);
});
