// @ts-check
'use strict';
/**
 * P2, event trigger: sustained signed deliveries per second into an activated workflow, the
 * Integration Platform Trigger with signature verification on, against n8n's Webhook node
 * receiving the same bodies (no verification: the peer a user would wire by hand). A third
 * contender, the barest community webhook trigger (bench package), separates what n8n's webhook
 * path costs any community trigger from what ours adds. Ours runs twice: with its signing secret
 * in a signing-secret credential (read for every delivery) and as a new node is set up, the
 * secret fetched from the destination with the API credential (from the simulator) and kept in
 * memory. All answer on receipt and run a NoOp
 * after. Senders are closed-loop: CONCURRENCY connections, each posting as soon as its previous
 * delivery was answered, for DURATION seconds.
 */
const crypto = require('node:crypto');
const http = require('node:http');
const {
	SECRET,
	body,
	signed,
	workflow,
	ourTrigger,
	ourDefaultTrigger,
	ourTriggerUrl,
	apiCredential,
	signingSecretCredential,
} = require('./deliveries');
const { SEED } = require('../simulator');

const DURATION_MS = Number(process.env.BENCH_P2_SECONDS ?? 10) * 1000;
const CONCURRENCY = Number(process.env.BENCH_P2_CONCURRENCY ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** A rate to print: whole numbers, but one decimal below 10/s, where rounding hides the ratio. */
const rate = (/** @type {number} */ perSecond) => perSecond.toFixed(perSecond < 10 ? 1 : 0);
/** Closed-loop load on one URL; returns throughput and latency percentiles. */
async function load(/** @type {string} */ url, /** @type {string | undefined} */ secret) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
	const target = new URL(url);
	/** @type {number[]} */
	const latencies = [];
	let accepted = 0;
	let rejected = 0;
	const until = Date.now() + DURATION_MS;
	const post = () =>
		new Promise((resolve) => {
			const started = process.hrtime.bigint();
			const req = http.request(
				{
					agent,
					host: target.hostname,
					port: target.port,
					path: target.pathname,
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						'content-length': Buffer.byteLength(body),
						...(secret ? signed(secret).headers : {}),
					},
				},
				(res) => {
					res.resume();
					res.on('end', () => {
						latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
						if (res.statusCode && res.statusCode < 300) accepted++;
						else rejected++;
						resolve(undefined);
					});
				},
			);
			req.on('error', () => {
				rejected++;
				resolve(undefined);
			});
			req.end(body);
		});
	const worker = async () => {
		while (Date.now() < until) await post();
	};
	const started = Date.now();
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	const elapsed = (Date.now() - started) / 1000;
	agent.destroy();
	latencies.sort((a, b) => a - b);
	const pct = (/** @type {number} */ p) =>
		latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
	return { perSecond: accepted / elapsed, accepted, rejected, p50: pct(50), p99: pct(99) };
}

async function activate(
	/** @type {any} */ n8n,
	/** @type {any} */ definition,
	/** @type {string} */ url,
	/** @type {string | undefined} */ secret,
	/** @type {Record<string, unknown>} */ credentials,
) {
	const created = await n8n.createWorkflow(definition, credentials);
	await n8n.api('POST', `/workflows/${created.id}/activate`);
	for (let i = 0; i < 100; i++) {
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...(secret ? signed(secret).headers : {}) },
			body,
		});
		if (res.status !== 404) break;
		await new Promise((r) => setTimeout(r, 200));
	}
	return created.id;
}

/**
 * Runs P2 in the suite's n8n (default settings) and in a second n8n with
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true: by default n8n 2.41 creates an isolated expression
 * context for every webhook request except those of its own Webhook node
 * (docs/n8n-notes.md, "Per-item cost of expressions"), which no community trigger can avoid.
 */
exports.run = async function run(/** @type {any} */ ctx) {
	const defaults = await measureIn(ctx.n8n, 'n8n defaults', ctx.sim.apiUrl);
	const lazyN8n = await ctx.startExtraN8n({ N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' });
	let lazy;
	try {
		lazy = await measureIn(lazyN8n, 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true', ctx.sim.apiUrl);
	} finally {
		await lazyN8n.stop();
		lazyN8n.cleanup();
	}
	if (!defaults || !lazy) return undefined;
	return {
		results: { defaults: defaults.results, lazyAcquire: lazy.results },
		text: [defaults.text, '', lazy.text].join('\n'),
	};
};

async function measureIn(
	/** @type {any} */ n8n,
	/** @type {string} */ setting,
	/** @type {string} */ apiUrl,
) {
	const oursNode = workflow('bench p2 ours', ourTrigger);
	const oursDefaultNode = workflow('bench p2 ours, secret from the destination', ourDefaultTrigger);
	const peerNode = workflow('bench p2 peer', {
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		parameters: {
			httpMethod: 'POST',
			path: `bench-peer-${crypto.randomUUID()}`,
			responseMode: 'onReceived',
			options: {},
		},
	});
	const bareNode = workflow('bench p2 bare', {
		type: 'n8n-nodes-bench-starter-style.benchBareTrigger',
		typeVersion: 2,
		parameters: {},
	});
	const oursUrl = ourTriggerUrl(n8n.baseUrl, oursNode);
	const oursDefaultUrl = ourTriggerUrl(n8n.baseUrl, oursDefaultNode);
	const bareUrl = ourTriggerUrl(n8n.baseUrl, bareNode); // same webhook path, `webhook`
	const peerUrl = `${n8n.baseUrl}/webhook/${/** @type {any} */ (peerNode.nodes[0]).parameters.path}`;
	process.stdout.write(
		`P2 (${setting}): signed deliveries, ${CONCURRENCY} concurrent senders, ${DURATION_MS / 1000} s per round, ${ROUNDS} rounds\n`,
	);
	const secretCredential = await signingSecretCredential(n8n);
	const ids = [
		await activate(n8n, oursNode, oursUrl, SECRET, secretCredential),
		await activate(
			n8n,
			oursDefaultNode,
			oursDefaultUrl,
			SEED.webhookSigningKey,
			await apiCredential(n8n, apiUrl),
		),
		await activate(n8n, peerNode, peerUrl, undefined, {}),
		await activate(n8n, bareNode, bareUrl, undefined, {}),
	];
	/** @type {Record<string, Array<Awaited<ReturnType<typeof load>>>>} */
	const runs = { ours: [], oursDefault: [], peer: [], bare: [] };
	try {
		for (let round = 0; round < ROUNDS; round++) {
			for (const [name, url, secret] of /** @type {const} */ ([
				['ours', oursUrl, SECRET],
				['oursDefault', oursDefaultUrl, SEED.webhookSigningKey],
				['peer', peerUrl, undefined],
				['bare', bareUrl, undefined],
			])) {
				if (process.env.BENCH_P2_ONLY && process.env.BENCH_P2_ONLY !== name) continue;
				const result = await load(url, secret);
				runs[name].push(result);
				process.stdout.write(
					`  ${name.padEnd(6)} round ${round + 1}: ${rate(result.perSecond)}/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, rejected ${result.rejected}\n`,
				);
				// Let n8n finish the executions of this round before the next one starts.
				await new Promise((r) => setTimeout(r, 3000));
			}
		}
	} finally {
		for (const id of ids)
			await n8n.api('POST', `/workflows/${id}/deactivate`).catch(() => undefined);
	}
	const med = (/** @type {number[]} */ v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
	if (!runs.ours.length || !runs.peer.length) return undefined;
	/** Median of one measure per contender. */
	const medians = (/** @type {'perSecond' | 'p50' | 'p99'} */ key) =>
		Object.fromEntries(
			Object.entries(runs).map(([name, list]) => [
				name,
				list.length ? med(list.map((r) => r[key])) : NaN,
			]),
		);
	const perSecond = medians('perSecond');
	const p99 = medians('p99');
	const p50 = medians('p50');
	const rejected = [...runs.ours, ...runs.oursDefault].reduce((s, r) => s + r.rejected, 0);
	return {
		results: runs,
		text: [
			`| P2 event trigger (${setting}), ${CONCURRENCY} concurrent senders × ${DURATION_MS / 1000} s | deliveries/s (runs) | median | p50 | p99 |`,
			'|---|---|---|---|---|',
			`| **Integration Platform Trigger, signature verified, secret from a signing-secret credential** | ${runs.ours.map((r) => rate(r.perSecond)).join(' / ')} | ${rate(perSecond.ours)} | ${p50.ours.toFixed(1)} ms | ${p99.ours.toFixed(1)} ms |`,
			`| **Integration Platform Trigger, signature verified, secret from the destination (the default)** | ${runs.oursDefault.map((r) => rate(r.perSecond)).join(' / ')} | ${rate(perSecond.oursDefault)} | ${p50.oursDefault.toFixed(1)} ms | ${p99.oursDefault.toFixed(1)} ms |`,
			`| Webhook node (peer, no verification) | ${runs.peer.map((r) => rate(r.perSecond)).join(' / ')} | ${rate(perSecond.peer)} | ${p50.peer.toFixed(1)} ms | ${p99.peer.toFixed(1)} ms |`,
			`| bare community trigger (no parameters, no verification) | ${runs.bare.map((r) => rate(r.perSecond)).join(' / ')} | ${rate(perSecond.bare)} | ${p50.bare.toFixed(1)} ms | ${p99.bare.toFixed(1)} ms |`,
			`| ratio ours / peer | | **${(perSecond.ours / perSecond.peer).toFixed(2)}** (target ≥ 0.9) | | **${(p99.ours / p99.peer).toFixed(2)}** (target ≤ 1.2) |`,
			`| ratio ours / bare community trigger | | **${(perSecond.ours / perSecond.bare).toFixed(2)}** (target ≥ 0.9) | | **${(p99.ours / p99.bare).toFixed(2)}** |`,
			`| ratio ours (secret from the destination) / peer | | **${(perSecond.oursDefault / perSecond.peer).toFixed(2)}** | | **${(p99.oursDefault / p99.peer).toFixed(2)}** |`,
			`| ratio ours (secret from the destination) / bare community trigger | | **${(perSecond.oursDefault / perSecond.bare).toFixed(2)}** (target ≥ 0.9) | | **${(p99.oursDefault / p99.bare).toFixed(2)}** |`,
			'',
			`Rejected signed deliveries of ours: ${rejected}.`,
		].join('\n'),
	};
}
