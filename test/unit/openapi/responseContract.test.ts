/**
 * The response-contract check (test/openapi/responseContract.ts) on hand-made answers, and the
 * generated file it reads (docs/api-responses.json).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import {
	OVERLAPPING_ONE_OF,
	ResponseContract,
	type RecordedAnswer,
} from '../../openapi/responseContract';

const contract = ResponseContract.load();
const ORG = 'a48ab123-7a90-46dc-9b3a-a168ad3be197';
const answer = (fields: Partial<RecordedAnswer>): RecordedAnswer => ({
	host: 'api',
	method: 'GET',
	pathname: `/v1/orgs/${ORG}/invites`,
	status: 200,
	contentType: 'application/json',
	payload: '[]',
	...fields,
});
const invite = {
	id: 'i-1',
	invitedEmail: 'a@b.example',
	invitedBy: 'u-1',
	parentType: 'org',
	parentId: ORG,
	status: 'pending',
	createTime: '2025-05-01T09:00:00.000000Z',
};

describe('the generated file', () => {
	test('has the success answers of every operation of the catalogue, in its order', () => {
		const catalog = JSON.parse(
			fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'api-catalog.json'), 'utf8'),
		) as { operations: Array<{ operationId: string }> };
		expect(contract.contract.operations.map((o) => o.operationId)).toEqual(
			catalog.operations.map((o) => o.operationId),
		);
		for (const operation of contract.contract.operations) {
			expect(operation.responses.length).toBeGreaterThan(0);
			for (const response of operation.responses) expect(response.status).toMatch(/^2/);
		}
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

describe('ResponseContract.check', () => {
	test('a conforming answer names its operation', () => {
		expect(contract.check(answer({ payload: JSON.stringify([invite]) }))).toEqual({
			operationId: 'listOrgInvites',
			violations: [],
		});
	});

	test('the body against the schema: required properties, types, formats', () => {
		const { invitedEmail: _email, ...withoutEmail } = invite;
		expect(
			contract.check(answer({ payload: JSON.stringify([withoutEmail, { ...invite, id: 7 }]) }))
				.violations,
		).toEqual([
			"body /0: must have required property 'invitedEmail'",
			'body /1/id: must be string',
		]);
		expect(contract.check(answer({ payload: '[' })).violations).toEqual(['the body is not JSON']);
	});

	test('statuses and content: documented 2xx only, no body where none is documented', () => {
		expect(contract.check(answer({ status: 201 })).violations).toEqual([
			'status 201 is not documented (documented: 200)',
		]);
		const revoke = { method: 'DELETE', pathname: `/v1/orgs/${ORG}/invites/i-1`, status: 204 };
		expect(contract.check(answer({ ...revoke, contentType: undefined, payload: '' }))).toEqual({
			operationId: 'deleteOrgInvite',
			violations: [],
		});
		expect(contract.check(answer({ ...revoke, payload: '{}' })).violations).toEqual([
			'status 204 is documented without content, but a body was sent',
		]);
		expect(contract.check(answer({ contentType: 'text/plain' })).violations).toEqual([
			'content type text/plain is not the documented application/json',
		]);
		// oauthConnect answers the URL as text.
		const connect = { method: 'POST', pathname: '/v1/oauth-connect', contentType: 'text/plain' };
		expect(contract.check(answer({ ...connect, payload: 'https://x.example/a' }))).toEqual({
			operationId: 'oauthConnect',
			violations: [],
		});
	});

	test('errors, unknown paths and the proxy', () => {
		expect(contract.check(answer({ status: 404, payload: '{}' }))).toMatchObject({
			violations: [],
			unchecked: expect.stringMatching(/only 2xx/),
		});
		expect(contract.check(answer({ pathname: '/v1/nowhere' })).violations).toEqual([
			'no operation of the management host has the path /nowhere',
		]);
		expect(contract.check(answer({ host: 'proxy', pathname: '/crm' }))).toMatchObject({
			violations: [],
			unchecked: expect.stringMatching(/proxy/),
		});
	});

	test('the overlapping oneOf of integration fields: both forms at once pass, neither fails', () => {
		expect(OVERLAPPING_ONE_OF.every((key) => key in contract.contract.definitions)).toBe(true);
		const integration = (field: object) =>
			answer({
				pathname: '/v1/projects/p/integrations/i',
				payload: JSON.stringify({
					id: 'i',
					projectId: 'p',
					name: 'n',
					provider: 'hubspot',
					createTime: '2025-05-01T09:00:00Z',
					latestRevision: {
						id: 'r',
						specVersion: '1.0.0',
						createTime: '2025-05-01T09:00:00Z',
						content: {
							name: 'n',
							provider: 'hubspot',
							read: {
								objects: [
									{
										objectName: 'contacts',
										destination: 'd',
										schedule: '*/30 * * * *',
										requiredFields: [field],
									},
								],
							},
						},
					},
				}),
			});
		expect(
			contract.check(integration({ fieldName: 'firstname', mapToName: 'firstName' })).violations,
		).toEqual([]);
		expect(contract.check(integration({ prompt: 'which?' })).violations).toEqual(
			expect.arrayContaining([
				'body /latestRevision/content/read/objects/0/requiredFields/0: must match exactly one schema in oneOf',
			]),
		);
	});
});
