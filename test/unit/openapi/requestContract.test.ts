/**
 * The request-contract check (test/openapi/requestContract.ts) on hand-made requests, on a request
 * recorded by the simulator's journal, and the rules of contractWatch.ts for marked requests and
 * the list of expected violations.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { failures, type ContractFinding } from '../../openapi/contractWatch';
import { EXPECTED_VIOLATIONS } from '../../openapi/expectedViolations';
import { RequestContract, type RecordedRequest } from '../../openapi/requestContract';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const simulator = require('../../simulator') as {
	startSimulator(options: object): Promise<{
		apiUrl: string;
		journal: { entries: RecordedRequest[] };
		close(): Promise<void>;
	}>;
	SEED: Record<string, string>;
};

const contract = RequestContract.load();
const request = (fields: Partial<RecordedRequest>): RecordedRequest => ({
	host: 'api',
	method: 'GET',
	pathname: '/v1/projects',
	query: {},
	headers: {},
	body: undefined,
	...fields,
});
const ORG = 'a48ab123-7a90-46dc-9b3a-a168ad3be197';
const OPERATIONS = '/v1/projects/p/integrations/i/installations/x/operations';

describe('the generated contract', () => {
	test('has one request contract per operation of the catalogue, and nothing else', () => {
		const root = path.join(__dirname, '..', '..', '..', 'docs');
		const catalog = JSON.parse(fs.readFileSync(path.join(root, 'api-catalog.json'), 'utf8')) as {
			operations: Array<{ operationId: string; host: string; method: string; path: string }>;
		};
		const pick = (o: { operationId: string; host: string; method: string; path: string }) => [
			o.operationId,
			o.host,
			o.method,
			o.path,
		];
		expect(contract.contract.operations.map(pick)).toEqual(catalog.operations.map(pick));
	});

	test('is self-contained: every $ref points into its definitions', () => {
		const refs = JSON.stringify(contract.contract).match(/"\$ref":"[^"]*"/g) ?? [];
		expect(refs.length).toBeGreaterThan(0);
		for (const ref of refs) {
			const key = /#\/definitions\/([^"]+)"/.exec(ref)?.[1];
			expect(key && key in contract.contract.definitions).toBe(true);
		}
	});
});

describe('RequestContract.check', () => {
	test('a conforming request names its operation and has no violations', () => {
		expect(contract.check(request({ pathname: `/v1/orgs/${ORG}/invites` }))).toEqual({
			operationId: 'listOrgInvites',
			violations: [],
		});
	});

	test('paths, methods and hosts', () => {
		expect(contract.check(request({ pathname: '/v1/no-such-thing' })).violations).toEqual([
			'no operation of the management host has the path /no-such-thing',
		]);
		expect(
			contract.check(request({ method: 'PUT', pathname: `/v1/orgs/${ORG}` })).violations[0],
		).toMatch(
			/PUT \/orgs\/.*: the path exists only as GET \/orgs\/\{orgId\}, PATCH \/orgs\/\{orgId\}/,
		);
		expect(contract.check(request({ pathname: '/projects' })).violations).toEqual([
			'path /projects is not below /v1',
		]);
		// The read host's custom verb; the management host has no such path.
		const unpause = '/v1/projects/p/integrations/i/installations/x:unpause';
		expect(contract.check(request({ host: 'read', method: 'POST', pathname: unpause }))).toEqual({
			operationId: 'unpauseReads',
			violations: [],
		});
		expect(contract.check(request({ method: 'POST', pathname: unpause })).violations[0]).toMatch(
			/the path exists only as DELETE/,
		);
		expect(contract.check(request({ host: 'proxy', pathname: '/anything' }))).toMatchObject({
			violations: [],
			unchecked: expect.stringMatching(/proxy/),
		});
	});

	test('a path parameter that is not valid percent-encoding', () => {
		expect(contract.check(request({ pathname: '/v1/orgs/%E0%A4%A' })).violations).toEqual([
			'path parameter orgId: "%E0%A4%A" is not valid percent-encoding',
		]);
	});

	test('query parameters: required, undeclared, typed (text coerced first), bounded', () => {
		expect(contract.check(request({ pathname: '/v1/claimed-domains' })).violations).toEqual([
			'query parameter domain is required and missing',
		]);
		expect(
			contract.check(
				request({ pathname: '/v1/claimed-domains', query: { domain: 'a.example', x: '1' } }),
			).violations,
		).toEqual(['query parameter x is not declared (declared: domain)']);
		expect(
			contract.check(request({ pathname: OPERATIONS, query: { pageSize: '1000' } })).violations,
		).toEqual([]);
		expect(
			contract.check(request({ pathname: OPERATIONS, query: { pageSize: 'many' } })).violations,
		).toEqual(['query parameter pageSize "many": must be integer']);
		expect(
			contract.check(request({ pathname: OPERATIONS, query: { pageSize: '1001' } })).violations,
		).toEqual(['query parameter pageSize "1001": must be <= 1000']);
	});

	test('bodies: required, declared, JSON, valid against the schema', () => {
		const invite = { method: 'POST', pathname: `/v1/orgs/${ORG}/invites` };
		expect(
			contract.check(request({ ...invite, body: { email: 'a@b.example' } })).violations,
		).toEqual([]);
		expect(
			contract.check(request({ method: 'PATCH', pathname: `/v1/orgs/${ORG}` })).violations,
		).toEqual(['the body is required and missing']);
		expect(contract.check(request({ ...invite, body: '{nope' })).violations).toEqual([
			'the body is not JSON',
		]);
		expect(contract.check(request({ ...invite, body: { email: 7 } })).violations).toEqual([
			'body /email: must be string',
		]);
		expect(contract.check(request({ ...invite, body: {} })).violations).toEqual([
			"body: must have required property 'email'",
		]);
		expect(
			contract.check(
				request({
					...invite,
					body: { email: 'a@b.example' },
					headers: { 'content-type': 'text/plain' },
				}),
			).violations,
		).toEqual(['content-type text/plain is not application/json']);
		expect(
			contract.check(request({ pathname: '/v1/projects', body: { a: 1 } })).violations,
		).toEqual(['a body was sent, but listProjects declares none']);
	});

	test("OpenAPI 3.0's nullable: null is valid where the schema says so", () => {
		const destination = (headers: unknown) =>
			request({
				method: 'POST',
				pathname: '/v1/projects/p/destinations',
				body: { name: 'd', type: 'webhook', metadata: { url: 'https://x.example/h', headers } },
			});
		expect(contract.check(destination(null)).violations).toEqual([]);
		expect(contract.check(destination({ A: 'b' })).violations).toEqual([]);
		expect(contract.check(destination('x')).violations).toEqual([
			'body /metadata/headers: must be object',
		]);
	});

	test('bundled definitions from other documents ($refs into the config and manifest schemas)', () => {
		const create = (content: unknown) =>
			request({
				method: 'POST',
				pathname: '/v1/projects/p/integrations/i/installations',
				body: { groupRef: 'g', config: { content } },
			});
		const object = { objectName: 'companies', destination: 'd', schedule: '*/15 * * * *' };
		expect(
			contract.check(
				create({
					provider: 'hubspot',
					read: {
						objects: { companies: { ...object, selectedFields: {}, selectedFieldMappings: {} } },
					},
				}),
			).violations,
		).toEqual([]);
		expect(
			contract.check(create({ provider: 'hubspot', read: { objects: { companies: object } } }))
				.violations,
		).toEqual([
			"body /config/content/read/objects/companies: must have required property 'selectedFields'",
			"body /config/content/read/objects/companies: must have required property 'selectedFieldMappings'",
		]);
	});

	test('a request as the simulator journals it', async () => {
		const sim = await simulator.startSimulator({ port: 0, readPort: 0, quiet: true });
		try {
			await fetch(`${sim.apiUrl}/v1/orgs/${ORG}/invites`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${simulator.SEED.bearerToken}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({ email: 'journal@example.com' }),
			});
			await fetch(`${sim.apiUrl}/v1/claimed-domains?domain=a.example&extra=1`, {
				headers: { authorization: `Bearer ${simulator.SEED.bearerToken}` },
			});
			const [created, checked] = sim.journal.entries;
			expect(contract.check(created)).toEqual({ operationId: 'createOrgInvite', violations: [] });
			expect(contract.check(checked)).toEqual({
				operationId: 'checkClaimedDomain',
				violations: ['query parameter extra is not declared (declared: domain)'],
			});
		} finally {
			await sim.close();
		}
	});
});

describe('contractWatch failures', () => {
	const finding = (fields: Partial<ContractFinding>): ContractFinding => ({
		test: 't',
		request: 'api GET /v1/x',
		violations: [],
		...fields,
	});

	test('an unexpected violation fails; a marked one passes only while it still violates', () => {
		expect(failures([finding({ violations: ['v'] })], 'f.test.ts', [])).toHaveLength(1);
		expect(failures([finding({ violations: ['v'], expected: 'why' })], 'f.test.ts', [])).toEqual(
			[],
		);
		expect(failures([finding({ expected: 'why' })], 'f.test.ts', [])[0]).toMatch(/but conforms/);
	});

	test('an entry of the list excuses its own test and operation only, and fails once stale', () => {
		const registry = [
			{ file: 'f.test.ts', test: 't', operationId: 'op', kind: 'deliberate' as const, reason: 'r' },
		];
		expect(
			failures([finding({ violations: ['v'], operationId: 'op' })], 'f.test.ts', registry),
		).toEqual([]);
		expect(
			failures([finding({ violations: ['v'], operationId: 'other' })], 'f.test.ts', registry),
		).toHaveLength(2);
		expect(failures([finding({ operationId: 'op' })], 'f.test.ts', registry)[0]).toMatch(
			/remove the entry/,
		);
		// A run filtered to other tests says nothing about the entry.
		expect(failures([finding({ test: 'u' })], 'f.test.ts', registry)).toEqual([]);
	});

	test('every listed entry says why, and names its kind', () => {
		for (const entry of EXPECTED_VIOLATIONS) {
			expect(entry.reason.length).toBeGreaterThan(10);
			expect(['deliberate', 'defect']).toContain(entry.kind);
		}
	});
});
