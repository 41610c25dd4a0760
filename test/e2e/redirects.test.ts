/**
 * Redirects in a real n8n. Every host of both credentials is one local server (the "own" origin)
 * that answers each request with a redirect (301, 302, 303, 307 or 308) to another origin: another
 * port of 127.0.0.1, which is another host for n8n's redirect handling and another origin for a
 * browser. Nothing that carries a secret may arrive there: not the API key (X-Api-Key), not the
 * bearer token, not the proxy's x-amp-* headers, not a request body. The paths: n8n's HTTP Request
 * node (versions 3, 4.2 and 4.5, which differ in what they send along on a redirect) with either
 * credential, GET and POST; every operation of the action node, Record → Write and Provider API
 * → Send Request among them. A redirect coming through the proxy is the provider's answer: Send
 * Request hands it back (status and Location) instead of following it.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { n8nClient, type ExecutionSummary, type N8nClient } from '../harness/e2eContext';
import { allOperations } from '../harness/operationTable';

// A workflow of every operation takes several seconds on a busy machine.
jest.setTimeout(120_000);

const STATUSES = [301, 302, 303, 307, 308];
const HTTP_REQUEST_VERSIONS = [3, 4.2, 4.5];
const API_KEY = `ak-redirect-${randomUUID()}`;
const TOKEN = `tok-redirect-${randomUUID()}`;
/** In the JSON body of every POST that may carry one, so that a forwarded body shows. */
const BODY_MARKER = `body-${randomUUID()}`;

interface Hit {
	/** Which run sent it (set before each workflow run; runs are sequential). */
	run: string;
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

let currentRun = '';
const ownHits: Hit[] = [];
const otherHits: Hit[] = [];
let own: http.Server;
let other: http.Server;
let ownOrigin = '';
let otherOrigin = '';
let n8n: N8nClient;
let credentials: Record<string, { id: string; name: string }>;

function listen(handler: (hit: Hit, res: http.ServerResponse) => void): Promise<http.Server> {
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () =>
			handler(
				{
					run: currentRun,
					method: req.method ?? '',
					url: req.url ?? '',
					headers: req.headers,
					body: Buffer.concat(chunks).toString('utf8'),
				},
				res,
			),
		);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const portOf = (server: http.Server) => (server.address() as AddressInfo).port;

/** The status of a redirect: from a path `/r/<status>/…` (HTTP Request node), else the run's. */
let runStatus = 302;
function statusFor(url: string): number {
	const match = /^\/r\/(\d{3})\//.exec(url);
	return match ? Number(match[1]) : runStatus;
}

beforeAll(async () => {
	other = await listen((hit, res) => {
		otherHits.push(hit);
		res.writeHead(200, { 'content-type': 'application/json' }).end('{"collected":true}');
	});
	otherOrigin = `http://127.0.0.1:${portOf(other)}`;
	own = await listen((hit, res) => {
		ownHits.push(hit);
		res
			.writeHead(statusFor(hit.url), {
				location: `${otherOrigin}/landing${hit.url}`,
				'content-length': '0',
			})
			.end();
	});
	ownOrigin = `http://127.0.0.1:${portOf(own)}`;

	n8n = n8nClient();
	// The first request may go out on a keep-alive connection n8n has just closed while this file
	// compiled ("other side closed"); a few tries get a fresh one.
	for (let attempt = 1; ; attempt++) {
		try {
			await n8n.api('GET', '/credentials?limit=1');
			break;
		} catch (error) {
			if (attempt >= 3) throw error;
		}
	}
	const apiKey = await n8n.createCredential({
		type: 'integrationPlatformApi',
		name: 'Redirecting hosts (API key)',
		data: {
			apiKey: API_KEY,
			baseUrl: ownOrigin,
			readUrl: ownOrigin,
			writeUrl: ownOrigin,
			searchUrl: ownOrigin,
			proxyUrl: ownOrigin,
		},
	});
	const token = await n8n.createCredential({
		type: 'integrationPlatformTokenApi',
		name: 'Redirecting hosts (token)',
		data: { accessToken: TOKEN, baseUrl: ownOrigin, searchUrl: ownOrigin },
	});
	credentials = {
		integrationPlatformApi: { id: apiKey.id, name: apiKey.name },
		integrationPlatformTokenApi: { id: token.id, name: token.name },
	};
	// The suite's last test looks for every secret of the run in n8n's logs and data.
	if (process.env.SIM_SECRETS_FILE) {
		fs.appendFileSync(process.env.SIM_SECRETS_FILE, `${API_KEY}\n${TOKEN}\n`);
	}
});

afterAll(async () => {
	await new Promise((resolve) => own.close(resolve));
	await new Promise((resolve) => other.close(resolve));
});

/** What of a request would be a leak at the other origin. */
function leaksOf(hit: Hit): string[] {
	const headers = JSON.stringify(hit.headers);
	return [
		headers.includes(API_KEY) ? 'API key' : '',
		headers.includes(TOKEN) ? 'bearer token' : '',
		hit.headers['x-amp-project-id'] !== undefined ? 'x-amp-project-id' : '',
		hit.headers['x-amp-installation-id'] !== undefined ? 'x-amp-installation-id' : '',
		hit.body.includes(BODY_MARKER) ? 'body' : '',
	].filter(Boolean);
}

/** What reached the other origin in a run, by the path it came from (`<METHOD> <path>`). */
function leaksOfRun(run: string): Record<string, string[]> {
	const found: Record<string, string[]> = {};
	for (const hit of otherHits.filter((h) => h.run === run)) {
		const leaks = leaksOf(hit);
		if (leaks.length) found[`${hit.method} ${hit.url}`] = leaks;
	}
	return found;
}

function report(run: string): void {
	const hits = otherHits.filter((h) => h.run === run);
	const leaking = hits.filter((h) => leaksOf(h).length > 0);
	const kinds = [...new Set(leaking.flatMap(leaksOf))].sort();
	process.stderr.write(
		`\n[e2e] ${run}: ${ownHits.filter((h) => h.run === run).length} request(s) to the own host, ` +
			`${hits.length} to the other origin` +
			(leaking.length ? `, ${leaking.length} of them carrying ${kinds.join(', ')}` : '') +
			'\n',
	);
}

async function runOnce(run: string, workflow: object): Promise<ExecutionSummary> {
	currentRun = run;
	try {
		return await n8n.runWorkflow(workflow, credentials);
	} finally {
		currentRun = '';
	}
}

function workflow(name: string, nodes: Array<Record<string, unknown>>) {
	return {
		name,
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			...nodes.map((node, index) => ({
				position: [300, index * 120],
				onError: 'continueRegularOutput',
				...node,
			})),
		],
		connections: {
			Start: {
				main: [nodes.map((node) => ({ node: node.name as string, type: 'main', index: 0 }))],
			},
		},
	};
}

describe.each([
	['integrationPlatformApi', 'API key'],
	['integrationPlatformTokenApi', 'bearer token'],
])('n8n’s HTTP Request node with %s', (credentialType, secret) => {
	test.each(HTTP_REQUEST_VERSIONS)(
		'version %s, following redirects: none carries the secret or the body to another origin',
		async (version) => {
			const nodes = STATUSES.flatMap((status) =>
				['GET', 'POST'].map((method) => ({
					name: `${method} ${status}`,
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: version,
					parameters: {
						method,
						url: `${ownOrigin}/r/${status}/http-request-${method.toLowerCase()}`,
						authentication: 'predefinedCredentialType',
						nodeCredentialType: credentialType,
						...(method === 'POST'
							? {
									sendBody: true,
									specifyBody: 'json',
									jsonBody: JSON.stringify({ marker: BODY_MARKER }),
								}
							: {}),
						// 4.x follows redirects by default; 3 only with the option on.
						options: version < 4 ? { redirect: { redirect: { followRedirects: true } } } : {},
					},
					credentials: { [credentialType]: credentials[credentialType] },
				})),
			);
			const run = `HTTP Request ${version}, ${credentialType}`;
			const execution = await runOnce(run, workflow(run, nodes));
			process.stderr.write(
				`[e2e] ${run}, what "GET 302" gave: ${JSON.stringify(execution.output('GET 302'))}\n`,
			);
			// Every node reached the own host with the secret, so a leak would have had its chance.
			const reached = ownHits.filter((h) => h.run === run);
			expect(reached).toHaveLength(nodes.length);
			expect(
				reached.every((h) =>
					JSON.stringify(h.headers).includes(secret === 'API key' ? API_KEY : TOKEN),
				),
			).toBe(true);
			const leaks = leaksOfRun(run);
			report(run);
			expect(leaks).toEqual({});
			// No node got the other origin's answer: the redirect was not followed.
			expect(JSON.stringify(execution.outputs)).not.toContain('collected');
		},
	);
});

describe('the action node', () => {
	const operations = allOperations();

	test.each(STATUSES)(
		'%s: no operation carries a secret, the x-amp-* headers or a body to another origin',
		async (status) => {
			runStatus = status;
			const nodes = operations.map((spec) => ({
				name: spec.key,
				type: 'n8n-nodes-integration-platform.integrationPlatform',
				typeVersion: 1,
				parameters: spec.variants[0].parameters,
				credentials: {
					[spec.authentication === 'bearerToken'
						? 'integrationPlatformTokenApi'
						: 'integrationPlatformApi']:
						credentials[
							spec.authentication === 'bearerToken'
								? 'integrationPlatformTokenApi'
								: 'integrationPlatformApi'
						],
				},
			}));
			// A POST through the proxy with a body, its answer in full.
			nodes.push({
				name: 'Send Request POST',
				type: 'n8n-nodes-integration-platform.integrationPlatform',
				typeVersion: 1,
				parameters: {
					...operations.find((spec) => spec.key === 'providerApi.sendRequest')!.variants[0]
						.parameters,
					proxyMethod: 'POST',
					proxyPath: 'crm/v3/objects/contacts',
					proxySendBody: true,
					proxyBody: JSON.stringify({ marker: BODY_MARKER }),
					proxyOptions: { fullResponse: true },
				} as never,
				credentials: { integrationPlatformApi: credentials.integrationPlatformApi },
			});
			const run = `action node, ${status}`;
			const execution = await runOnce(run, workflow(run, nodes));
			const leaks = leaksOfRun(run);
			report(run);
			expect(leaks).toEqual({});

			// Every operation sent its request to the own host with its secret.
			const reached = ownHits.filter((h) => h.run === run);
			expect(reached.length).toBeGreaterThanOrEqual(nodes.length);

			// The provider's redirect is the answer: status and Location, as the user asked for it.
			expect(execution.output('Send Request POST')).toEqual([
				expect.objectContaining({
					statusCode: status,
					headers: expect.objectContaining({
						location: `${otherOrigin}/landing/crm/v3/objects/contacts`,
					}),
				}),
			]);
			// Every other operation fails, saying where the redirect pointed.
			const notFailed = operations
				.filter((spec) => spec.key !== 'providerApi.sendRequest')
				.filter((spec) => {
					const items = execution.output(spec.key);
					return !(
						items.length > 0 &&
						items.every(
							(item) =>
								typeof item.error === 'string' &&
								item.error.includes(`HTTP ${status}, a redirect to ${otherOrigin}/landing`),
						)
					);
				})
				.map((spec) => `${spec.key}: ${JSON.stringify(execution.output(spec.key)).slice(0, 200)}`);
			expect(notFailed).toEqual([]);
		},
	);
});
