/**
 * A credential's Allowed HTTP Request Domains in a real n8n 2.41.1, for requests n8n's routing
 * engine does not send: the editor's list search, loadOptions and resource mapper, through n8n's
 * own endpoints, with either credential restricted to another domain. Nothing reaches the
 * simulator and n8n answers with the refusal, naming the host and the allowed domains. Every
 * surface, in n8n-core's contexts, is test/engine/common/domains.test.ts.
 */
import * as fs from 'node:fs';

import { SEED } from '../harness/actionEngine';
import { setUpE2e, type E2eContext } from '../harness/e2eContext';

const NODE_TYPE = 'n8n-nodes-integration-platform.integrationPlatform';
const RESTRICTED = { allowedHttpRequestDomains: 'domains', allowedDomains: 'other.example' };

let ctx: E2eContext;
let restricted: E2eContext['credentials'];
beforeAll(async () => {
	ctx = await setUpE2e('allowed domains');
	const apiKey = await ctx.n8n.createCredential({
		type: 'integrationPlatformApi',
		name: 'Simulator API key restricted to other.example',
		data: {
			apiKey: SEED.apiKey,
			baseUrl: ctx.sim.apiUrl,
			readUrl: ctx.sim.readUrl,
			writeUrl: ctx.sim.writeUrl,
			searchUrl: ctx.sim.searchUrl,
			proxyUrl: ctx.sim.proxyUrl,
			...RESTRICTED,
		},
	});
	const token = await ctx.n8n.createCredential({
		type: 'integrationPlatformTokenApi',
		name: 'Simulator token restricted to other.example',
		data: {
			accessToken: SEED.bearerToken,
			baseUrl: ctx.sim.apiUrl,
			searchUrl: ctx.sim.searchUrl,
			...RESTRICTED,
		},
	});
	restricted = {
		integrationPlatformApi: { id: apiKey.id, name: apiKey.name },
		integrationPlatformTokenApi: { id: token.id, name: token.name },
	};
});
afterAll(async () => await ctx.sim.close());

/** One editor request to n8n, as the editor sends it; n8n's status and message. */
async function editorRequest(
	endpoint: string,
	body: Record<string, unknown>,
): Promise<{ status: number; message?: string }> {
	const { baseUrl, cookie } = JSON.parse(fs.readFileSync(process.env.N8N_E2E_INFO!, 'utf8')) as {
		baseUrl: string;
		cookie: string;
	};
	const response = await fetch(`${baseUrl}/rest/dynamic-node-parameters/${endpoint}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify(body),
	});
	const answer = (await response.json()) as { message?: string };
	return { status: response.status, message: answer.message };
}

const locators = {
	project: { __rl: true, mode: 'id', value: SEED.projectId },
	integration: { __rl: true, mode: 'id', value: SEED.integrationId },
	groupRef: { __rl: true, mode: 'id', value: SEED.groupRef },
	object: { __rl: true, mode: 'id', value: 'contacts' },
};

const SURFACES = [
	{
		label: 'the Project list (listSearch)',
		endpoint: 'resource-locator-results',
		path: 'parameters.project',
		methodName: 'searchProjects',
		parameters: { resource: 'integration', operation: 'getAll' },
	},
	{
		label: 'the Provider options (loadOptions)',
		endpoint: 'options',
		path: 'parameters.provider',
		methodName: 'getProviders',
		parameters: { resource: 'oauth', operation: 'getAuthorizationUrl' },
	},
	{
		label: "Record → Write's field mapper (resourceMapping)",
		endpoint: 'resource-mapper-fields',
		path: 'parameters.columns',
		methodName: 'getRecordFields',
		parameters: { resource: 'records', operation: 'write', writeType: 'create' },
	},
];

const cases = SURFACES.flatMap((surface) =>
	(['apiKey', 'bearerToken'] as const).map((authentication) => [
		surface.label,
		authentication,
		surface,
	]),
) as Array<[string, 'apiKey' | 'bearerToken', (typeof SURFACES)[number]]>;

test.each(cases)(
	'%s with the %s credential restricted to another domain: refused by the node, nothing sent',
	async (_label, authentication, surface) => {
		const type =
			authentication === 'apiKey' ? 'integrationPlatformApi' : 'integrationPlatformTokenApi';
		ctx.sim.journal.clear();
		const { status, message } = await editorRequest(surface.endpoint, {
			nodeTypeAndVersion: { name: NODE_TYPE, version: 2 },
			path: surface.path,
			methodName: surface.methodName,
			currentNodeParameters: { authentication, ...locators, ...surface.parameters },
			credentials: { [type]: restricted[type] },
		});
		expect(ctx.sim.journal.entries).toEqual([]);
		expect(status).toBeGreaterThanOrEqual(400);
		expect(message).toBe(
			`Domain not allowed: This credential is restricted from accessing ${new URL(ctx.sim.apiUrl).host}. Only the following domains are allowed: other.example`,
		);
	},
);
