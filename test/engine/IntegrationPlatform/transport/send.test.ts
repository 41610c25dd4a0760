/**
 * The requests the action node sends itself (transport/send.ts) go out under the same Request
 * Options as the requests n8n's routing sends: here Proxy, on a routed operation's lookup.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
let proxy: http.Server;
/** Each request the proxy forwarded: method and absolute URL, as a forward proxy receives them. */
const proxied: string[] = [];

beforeAll(async () => {
	sim = await startSimulator();
	// A plain HTTP forward proxy: the client sends the absolute URL, the proxy passes it on.
	proxy = http.createServer((request, response) => {
		proxied.push(`${request.method} ${request.url}`);
		const onward = http.request(
			request.url!,
			{ method: request.method, headers: request.headers },
			(answer) => {
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			},
		);
		onward.on('error', () => response.destroy());
		request.pipe(onward);
	});
	await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
	await new Promise((resolve) => proxy.close(resolve));
	await sim.close();
});
beforeEach(() => {
	sim.reset();
	proxied.length = 0;
});

test("Request Options → Proxy carries a routed operation's lookup as well as its own request", async () => {
	const { port } = proxy.address() as AddressInfo;
	const result = await run(sim, {
		resource: 'integration',
		operation: 'create',
		project: rl(SEED.projectName, 'name'),
		name: 'salesforce-sync',
		provider: 'salesforce',
		specVersion: '1.0.0',
		content: JSON.stringify({ name: 'salesforce-sync', provider: 'salesforce' }),
		requestOptions: { proxy: `http://127.0.0.1:${port}` },
	});
	expect(result.error).toBeUndefined();
	const integrations = `/v1/projects/${SEED.projectName}/integrations`;
	// The create (sent by n8n's routing), then the lookup of what it created (sent by the node).
	expect(proxied).toEqual([
		expect.stringMatching(new RegExp(`^POST http://[^/]+${integrations}$`)),
		expect.stringMatching(new RegExp(`^GET http://[^/]+${integrations}/salesforce-sync$`)),
	]);
	expect(result.json).toEqual([expect.objectContaining({ created: true, id: expect.any(String) })]);
});
