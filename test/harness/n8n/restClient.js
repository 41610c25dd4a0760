// @ts-check
'use strict';
/**
 * The client half of the harness, usable against any running n8n given its API key: the public
 * API, webhooks, credential tests (the owner session), example workflows run end to end.
 */
const crypto = require('node:crypto');
const { sleep } = require('./launch');

/**
 * fetch, sent once more when it went out on a pooled keep-alive connection that n8n had already
 * closed. n8n closes idle connections after 5 s; when the caller's event loop was blocked for
 * longer (Jest compiling a test file in the process that ran globalSetup's requests, with
 * --runInBand), undici had no chance to drop the connection and reuses it: the request fails with
 * "other side closed" before n8n has read it, and undici retries only idempotent requests itself.
 * @param {string} url @param {RequestInit} [init]
 */
async function send(url, init) {
	try {
		return await fetch(url, init);
	} catch (error) {
		const cause = /** @type {{ cause?: { code?: string, message?: string } }} */ (error).cause;
		if (cause?.code !== 'UND_ERR_SOCKET' || cause.message !== 'other side closed') throw error;
		return await fetch(url, init);
	}
}

/**
 * @param {{ baseUrl: string, apiKey: string, cookie?: string }} connection
 */
function createClient({ baseUrl, apiKey, cookie }) {
	/** @param {string} method @param {string} apiPath @param {unknown} [body] */
	async function api(method, apiPath, body) {
		for (let attempt = 1; ; attempt++) {
			const res = await send(`${baseUrl}/api/v1${apiPath}`, {
				method,
				headers: { 'X-N8N-API-KEY': apiKey, 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await res.text();
			// SQLite answers 503 "Database is not ready!" while n8n writes a large execution.
			if (res.status === 503 && attempt < 20) {
				await sleep(250 * attempt);
				continue;
			}
			if (!res.ok)
				throw new Error(`${method} /api/v1${apiPath}: ${res.status} ${text.slice(0, 2000)}`);
			return text ? JSON.parse(text) : undefined;
		}
	}

	/** @param {string} webhookPath @param {unknown} body @param {Record<string, string>} [headers] @param {'webhook' | 'webhook-test'} [kind] */
	function webhook(webhookPath, body, headers = {}, kind = 'webhook') {
		return send(`${baseUrl}/${kind}/${webhookPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: typeof body === 'string' ? body : JSON.stringify(body),
		});
	}

	/** Activation registers webhooks asynchronously in n8n 2.x: poll until it stops answering 404. */
	async function waitForWebhook(
		/** @type {string} */ webhookPath,
		/** @type {unknown} */ body,
		timeoutMs = 60_000,
	) {
		const until = Date.now() + timeoutMs;
		for (;;) {
			const res = await webhook(webhookPath, body);
			if (res.status !== 404 || Date.now() > until) return res;
			await res.arrayBuffer();
			await sleep(150);
		}
	}

	/** @type {Map<string, boolean>} credential type → its schema has n8n 2.0.0's domain rule */
	const domainRule = new Map();

	/**
	 * Creates a credential through the public API. n8n adds "Allowed HTTP Request Domains"
	 * (`allowedHttpRequestDomains`, default "all") to credentials that authenticate requests; the
	 * public-API schema of n8n 2.0.0 then requires `allowedDomains` whenever that setting is
	 * absent (its `if` matches a missing property), so there the default is sent explicitly.
	 * @param {{ type: string, name: string, data: Record<string, unknown> }} credential
	 */
	async function createCredential(credential) {
		let { data } = credential;
		if (!('allowedHttpRequestDomains' in data)) {
			if (!domainRule.has(credential.type)) {
				const schema = await api('GET', `/credentials/schema/${credential.type}`);
				const rules = JSON.stringify(schema.allOf ?? []);
				domainRule.set(credential.type, rules.includes('allowedHttpRequestDomains'));
			}
			if (domainRule.get(credential.type)) data = { ...data, allowedHttpRequestDomains: 'all' };
		}
		return await api('POST', '/credentials', { ...credential, data });
	}

	/** Tests a stored credential with its type's `test` request, as the editor's "Test" button does. */
	async function testCredential(/** @type {string} */ credentialId) {
		if (!cookie) throw new Error('testCredential needs the owner session');
		// The editor's endpoint takes the credential as stored; n8n decrypts it server-side.
		const stored = await send(`${baseUrl}/rest/credentials/${credentialId}?includeData=true`, {
			headers: { cookie },
		});
		const credentials = (await stored.json()).data;
		const res = await send(`${baseUrl}/rest/credentials/test`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({ credentials }),
		});
		const body = await res.json();
		if (!res.ok) throw new Error(`credential test: ${res.status} ${JSON.stringify(body)}`);
		return /** @type {{ status: 'OK' | 'Error', message: string }} */ (body.data);
	}

	/**
	 * Creates a workflow, with node credentials mapped by credential type to the ids given.
	 * @param {any} workflow @param {Record<string, { id: string, name: string }>} [credentials]
	 */
	async function createWorkflow(workflow, credentials = {}) {
		const nodes = workflow.nodes.map((/** @type {any} */ node) => {
			if (!node.credentials) return node;
			const mapped = Object.fromEntries(
				Object.entries(node.credentials).map(([type, ref]) => [type, credentials[type] ?? ref]),
			);
			return { ...node, credentials: mapped };
		});
		return await api('POST', '/workflows', {
			name: workflow.name ?? 'workflow',
			nodes,
			connections: workflow.connections ?? {},
			settings: { executionOrder: 'v1', ...(workflow.settings ?? {}) },
		});
	}

	/**
	 * Runs a workflow that starts with a Manual Trigger (an example as users import it): the
	 * trigger is swapped for a Webhook node of the same name, the workflow is activated, called
	 * once, and its execution is returned with every node's output. The workflow is deactivated after.
	 * @param {any} workflow @param {Record<string, { id: string, name: string }>} [credentials]
	 * @param {{ input?: unknown }} [options]
	 */
	async function runWorkflow(workflow, credentials = {}, options = {}) {
		const hookPath = `run-${crypto.randomUUID()}`;
		const nodes = workflow.nodes.map((/** @type {any} */ node) =>
			node.type === 'n8n-nodes-base.manualTrigger'
				? {
						...node,
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						webhookId: crypto.randomUUID(),
						parameters: {
							httpMethod: 'POST',
							path: hookPath,
							responseMode: 'lastNode',
							options: {},
						},
					}
				: node,
		);
		const created = await createWorkflow({ ...workflow, nodes }, credentials);
		try {
			await api('POST', `/workflows/${created.id}/activate`);
			const res = await waitForWebhook(hookPath, options.input ?? {});
			await res.arrayBuffer();
			const execution = await latestExecution(created.id);
			return describeExecution(execution);
		} finally {
			// Deactivated, not deleted: deleting a workflow deletes its executions, which the
			// suite's secret scan reads at the end (test/e2e/secretScan.test.ts).
			await api('POST', `/workflows/${created.id}/deactivate`).catch(() => undefined);
		}
	}

	/** Waits for the newest finished execution of a workflow and returns it with its data. */
	async function latestExecution(/** @type {string} */ workflowId, timeoutMs = 60_000) {
		const until = Date.now() + timeoutMs;
		for (;;) {
			const list = await api(
				'GET',
				`/executions?workflowId=${workflowId}&limit=1&includeData=true`,
			);
			const execution = list.data[0];
			if (execution && execution.finished !== undefined && execution.stoppedAt) return execution;
			if (Date.now() > until) throw new Error(`no finished execution of workflow ${workflowId}`);
			await sleep(200);
		}
	}

	/** @param {string} workflowId */
	async function executions(workflowId, includeData = false) {
		/** @type {any[]} */
		const all = [];
		let cursor = '';
		do {
			const page = await api(
				'GET',
				`/executions?workflowId=${workflowId}&limit=250&includeData=${includeData}${cursor ? `&cursor=${cursor}` : ''}`,
			);
			all.push(...page.data);
			cursor = page.nextCursor ?? '';
		} while (cursor);
		return all;
	}

	/** Every credential (id, name, type; no data), newest first. */
	async function listCredentials() {
		/** @type {Array<{ id: string, name: string, type: string }>} */
		const all = [];
		let cursor = '';
		do {
			const page = await api(
				'GET',
				`/credentials?limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
			);
			all.push(...page.data);
			cursor = page.nextCursor ?? '';
		} while (cursor);
		return all;
	}

	/** Every workflow (id, name, nodes, …; no pinned data). */
	async function listWorkflows() {
		/** @type {Array<{ id: string, name: string, nodes: any[] }>} */
		const all = [];
		let cursor = '';
		do {
			const page = await api(
				'GET',
				`/workflows?excludePinnedData=true&limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
			);
			all.push(...page.data);
			cursor = page.nextCursor ?? '';
		} while (cursor);
		return all;
	}

	return {
		baseUrl,
		apiKey,
		cookie,
		api,
		webhook,
		waitForWebhook,
		createCredential,
		testCredential,
		createWorkflow,
		runWorkflow,
		latestExecution,
		executions,
		listCredentials,
		listWorkflows,
	};
}

/**
 * Flattens an execution record: status, the error if any, and each node's output items.
 * @param {any} execution
 */
function describeExecution(execution) {
	const runData = execution.data?.resultData?.runData ?? {};
	/** @type {Record<string, any[]>} */
	const outputs = {};
	/** @type {Record<string, any>} */
	const errors = {};
	for (const [nodeName, runs] of Object.entries(runData)) {
		const run = /** @type {any[]} */ (runs)[0];
		outputs[nodeName] = (run?.data?.main?.[0] ?? []).map((/** @type {any} */ item) => item.json);
		if (run?.error) errors[nodeName] = run.error;
	}
	return {
		id: execution.id,
		status: execution.status,
		error: execution.data?.resultData?.error,
		outputs,
		errors,
		runData,
		/** output items of a node (json only) */
		output: (/** @type {string} */ nodeName) => outputs[nodeName] ?? [],
	};
}

module.exports = { createClient, describeExecution, send };
