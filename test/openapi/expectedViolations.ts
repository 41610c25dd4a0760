/**
 * Requests of tests that are known not to match the API's request contract, for tests that do not
 * mark them themselves (`run(…, { contractViolation })` in test/harness/actionEngine.ts is the
 * better place; move an entry there when its test is next edited).
 *
 * Two kinds, kept apart on purpose:
 * - `deliberate`: the test sends what the user typed, invalid on purpose, to see how the node shows
 *   the service's validation problem, or points the node at the wrong host on purpose.
 * - `defect`: the request is wrong and should not be: the entry stays only until the test data is
 *   fixed. Do not add new ones to make a test pass.
 *
 * Each entry must match a violating request of its test (file name, full test name, operation) in
 * every run of that file: an entry that no longer matches fails the file, so none outlives its
 * reason.
 */
export interface ExpectedViolation {
	/** The test file's name (no folder). */
	file: string;
	/** The full test name, as Jest prints it (describe blocks and test, space-separated). */
	test: string;
	/** The operation the request matched, or null when it matched none. */
	operationId: string | null;
	kind: 'deliberate' | 'defect';
	reason: string;
}

export const EXPECTED_VIOLATIONS: ExpectedViolation[] = [
	{
		file: 'errors.test.ts',
		test: 'problem documents become errors that say what is wrong 400 with several invalid fields: each field and reason in the message, status and request id',
		operationId: 'generateConnection',
		kind: 'deliberate',
		reason: 'non-text groupRef and consumerRef from expressions, to see every issue of the 400',
	},
	{
		file: 'errors.test.ts',
		test: 'problem documents become errors that say what is wrong 422: semantic errors in the manifest, each field listed',
		operationId: 'createIntegration',
		kind: 'deliberate',
		reason: 'a manifest without name and provider, to see the 422 issues',
	},
	{
		file: 'project.test.ts',
		test: 'Project → Create, Get, Update an invalid name: the 422 problem names the field',
		operationId: 'createProject',
		kind: 'deliberate',
		reason: 'a project name outside the documented pattern, to see the 422',
	},
	{
		file: 'notificationEventTopicRoute.test.ts',
		test: 'Notification Event Topic Route → Create, Get Many an unknown event type from an expression: the validation problem names eventType',
		operationId: 'createEventTopicRoute',
		kind: 'deliberate',
		reason: 'an event type outside the enumeration, set by an expression, to see the 400',
	},
	{
		file: 'installation.test.ts',
		test: 'Installation → Unpause Reads a read URL that points at the management host fails: the management host has no unpause route',
		operationId: null,
		kind: 'deliberate',
		reason: 'a misconfigured read URL sends the read-host path to the management host',
	},
	{
		file: 'IntegrationPlatform.test.ts',
		test: 'errors in real n8n a 400 with two invalid fields: the exact text n8n shows',
		operationId: 'generateConnection',
		kind: 'deliberate',
		reason: 'non-text groupRef and consumerRef, to see the text n8n shows for a 400 with issues',
	},
];
