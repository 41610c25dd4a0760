/**
 * Injected faults on EVERY route the action node uses (each operation's own route, read from the
 * node's description by operationTable.ts, plus the lookups it makes in code), for every kind of
 * fault the simulator can inject, under the retry policy of README.md, "Errors and retries":
 *
 * - 500, 502, 503 and 429 without a retry time, a timeout (hang + a short Request Options
 *   timeout), a connection reset and a malformed JSON answer fail the item at once with a clear,
 *   specific message (what happened, status and request ID) and a description that says what to do;
 *   the node does not retry them itself;
 * - 429 and 503 with a retry time (Retry-After, or the problem document's retryAfter) are retried
 *   by the node, at most twice, and succeed when the fault is transient; still limited after two
 *   retries, the item fails with the 429;
 * - with n8n's Retry On Fail, every transient fault above is overcome;
 * - with Continue On Fail, the failed item becomes an error item and the other item still runs;
 * - except Record → Write after a fault that leaves the write's outcome unknown (5xx, no answer,
 *   an unreadable success): the item "may have been written", nothing advises retrying, and
 *   Retry On Fail does not send it again (docs/architecture.md, "Record → Write: each record at
 *   most once").
 *
 * Targets run side by side, one simulator each, so that the timeouts overlap.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	run,
	SEED,
	startSimulator,
	type JournalEntry,
	type OperationRun,
	type Simulator,
} from '../../harness/actionEngine';
import { timedOutRequests } from '../../harness/hangs';
import { allOperations, outputsByInput, type OperationSpec } from '../../harness/operationTable';

jest.setTimeout(120_000);

/**
 * Node timeout of every case (Settings → Request Options → Timeout): long enough that a request
 * answered on a loaded machine never turns into a timeout the case did not inject. The request a
 * hang fault leaves unanswered times out at once all the same: the harness fires that request's
 * own timeout when the simulator says it hangs it (test/harness/hangs.ts), and each hung request
 * must have had this timeout, so it is the node's timeout that ended it.
 */
const TIMEOUT_MS = 30_000;
const LANES = 4;

// ---------------------------------------------------------------------------------------------
// Targets: one per route the node uses

interface Target {
	name: string;
	op: OperationSpec;
	parameters: INodeParameters;
	/** The route the fault is injected on. */
	route: string;
	/** The answer a fault-free request to that route gets. */
	okStatus?: number;
}

const OPERATIONS = allOperations();
const targets: Target[] = OPERATIONS.map((op) => ({
	name: op.label,
	op,
	parameters: op.variants[0].parameters,
	route: op.routeId,
}));
const revision = OPERATIONS.find((op) => op.key === 'revision.getHydrated')!;
targets.push({
	name: 'Revision → Get Hydrated, looking up the latest revision',
	op: revision,
	parameters: { ...revision.variants[0].parameters, revision: '' },
	route: 'getIntegration',
});

// ---------------------------------------------------------------------------------------------
// Fault kinds

interface Failing {
	kind: string;
	rule: IDataObject;
	/** Requests the node makes to the faulted route before giving up. */
	attempts: number;
	message: RegExp;
	description: RegExp;
	httpCode?: string;
	/** Whether the simulator runs the request before answering badly (the work is done). */
	executes?: boolean;
	/** Whether n8n's Retry On Fail applies (not for a rate limit the node already retried). */
	retryOnFail: boolean;
}

const HTTP_TRAILER = '\\[HTTP (\\d{3}), request [0-9a-f-]{36}\\]$';
const FAILING: Failing[] = [
	{
		kind: '500',
		rule: { status: 500 },
		attempts: 1,
		message: new RegExp(`^Internal Server Error: .*${HTTP_TRAILER}`),
		description:
			/What to do: The service failed; retrying later may help \(Settings → Retry On Fail\)/,
		httpCode: '500',
		retryOnFail: true,
	},
	{
		kind: '502',
		rule: { status: 502 },
		attempts: 1,
		message: new RegExp(`^Bad Gateway: .*${HTTP_TRAILER}`),
		description:
			/What to do: A gateway in front of the service failed; retrying later may help \(Settings → Retry On Fail\)/,
		httpCode: '502',
		retryOnFail: true,
	},
	{
		kind: '503 without a retry time',
		rule: { status: 503 },
		attempts: 1,
		message: new RegExp(
			`^Service Unavailable: The service is temporarily unavailable ${HTTP_TRAILER}`,
		),
		description:
			/What to do: The service is temporarily unavailable; retrying later may help \(Settings → Retry On Fail\)/,
		httpCode: '503',
		retryOnFail: true,
	},
	{
		kind: '429 without a retry time',
		rule: { status: 429, body: { title: 'Too Many Requests', status: 429, detail: 'Slow down' } },
		attempts: 1,
		message: new RegExp(`^Too Many Requests: Slow down ${HTTP_TRAILER}`),
		description:
			/What to do: The service is rate limiting requests: wait and retry, or space items out with Options → Batching/,
		httpCode: '429',
		retryOnFail: true,
	},
	{
		kind: '429 with Retry-After, still limited after the two retries',
		rule: { status: 429, retryAfterSeconds: 0 },
		attempts: 3,
		message: new RegExp(`^Too Many Requests: .*${HTTP_TRAILER}`),
		description: /The service asks to retry after 0 s\./,
		httpCode: '429',
		retryOnFail: false,
	},
	{
		kind: 'timeout',
		rule: { hang: true },
		attempts: 1,
		message: /^The Integration Platform API at 127\.0\.0\.1:\d+ did not answer in time$/,
		description:
			/^Network error (ETIMEDOUT|ECONNABORTED)\b.*\nCheck the base URL in the credential and that the service is reachable from n8n; retrying later may help \(Settings → Retry On Fail\)\.$/,
		retryOnFail: true,
	},
	{
		kind: 'connection reset',
		rule: { reset: true },
		attempts: 1,
		message:
			/^The Integration Platform API at 127\.0\.0\.1:\d+ closed the connection before answering$/,
		description:
			/^Network error ECONNRESET\b.*\n.*retrying later may help \(Settings → Retry On Fail\)\.$/,
		retryOnFail: true,
	},
	{
		kind: 'malformed JSON',
		rule: { malformed: true },
		attempts: 1,
		message: /^The service answered HTTP 200 with a body that is not valid JSON$/,
		description:
			/^First bytes: ".+"\. This is a fault of the service or of a proxy in between; retrying later may help/,
		executes: true,
		retryOnFail: true,
	},
];

/** Faults after which a write may have happened: Record → Write cannot say it did not. */
const UNKNOWN_OUTCOME = new Set([
	'500',
	'502',
	'503 without a retry time',
	'timeout',
	'connection reset',
	'malformed JSON',
]);
const outcomeUnknown = (c: Case) =>
	c.target.route === 'writeRecords' &&
	c.failing !== undefined &&
	UNKNOWN_OUTCOME.has(c.failing.kind);

/** What the case's failed item must say. */
function expectedFailure(c: Case): Failing {
	if (!outcomeUnknown(c)) return c.failing!;
	return {
		...c.failing!,
		message: /^The record may have been written: ./,
		// Which items, how to find out, and no advice to retry.
		description:
			/^(?![\s\S]*retrying later may help)The 1 record\(s\) of this request \(input item 0\) may have been written/,
		httpCode: undefined,
	};
}

interface Transient {
	kind: string;
	rule: () => IDataObject;
	status: number;
}

const problem = (status: number) => ({
	title: status === 429 ? 'Too Many Requests' : 'Service Unavailable',
	status,
	retryable: true,
	// Already due: the node waits 0 s (a wait is covered in retries.test.ts).
	retryAfter: new Date(Date.now() - 1000).toISOString(),
});
const TRANSIENT: Transient[] = [
	{
		kind: '429 with Retry-After',
		rule: () => ({ status: 429, retryAfterSeconds: 0 }),
		status: 429,
	},
	{
		kind: '503 with Retry-After',
		rule: () => ({ status: 503, retryAfterSeconds: 0 }),
		status: 503,
	},
	{
		kind: "429 with the problem document's retryAfter (no header)",
		rule: () => ({ status: 429, body: problem(429) }),
		status: 429,
	},
	{
		kind: "503 with the problem document's retryAfter (no header)",
		rule: () => ({ status: 503, body: problem(503) }),
		status: 503,
	},
];

// ---------------------------------------------------------------------------------------------
// Cases

type Mode = 'fails' | 'node retries' | 'Retry On Fail' | 'Continue On Fail';

interface Case {
	id: number;
	target: Target;
	mode: Mode;
	kind: string;
	failing?: Failing;
	transient?: Transient;
}

let nextId = 0;
const CASES: Case[] = targets.flatMap((target) =>
	[
		...FAILING.map((failing) => ({ mode: 'fails' as const, failing, kind: failing.kind })),
		...TRANSIENT.map((transient) => ({
			mode: 'node retries' as const,
			transient,
			kind: transient.kind,
		})),
		...FAILING.filter((f) => f.retryOnFail).map((failing) => ({
			mode: 'Retry On Fail' as const,
			failing,
			kind: failing.kind,
		})),
		...FAILING.map((failing) => ({
			mode: 'Continue On Fail' as const,
			failing,
			kind: failing.kind,
		})),
	].map((c) => ({ id: nextId++, target, ...c })),
);

interface Result extends Partial<OperationRun> {
	thrown?: Error;
	/** Requests to the faulted route, in order. */
	atRoute: JournalEntry[];
	elapsedMs: number;
	/** The timeout each request the simulator hung had (the harness fired it). */
	hungTimeouts: Array<number | undefined>;
}

const results = new Map<number, Result>();

function ruleFor(c: Case): IDataObject {
	const base = c.failing ? c.failing.rule : c.transient!.rule();
	// Transient faults hit the first request only; a rate limit the node retries hits each of
	// its attempts.
	const times = c.mode === 'fails' ? {} : { times: c.failing?.attempts ?? 1 };
	// With Continue On Fail, a fault the node retries is aimed at the SECOND item: n8n's batching
	// starts item 2 an interval after item 1 without waiting for it, so on a loaded machine item
	// 2's request could land between item 1's retries and take one of the faults. Letting the
	// first request (item 1's) through and faulting every later one does not depend on timing.
	const skip = c.mode === 'Continue On Fail' && failsLater(c) ? { skip: 1 } : {};
	return { route: c.target.route, ...base, ...times, ...skip };
}

async function runCase(sim: Simulator, c: Case): Promise<void> {
	sim.reset();
	sim.faults.add(ruleFor(c));
	const requestOptions: IDataObject = { timeout: TIMEOUT_MS };
	const options: Parameters<typeof run>[2] = {};
	if (c.mode === 'Retry On Fail') {
		// n8n reads 0 as "not set" and waits 1000 ms (WorkflowExecute.getRetryParams); 1 ms it is.
		options.nodeSettings = { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 };
	}
	if (c.mode === 'Continue On Fail') {
		options.continueOnFail = true;
		options.items = [{ item: 1 }, { item: 2 }];
		// One item after the other (the check does not depend on which arrives first).
		requestOptions.batching = { batch: { batchSize: 1, batchInterval: 40 } };
	}
	const started = Date.now();
	const hungBefore = timedOutRequests(sim).length;
	const hungTimeouts = () =>
		timedOutRequests(sim)
			.slice(hungBefore)
			.map((r) => r.timeoutMs);
	try {
		const parameters = { ...c.target.parameters, requestOptions } as INodeParameters;
		const result = await run(sim, parameters, options);
		results.set(c.id, {
			...result,
			atRoute: result.requests.filter((e) => e.routeId === c.target.route),
			elapsedMs: Date.now() - started,
			hungTimeouts: hungTimeouts(),
		});
	} catch (error) {
		results.set(c.id, {
			thrown: error as Error,
			atRoute: sim.journal.entries.filter((e) => e.routeId === c.target.route),
			elapsedMs: Date.now() - started,
			hungTimeouts: hungTimeouts(),
		});
	}
}

// ---------------------------------------------------------------------------------------------
// Checks

type NodeError = Error & { description?: string; httpCode?: string };

const isOk = (status: number | null) => status !== null && status >= 200 && status < 300;

function errorProblems(error: NodeError | undefined, failing: Failing): string[] {
	if (!error) return ['no error'];
	const problems: string[] = [];
	if (!['NodeApiError', 'NodeOperationError'].includes(error.name)) {
		problems.push(`error type ${error.name}`);
	}
	if (!failing.message.test(error.message)) {
		problems.push(`message ${JSON.stringify(error.message)} does not match ${failing.message}`);
	}
	if (!failing.description.test(error.description ?? '')) {
		problems.push(
			`description ${JSON.stringify(error.description)} does not match ${failing.description}`,
		);
	}
	if (failing.httpCode && error.httpCode !== failing.httpCode) {
		problems.push(`httpCode ${error.httpCode}, expected ${failing.httpCode}`);
	}
	const everything = JSON.stringify(error, Object.getOwnPropertyNames(error));
	if (everything.includes(SEED.apiKey) || everything.includes(SEED.bearerToken)) {
		problems.push('the credential appears in the error');
	}
	return problems;
}

/** Output items of a successful run: present, and none of them an error. */
function successProblems(result: Result): string[] {
	if (result.thrown) return [`thrown: ${result.thrown.message}`];
	if (result.error) return [`failed: ${result.error.message}`];
	const failed = (result.items ?? []).filter((i) => i.error);
	if (failed.length) return [`error items: ${failed.map((i) => i.error!.message).join('; ')}`];
	return [];
}

/** Whether the case's fault is retried by the node, so that it fails the second item (ruleFor). */
const failsLater = (c: Case) => (c.failing?.attempts ?? 1) > 1;

/** Whether doing the request twice gives the same answer (not a create or a delete). */
const repeatable = (c: Case) => !['POST', 'DELETE'].includes(c.target.op.method);

function problemsOf(c: Case): string[] {
	const result = results.get(c.id);
	if (!result) return ['not run'];
	const statuses = result.atRoute.map((e) => e.status);
	const problems: string[] = [];
	// A hang is ended by the node's own timeout, however soon the harness fires it.
	if (c.failing?.rule.hang === true) {
		if (result.hungTimeouts.length === 0) problems.push('no request was hung');
		if (result.hungTimeouts.some((t) => t !== TIMEOUT_MS))
			problems.push(`hung requests' timeouts ${JSON.stringify(result.hungTimeouts)}`);
	}
	switch (c.mode) {
		case 'fails': {
			if (result.thrown) return [`thrown: ${result.thrown.message}`];
			problems.push(...errorProblems(result.error as NodeError, expectedFailure(c)));
			if (result.atRoute.length !== c.failing!.attempts) {
				problems.push(
					`${result.atRoute.length} requests to ${c.target.route}, expected ${c.failing!.attempts} (statuses ${JSON.stringify(statuses)})`,
				);
			}
			break;
		}
		case 'node retries':
			problems.push(...successProblems(result));
			if (statuses.length !== 2 || statuses[0] !== c.transient!.status || !isOk(statuses[1])) {
				problems.push(`statuses at ${c.target.route}: ${JSON.stringify(statuses)}`);
			}
			break;
		case 'Retry On Fail': {
			if (outcomeUnknown(c)) {
				// The retry does not send what may have been written: one request, the same error.
				if (statuses.length !== 1) {
					problems.push(`statuses at ${c.target.route}: ${JSON.stringify(statuses)}`);
				}
				problems.push(...errorProblems(result.error as NodeError, expectedFailure(c)));
				break;
			}
			if (statuses.length !== 2) {
				problems.push(`statuses at ${c.target.route}: ${JSON.stringify(statuses)}`);
			}
			// After a malformed answer the work was done: repeating a create or a delete meets it
			// (409, 404), and the service says so clearly.
			if (c.failing!.executes && !repeatable(c) && result.error) {
				// addUserToOrg says so with a 400 "Membership already exists" (docs/api-notes.md,
				// "Organizations and builders").
				const alreadyDone =
					/\[HTTP (404|409), request/.test(result.error.message) ||
					/already exists.*\[HTTP 400, request/.test(result.error.message);
				if (!alreadyDone) {
					problems.push(`the retry failed unclearly: ${result.error.message}`);
				}
				break;
			}
			problems.push(...successProblems(result));
			if (!isOk(statuses[1]))
				problems.push(`statuses at ${c.target.route}: ${JSON.stringify(statuses)}`);
			break;
		}
		case 'Continue On Fail': {
			if (result.thrown) return [`thrown: ${result.thrown.message}`];
			if (result.error) return [`the node failed: ${result.error.message}`];
			const outputs = outputsByInput(result.items ?? [], 2);
			const errorOf = (item: number) =>
				outputs[item - 1].find((i) => i.error)?.error as NodeError | undefined;
			// The faulted item, and the one that must still run. ruleFor faults the first requests
			// (or all but the first), so the item whose requests reached the route first is
			// normally item 1; but n8n starts item 2 an interval after item 1 without waiting for
			// it, so on a slow machine their requests may arrive the other way round. The faulted
			// item is therefore the one that failed as the fault says, whichever it is.
			const byOrder: [number, number] = failsLater(c) ? [2, 1] : [1, 2];
			const matching = [1, 2].filter(
				(item) => errorProblems(errorOf(item), expectedFailure(c)).length === 0,
			);
			const [failed, other] = matching.length === 1 ? [matching[0], 3 - matching[0]] : byOrder;
			problems.push(
				...errorProblems(errorOf(failed), expectedFailure(c)).map((p) => `item ${failed}: ${p}`),
			);
			const otherError = errorOf(other);
			// After a fault that let the request run (malformed answer), repeating a create or a
			// delete meets what the first request did: the service may say so, clearly.
			if (otherError && (c.failing!.executes !== true || repeatable(c))) {
				problems.push(`item ${other} failed: ${otherError.message}`);
			}
			if (otherError && !/\[HTTP \d{3}, request/.test(otherError.message)) {
				problems.push(`item ${other} failed unclearly: ${otherError.message}`);
			}
			if (!otherError && outputs[other - 1].length === 0 && !c.target.op.key.endsWith('getAll')) {
				problems.push(`item ${other} has no output`);
			}
			const reached = result.atRoute.filter((e) => (e as { fault?: string }).fault === undefined);
			if (reached.length < 1) problems.push(`item ${other} never reached ${c.target.route}`);
			break;
		}
	}
	return problems;
}

// ---------------------------------------------------------------------------------------------
// The tests

const sims: Simulator[] = [];

beforeAll(async () => {
	for (let i = 0; i < LANES; i++) sims.push(await startSimulator());
	const queue = [...targets];
	await Promise.all(
		sims.map(async (sim) => {
			for (let target = queue.shift(); target; target = queue.shift()) {
				for (const c of CASES.filter((x) => x.target === target)) await runCase(sim, c);
			}
		}),
	);
	// Every case runs here (about 2,400 runs of the node); each test below only reads its result.
}, 600_000);
afterAll(async () => {
	for (const sim of sims) await sim.close();
});

test(`${CASES.length} fault cases over ${targets.length} targets (${new Set(targets.map((t) => t.route)).size} routes)`, () => {
	const routes = [...new Set(targets.map((t) => t.route))];
	console.log(
		`Faults: ${CASES.length} cases — ${FAILING.length} failing kinds, ${TRANSIENT.length} transient kinds with a retry time, Retry On Fail and Continue On Fail — over ${targets.length} targets and ${routes.length} routes: ${routes.join(', ')}`,
	);
	// Every route an operation uses is a target.
	for (const op of OPERATIONS) expect(routes).toContain(op.routeId);
	expect(CASES.length).toBeGreaterThanOrEqual(400);
});

describe.each(targets.map((t) => [t.name, t] as const))('%s', (_name, target) => {
	test.each(
		CASES.filter((c) => c.target === target).map((c) => [`${c.mode}: ${c.kind}`, c] as const),
	)('%s', (_label, c) => {
		expect(problemsOf(c)).toEqual([]);
	});
});

describe('Integration → Create: the lookup after the create', () => {
	const integration = OPERATIONS.find((op) => op.key === 'integration.create')!;
	const parameters: INodeParameters = {
		...integration.variants[0].parameters,
		requestOptions: { timeout: TIMEOUT_MS },
	};
	let sim: Simulator;
	beforeAll(async () => (sim = await startSimulator()));
	afterAll(async () => await sim.close());

	test.each(FAILING.map((f) => [f.kind, f] as const))(
		'%s on the lookup: the create still succeeded, and the item says so',
		async (_kind, failing) => {
			sim.reset();
			sim.faults.add({ route: 'getIntegration', ...failing.rule });
			const result = await run(sim, parameters);
			expect(result.error).toBeUndefined();
			expect(result.requests.find((e) => e.routeId === 'createIntegration')?.status).toBe(201);
			expect(result.json).toEqual([
				{ created: true, name: parameters.name, provider: parameters.provider },
			]);
		},
	);

	test.each(TRANSIENT.map((t) => [t.kind, t] as const))(
		'%s on the lookup: retried, the item is the created integration',
		async (_kind, transient) => {
			sim.reset();
			sim.faults.add({ route: 'getIntegration', ...transient.rule(), times: 1 });
			const result = await run(sim, parameters);
			expect(result.error).toBeUndefined();
			expect(
				result.requests.filter((e) => e.routeId === 'getIntegration').map((e) => e.status),
			).toEqual([transient.status, 200]);
			expect(result.json[0]).toMatchObject({ created: true, id: expect.any(String) });
		},
	);
});
