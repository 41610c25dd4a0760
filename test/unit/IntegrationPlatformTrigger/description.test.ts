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

test('versions 2 to 4, new nodes get 4; no 1: n8n evaluates an options.binaryData expression per request for 1', () => {
	expect(description.version).toEqual([2, 3, 4]);
	expect(description.defaultVersion).toBe(4);
});

/** The parameters n8n shows for `parameters` on a node of `typeVersion`, in the panel's order. */
function visible(typeVersion: number, parameters: Record<string, unknown> = {}) {
	const node = {
		id: 'n',
		name: 'Trigger',
		type: 'n8n-nodes-integration-platform.integrationPlatformTrigger',
		typeVersion,
		position: [0, 0] as [number, number],
		parameters: {},
	};
	const resolved = NodeHelpers.getNodeParameters(
		description.properties,
		parameters as never,
		true,
		false,
		node,
		description,
	)!;
	return description.properties.filter((p) =>
		NodeHelpers.displayParameter(resolved, p, node, description, resolved),
	);
}

describe('versions: 2 keeps its typed fields, 3 picks from lists', () => {
	test.each([
		[2, 'string', 'string'],
		[3, 'resourceLocator', 'multiOptions'],
	])('version %i: Destination is a %s, Object Names a %s', (version, destination, objects) => {
		const shown = visible(version);
		expect(shown.filter((p) => p.name === 'destinationName').map((p) => p.type)).toEqual([
			destination,
		]);
		expect(shown.filter((p) => p.name === 'objectNames').map((p) => p.type)).toEqual([objects]);
	});

	test('version 3 without an API credential: no list can load, Object Names are typed', () => {
		const shown = visible(3, { authentication: 'none' });
		expect(shown.filter((p) => p.name === 'objectNames').map((p) => p.type)).toEqual(['string']);
		expect(shown.map((p) => p.name)).not.toContain('destinationName');
	});

	test('the lists are the methods the node registers; Object Names reloads with the project', () => {
		const destination = visible(3).find((p) => p.name === 'destinationName')!;
		const list = destination.modes!.find((m) => m.name === 'list')!;
		expect(list.typeOptions?.searchListMethod).toBe('searchWebhookDestinations');
		expect(trigger.methods.listSearch).toHaveProperty('searchWebhookDestinations');
		const objects = visible(3).find((p) => p.name === 'objectNames')!;
		expect(objects.typeOptions).toEqual({
			loadOptionsMethod: 'getObjectNames',
			loadOptionsDependsOn: ['project.value'],
		});
		expect(trigger.methods.loadOptions).toHaveProperty('getObjectNames');
	});

	test('By Name accepts what registration accepts, and empty (a name derived from the webhook ID)', () => {
		const destination = visible(3).find((p) => p.name === 'destinationName')!;
		const byName = destination.modes!.find((m) => m.name === 'name')!;
		const rule = byName.validation![0] as unknown as { properties: { regex: string } };
		const regex = new RegExp(rule.properties.regex);
		for (const name of ['', 'n8n-webhook', 'A'.repeat(64)]) expect(regex.test(name)).toBe(true);
		for (const name of ['n8n webhook', 'n8n_webhook', 'A'.repeat(65)]) {
			expect(regex.test(name)).toBe(false);
		}
	});
});

describe('If the Destination Exists: version 4 follows the manifests by default, 2 and 3 keep stopping', () => {
	/** The value n8n gives a node of `typeVersion` saved without the parameter, and its choices. */
	function onExisting(typeVersion: number) {
		const shown = visible(typeVersion).filter((p) => p.name === 'onExistingDestination');
		expect(shown).toHaveLength(1);
		return {
			default: shown[0].default,
			choices: (shown[0].options as INodePropertyOptions[]).map((o) => [o.name, o.value]),
		};
	}

	test.each([2, 3])('version %i: Stop With an Error, as saved workflows expect', (version) => {
		expect(onExisting(version)).toEqual({
			default: 'fail',
			choices: [
				['Point It at This Workflow', 'takeOver'],
				['Stop With an Error', 'fail'],
			],
		});
	});

	test('version 4: Point It at This Workflow if a Manifest Delivers to It', () => {
		expect(onExisting(4)).toEqual({
			default: 'takeOverIfManifest',
			choices: [
				['Point It at This Workflow', 'takeOver'],
				['Point It at This Workflow if a Manifest Delivers to It', 'takeOverIfManifest'],
				['Stop With an Error', 'fail'],
			],
		});
	});
});

describe('where the editor puts the credential, and what the notices point at', () => {
	// n8n's editor (ParameterInputList) shows the credential selector above the last visible
	// parameter that a credential's displayOptions.show names.
	test("credentials are shown by Authentication only: the selector stands at the form's top", () => {
		const keys = (description.credentials ?? []).flatMap((c) =>
			Object.keys(c.displayOptions?.show ?? {}),
		);
		expect([...new Set(keys)]).toEqual(['authentication']);
		expect(description.properties[0].name).toBe('authentication');
	});

	test('notices and descriptions name the controls by their labels, never "above" or "below"', () => {
		const texts = allProperties(description.properties).flatMap((p) => [
			p.displayName,
			p.description ?? '',
		]);
		expect(texts.filter((t) => /\b(above|below)\b/i.test(t))).toEqual([]);
		const notice = visible(3, { authentication: 'none' }).find(
			(p) => p.name === 'noCredentialNotice',
		)!;
		expect(notice.displayName).toContain('Production URL (under Webhook URLs');
		expect(notice.displayName).toContain(
			'Integration Platform Signing Secret API credential, chosen under Credential',
		);
	});
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

test("the description speaks for the nodes panel's one entry of the trigger and the action node", () => {
	// n8n merges <x>Trigger into the action node <x> and shows the trigger's description there.
	expect(description.name).toBe('integrationPlatformTrigger');
	expect(description.description).toMatch(
		/^Manage projects, integrations, connections and records/,
	);
	expect(description.description).toMatch(/start a workflow when it delivers a signed/);
});
