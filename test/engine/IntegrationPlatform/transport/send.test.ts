/**
 * The requests the action node sends itself (transport/send.ts) go out under the same Request
 * Options as the requests n8n's routing sends: here Proxy, on a routed operation's lookup.
 */
import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';
import { startForwardProxy, type ForwardProxy } from '../../../harness/forwardProxy';

let sim: Simulator;
let proxy: ForwardProxy;
beforeAll(async () => {
	sim = await startSimulator();
	proxy = await startForwardProxy();
});
afterAll(async () => {
	await proxy.close();
	await sim.close();
});
beforeEach(() => {
	sim.reset();
	proxy.seen.length = 0;
});

test("Request Options → Proxy carries a routed operation's lookup as well as its own request", async () => {
	const result = await run(sim, {
		resource: 'integration',
		operation: 'create',
		project: rl(SEED.projectName, 'name'),
		name: 'salesforce-sync',
		provider: 'salesforce',
		specVersion: '1.0.0',
		content: JSON.stringify({ name: 'salesforce-sync', provider: 'salesforce' }),
		requestOptions: { proxy: proxy.url },
	});
	expect(result.error).toBeUndefined();
	const integrations = `/v1/projects/${SEED.projectName}/integrations`;
	// The create (sent by n8n's routing), then the lookup of what it created (sent by the node).
	expect(proxy.seen).toEqual([
		expect.stringMatching(new RegExp(`^POST http://[^/]+${integrations}$`)),
		expect.stringMatching(new RegExp(`^GET http://[^/]+${integrations}/salesforce-sync$`)),
	]);
	expect(result.json).toEqual([expect.objectContaining({ created: true, id: expect.any(String) })]);
});
