'use strict';

// Shared set-up for the simulator tests: a running simulator and axios clients for each
// kind of caller. Every client accepts any status (validateStatus) so tests can assert it.
// Every 2xx answer a simulator started here sends is checked against the API's documented
// success answers when the test file ends (test/openapi/responseContract.ts); fault answers,
// which a test invents, are not.

const axios = require('axios');
const { startSimulator, SEED } = require('../../simulator');
const { ResponseContract } = require('../../openapi/responseContract');

/** @type {Array<{ test: string, answer: import('../../openapi/responseContract').RecordedAnswer }>} */
const answers = [];

afterAll(() => {
	const contract = ResponseContract.load();
	const invalid = answers
		.map(({ test, answer }) => ({ test, answer, verdict: contract.check(answer) }))
		.filter(({ verdict }) => verdict.violations.length > 0);
	answers.length = 0;
	if (invalid.length > 0) {
		throw new Error(
			`${invalid.length} answer(s) of the simulator do not match the API's documented answers (docs/api-responses.json; docs/testing.md, "Response contract"):\n  ${invalid
				.map(
					({ test, answer, verdict }) =>
						`${answer.method} ${answer.pathname} → ${answer.status} (${test}):\n      ${verdict.violations.join('\n      ')}`,
				)
				.join('\n  ')}`,
		);
	}
});

/** RFC 3339 UTC with exactly six fractional digits. */
const MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** Path prefix of the demo project. */
const P = `/projects/${SEED.projectName}`;

/** @param {import('../../simulator/index').SimulatorOptions} [options] */
async function setup(options = {}) {
	const sim = await startSimulator({ quiet: true, ...options });
	sim.journal.onAnswer((entry, answer) => {
		if (entry.fault || answer.status < 200 || answer.status > 299) return;
		answers.push({
			test: expect.getState().currentTestName ?? '(set-up)',
			answer: { ...answer, host: entry.host, method: entry.method, pathname: entry.pathname },
		});
	});
	/** @param {string} baseURL @param {Record<string, string>} [headers] */
	const client = (baseURL, headers = {}) =>
		axios.create({ baseURL, headers, validateStatus: () => true });
	return {
		sim,
		api: client(`${sim.apiUrl}/v1`, { 'X-Api-Key': SEED.apiKey }),
		bearer: client(`${sim.apiUrl}/v1`, { Authorization: `Bearer ${SEED.bearerToken}` }),
		anon: client(`${sim.apiUrl}/v1`),
		read: client(`${sim.readUrl}/v1`, { 'X-Api-Key': SEED.apiKey }),
		control: client(`${sim.apiUrl}/__sim`),
		client,
	};
}

/** Asserts the common fields of an ApiProblem (docs/api-notes.md, "Problem documents"). */
function expectProblem(res, status) {
	expect(res.status).toBe(status);
	expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
	expect(res.data).toMatchObject({
		status,
		subsystem: 'api',
		type: expect.any(String),
		title: expect.any(String),
		detail: expect.any(String),
	});
	expect(res.data.requestId).toBe(res.headers['x-request-id']);
	expect(typeof res.data.instance).toBe('string');
	expect(Number.isNaN(Date.parse(res.data.time))).toBe(false);
	return res.data;
}

module.exports = { setup, expectProblem, MICROS, P, SEED };
