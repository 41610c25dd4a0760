'use strict';

// The simulator's building blocks on their own: clock, validator, route table, helpers.

const { nowIso, nowMicros, formatMicros, parseMicros } = require('../../simulator/time');
const { validate, queryBool } = require('../../simulator/validate');
const { ROUTES } = require('../../simulator');
const { matchRoute } = require('../../simulator/router');
const { normaliseDomain } = require('../../simulator/routes/claimedDomains');
const { encodePageToken, decodePageToken } = require('../../simulator/routes/operations');
const { SEED } = require('../../simulator/seed');

describe('time', () => {
	test('microsecond timestamps that never repeat', () => {
		const stamps = Array.from({ length: 1000 }, () => nowIso());
		for (const s of stamps) expect(s).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
		expect(new Set(stamps).size).toBe(stamps.length);
		expect([...stamps].sort()).toEqual(stamps);
	});

	test('format and parse keep the microseconds', () => {
		const micros = nowMicros();
		expect(parseMicros(formatMicros(micros))).toBe(micros);
		expect(formatMicros(Date.UTC(2026, 10, 21, 18, 14, 3, 123) * 1000 + 456)).toBe(
			'2026-11-21T18:14:03.123456Z',
		);
		expect(parseMicros('2023-07-13T21:34:44.816354Z') % 1000000).toBe(816354);
		expect(parseMicros('nonsense')).toBeUndefined();
	});
});

describe('validate', () => {
	const schema = {
		type: 'object',
		required: ['a', 'list'],
		properties: {
			a: { type: 'string', minLength: 1 },
			list: {
				type: 'array',
				minItems: 1,
				items: {
					type: 'object',
					required: ['n'],
					properties: { n: { type: 'integer', minimum: 1 } },
				},
			},
			map: { type: 'map', values: { type: 'boolean' } },
		},
	};

	test('reports every issue with body paths', () => {
		const issues = validate({ list: [{ n: 0 }, {}], map: { x: true, y: 'no' } }, schema);
		expect(issues.map((i) => [i.in, i.name, i.value])).toEqual([
			['body', 'a', undefined],
			['body', 'list[0].n', 0],
			['body', 'list[1].n', undefined],
			['body', 'map.y', 'no'],
		]);
	});

	test('a valid value has no issues; a non-object body is one issue', () => {
		expect(validate({ a: 'x', list: [{ n: 1 }] }, schema)).toEqual([]);
		expect(validate([], schema)).toEqual([
			expect.objectContaining({ in: 'body', detail: expect.stringMatching(/must be an object/) }),
		]);
	});

	test('queryBool follows Go strconv.ParseBool', () => {
		const issues = [];
		expect(queryBool({ x: 'True' }, 'x', false, issues)).toBe(true);
		expect(queryBool({ x: '0' }, 'x', true, issues)).toBe(false);
		expect(queryBool({}, 'x', true, issues)).toBe(true);
		expect(issues).toEqual([]);
		queryBool({ x: 'yes' }, 'x', false, issues);
		expect(issues[0]).toMatchObject({ in: 'query', name: 'x', value: 'yes' });
	});
});

describe('routes', () => {
	const SEED_ENDPOINTS = [
		[1, 'DELETE', 'api', '/v1/projects/{projectIdOrName}/api-keys/{apiKey}', 'deleteApiKey'],
		[2, 'POST', 'api', '/v1/projects/{projectIdOrName}/connections:generate', 'generateConnection'],
		[
			3,
			'PUT',
			'api',
			'/v1/projects/{projectIdOrName}/providers/{provider}/object-metadata',
			'upsertMetadataForConnection',
		],
		[4, 'POST', 'api', '/v1/projects/{projectIdOrName}/integrations', 'createIntegration'],
		[
			5,
			'POST',
			'read',
			'/v1/projects/{projectIdOrName}/integrations/{integrationId}/installations/{installationId}:unpause',
			'unpauseReads',
		],
		[
			6,
			'GET',
			'api',
			'/v1/projects/{projectIdOrName}/integrations/{integrationId}/revisions/{revisionId}:hydrate',
			'getHydratedRevision',
		],
		[
			7,
			'GET',
			'api',
			'/v1/projects/{projectIdOrName}/destinations/{destination}',
			'getDestination',
		],
		[8, 'GET', 'api', '/v1/projects/{projectIdOrName}/integrations', 'listIntegrations'],
		[
			9,
			'GET',
			'api',
			'/v1/projects/{projectIdOrName}/operations/{operationId}/logs',
			'listOperationLogs',
		],
		[10, 'DELETE', 'api', '/v1/projects/{projectIdOrName}/topics/{topicId}', 'deleteTopic'],
		[11, 'DELETE', 'api', '/v1/orgs/{orgId}/invites/{inviteId}', 'deleteOrgInvite'],
		[12, 'PATCH', 'api', '/v1/projects/{projectIdOrName}/jwt-keys/{keyId}', 'updateJWTKey'],
		[13, 'POST', 'api', '/v1/claimed-domains', 'claimDomain'],
		[14, 'PATCH', 'api', '/v1/orgs/{orgId}', 'updateOrg'],
		[
			15,
			'POST',
			'api',
			'/v1/projects/{projectIdOrName}/topic-destination-routes',
			'createTopicDestinationRoute',
		],
		[16, 'GET', 'api', '/v1/projects', 'listProjects'],
		[17, 'GET', 'api', '/v1/orgs/{orgId}/invites/{inviteId}', 'getOrgInvite'],
		[
			18,
			'DELETE',
			'api',
			'/v1/projects/{projectIdOrName}/notification-event-topic-routes/{routeId}',
			'deleteEventTopicRoute',
		],
	];

	test.each(SEED_ENDPOINTS)(
		'seed op %i: %s %s %s is routed as %s',
		(seedOp, method, host, path, id) => {
			expect(ROUTES).toContainEqual(expect.objectContaining({ seedOp, method, host, path, id }));
		},
	);

	test('exactly the 18 seed endpoints carry a seedOp; bearer-only matches the API', () => {
		expect(ROUTES.filter((r) => r.seedOp).map((r) => r.seedOp)).toEqual(
			SEED_ENDPOINTS.map((e) => e[0]),
		);
		const bearerSeedOps = ROUTES.filter((r) => r.seedOp && r.auth === 'bearer')
			.map((r) => r.seedOp)
			.sort((a, b) => a - b);
		expect(bearerSeedOps).toEqual([11, 13, 14, 17]);
		expect(
			ROUTES.filter((r) => r.auth === 'none')
				.map((r) => r.id)
				.sort(),
		).toEqual(['getProvider', 'listProviders']);
		expect(ROUTES.filter((r) => r.host === 'read').every((r) => r.auth === 'apiKey')).toBe(true);
		expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
	});

	test('a parameter does not swallow a :verb suffix; parameters are decoded', () => {
		expect(
			matchRoute('api', 'POST', '/v1/projects/p/integrations/i/installations/x:unpause'),
		).toBeNull();
		const m = matchRoute(
			'read',
			'POST',
			'/v1/projects/p%20q/integrations/i/installations/x:unpause',
		);
		expect(m.route.id).toBe('unpauseReads');
		expect(m.params).toEqual({ projectIdOrName: 'p q', integrationId: 'i', installationId: 'x' });
		expect(matchRoute('api', 'PUT', '/v1/projects')).toEqual({ allowed: ['GET', 'POST'] });
	});
});

describe('helpers', () => {
	test.each([
		['jane@Acme.Example', 'acme.example'],
		['https://www.acme.example/path?q=1', 'acme.example'],
		['WWW.acme.example', 'acme.example'],
		['acme.example.', 'acme.example'],
		['sub.acme.co.uk', 'sub.acme.co.uk'],
		['not a domain', undefined],
		['localhost', undefined],
	])('normaliseDomain(%j) = %j', (input, expected) => {
		expect(normaliseDomain(input)).toBe(expected);
	});

	test('page tokens round-trip and need URL-encoding', () => {
		const token = encodePageToken(200);
		expect(decodePageToken(token)).toBe(200);
		expect(token).toMatch(/[+/]/);
		expect(decodePageToken(token.replace('+', ' '))).toBeUndefined();
		expect(decodePageToken('Q9JT+2qfys28V4ODN+UayA==')).toBeUndefined();
	});

	test('the seeded signing key is in Svix form', () => {
		expect(SEED.webhookSigningKey.startsWith('whsec_')).toBe(true);
		expect(Buffer.from(SEED.webhookSigningKey.slice(6), 'base64').toString('base64')).toBe(
			SEED.webhookSigningKey.slice(6),
		);
	});
});
