/**
 * routing/routingInCode.ts with a stand-in execute context: what it refuses when the node loads,
 * the credential read once per run, the other credential refused before anything is read, items
 * started as n8n's routing starts them, and Continue On Fail per item.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { routingInCode } from '../../../../nodes/IntegrationPlatform/routing/routingInCode';

const node = {
	id: 'n',
	name: 'Integration Platform',
	type: 'n8n-nodes-integration-platform.integrationPlatform',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
	credentials: { integrationPlatformApi: { id: 'cred-1', name: 'Key' } },
};

interface Sent {
	options: IHttpRequestOptions;
	credentialsDecrypted?: { id: string; type: string; data?: IDataObject };
}

function stubContext(
	options: {
		items?: IDataObject[];
		parameters?: IDataObject;
		continueOnFail?: boolean;
		answer?: (options: IHttpRequestOptions) => { statusCode: number; body: unknown };
	} = {},
) {
	const sent: Sent[] = [];
	let credentialReads = 0;
	const parameters: IDataObject = { authentication: 'apiKey', ...(options.parameters ?? {}) };
	const items: INodeExecutionData[] = (options.items ?? [{}]).map((json) => ({ json }));
	const context = {
		getNode: () => node,
		getInputData: () => items,
		continueOnFail: () => options.continueOnFail ?? false,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			const value = parameters[name];
			if (typeof value === 'function') return value(itemIndex);
			return value ?? fallback;
		},
		getCredentials: async () => {
			credentialReads++;
			return { apiKey: 'secret-key', readUrl: 'https://read.example.test/' };
		},
		getExecutionCancelSignal: () => undefined,
		helpers: {
			httpRequestWithAuthentication: async (
				_type: string,
				requestOptions: IHttpRequestOptions,
				additional?: { credentialsDecrypted?: Sent['credentialsDecrypted'] },
			) => {
				sent.push({
					options: structuredClone(requestOptions),
					credentialsDecrypted: additional?.credentialsDecrypted,
				});
				const { statusCode, body } = options.answer?.(requestOptions) ?? {
					statusCode: 200,
					body: { ok: true },
				};
				return { statusCode, body, headers: {} };
			},
		},
	};
	return {
		context: context as unknown as IExecuteFunctions,
		sent,
		credentialReads: () => credentialReads,
	};
}

/** A postReceive step like the node's own: an error status fails the item. */
async function failOnError(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: { statusCode: number },
) {
	if (response.statusCode >= 400) {
		throw new NodeApiError(this.getNode(), { status: response.statusCode } as never, {
			message: `HTTP ${response.statusCode}`,
			itemIndex: this.getItemIndex(),
		});
	}
	return items.map((item) => ({ ...item, pairedItem: { item: this.getItemIndex() } }));
}

/** A preSend step that puts the item's `name` parameter in the path. */
async function nameInPath(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
	return { ...options, url: `${options.url}/${String(this.getNodeParameter('name'))}` };
}

const routing = (extra: Partial<INodePropertyRouting> = {}): INodePropertyRouting => ({
	request: { method: 'GET', url: '/topics' },
	send: { paginate: true, preSend: [nameInPath] },
	output: { postReceive: [failOnError] },
	...extra,
});

describe('when the node loads', () => {
	test('routing it would not run is refused, naming the operation and the key', () => {
		expect(() =>
			routingInCode(
				{ ...routing(), send: { property: 'name', type: 'body', paginate: true } },
				{ where: 'Topic → Get' },
			),
		).toThrow('Topic → Get: routing send.property, send.type is not run in code');
		expect(() =>
			routingInCode(
				{
					...routing(),
					output: { postReceive: [{ type: 'rootProperty', properties: { property: 'x' } }] },
				},
				{ where: 'Topic → Get' },
			),
		).toThrow('Topic → Get: only postReceive functions are run in code');
	});
});

describe('a run', () => {
	test('sends one request per item, each with its own parameters, and reads the credential once', async () => {
		const stub = stubContext({
			items: [{}, {}, {}],
			parameters: { name: (i: number) => `topic-${i}` },
		});
		const [output] = await routingInCode(routing(), { where: 'Topic → Get' }).call(stub.context);
		expect(stub.sent.map((s) => s.options.url)).toEqual([
			'/topics/topic-0',
			'/topics/topic-1',
			'/topics/topic-2',
		]);
		expect(stub.credentialReads()).toBe(1);
		for (const { options, credentialsDecrypted } of stub.sent) {
			expect(credentialsDecrypted).toMatchObject({ id: 'cred-1', type: 'integrationPlatformApi' });
			expect(options).toMatchObject({
				method: 'GET',
				headers: { Accept: 'application/json' },
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
				timeout: 300_000,
			});
		}
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	test('a read-host operation gets its base URL from the credential; Request Options apply', async () => {
		const stub = stubContext({
			parameters: {
				name: 'x',
				requestOptions: { timeout: 1234, proxy: 'http://user:pa%40ss@proxy.test:3128' },
			},
		});
		await routingInCode(routing(), { where: 'Installation → Pause Reads', host: 'read' }).call(
			stub.context,
		);
		expect(stub.sent[0].options).toMatchObject({
			baseURL: 'https://read.example.test/v1',
			timeout: 1234,
			proxy: {
				host: 'proxy.test',
				port: 3128,
				protocol: 'http',
				auth: { username: 'user', password: 'pa@ss' },
			},
		});
	});

	test.each([
		['http://proxy.test:80', { host: 'proxy.test', port: 80, protocol: 'http' }],
		['https://proxy.test:443', { host: 'proxy.test', port: 443, protocol: 'https' }],
		['proxy.test:8080', { host: 'proxy.test', port: 8080, protocol: 'http' }],
	])('Request Options → Proxy %s keeps the port as written', async (proxy, expected) => {
		const stub = stubContext({ parameters: { name: 'x', requestOptions: { proxy } } });
		await routingInCode(routing(), { where: 'Topic → Get' }).call(stub.context);
		expect(stub.sent[0].options.proxy).toEqual(expected);
	});

	test('a proxy without a port is refused before anything is sent', async () => {
		const stub = stubContext({
			parameters: { name: 'x', requestOptions: { proxy: 'http://proxy.test' } },
		});
		await expect(
			routingInCode(routing(), { where: 'Topic → Get' }).call(stub.context),
		).rejects.toMatchObject({
			message: 'The proxy is not valid',
			description: 'The proxy URL does not contain a valid value for "port"',
		});
		expect(stub.sent).toHaveLength(0);
	});

	test('the other credential is refused before anything is read or sent, per item with Continue On Fail', async () => {
		const stub = stubContext({
			items: [{}, {}],
			parameters: { authentication: 'bearerToken' },
			continueOnFail: true,
		});
		const [output] = await routingInCode(routing(), {
			where: 'Installation → Pause Reads',
			host: 'read',
			requires: 'apiKey',
		}).call(stub.context);
		expect(stub.sent).toHaveLength(0);
		expect(stub.credentialReads()).toBe(0);
		expect(output.map((item) => [item.error?.message, item.pairedItem])).toEqual([
			[
				'Installation → Pause Reads needs the API Key (Integration Platform API credential)',
				{ item: 0 },
			],
			[
				'Installation → Pause Reads needs the API Key (Integration Platform API credential)',
				{ item: 1 },
			],
		]);
		const without = stubContext({ parameters: { authentication: 'bearerToken' } });
		await expect(
			routingInCode(routing(), { where: 'X → Y', requires: 'apiKey' }).call(without.context),
		).rejects.toThrow('X → Y needs the API Key');
	});

	test('an item that fails fails alone with Continue On Fail, paired; without it the run stops with the item named', async () => {
		const answer = (options: IHttpRequestOptions) =>
			options.url.endsWith('bad')
				? { statusCode: 404, body: {} }
				: { statusCode: 200, body: { ok: 1 } };
		const names = { name: (i: number) => (i === 1 ? 'bad' : `ok-${i}`) };
		const kept = stubContext({
			items: [{}, {}, {}],
			parameters: names,
			continueOnFail: true,
			answer,
		});
		const [output] = await routingInCode(routing(), { where: 'Topic → Get' }).call(kept.context);
		expect(output.map((item) => [item.error?.message ?? 'ok', item.pairedItem])).toEqual([
			['ok', { item: 0 }],
			['HTTP 404', { item: 1 }],
			['ok', { item: 2 }],
		]);
		const stopped = stubContext({ items: [{}, {}, {}], parameters: names, answer });
		const error = await routingInCode(routing(), { where: 'Topic → Get' })
			.call(stopped.context)
			.catch((e: NodeApiError) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).context.itemIndex).toBe(1);
	});

	test('Request Options → Batching pauses between batches, as n8n routing does', async () => {
		const stub = stubContext({
			items: [{}, {}, {}, {}],
			parameters: {
				name: (i: number) => `t${i}`,
				requestOptions: { batching: { batch: { batchSize: 2, batchInterval: 150 } } },
			},
		});
		const started = Date.now();
		await routingInCode(routing(), { where: 'Topic → Get' }).call(stub.context);
		expect(stub.sent).toHaveLength(4);
		// One pause, after the first two items.
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});
});
