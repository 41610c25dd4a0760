// @ts-check
'use strict';
/**
 * What P2 and P5 send and where: a read-result message, Svix signatures computed here
 * independently of the node (svix webhook.ts sign()), and the workflows that receive them (the
 * Integration Platform Trigger with its signing secret typed in or taken from the destination, no
 * registration; n8n's Webhook node as the peer), each followed by a NoOp.
 */
const crypto = require('node:crypto');
const { SEED } = require('../simulator');

const SECRET = `whsec_${Buffer.from('bench-signing-key-32-bytes-long!').toString('base64')}`;
const KEY = Buffer.from(SECRET.slice('whsec_'.length), 'base64');

const body = JSON.stringify({
	action: 'read',
	projectId: SEED.projectId,
	provider: 'hubspot',
	groupRef: SEED.groupRef,
	groupName: SEED.groupName,
	installationId: SEED.installationId,
	installationUpdateTime: '2026-01-01T00:00:00.000000Z',
	objectName: 'contacts',
	consumerRef: SEED.consumerRef,
	consumerName: SEED.consumerName,
	operationId: SEED.operationId,
	readType: 'scheduled',
	resultInfo: { type: 'inline', numRecords: 2 },
	result: [
		{ fields: { id: '1', email: 'a@example.com' } },
		{ fields: { id: '2', email: 'b@example.com' } },
	],
});

/** A fresh message id and its Svix headers for `body`, signed with `secret` (a whsec_ secret). */
function signed(secret = SECRET) {
	const key = secret === SECRET ? KEY : Buffer.from(secret.slice('whsec_'.length), 'base64');
	const id = `msg_${crypto.randomUUID().replace(/-/g, '')}`;
	const timestamp = Math.floor(Date.now() / 1000);
	const signature = crypto
		.createHmac('sha256', key)
		.update(`${id}.${timestamp}.${body}`)
		.digest('base64');
	return {
		id,
		headers: {
			'svix-id': id,
			'svix-timestamp': String(timestamp),
			'svix-signature': `v1,${signature}`,
		},
	};
}

/** A workflow: the given trigger node (named Receive) → NoOp. */
function workflow(/** @type {string} */ name, /** @type {Record<string, unknown>} */ trigger) {
	return {
		name,
		nodes: [
			{ name: 'Receive', position: [0, 0], webhookId: crypto.randomUUID(), ...trigger },
			{
				parameters: {},
				name: 'Handle',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [200, 0],
			},
		],
		connections: { Receive: { main: [[{ node: 'Handle', type: 'main', index: 0 }]] } },
		settings: { saveDataSuccessExecution: 'all' },
	};
}

/**
 * The Integration Platform Trigger, verifying signatures against SECRET (kept in a signing-secret
 * credential, see signingSecretCredential), registering nothing.
 */
const ourTrigger = {
	type: 'n8n-nodes-integration-platform.integrationPlatformTrigger',
	typeVersion: 2,
	parameters: {
		authentication: 'none',
		registerDestination: false,
		events: ['read', 'subscribe', 'schema.watch', 'notification'],
		output: 'message',
		verifySignature: true,
		signingSecretSource: 'credential',
	},
	credentials: { integrationPlatformSigningSecretApi: { id: 'set-by-bench', name: 'bench' } },
};

/**
 * The Integration Platform Trigger as a new node is set up (the secret from the destination,
 * fetched once with the API credential and kept in memory), on the simulator's seeded destination,
 * registering nothing; deliveries are signed with that destination's secret
 * (SEED.webhookSigningKey).
 */
const ourDefaultTrigger = {
	type: 'n8n-nodes-integration-platform.integrationPlatformTrigger',
	typeVersion: 2,
	parameters: {
		authentication: 'apiKey',
		project: { __rl: true, mode: 'name', value: SEED.projectName },
		registerDestination: false,
		destinationName: SEED.destinationName,
		events: ['read', 'subscribe', 'schema.watch', 'notification'],
		output: 'message',
		verifySignature: true,
	},
	credentials: { integrationPlatformApi: { id: 'set-by-bench', name: 'bench' } },
};

/**
 * Creates an API credential for the simulator at `apiUrl` in `n8n`; returns the credential map
 * for createWorkflow.
 * @param {any} n8n @param {string} apiUrl
 */
async function apiCredential(n8n, apiUrl) {
	const created = await n8n.createCredential({
		type: 'integrationPlatformApi',
		name: 'bench api key',
		data: { apiKey: SEED.apiKey, baseUrl: apiUrl },
	});
	return { integrationPlatformApi: { id: created.id, name: created.name } };
}

/**
 * Creates the credential holding SECRET in `n8n` once; returns the credential map for
 * createWorkflow.
 * @param {any} n8n
 */
async function signingSecretCredential(n8n) {
	const created = await n8n.createCredential({
		type: 'integrationPlatformSigningSecretApi',
		name: 'bench signing secret',
		data: { signingSecret: SECRET },
	});
	return { integrationPlatformSigningSecretApi: { id: created.id, name: created.name } };
}

/** Production URL of a workflow's Receive node (our trigger's webhook path is `webhook`). */
function ourTriggerUrl(
	/** @type {string} */ baseUrl,
	/** @type {{ nodes: Array<Record<string, unknown>> }} */ definition,
) {
	return `${baseUrl}/webhook/${definition.nodes[0].webhookId}/webhook`;
}

module.exports = {
	SECRET,
	body,
	signed,
	workflow,
	ourTrigger,
	ourDefaultTrigger,
	ourTriggerUrl,
	apiCredential,
	signingSecretCredential,
};
