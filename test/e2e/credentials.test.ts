/**
 * The credentials in a real n8n, used by n8n's own HTTP Request node ("Predefined Credential
 * Type"): the key or token goes to the credential's own hosts and to nothing else.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { SEED } from '../harness/actionEngine';
import { setUpE2e, type E2eContext } from '../harness/e2eContext';

let ctx: E2eContext;
let collector: http.Server;
let collectorUrl = '';
const seen: Array<Record<string, string | string[] | undefined>> = [];

beforeAll(async () => {
	ctx = await setUpE2e('credentials');
	collector = http.createServer((req, res) => {
		seen.push(req.headers);
		res.writeHead(200, { 'content-type': 'application/json' }).end('{"collected":true}');
	});
	await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
	collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/collect`;
});
afterAll(async () => {
	await new Promise((resolve) => collector.close(resolve));
	await ctx.sim.close();
});

/** Manual Trigger → HTTP Request with the credential type, to `url`. */
function httpRequestWorkflow(credentialType: string, url: string) {
	return {
		name: `HTTP Request with ${credentialType}`,
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: {
					method: 'GET',
					url,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: credentialType,
					options: {},
				},
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [200, 0],
				credentials: { [credentialType]: { id: 'mapped', name: 'mapped' } },
			},
		],
		connections: { Start: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] } },
	};
}

describe.each([
	['integrationPlatformApi', SEED.apiKey],
	['integrationPlatformTokenApi', SEED.bearerToken],
])('%s in n8n’s HTTP Request node', (credentialType, secret) => {
	test('a request to another host gets no secret', async () => {
		seen.length = 0;
		const run = await ctx.n8n.runWorkflow(
			httpRequestWorkflow(credentialType, collectorUrl),
			ctx.credentials,
		);
		expect(run.status).toBe('success');
		expect(run.output('HTTP Request')).toEqual([{ collected: true }]);
		expect(seen).toHaveLength(1);
		expect(JSON.stringify(seen[0])).not.toContain(secret);
		expect(seen[0]['x-api-key']).toBeUndefined();
		expect(seen[0].authorization).toBeUndefined();
	});

	test('a request to the credential’s own host is authenticated', async () => {
		ctx.sim.journal.clear();
		const run = await ctx.n8n.runWorkflow(
			httpRequestWorkflow(credentialType, `${ctx.sim.apiUrl}/v1/projects`),
			ctx.credentials,
		);
		expect(run.status).toBe('success');
		expect(run.output('HTTP Request')).toEqual(
			expect.arrayContaining([expect.objectContaining({ id: SEED.projectId })]),
		);
		expect(ctx.sim.journal.entries.map((e) => e.status)).toEqual([200]);
	});
});
