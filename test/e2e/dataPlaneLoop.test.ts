/**
 * The data plane end to end in a real n8n 2.41.1, over one simulator whose hosts share one record
 * store: a writer workflow writes three contacts (write host), finds each again by email (search
 * host) and through the provider's own API (proxy host), then triggers a read of `contacts` since
 * just before the write (read host). The triggered read is an operation of the installation: its
 * records go, Svix-signed, to the destination the installation names for `contacts`, which an
 * activated event-trigger workflow owns for the time of the test, and its log entries (and the
 * write's) reach an activated log-trigger workflow (version 2) watching the installation. Polls of
 * the log trigger are forced by deactivating and activating it (docs/n8n-notes.md, "Polling
 * triggers"), as its other e2e tests do. The figures asserted are printed for the record.
 */
import { randomUUID } from 'node:crypto';

import type { Delivery, Sim } from '../harness/eventTriggerSim';
import { registrationState, SEED, signingSecret, startSim, svix } from '../harness/eventTriggerSim';
import {
	n8nClient,
	readExample,
	type ExecutionSummary,
	type N8nClient,
} from '../harness/e2eContext';
import { sleep, until as waitUntil } from '../harness/wait';
import { watchRequests } from '../openapi/contractWatch';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const secretLog = require('../simulator/secretLog') as { secrets: Set<string> };

jest.setTimeout(240_000);

const EVENT_TRIGGER = 'Integration Platform Trigger';
const LOG_TRIGGER = 'Integration Platform Log Trigger';
const PACKAGE = 'n8n-nodes-integration-platform';

type Json = Record<string, any>;
interface LogEntry {
	timestamp: string;
	severity: string;
	message: { msg: string; operation_id?: string };
}
/** The parts of the simulator this file reads besides the event-trigger ones. */
type LoopSim = Sim & {
	state: Sim['state'] & {
		operations: Map<string, Json>;
		logs: Map<string, LogEntry[]>;
		records: Map<string, Map<string, Json>>;
	};
	journal: Sim['journal'] & { find(filter: Json): Array<Json & { time: string }> };
};

const until = <T>(
	what: string,
	probe: () => Promise<T | undefined | false> | T | undefined | false,
	timeoutMs = 30_000,
) => waitUntil(what, probe, timeoutMs, 200);

const log = (label: string, value: unknown) =>
	console.log(`[data-plane loop] ${label}: ${JSON.stringify(value)}`);

let n8n: N8nClient;
let sim: LoopSim;
let credential: { id: string; name: string };
let seeded: ReturnType<typeof registrationState>;
const runTag = randomUUID().slice(0, 8);
const emails = [0, 1, 2].map((i) => `loop-${runTag}-${i}@acme.example`);

const eventWorkflow = { id: '', url: '' };
let logWorkflowId = '';

beforeAll(async () => {
	n8n = n8nClient();
	// n8n listens on http here; the real service (and the simulator's default) want https.
	sim = watchRequests(
		(await startSim({
			httpsWebhooksOnly: false,
			deliveries: { retryDelaysMs: [1000, 2000] },
		})) as LoopSim,
	);
	seeded = registrationState(sim);
	credential = await n8n.createCredential({
		type: 'integrationPlatformApi',
		name: `Simulator API key (data-plane loop ${runTag})`,
		data: {
			apiKey: SEED.apiKey,
			baseUrl: sim.apiUrl,
			readUrl: sim.readUrl,
			writeUrl: sim.writeUrl,
			searchUrl: sim.searchUrl,
			proxyUrl: sim.proxyUrl,
		},
	});
});

afterAll(async () => {
	// Safety net when a test failed half-way: nothing stays active. Workflows are kept
	// (deactivated), as runWorkflow keeps its own, so that the secret scan reads their executions.
	for (const id of [eventWorkflow.id, logWorkflowId].filter(Boolean)) {
		await n8n.api('POST', `/workflows/${id}/deactivate`).catch(() => undefined);
	}
	await sim?.close();
});

const post = async (url: string, headers: Record<string, string>, body: string) => {
	const res = await fetch(url, { method: 'POST', headers, body });
	return { status: res.status, body: await res.text() };
};

/** Finished requests of the operations list: one per poll of a log trigger watching one installation. */
const polls = () =>
	sim.journal.find({ routeId: 'listOperations' }).filter((e) => e.status !== null).length;

/** Trigger output items of every finished execution of a workflow, oldest execution first. */
async function triggerOutputs(workflowId: string, node: string): Promise<Json[][]> {
	const executions = await n8n.executions(workflowId, true);
	return executions
		.filter((e) => e.stoppedAt)
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((e) =>
			(e.data?.resultData?.runData?.[node]?.[0]?.data?.main?.[0] ?? []).map(
				(i: { json: Json }) => i.json,
			),
		);
}

function rl(value: string, mode = 'id') {
	return { __rl: true, mode, value };
}

const nodeBase = (name: string, x: number, y = 0) => ({
	id: randomUUID(),
	name,
	typeVersion: 1,
	position: [x, y],
});

/** The writer: contacts → Write → (Search each, Get each through the proxy, Trigger Read once). */
function writerWorkflow(since: string) {
	const target = {
		project: rl(SEED.projectName, 'name'),
		integration: rl(SEED.integrationId),
		groupRef: rl(SEED.groupRef),
		object: rl('contacts'),
	};
	const action = (name: string, x: number, y: number, parameters: Json, extra: Json = {}) => ({
		...nodeBase(name, x, y),
		type: `${PACKAGE}.integrationPlatform`,
		parameters,
		credentials: { integrationPlatformApi: { id: credential.id, name: credential.name } },
		...extra,
	});
	const contacts = emails.map((email, i) => ({
		email,
		firstname: ['Grace', 'Alan', 'Edsger'][i],
		lastname: `Loop ${runTag}`,
	}));
	return {
		name: `data-plane loop writer ${runTag}`,
		nodes: [
			{ ...nodeBase('Start', 0), type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{
				...nodeBase('Contacts', 220),
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: {
					jsCode: `return ${JSON.stringify(contacts)}.map((json) => ({ json }));`,
				},
			},
			action('Write contacts', 440, 0, {
				resource: 'records',
				operation: 'write',
				...target,
				writeType: 'create',
			}),
			action('Search each', 660, -200, {
				resource: 'records',
				operation: 'search',
				...target,
				fieldFilters: {
					filter: [{ fieldName: 'email', value: "={{ $('Contacts').item.json.email }}" }],
				},
			}),
			action('Get each through the proxy', 660, 0, {
				resource: 'providerApi',
				operation: 'sendRequest',
				project: rl(SEED.projectId),
				integration: rl(SEED.integrationId),
				installation: rl(SEED.installationId),
				proxyMethod: 'GET',
				proxyPath: '=crm/v3/objects/contacts/{{ $json.recordId }}',
			}),
			action(
				'Trigger read',
				660,
				200,
				{
					resource: 'records',
					operation: 'triggerRead',
					...target,
					readOptions: { since },
				},
				// One read for the group, not one per written record.
				{ executeOnce: true },
			),
		],
		connections: {
			Start: { main: [[{ node: 'Contacts', type: 'main', index: 0 }]] },
			Contacts: { main: [[{ node: 'Write contacts', type: 'main', index: 0 }]] },
			'Write contacts': {
				main: [
					[
						{ node: 'Search each', type: 'main', index: 0 },
						{ node: 'Get each through the proxy', type: 'main', index: 0 },
						{ node: 'Trigger read', type: 'main', index: 0 },
					],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

describe('write, search, proxy, triggered read: delivered to the event trigger, logged to the log trigger', () => {
	let secret: string;
	let writer: ExecutionSummary;
	let written: Array<{ email: string; recordId: string; operationId: string }>;
	let readOperationId: string;
	let triggerReadAt: number;
	let pollsBeforeWriter: number;

	test('the event trigger takes over the destination contacts are read to, and is registered', async () => {
		// The installation names this destination for contacts (config first, then the manifest).
		const installation = (sim.state as unknown as { installations: Map<string, Json> })
			.installations;
		const config = installation.get(SEED.installationId)!.config.content;
		expect(config.read.objects.contacts.destination).toBe(SEED.destinationName);

		const example = readExample('event-trigger.json');
		const webhookId = randomUUID();
		example.name = `data-plane loop event trigger ${runTag}`;
		const trigger = example.nodes.find((n: { name: string }) => n.name === EVENT_TRIGGER);
		trigger.webhookId = webhookId;
		Object.assign(trigger.parameters, {
			destinationName: SEED.destinationName,
			onExistingDestination: 'takeOver',
			events: ['read', 'notification'],
			notificationTypes: ['read.triggered.done'],
			output: 'record',
		});
		eventWorkflow.id = (
			await n8n.createWorkflow(example, { integrationPlatformApi: credential })
		).id;
		eventWorkflow.url = `${n8n.baseUrl}/webhook/${webhookId}/webhook`;
		await n8n.api('POST', `/workflows/${eventWorkflow.id}/activate`);
		await until('the registration', () => {
			const state = registrationState(sim);
			const topic = state.topics.find((t) => t.name === SEED.destinationName);
			return topic && state.topicDestinationRoutes.some((r) => r.topicId === topic.id);
		});
		const state = registrationState(sim);
		expect(state.destinations.find((d) => d.id === SEED.destinationId)?.url).toBe(
			eventWorkflow.url,
		);
		const topic = state.topics.find((t) => t.name === SEED.destinationName)!;
		expect(
			state.eventTopicRoutes.filter((r) => r.topicId === topic.id).map((r) => r.eventType),
		).toEqual(['read.triggered.done']);
		secret = await signingSecret(sim, SEED.destinationName);
		// Unsigned probes until n8n serves the production URL: each is refused (401), none starts a run.
		await until('the production webhook', async () =>
			(await post(eventWorkflow.url, {}, '{}')).status === 404 ? undefined : true,
		);
	});

	test('the log trigger (version 2) watches the installation: activation polls and persists its start', async () => {
		const example = readExample('log-trigger-installation.json');
		example.name = `data-plane loop log trigger ${runTag}`;
		const trigger = example.nodes.find((n: { name: string }) => n.name === LOG_TRIGGER);
		expect(trigger.typeVersion).toBe(2);
		expect(trigger.parameters).toMatchObject({
			watch: 'installation',
			installation: { value: SEED.installationId },
		});
		logWorkflowId = (await n8n.createWorkflow(example, { integrationPlatformApi: credential })).id;
		const before = polls();
		await n8n.api('POST', `/workflows/${logWorkflowId}/activate`);
		await until('the activation poll', () => polls() > before);
		const discovery = await until('the persisted discovery state', async () => {
			const workflow = await n8n.api('GET', `/workflows/${logWorkflowId}`);
			return workflow.staticData?.[`node:${LOG_TRIGGER}`]?.discovery;
		});
		expect(discovery).toMatchObject({ v: 1, s: expect.any(String) });
		pollsBeforeWriter = polls();
		await sleep(1000);
		expect(await n8n.executions(logWorkflowId)).toEqual([]);
	});

	test('the writer writes 3 contacts, finds each by search and through the proxy, and triggers one read', async () => {
		// The read window starts just before the write: only this run's records fall in it.
		const since = new Date(Date.now() - 1000).toISOString();
		writer = await n8n.runWorkflow(writerWorkflow(since), { integrationPlatformApi: credential });
		expect({ status: writer.status, error: writer.error?.message }).toEqual({
			status: 'success',
			error: undefined,
		});

		// Write: one result per input item, in order, paired to it, each with a new record ID.
		const writeRun = writer.runData['Write contacts'][0] as unknown as {
			data: { main: Array<Array<{ json: Json; pairedItem: unknown }>> };
		};
		const writeItems = writeRun.data.main[0];
		expect(writeItems).toHaveLength(3);
		expect(writeItems.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const item of writeItems) {
			expect(item.json).toEqual({
				success: true,
				recordId: expect.stringMatching(/^\d+$/),
				operationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
			});
		}
		written = writeItems.map((item, i) => ({
			email: emails[i],
			recordId: item.json.recordId as string,
			operationId: item.json.operationId as string,
		}));
		expect(new Set(written.map((w) => w.recordId)).size).toBe(3);
		// Three records of one request: one batch, so one write operation.
		expect(new Set(written.map((w) => w.operationId)).size).toBe(1);
		// The record store holds them under the installation, with the fields written.
		const stored = sim.state.records.get(`${SEED.installationId}/contacts`)!;
		expect(written.map((w) => stored.get(w.recordId)?.fields.email)).toEqual(emails);

		// Search (another host, same store): item i finds exactly the record written for item i.
		const found = writer.output('Search each') as Json[];
		expect(found).toHaveLength(3);
		expect(found.map((r) => [r.fields.email, String(r.raw.id)])).toEqual(
			written.map((w) => [w.email, w.recordId]),
		);
		// The provider's own API through the proxy: the same records, HubSpot-shaped.
		const viaProxy = writer.output('Get each through the proxy') as Json[];
		expect(viaProxy.map((r) => [r.properties?.email, String(r.id)])).toEqual(
			written.map((w) => [w.email, w.recordId]),
		);

		// Trigger Read, executed once: one operation.
		const read = writer.output('Trigger read');
		expect(read).toEqual([{ operationId: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
		readOperationId = read[0].operationId as string;
		const triggerReads = sim.journal.find({ routeId: 'triggerRead' });
		expect(triggerReads).toHaveLength(1);
		expect(JSON.parse(JSON.stringify(triggerReads[0].body))).toMatchObject({
			groupRef: SEED.groupRef,
			mode: 'async',
			sinceTimestamp: since,
		});
		triggerReadAt = Date.parse(triggerReads[0].time);
		log('records written', written);
		log('write operation', written[0].operationId);
		log('triggered read operation', readOperationId);
	});

	test('the read delivers the 3 records, Svix-signed, to the event trigger, which verifies them and starts one run', async () => {
		const delivery: Delivery = await sim.deliveries.waitFor(
			(d) =>
				d.kind === 'read' &&
				(d.payload as Json).operationId === readOperationId &&
				d.state !== 'pending',
			60_000,
		);
		expect(delivery).toMatchObject({
			destinationName: SEED.destinationName,
			state: 'delivered',
			attempts: [expect.objectContaining({ url: eventWorkflow.url, status: 200 })],
		});
		const payload = delivery.payload as Json;
		expect(payload).toMatchObject({
			action: 'read',
			readType: 'triggered',
			installationId: SEED.installationId,
			groupRef: SEED.groupRef,
			objectName: 'contacts',
			resultInfo: { type: 'inline', numRecords: 3 },
		});
		// Signed with the destination's signing secret, which the simulator's secret log holds (so
		// the suite's secret scan looks for it in n8n's logs and executions).
		const attempt = delivery.attempts[0];
		expect(secretLog.secrets.has(secret)).toBe(true);

		const runs = await until(
			'the event-trigger runs of the read and its notification',
			async () => {
				const outputs = await triggerOutputs(eventWorkflow.id, EVENT_TRIGGER);
				return outputs.length >= 2 ? outputs : undefined;
			},
		);
		const records = runs.find((items) => items[0]?.event === 'read')!;
		expect(records.map((r) => r.fields.email)).toEqual(emails);
		expect(records.map((r) => String(r.raw.id))).toEqual(written.map((w) => w.recordId));
		for (const record of records) {
			expect(record.message).toMatchObject({
				action: 'read',
				readType: 'triggered',
				operationId: readOperationId,
			});
			expect(record.delivery).toMatchObject({
				id: delivery.id,
				verified: true,
				timestamp: new Date(attempt.timestamp * 1000).toISOString(),
				headers: { 'svix-id': delivery.id, 'svix-timestamp': String(attempt.timestamp) },
			});
		}
		// The read's end, as a notification through the topic the trigger registered.
		const done = runs.find((items) => items[0]?.event === 'read.triggered.done')!;
		expect(done).toEqual([
			expect.objectContaining({
				notificationType: 'read.triggered.done',
				data: expect.objectContaining({
					installationId: SEED.installationId,
					objectName: 'contacts',
				}),
				delivery: expect.objectContaining({ verified: true }),
			}),
		]);

		// Verification is on in this workflow: the same body under a forged signature is refused
		// and starts nothing.
		const forged = await post(
			eventWorkflow.url,
			{
				'content-type': 'application/json',
				...svix.signedHeaders({
					secrets: `whsec_${Buffer.alloc(24, 5).toString('base64')}`,
					msgId: svix.newMessageId(),
					body: delivery.body,
				}),
			},
			delivery.body,
		);
		expect(forged.status).toBe(401);
		await sleep(1000);
		expect(await n8n.executions(eventWorkflow.id)).toHaveLength(2);
		expect(JSON.stringify(runs)).not.toContain(secret);

		const received = Date.parse(records[0].delivery.receivedAt);
		log(
			'records received by the event trigger',
			records.map((r) => r.fields.email),
		);
		log('delivery', {
			id: delivery.id,
			attempts: delivery.attempts.map((a) => a.status),
			postMs: attempt.durationMs,
			triggerReadToReceivedMs: received - triggerReadAt,
		});
		log('forged redelivery status', forged.status);
	});

	test('the log trigger reports the entries of the read operation and of the write operation, once each', async () => {
		const readOperation = await until('the read operation to finish', () => {
			const op = sim.state.operations.get(readOperationId);
			return op && op.status !== 'in_progress' ? op : undefined;
		});
		expect(readOperation).toMatchObject({
			actionType: 'read',
			status: 'success',
			installationId: SEED.installationId,
			result: '[contacts] Read 3 records',
		});
		const writeOperationId = written[0].operationId;
		expect(sim.state.operations.get(writeOperationId)).toMatchObject({
			actionType: 'write',
			installationId: SEED.installationId,
		});
		const expected = {
			[readOperationId]: sim.state.logs.get(readOperationId)!.map((e) => e.message.msg),
			[writeOperationId]: sim.state.logs.get(writeOperationId)!.map((e) => e.message.msg),
		};
		expect(expected[readOperationId]).toEqual([
			'Triggered read started',
			'Read records',
			'Delivered records to destination',
			'Read finished',
		]);
		expect(expected[writeOperationId].length).toBeGreaterThan(0);

		// Force polls (deactivate, activate) until both operations' entries have come out; the
		// minute schedule may add a poll of its own.
		const seen = async () => {
			const items = (await triggerOutputs(logWorkflowId, LOG_TRIGGER)).flat();
			const byOperation: Record<string, string[]> = {};
			for (const item of items) (byOperation[item.operationId] ??= []).push(item.message.msg);
			return { items, byOperation };
		};
		const startedAt = Date.now();
		let forced = 0;
		let result = await seen();
		while (
			Object.entries(expected).some(
				([id, msgs]) => (result.byOperation[id]?.length ?? 0) < msgs.length,
			)
		) {
			if (forced >= 5) break;
			await n8n.api('POST', `/workflows/${logWorkflowId}/deactivate`);
			const before = polls();
			await n8n.api('POST', `/workflows/${logWorkflowId}/activate`);
			forced++;
			await until('a poll', () => polls() > before);
			result = await until(
				'the log-trigger executions to settle',
				async () => {
					const executions = await n8n.executions(logWorkflowId);
					return executions.every((e) => e.stoppedAt) ? await seen() : undefined;
				},
				60_000,
			).catch(() => result);
			await sleep(1500);
			result = await seen();
		}
		// Each operation's entries exactly once, in order.
		expect(result.byOperation[readOperationId]).toEqual(expected[readOperationId]);
		expect(result.byOperation[writeOperationId]).toEqual(expected[writeOperationId]);
		const readEntries = result.items.filter((i) => i.operationId === readOperationId);
		for (const entry of readEntries) {
			expect(entry).toMatchObject({
				installationId: SEED.installationId,
				projectId: SEED.projectId,
				severity: 'INFO',
			});
		}
		const delivered = readEntries.find((e) => e.message.msg === 'Delivered records to destination');
		const deliveryId = sim.deliveries
			.list({ kind: 'read' })
			.find((d) => (d.payload as Json).operationId === readOperationId)!.id;
		expect(delivered?.message.details).toMatchObject({
			destination: SEED.destinationName,
			records: '3',
			messageId: deliveryId,
		});
		const executions = (await n8n.executions(logWorkflowId)).filter((e) => e.stoppedAt);
		expect(executions.every((e) => e.status === 'success')).toBe(true);
		log('log trigger', {
			pollsTotal: polls(),
			pollsSinceWriter: polls() - pollsBeforeWriter,
			forcedPolls: forced,
			executions: executions.length,
			entries: Object.fromEntries(
				Object.entries(result.byOperation).map(([id, msgs]) => [id, msgs.length]),
			),
			msFromFirstForcedPollToEntries: Date.now() - startedAt,
		});
	});

	test('deactivation leaves the service as seeded: the trigger removes only what it created', async () => {
		await n8n.api('POST', `/workflows/${logWorkflowId}/deactivate`);
		await n8n.api('POST', `/workflows/${eventWorkflow.id}/deactivate`);
		await until('the registration to be removed', () =>
			JSON.stringify(registrationState(sim)) === JSON.stringify(seeded) ? true : undefined,
		);
		expect(registrationState(sim)).toEqual(seeded);
		const workflows = await Promise.all(
			[logWorkflowId, eventWorkflow.id].map((id) => n8n.api('GET', `/workflows/${id}`)),
		);
		expect(workflows.map((w) => w.active)).toEqual([false, false]);
		// Nothing listens any more.
		const body = JSON.stringify({ notificationType: 'connection.created', data: {} });
		const headers = {
			'content-type': 'application/json',
			...svix.signedHeaders({ secrets: secret, msgId: svix.newMessageId(), body }),
		};
		expect((await post(eventWorkflow.url, headers, body)).status).toBe(404);
	});
});
