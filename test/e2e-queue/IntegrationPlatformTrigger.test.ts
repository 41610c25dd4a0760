/**
 * Queue mode, event trigger: activation (run by main, the leader) registers the trigger on the
 * simulator; the simulator then delivers signed messages the way the service does (Svix
 * signatures, retries of anything but a 2xx), first to main's URL, then, after the destination's
 * URL is switched to the webhook process (as a load balancer in front of webhook processes
 * would be), through the webhook process. Main and the webhook process only verify and enqueue;
 * the workers run the workflows. Every delivered message id must start exactly one execution,
 * `success`, finished by a worker, enqueued by the process the message went through.
 *
 * Replay memory and the secret cache are per process (docs/n8n-notes.md, "Queue mode"): the
 * switch happens only once every delivery of the first phase was answered, so no retry of one
 * message can reach both processes.
 */
import { randomUUID } from 'node:crypto';

import type { Delivery, Sim } from '../harness/eventTriggerSim';
import { api, registrationState, SEED, startSim } from '../harness/eventTriggerSim';
import { readExample, type N8nClient } from '../harness/e2eContext';
import {
	allExecutions,
	enqueuedBy,
	finishedByWorker,
	pool,
	queueClient,
	queueInfo,
	sleep,
	takeCluster,
	unrecognizedNodeTypes,
	until,
} from '../harness/queueContext';

jest.setTimeout(300_000);

const TRIGGER = 'Integration Platform Trigger';
/** Messages per entry point (main, then the webhook process): 520 in all by default. */
const PER_ENTRY_POINT = Number(process.env.E2E_QUEUE_DELIVERIES ?? 260);
const CONCURRENCY = 8;

let n8n: N8nClient;
let sim: Sim;
let release: () => Promise<void>;
let workflowId: string | undefined;
let hookPath: string;
let seeded: ReturnType<typeof registrationState>;
const phases: Record<'main' | 'webhook', Delivery[]> = { main: [], webhook: [] };

beforeAll(async () => {
	release = await takeCluster('eventTrigger');
	n8n = queueClient();
	// n8n runs on http here; the real service (and the simulator's default) want https. Retries
	// come quickly so that a refused delivery is retried within the test.
	sim = await startSim({
		httpsWebhooksOnly: false,
		deliveries: { retryDelaysMs: [1000, 2000, 4000, 8000, 16000] },
	});
	seeded = registrationState(sim);
});
afterAll(async () => {
	if (workflowId && (await n8n.api('GET', `/workflows/${workflowId}`)).active) {
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
		await sleep(2000); // n8n removes the registration after answering: let it reach the simulator
	}
	await sim?.close();
	await release?.();
});

async function setDestinationUrl(url: string) {
	const res = await api(
		sim,
		'PATCH',
		`/projects/${SEED.projectName}/destinations/${SEED.destinationName}`,
		{
			updateMask: ['metadata.url'],
			destination: { metadata: { url } },
		},
	);
	if (res.status !== 200)
		throw new Error(`destination update: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Message i: mostly notifications, every fourth a read with one inline record; all distinct. */
async function deliverOne(phase: 'main' | 'webhook', i: number): Promise<Delivery> {
	if (i % 4 === 3) {
		return await sim.emitRead({
			objectName: 'contacts',
			records: [{ email: `${phase}-${i}@example.com` }],
		});
	}
	return await sim.deliver({
		destination: SEED.destinationName,
		message: {
			notificationType: 'connection.created',
			data: { projectId: SEED.projectId, connectionId: `${phase}-${i}`, provider: SEED.provider },
		},
	});
}

/** Sends the phase's messages and waits until the simulator has an answer for each (retries included). */
async function deliverPhase(phase: 'main' | 'webhook') {
	const started = Date.now();
	const sent = await pool(
		Array.from({ length: PER_ENTRY_POINT }, (_, i) => i),
		CONCURRENCY,
		async (i) => await deliverOne(phase, i),
	);
	const ids = new Set(sent.map((d) => d.id));
	const settled = await until(
		`the ${phase} deliveries to be answered`,
		() => {
			const mine = sim.deliveries.list().filter((d) => ids.has(d.id));
			return mine.every((d) => d.state !== 'pending') ? mine : undefined;
		},
		120_000,
	);
	phases[phase] = settled;
	const retried = settled.filter((d) => d.attempts.length > 1).length;
	process.stderr.write(
		`\n[e2e-queue] ${settled.length} deliveries through ${phase} in ${((Date.now() - started) / 1000).toFixed(1)} s (${(settled.length / ((Date.now() - started) / 1000)).toFixed(1)}/s), ${retried} needed a retry, states ${JSON.stringify(countBy(settled.map((d) => d.state)))}\n`,
	);
	expect(settled.map((d) => d.state)).toEqual(settled.map(() => 'delivered'));
	expect(
		settled.every((d) =>
			d.attempts
				.at(-1)
				?.url.startsWith(phase === 'main' ? n8n.baseUrl : queueInfo().webhookBaseUrl),
		),
	).toBe(true);
}

function countBy(values: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
	return counts;
}

test('activation registers the trigger on the simulator with the webhook URL of main', async () => {
	const example = readExample('event-trigger.json');
	const webhookId = randomUUID();
	example.name = `event trigger queue e2e ${webhookId.slice(0, 8)}`;
	const trigger = example.nodes.find((n: { name: string }) => n.name === TRIGGER);
	trigger.webhookId = webhookId;
	Object.assign(trigger.parameters, {
		destinationName: SEED.destinationName,
		onExistingDestination: 'takeOver',
		events: ['notification', 'read'],
		notificationTypes: ['connection.created'],
		output: 'message',
	});
	const credential = await n8n.createCredential({
		type: 'integrationPlatformApi',
		name: `Simulator API key (event trigger, queue ${webhookId.slice(0, 8)})`,
		data: {
			apiKey: SEED.apiKey,
			baseUrl: sim.apiUrl,
			readUrl: sim.readUrl,
			writeUrl: sim.writeUrl,
			searchUrl: sim.searchUrl,
			proxyUrl: sim.proxyUrl,
		},
	});
	workflowId = (await n8n.createWorkflow(example, { integrationPlatformApi: credential })).id;
	hookPath = `webhook/${webhookId}/webhook`;
	await n8n.api('POST', `/workflows/${workflowId}/activate`);
	await until('the registration', () => {
		const state = registrationState(sim);
		const topic = state.topics.find((t) => t.name === SEED.destinationName);
		return topic && state.topicDestinationRoutes.some((r) => r.topicId === topic.id)
			? true
			: undefined;
	});
	expect(registrationState(sim).destinations.find((d) => d.id === SEED.destinationId)?.url).toBe(
		`${n8n.baseUrl}/${hookPath}`,
	);
	// Both entry points serve the production URL (registration is asynchronous in n8n 2.x).
	for (const base of [n8n.baseUrl, queueInfo().webhookBaseUrl]) {
		await until(`the production webhook on ${base}`, async () => {
			const res = await fetch(`${base}/${hookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
			});
			await res.arrayBuffer();
			return res.status === 404 ? undefined : res.status;
		});
	}
});

test(`${PER_ENTRY_POINT} signed deliveries through main are all acknowledged`, async () => {
	expect(workflowId).toBeDefined();
	await deliverPhase('main');
});

test(`${PER_ENTRY_POINT} signed deliveries through the webhook process are all acknowledged`, async () => {
	expect(workflowId).toBeDefined();
	await setDestinationUrl(`${queueInfo().webhookBaseUrl}/${hookPath}`);
	await deliverPhase('webhook');
});

test('exactly one execution per delivered message id, all success, run by workers, enqueued where the message entered', async () => {
	const delivered = [...phases.main, ...phases.webhook];
	expect(delivered).toHaveLength(2 * PER_ENTRY_POINT);
	const ids = new Set(delivered.map((d) => d.id));
	expect(ids.size).toBe(delivered.length);

	let seen = 'nothing yet';
	await until(
		'every execution to finish',
		async () => {
			const list = (await allExecutions(n8n, workflowId as string)).executions;
			const open = list.filter((e) => !e.stoppedAt);
			seen = `${list.length} executions, ${open.length} not finished (${JSON.stringify(countBy(open.map((e) => String(e.status))))})`;
			return list.length >= ids.size && open.length === 0 ? true : undefined;
		},
		180_000,
		1000,
	).catch((error: Error) => {
		throw new Error(`${error.message}: ${seen}`);
	});
	await sleep(3000); // a duplicate would show up as an extra execution: give it time to
	const { executions, hidden } = await allExecutions(n8n, workflowId as string, true);
	const byMessage = new Map<string, string[]>();
	const withoutMessage: string[] = []; // executions whose trigger output holds no one message
	for (const e of executions) {
		const items = e.data?.resultData?.runData?.[TRIGGER]?.[0]?.data?.main?.[0] ?? [];
		const id = items.length === 1 ? (items[0].json.delivery?.id as string | undefined) : undefined;
		if (!id) {
			withoutMessage.push(
				`${e.id} (${e.status}: ${e.data?.resultData?.error?.message ?? `${items.length} items`})`,
			);
			continue;
		}
		byMessage.set(id, [...(byMessage.get(id) ?? []), String(e.id)]);
	}
	const lost = [...ids].filter((id) => !byMessage.has(id));
	const twice = [...byMessage].filter(([, list]) => list.length > 1);
	const unknown = [...byMessage.keys()].filter((id) => !ids.has(id));
	const statuses = countBy(executions.map((e) => String(e.status)));
	const finished = finishedByWorker();
	const perWorker = countBy(executions.map((e) => finished.get(String(e.id)) ?? 'none'));
	process.stderr.write(
		`[e2e-queue] event trigger: ${ids.size} messages delivered, ${executions.length} executions, lost ${lost.length}, started twice ${twice.length}, statuses ${JSON.stringify(statuses)}, finished per worker ${JSON.stringify(perWorker)}${hidden.length ? `, left out of the API's list (still "active" in n8n's memory): ${hidden.join(', ')}` : ''}\n`,
	);
	expect({ lost, twice, unknown, withoutMessage }).toEqual({
		lost: [],
		twice: [],
		unknown: [],
		withoutMessage: [],
	});
	expect(executions).toHaveLength(ids.size);
	expect(statuses).toEqual({ success: ids.size });
	expect(executions.every((e) => e.mode === 'webhook')).toBe(true);
	expect(perWorker.none).toBeUndefined();

	// Where each message entered: main's or the webhook process's log enqueued its execution.
	const enqueued = { main: enqueuedBy('main'), webhook: enqueuedBy('webhook') };
	for (const phase of ['main', 'webhook'] as const) {
		const executionIds = phases[phase].map((d) => byMessage.get(d.id)?.[0] as string);
		expect(executionIds.filter((id) => !enqueued[phase].has(id))).toEqual([]);
	}
	expect(unrecognizedNodeTypes()).toEqual([]);
});

test('deactivation (run by main) removes the registration and puts the destination URL back', async () => {
	// Back to the URL the trigger registered: it restores a taken-over destination only from its own.
	await setDestinationUrl(`${n8n.baseUrl}/${hookPath}`);
	await n8n.api('POST', `/workflows/${workflowId}/deactivate`);
	await until('the registration to be removed', () =>
		JSON.stringify(registrationState(sim)) === JSON.stringify(seeded) ? true : undefined,
	);
	expect(registrationState(sim)).toEqual(seeded);
});
