// @ts-check
'use strict';
/**
 * P6, Record → Write of 10,000 items (BENCH_P6_ITEMS), batched (the default Batch Size, 100),
 * against n8n's HTTP Request node sending one request per item (the write API's single-record
 * form, a JSON body expression, a header-auth credential): the same n8n, the same simulator, in
 * one run. Goals: at least 20× faster, at most 1/50 of the requests.
 *
 * Each run: the simulator is reset (no records of the previous run, an empty journal), a Code
 * node emits the contacts (unique emails), the node under test writes them. Checked per run: the
 * execution succeeded, one output item per input item, each a success, and the simulator stored
 * exactly as many new contact records as there are items. The requests are counted from the
 * simulator's journal (routeId writeRecords). Time is the node's execution time from the
 * execution record; the Code node's time is reported beside it.
 */
const { SEED } = require('../simulator');
const { median, say, seconds, workflow } = require('./common');

const ITEMS = Number(process.env.BENCH_P6_ITEMS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const contacts = `return Array.from({ length: ${ITEMS} }, (_, i) => ({ json: { email: \`bench-\${i}@example.com\`, firstname: \`Bench \${i}\`, lastname: 'Contact' } }));`;

exports.run = async function run(/** @type {any} */ ctx) {
	const { n8n, sim, creds } = ctx;
	const rl = (/** @type {string} */ value) => ({ __rl: true, mode: 'id', value });
	const storeKey = `${SEED.installationId}/contacts`;
	const stored = () => sim.state.records.get(storeKey)?.size ?? 0;
	const variants = {
		ours: {
			type: 'n8n-nodes-integration-platform.integrationPlatform',
			typeVersion: 1,
			parameters: {
				resource: 'records',
				operation: 'write',
				project: rl(SEED.projectId),
				integration: rl(SEED.integrationId),
				groupRef: rl(SEED.groupRef),
				object: rl('contacts'),
				writeType: 'create',
			},
			credentials: { integrationPlatformApi: creds.ours },
		},
		peer: {
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				method: 'POST',
				url: `${sim.writeUrl}/v1/projects/${SEED.projectId}/integrations/${SEED.integrationId}/objects/contacts`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: `={ "groupRef": "${SEED.groupRef}", "type": "create", "mode": "synchronous", "record": {{ JSON.stringify($json) }} }`,
				options: {},
			},
			credentials: { httpHeaderAuth: creds.header },
		},
	};
	/** @type {(json: any) => boolean} */
	const succeeded = (json) => json.success === true || json.result?.success === true;

	say(`P6: Record → Write, ${ITEMS} items, ${ROUNDS} rounds`);
	/** @type {Record<string, { ms: number[], codeMs: number[], requests: number[], batchSizes: string[][], stored: number[] }>} */
	const results = {};
	for (let round = 0; round < ROUNDS; round++) {
		for (const [name, node] of Object.entries(variants)) {
			sim.reset();
			const before = stored();
			const run = await n8n.runWorkflow(workflow(contacts, node, `bench p6 ${node.type}`));
			const nodeRun = run.runData['Under Test']?.[0];
			const output = run.output('Under Test');
			if (run.status !== 'success' || output.length !== ITEMS) {
				throw new Error(
					`P6 ${name}: ${run.status}, ${output.length} items: ${run.error?.message ?? JSON.stringify(run.errors)}`,
				);
			}
			const failed = output.filter((/** @type {any} */ json) => !succeeded(json)).length;
			const writes = sim.journal.entries.filter(
				(/** @type {any} */ e) => e.routeId === 'writeRecords',
			);
			const added = stored() - before;
			if (failed || added !== ITEMS || writes.some((/** @type {any} */ e) => e.status !== 200)) {
				throw new Error(
					`P6 ${name}: ${failed} item(s) without success, ${added} record(s) stored, statuses ${[...new Set(writes.map((/** @type {any} */ e) => e.status))].join(', ')}`,
				);
			}
			// Records per request: a batch's length, or the single-record form ("single").
			const sizes = [
				...new Set(
					writes.map((/** @type {any} */ e) =>
						Array.isArray(e.body?.batch) ? String(e.body.batch.length) : 'single',
					),
				),
			];
			const entry = (results[name] ??= {
				ms: [],
				codeMs: [],
				requests: [],
				batchSizes: [],
				stored: [],
			});
			entry.ms.push(nodeRun.executionTime);
			entry.codeMs.push(run.runData.Items?.[0]?.executionTime ?? 0);
			entry.requests.push(writes.length);
			entry.batchSizes.push(sizes);
			entry.stored.push(added);
			say(
				`  ${name.padEnd(6)} round ${round + 1}: ${seconds(nodeRun.executionTime)}, ${writes.length} requests, ${added} records stored (Code node ${seconds(entry.codeMs[entry.codeMs.length - 1])})`,
			);
		}
	}
	sim.reset();

	const { ours, peer } = results;
	const timeRatio = median(peer.ms) / median(ours.ms);
	const requestRatio = median(ours.requests) / median(peer.requests);
	const labels = {
		ours: `**Integration Platform node, Record → Write (Batch Size 100)**`,
		peer: 'HTTP Request, one request per item, JSON body expression, header-auth credential (fair peer)',
	};
	const row = (/** @type {'ours' | 'peer'} */ name) => {
		const r = results[name];
		return `| ${labels[name]} | ${r.ms.map(seconds).join(' / ')} | ${seconds(median(r.ms))} | ${((median(r.ms) / ITEMS) * 1000).toFixed(0)} µs | ${median(r.requests)} (${r.batchSizes[0].map((size) => (size === 'single' ? 'single-record form' : `batches of ${size}`)).join(', ')}) | ${r.stored.join(' / ')} | ${seconds(median(r.codeMs))} |`;
	};
	const text = [
		`| P6 Record → Write, ${ITEMS} contacts | runs | median | per item | requests | records stored per run | Code node (input) |`,
		'|---|---|---|---|---|---|---|',
		row('ours'),
		row('peer'),
		'',
		'| P6 ratios | value | goal |',
		'|---|---|---|',
		`| time, peer ÷ ours | ${timeRatio.toFixed(1)}× | ≥ 20× |`,
		`| requests, ours ÷ peer | 1/${(1 / requestRatio).toFixed(0)} | ≤ 1/50 |`,
	].join('\n');
	return {
		results: { items: ITEMS, ours, peer, timeRatio, requestRatio },
		text,
	};
};
