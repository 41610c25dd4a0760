/**
 * Every request a test file's simulators receive is checked against the real API's request
 * contract (requestContract.ts) when the file ends: the harness (test/harness/actionEngine.ts)
 * passes each simulator it starts to `watchRequests`, and importing this module registers the
 * check as an `afterAll` of the test file. The journal's own `clear()` does not hide anything: the
 * watch keeps its own list of entries.
 *
 * The simulator's 2xx answers (not fault answers) are checked the same way against the API's
 * documented success answers (responseContract.ts).
 *
 * A request a test sends invalid on purpose (to see the service's validation problem) is marked
 * with `expectViolation(entries, reason)` (the engine harness's `run(…, { contractViolation })`).
 * A marked request must still violate the contract, so a mark cannot hide a request that became
 * valid or an unrelated fault. REQUEST_CONTRACT_LOG=<file> appends every verdict as JSON lines.
 */
import * as fs from 'node:fs';

import * as path from 'node:path';

import { EXPECTED_VIOLATIONS, type ExpectedViolation } from './expectedViolations';
import { RequestContract, type RecordedRequest, type Verdict } from './requestContract';
import { ResponseContract, type RecordedAnswer } from './responseContract';

interface Watched {
	entry: RecordedRequest & { status?: number | null };
	/** The request as it arrived: the simulator may keep the body and change it later. */
	sent: RecordedRequest;
	test: string;
}

const watched: Watched[] = [];
const expected = new WeakMap<object, string>();
let contract: RequestContract | undefined;
/** The simulator's 2xx answers, checked against the documented answers at the end of the file. */
const answered: Array<{ answer: RecordedAnswer; test: string }> = [];

function currentTest(): string {
	const state = (
		globalThis as { expect?: { getState?: () => { currentTestName?: string } } }
	).expect?.getState?.();
	return state?.currentTestName ?? '(outside a test)';
}

/** Keeps every entry `sim`'s journal records from now on, for the check at the end of the file. */
export function watchRequests<S extends { journal: object }>(sim: S): S {
	const journal = sim.journal as {
		record(fields: object): RecordedRequest;
		onAnswer(
			listener: (
				entry: RecordedRequest & { fault?: string },
				answer: Omit<RecordedAnswer, 'host' | 'method' | 'pathname'>,
			) => void,
		): () => void;
	};
	const record = journal.record.bind(journal);
	journal.record = (fields: object) => {
		const entry = record(fields);
		watched.push({ entry, sent: structuredClone(entry), test: currentTest() });
		return entry;
	};
	journal.onAnswer((entry, answer) => {
		// A fault's answer is the test's invention, not the simulator's model of the API.
		if (entry.fault || answer.status < 200 || answer.status > 299) return;
		answered.push({
			answer: { ...answer, host: entry.host, method: entry.method, pathname: entry.pathname },
			test: currentTest(),
		});
	});
	return sim;
}

/** The simulator's 2xx answers seen so far that do not match the API's documented answers. */
export function invalidAnswers(): string[] {
	if (answered.length === 0) return [];
	const responses = ResponseContract.load();
	return answered.flatMap(({ answer, test }) => {
		const { violations } = responses.check(answer);
		return violations.length
			? [
					`simulator answer ${answer.method} ${answer.pathname} → ${answer.status} (${test}):\n      ${violations.join('\n      ')}`,
				]
			: [];
	});
}

/** Marks requests a test sends against the contract on purpose; each must then violate it. */
export function expectViolation(entries: object[], reason: string): void {
	for (const entry of entries) expected.set(entry, reason);
}

export interface ContractFinding extends Verdict {
	test: string;
	request: string;
	expected?: string;
}

/** The verdict on every request watched so far. */
export function checkWatched(): ContractFinding[] {
	contract ??= RequestContract.load();
	const checker = contract;
	return watched.map(({ entry, sent, test }) => ({
		...checker.check(sent),
		test,
		request: `${entry.host} ${entry.method} ${entry.pathname}${
			Object.keys(entry.query ?? {}).length
				? `?${new URLSearchParams(entry.query as Record<string, string>)}`
				: ''
		}`,
		expected: expected.get(entry),
	}));
}

/**
 * The failures among the findings of one test file: unexpected violations, requests marked as
 * violating that conform, and entries of expectedViolations.ts for this file that matched nothing.
 */
export function failures(
	findings: ContractFinding[],
	file: string,
	registry: ExpectedViolation[] = EXPECTED_VIOLATIONS,
): string[] {
	const lines: string[] = [];
	const entries = registry.filter((entry) => entry.file === file);
	const used = new Set<ExpectedViolation>();
	for (const finding of findings) {
		if (finding.expected === undefined && finding.violations.length > 0) {
			const entry = entries.find(
				(e) => e.test === finding.test && e.operationId === (finding.operationId ?? null),
			);
			if (entry) {
				used.add(entry);
				continue;
			}
		}
		if (finding.expected !== undefined) {
			if (finding.violations.length === 0 && !finding.unchecked) {
				lines.push(
					`${finding.request} (${finding.test}): marked as violating the contract (${finding.expected}) but conforms`,
				);
			}
		} else if (finding.violations.length > 0) {
			lines.push(
				`${finding.request} (${finding.test}):\n      ${finding.violations.join('\n      ')}`,
			);
		}
	}
	// Only tests that ran (sent a request) can tell: a run filtered with -t skips the others.
	const ran = new Set(findings.map((f) => f.test));
	for (const entry of entries) {
		if (!used.has(entry) && ran.has(entry.test)) {
			lines.push(
				`expectedViolations.ts lists "${entry.test}" (${entry.operationId ?? 'no operation'}, ${entry.kind}), but no request of it violates the contract any more: remove the entry`,
			);
		}
	}
	return lines;
}

declare const afterAll: ((fn: () => void) => void) | undefined;

if (typeof afterAll === 'function') {
	afterAll(() => {
		if (watched.length === 0) return;
		const findings = checkWatched();
		const log = process.env.REQUEST_CONTRACT_LOG;
		if (log) {
			fs.appendFileSync(
				log,
				findings.map((f) => `${JSON.stringify({ file: currentFile(), ...f })}\n`).join(''),
			);
		}
		const lines = [...failures(findings, path.basename(currentFile())), ...invalidAnswers()];
		watched.length = 0;
		answered.length = 0;
		if (lines.length > 0) {
			throw new Error(
				`${lines.length} request(s) or simulator answer(s) do not match the API's contract (docs/api-requests.json, docs/api-responses.json; docs/testing.md, "Request contract", "Response contract"):\n  ${lines.join('\n  ')}`,
			);
		}
	});
}

function currentFile(): string {
	const state = (
		globalThis as { expect?: { getState?: () => { testPath?: string } } }
	).expect?.getState?.();
	return state?.testPath ?? '';
}
