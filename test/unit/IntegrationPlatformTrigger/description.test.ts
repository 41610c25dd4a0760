/**
 * The trigger's description: one version, no secret in any parameter, the signing secret in its
 * own credential (credentials/IntegrationPlatformSigningSecretApi.credentials.ts), checked
 * without a request.
 */
import type {
	ICredentialTestFunctions,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { IntegrationPlatformSigningSecretApi } from '../../../credentials/IntegrationPlatformSigningSecretApi.credentials';
import { IntegrationPlatformTrigger } from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import { nodeCredentials } from '../../../nodes/common/api';

const trigger = new IntegrationPlatformTrigger();
const description = trigger.description;
const credential = new IntegrationPlatformSigningSecretApi();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const packageJson = require('../../../package.json') as { n8n: { credentials: string[] } };

type Property = INodeProperties | INodePropertyCollection | INodePropertyOptions;

function allProperties(properties: readonly Property[]): INodeProperties[] {
	return properties.flatMap((p) => {
		const nested = 'options' in p && Array.isArray(p.options) ? allProperties(p.options) : [];
		const values = 'values' in p && Array.isArray(p.values) ? allProperties(p.values) : [];
		return 'type' in p ? [p as INodeProperties, ...nested, ...values] : [...nested, ...values];
	});
}

test('one version, 2: n8n evaluates an options.binaryData expression per request only for 1', () => {
	expect(description.version).toBe(2);
	expect(description.defaultVersion).toBeUndefined();
});

test('no parameter holds a secret', () => {
	const properties = allProperties(description.properties);
	expect(properties.filter((p) => p.typeOptions?.password)).toEqual([]);
	expect(properties.map((p) => p.name)).not.toContain('signingSecret');
});

test('the signing-secret credential: one password field, no authenticate, registered in package.json', () => {
	expect(credential.name).toBe('integrationPlatformSigningSecretApi');
	expect(credential.properties).toEqual([
		expect.objectContaining({ name: 'signingSecret', typeOptions: { password: true } }),
	]);
	expect(credential).not.toHaveProperty('authenticate');
	expect(credential).not.toHaveProperty('test');
	expect(packageJson.n8n.credentials).toContain(
		'dist/credentials/IntegrationPlatformSigningSecretApi.credentials.js',
	);
});

test("the API credentials are the package's shared ones", () => {
	expect(description.credentials?.slice(0, 2)).toEqual(nodeCredentials);
});

describe('which credentials the node asks for', () => {
	const node = {
		id: 'n',
		name: 'Trigger',
		type: 'n8n-nodes-integration-platform.integrationPlatformTrigger',
		typeVersion: 2,
		position: [0, 0] as [number, number],
		parameters: {},
	};
	function shown(parameters: Record<string, unknown>): string[] {
		const resolved = NodeHelpers.getNodeParameters(
			description.properties,
			parameters as never,
			true,
			false,
			node,
			description,
		)!;
		return (description.credentials ?? [])
			.filter((c) => NodeHelpers.displayParameter(resolved, c, node, description, resolved))
			.map((c) => c.name);
	}

	test.each([
		[{}, ['integrationPlatformApi']],
		[
			{ signingSecretSource: 'credential' },
			['integrationPlatformApi', 'integrationPlatformSigningSecretApi'],
		],
		[{ authentication: 'bearerToken' }, ['integrationPlatformTokenApi']],
		[{ authentication: 'none' }, ['integrationPlatformSigningSecretApi']],
		// A value left over from an API credential does not hide it.
		[
			{ authentication: 'none', signingSecretSource: 'destination' },
			['integrationPlatformSigningSecretApi'],
		],
		[{ authentication: 'none', verifySignature: false }, []],
		[{ signingSecretSource: 'credential', verifySignature: false }, ['integrationPlatformApi']],
	])('%j → %j', (parameters, credentials) => {
		expect(shown(parameters)).toEqual(credentials);
	});
});

describe('the credential test (no request)', () => {
	const test_ = trigger.methods.credentialTest.signingSecretTest;
	const run = async (signingSecret: string) =>
		await test_.call({} as ICredentialTestFunctions, {
			id: 'c',
			name: 'Signing secret',
			type: 'integrationPlatformSigningSecretApi',
			data: { signingSecret },
		});
	const good = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;

	test.each([
		[good, 'OK', /^The secret is well-formed/],
		[`${good}, ${Buffer.alloc(24, 2).toString('base64')}`, 'OK', /^All 2 secrets are well-formed/],
		['', 'Error', /^No signing secret entered$/],
		['whsec_not base64!', 'Error', /2 of 2 entries are not a signing secret/],
		[`${good} whsec_`, 'Error', /1 of 2 entries are not a signing secret/],
	])('%p → %s', async (secret, status, message) => {
		const result = await run(secret);
		expect(result.status).toBe(status);
		expect(result.message).toMatch(message);
	});
});
