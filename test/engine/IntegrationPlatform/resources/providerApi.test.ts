import { rl, run, SEED, startSimulator, type Simulator } from '../../../harness/actionEngine';

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.reset();
	sim.faults.clear();
});

const send = {
	resource: 'providerApi',
	operation: 'sendRequest',
	project: rl(SEED.projectId),
	integration: rl(SEED.integrationId),
	installation: rl(SEED.installationId),
};

describe('Provider API → Send Request', () => {
	test("GET goes to the proxy with the platform's headers; the provider's JSON is the item", async () => {
		const result = await run(sim, {
			...send,
			proxyMethod: 'GET',
			proxyPath: '/crm/v3/objects/contacts',
			proxyQuery: { parameter: [{ name: 'limit', value: '1' }] },
			proxyHeaders: { header: [{ name: 'X-Trace', value: 'n8n-test' }] },
		});
		expect(result.error).toBeUndefined();
		expect(result.requests).toHaveLength(1);
		expect(result.requests[0]).toMatchObject({
			host: 'proxy',
			method: 'GET',
			pathname: '/crm/v3/objects/contacts',
			query: { limit: '1' },
		});
		expect(result.requests[0].headers).toMatchObject({
			'x-api-key': SEED.apiKey,
			'x-amp-project-id': SEED.projectId,
			'x-amp-installation-id': SEED.installationId,
			'x-amp-proxy-version': '1',
			'x-trace': 'n8n-test',
		});
		expect(result.json).toHaveLength(1);
		expect(result.json[0].results).toEqual([expect.objectContaining({ id: '1001' })]);
	});

	test('POST with a JSON body creates a record the write API and search then see', async () => {
		const created = await run(sim, {
			...send,
			proxyMethod: 'POST',
			proxyPath: 'crm/v3/objects/contacts',
			proxySendBody: true,
			proxyBody: JSON.stringify({ properties: { email: 'proxy@example.com', firstname: 'Pro' } }),
			proxyOptions: { fullResponse: true },
		});
		expect(created.error).toBeUndefined();
		expect(created.json[0]).toMatchObject({
			statusCode: 201,
			headers: expect.objectContaining({ 'content-type': expect.stringContaining('json') }),
			body: expect.objectContaining({
				properties: expect.objectContaining({ email: 'proxy@example.com' }),
			}),
		});
		const found = await run(sim, {
			resource: 'records',
			operation: 'search',
			project: rl(SEED.projectId),
			integration: rl(SEED.integrationId),
			groupRef: rl(SEED.groupRef),
			object: rl('contacts'),
			fieldFilters: { filter: [{ fieldName: 'email', value: 'proxy@example.com' }] },
		});
		expect(found.json).toHaveLength(1);
	});

	test('the credential is read once for all items, not once per request', async () => {
		const result = await run(
			sim,
			{ ...send, proxyMethod: 'GET', proxyPath: '/crm/v3/objects/contacts' },
			{ items: [{ n: 1 }, { n: 2 }, { n: 3 }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.requests).toHaveLength(3);
		expect(result.credentialReads).toBe(1);
	});

	test('an answer that is not JSON becomes { data: text }; an empty one { statusCode }', async () => {
		const html = await run(sim, { ...send, proxyMethod: 'GET', proxyPath: 'status' });
		expect(html.error).toBeUndefined();
		expect(html.json).toEqual([{ data: expect.stringContaining('<') }]);
		const empty = await run(sim, {
			...send,
			proxyMethod: 'POST',
			proxyPath: 'events/v3/send',
			proxySendBody: true,
			proxyBody: '{"eventName": "signup"}',
		});
		expect(empty.error).toBeUndefined();
		expect(empty.json).toEqual([{ statusCode: 204 }]);
	});

	test("the provider's error fails the item with its status and answer; Never Error returns it", async () => {
		const failed = await run(sim, {
			...send,
			proxyMethod: 'GET',
			proxyPath: 'crm/v3/objects/contacts/999999',
		});
		expect(failed.error?.message).toBe(
			'The provider answered HTTP 404 to GET /crm/v3/objects/contacts/999999',
		);
		expect(failed.error?.description).toContain('OBJECT_NOT_FOUND');
		expect(failed.error?.httpCode).toBe('404');
		const kept = await run(sim, {
			...send,
			proxyMethod: 'GET',
			proxyPath: 'crm/v3/objects/contacts/999999',
			proxyOptions: { neverError: true, fullResponse: true },
		});
		expect(kept.error).toBeUndefined();
		expect(kept.json[0]).toMatchObject({
			statusCode: 404,
			body: expect.objectContaining({ category: 'OBJECT_NOT_FOUND' }),
		});
	});

	test("the platform's refusal (unknown installation) is shown as its problem document", async () => {
		const result = await run(sim, {
			...send,
			installation: rl('00000000-0000-4000-8000-000000000000'),
			proxyMethod: 'GET',
			proxyPath: 'crm/v3/objects/contacts',
		});
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toMatch(/\[HTTP 404, request /);
		expect(JSON.stringify(result.error)).not.toContain(SEED.apiKey);
	});

	test.each([
		['https://evil.example/steal', 'must be a path, not a URL'],
		['//evil.example/steal', 'must be a path, not a URL'],
		['crm/../../admin', 'cannot contain ".."'],
		['./crm', 'cannot contain ".."'],
		['crm\\objects', 'backslash'],
		['crm/v3/objects/contacts?limit=1', 'use Query Parameters'],
		['javascript:alert(1)', 'must be a path, not a URL'],
	])('the path %j is refused before anything is sent', async (proxyPath, why) => {
		const result = await run(sim, { ...send, proxyMethod: 'GET', proxyPath });
		expect(result.error?.message).toContain(why);
		expect(result.error?.description).toContain('No request was sent');
		expect(result.requests).toHaveLength(0);
	});

	test.each(['x-api-key', 'X-Amp-Installation-Id', 'Authorization', 'Cookie'])(
		'the header %s cannot be set by the user',
		async (name) => {
			const result = await run(sim, {
				...send,
				proxyMethod: 'GET',
				proxyPath: 'crm/v3/objects/contacts',
				proxyHeaders: { header: [{ name, value: 'other' }] },
			});
			expect(result.error?.message).toBe(
				`"Headers" → "${name}": is set by the node and cannot be given`,
			);
			expect(result.requests).toHaveLength(0);
		},
	);

	test('a header value with a line break is refused, not smuggled into the request', async () => {
		const result = await run(sim, {
			...send,
			proxyMethod: 'GET',
			proxyPath: 'crm/v3/objects/contacts',
			proxyHeaders: { header: [{ name: 'X-Trace', value: 'a\r\nX-Api-Key: stolen' }] },
		});
		expect(result.error).toBeDefined();
		expect(result.requests.every((r) => r.headers['x-api-key'] === SEED.apiKey)).toBe(true);
		expect(result.requests).toHaveLength(0);
	});

	// URL parsing drops tabs and line breaks: `a/.\n./admin` would go out as `/admin`.
	test.each([
		'a/.\n./admin',
		'a/.\t./admin',
		'a/.\r./admin',
		'crm/v3\u0000/objects',
		'crm/v3/objects\u007f',
		'crm/\u0085contacts',
		'\tcrm/v3/objects/contacts',
	])('the path %j (control characters) is refused naming "Path"', async (proxyPath) => {
		const result = await run(sim, { ...send, proxyMethod: 'GET', proxyPath });
		expect(result.error?.message).toBe(
			'"Path" cannot contain control characters (tab, line break, NUL, …)',
		);
		expect(result.error?.description).toContain('No request was sent');
		expect(result.requests).toHaveLength(0);
	});

	test('a path with control characters from an expression is refused the same way', async () => {
		const result = await run(
			sim,
			{ ...send, proxyMethod: 'GET', proxyPath: '={{ $json.path }}' },
			{
				items: [{ path: 'a/.\n./admin' }, { path: 'crm/v3/objects/contacts' }],
				continueOnFail: true,
			},
		);
		expect(result.items[0].json.error).toBe(
			'"Path" cannot contain control characters (tab, line break, NUL, …)',
		);
		expect(result.requests.map((r) => r.pathname)).toEqual(['/crm/v3/objects/contacts']);
	});

	// Framing and hop-by-hop headers (RFC 9110, 7.6.1) are the HTTP client's.
	test.each([
		['Transfer-Encoding', 'chunked'],
		['content-length', '0'],
		['Connection', 'close'],
		['Host', 'evil.example'],
		['TE', 'trailers'],
		['Trailer', 'X-Checksum'],
		['Upgrade', 'websocket'],
		['Keep-Alive', 'timeout=5'],
		['Proxy-Authorization', 'Basic eA=='],
		['proxy-connection', 'keep-alive'],
	])('the header %s is refused naming "Headers", nothing sent', async (name, value) => {
		const result = await run(sim, {
			...send,
			proxyMethod: 'POST',
			proxyPath: 'crm/v3/objects/contacts',
			proxySendBody: true,
			proxyBody: '{"properties": {"email": "te@example.com"}}',
			proxyHeaders: { header: [{ name, value }] },
		});
		expect(result.error?.message).toBe(
			`"Headers" → "${name}": is a framing or connection header, which the HTTP client sets itself`,
		);
		expect(result.error?.description).toContain('No request was sent');
		expect(result.requests).toHaveLength(0);
	});

	test.each([
		['a line break', 'a\nb'],
		['a carriage return', 'a\rb'],
		['a tab', 'a\tb'],
		['NUL', 'a\u0000b'],
		['DEL', 'a\u007fb'],
		['a C1 control', 'a\u0085b'],
	])('a header value with %s is refused naming "Headers"', async (_label, value) => {
		const result = await run(
			sim,
			{
				...send,
				proxyMethod: 'GET',
				proxyPath: 'crm/v3/objects/contacts',
				proxyHeaders: { header: [{ name: 'X-Trace', value: '={{ $json.v }}' }] },
			},
			{ items: [{ v: value }] },
		);
		expect(result.error?.message).toBe(
			'"Headers" → "X-Trace": its value cannot contain control characters (line break, tab, NUL, …)',
		);
		expect(result.requests).toHaveLength(0);
	});

	test.each([
		['a space', 'X Trace'],
		['a colon', 'X-Trace:'],
		['a line break', 'X-Trace\nX-Api-Key'],
		['a tab', 'X-\tTrace'],
	])('a header name with %s is refused naming "Headers"', async (_label, name) => {
		const result = await run(sim, {
			...send,
			proxyMethod: 'GET',
			proxyPath: 'crm/v3/objects/contacts',
			proxyHeaders: { header: [{ name, value: 'x' }] },
		});
		expect(result.error?.message).toBe(
			`"Headers" → ${JSON.stringify(name)}: is not a valid header name`,
		);
		expect(result.requests).toHaveLength(0);
	});

	test('a header value outside Latin-1 or that is an object is refused, not mangled', async () => {
		for (const [value, why] of [
			['日本', 'its value can hold only ASCII and Latin-1 characters'],
			['={{ { a: 1 } }}', 'its value must be text, not a value of type object'],
		]) {
			const result = await run(sim, {
				...send,
				proxyMethod: 'GET',
				proxyPath: 'crm/v3/objects/contacts',
				proxyHeaders: { header: [{ name: 'X-Trace', value }] },
			});
			expect(result.error?.message).toBe(`"Headers" → "X-Trace": ${why}`);
			expect(result.requests).toHaveLength(0);
		}
	});

	test.each(['TRACE', 'CONNECT', 'TRACK', 'get', 'PROPFIND', 'GET ', ''])(
		'the method %j from an expression is refused naming "Method"',
		async (method) => {
			const result = await run(
				sim,
				{ ...send, proxyMethod: '={{ $json.method }}', proxyPath: 'crm/v3/objects/contacts' },
				{ items: [{ method }] },
			);
			expect(result.error?.message).toBe(
				`"Method" must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, not ${JSON.stringify(method)}`,
			);
			expect(result.error?.description).toContain('No request was sent');
			expect(result.requests).toHaveLength(0);
		},
	);

	test('a method that is not text is refused naming "Method"', async () => {
		const result = await run(sim, {
			...send,
			proxyMethod: '={{ ["GET"] }}',
			proxyPath: 'crm/v3/objects/contacts',
		});
		expect(result.error?.message).toBe(
			'"Method" must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, not a list',
		);
		expect(result.requests).toHaveLength(0);
	});

	test.each(['HEAD', 'OPTIONS'])('the method %s from an expression is sent', async (method) => {
		const result = await run(sim, {
			...send,
			proxyMethod: `={{ "${method}" }}`,
			proxyPath: 'status',
			proxyOptions: { neverError: true, fullResponse: true },
		});
		expect(result.error).toBeUndefined();
		expect(result.requests.map((r) => r.method)).toEqual([method]);
	});
});

describe("Provider API → Send Request: a provider's redirect", () => {
	test.each([301, 302, 303, 307, 308])(
		'%i comes back as the answer with its Location, not followed',
		async (status) => {
			sim.faults.add({
				route: 'proxy',
				status,
				headers: { location: 'http://127.0.0.1:9/elsewhere?token=x' },
				body: '',
				times: 1,
			});
			const result = await run(sim, { ...send, proxyMethod: 'GET', proxyPath: 'crm/v3/x' });
			expect(result.error).toBeUndefined();
			expect(result.requests).toHaveLength(1);
			expect(result.json).toEqual([
				{ statusCode: status, location: 'http://127.0.0.1:9/elsewhere?token=x' },
			]);
		},
	);
});
