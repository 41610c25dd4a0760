/**
 * What the node sends when the user changes nothing: every operation (and every variant of its
 * options, e.g. each destination type) run with the node's default parameters, only the fields
 * without a default filled in (test/harness/operationTable.ts, `defaultParameters`). Every request
 * is checked against the real API's request contract (test/openapi/requestContract.ts): a default
 * the real API would refuse fails here, where a test built from a hand-written fixture would not
 * see it (docs/testing.md, "Request contract").
 */
import type { IDataObject } from 'n8n-workflow';

import {
	run,
	SEED,
	startSimulator,
	type JournalEntry,
	type Simulator,
} from '../../harness/actionEngine';
import { allOperations, defaultParameters } from '../../harness/operationTable';
import { RequestContract } from '../../openapi/requestContract';

const contract = RequestContract.load();

/** Records the seed offers that fit an operation better than the table's (SEED_VALUES). */
const SEED_FOR: Record<string, IDataObject> = {
	// The group must have a connection and no installation of the integration yet.
	'installation.create': { groupRef: SEED.apiKeyGroupRef },
};

/**
 * Operations whose defaults cannot make a request (by key, or key and variant): the node refuses
 * them before sending, saying what the user must fill in. Each must still be refused: one that
 * starts sending is checked like the others and fails here until it is taken off the list.
 */
const REFUSED: Record<string, RegExp> = {
	'apiKey.update': /Add at least one field to update/,
	'connection.update': /Nothing to update/,
	'destination.create destinationType=slack': /"URL" is empty/,
	'destination.create destinationType=webhook': /"URL" is empty/,
	'destination.update': /Add at least one field to update/,
	'installation.update': /Nothing to update/,
	'installation.updateObjectConfig': /"Changes" is empty/,
	'jwtKey.update': /Add at least one field to update/,
	'project.update': /Add at least one field to update/,
	'providerApp.update': /Add at least one field to update/,
	// Update and delete need the record's ID, which no default can give.
	'records.write writeType=update, recordSource=input': /has no "id"/,
	'records.write writeType=update, recordSource=json': /has no "id"/,
	'records.write writeType=delete, recordSource=input': /has no "id"/,
	'records.write writeType=delete, recordSource=json': /has no "id"/,
	// An empty input item (the run's one item is {}) and a mapper with nothing mapped write nothing.
	'records.write writeType=create, recordSource=input': /^Item 0 has nothing to write/,
	'records.write writeType=create, recordSource=mapper': /^Item 0 has nothing to write/,
	// Version 3 (the mapper's Update and Delete run there): Record ID is a required parameter, which the
	// table fills; the delete is then sent, and the update has no field to change.
	'records.write writeType=update, recordSource=mapper':
		/^Item 0 has nothing to write: only the record ID/,
	'records.search': /Add at least one field filter/,
};

let sim: Simulator;
beforeAll(async () => (sim = await startSimulator()));
afterAll(async () => await sim.close());

const cases = allOperations().flatMap((spec) =>
	spec.variants.map((variant) => ({
		label: `${spec.label}${variant.name === 'default' ? '' : ` (${variant.name})`}`,
		spec,
		variant,
	})),
);

const findings: Array<{ label: string; sent: number; invalid: string[] }> = [];

afterAll(() => {
	const sent = findings.reduce((n, f) => n + f.sent, 0);
	const invalid = findings.reduce((n, f) => n + f.invalid.length, 0);
	process.stdout.write(
		`[default requests] ${cases.length} operation variants, ${sent} requests, ${invalid} invalid\n`,
	);
});

describe.each(cases)('$label with its default parameters', ({ label, spec, variant }) => {
	test('sends only requests the real API accepts, or is refused before sending', async () => {
		sim.reset();
		const parameters = defaultParameters(spec, variant, SEED_FOR[spec.key]);
		const result = await run(sim, parameters, { nodeSettings: variant.nodeSettings });
		const checked = (result.requests as JournalEntry[]).map((request) => ({
			request,
			verdict: contract.check(request as never),
		}));
		const invalid = checked
			.filter(({ verdict }) => verdict.violations.length > 0)
			.map(
				({ request, verdict }) =>
					`${request.method} ${request.pathname}: ${verdict.violations.join('; ')}`,
			);
		findings.push({ label, sent: checked.length, invalid });
		expect(invalid).toEqual([]);
		const refused = REFUSED[`${spec.key} ${variant.name}`] ?? REFUSED[spec.key];
		if (refused) {
			expect(result.requests).toHaveLength(0);
			expect(result.error?.message).toMatch(refused);
			expect(result.error?.description).toMatch(/No request was sent/);
		} else {
			expect(result.requests.length).toBeGreaterThan(0);
		}
	});
});
