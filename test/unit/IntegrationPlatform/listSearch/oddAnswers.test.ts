/**
 * Every list method of the action node (list searches, load options, the resource mapper's
 * fields), as the node registers them, fed answers no API document promises: names and IDs that
 * are numbers, null, objects or arrays, entries that are not objects, duplicates, prototype names
 * and answers of the wrong shape altogether. Each must answer with a list of text items or with
 * a reason (a UserError, which n8n answers with 400 and its message), never with a TypeError.
 */
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { IntegrationPlatform } from '../../../../nodes/IntegrationPlatform/IntegrationPlatform.node';
import { answeringContext } from '../../../harness/listSearch';
import {
	expectListOrReason,
	oddAnswer,
	oddEntries,
	PROTOTYPE_NAMES,
	prototypeEntries,
	WRONG_BODIES,
} from '../../../harness/oddAnswers';

type ListMethod = (this: ILoadOptionsFunctions, filter?: string) => Promise<unknown>;

const { methods } = new IntegrationPlatform();
const listMethods: Array<[string, ListMethod]> = [
	...Object.entries(methods.listSearch),
	...Object.entries(methods.loadOptions),
	...Object.entries(methods.resourceMapping),
] as Array<[string, ListMethod]>;

/** Where the lists are used: each operation that changes what a list reads. */
const PLACES = [
	['connection', 'getAll'],
	['oauth', 'getAuthorizationUrl'],
	['installation', 'getAll'],
	['installation', 'getAllInProject'],
	['installation', 'create'],
	['objectMetadata', 'getForConnection'],
	['objectMetadata', 'getForInstallation'],
	['customField', 'upsert'],
];

const current = (resource: string, operation: string) => ({
	resource,
	operation,
	project: 'p',
	integration: 'i',
	orgId: 'o',
	provider: 'hubspot',
	groupRef: 'g',
	object: 'contacts',
	writeType: 'update',
});

/**
 * The resource mapper's fields come from records/mapping.ts, which another change makes read odd
 * metadata: here only that it answers with a reason, never an error n8n answers with 500.
 */
const anyReason = (name: string) => name === 'getRecordFields';

async function outcome(method: ListMethod, context: ILoadOptionsFunctions, filter?: string) {
	return (await Promise.allSettled([method.call(context, filter)]))[0];
}

test('the node registers list methods to drive', () => {
	expect(listMethods.length).toBeGreaterThanOrEqual(22);
});

describe.each(listMethods)('%s', (name, method) => {
	test('entries with names and IDs of every odd kind: a list of text items or a reason', async () => {
		for (const [resource, operation] of PLACES) {
			for (const filter of [undefined, 'o']) {
				const context = answeringContext(oddAnswer(oddEntries()), {
					current: current(resource, operation),
				});
				expectListOrReason(
					await outcome(method, context, filter),
					`${name} in ${resource}.${operation}`,
					anyReason(name),
				);
			}
		}
	});

	test('answers of the wrong shape: a list or a reason', async () => {
		for (const body of WRONG_BODIES) {
			const context = answeringContext(() => ({ body }), {
				current: current('connection', 'getAll'),
			});
			expectListOrReason(
				await outcome(method, context),
				`${name} given ${JSON.stringify(body)}`,
				anyReason(name),
			);
		}
	});

	test('a failed request: a reason', async () => {
		const context = answeringContext(
			() => ({ statusCode: 500, body: { title: 'Internal Server Error', status: 500 } }),
			{ current: current('connection', 'getAll') },
		);
		const result = await outcome(method, context);
		expect(result.status).toBe('rejected');
		expectListOrReason(result, name);
	});
});

describe('prototype names are ordinary names', () => {
	test.each(listMethods.filter(([name]) => !anyReason(name)))(
		'%s lists __proto__, constructor, hasOwnProperty and toString',
		async (name, method) => {
			const context = answeringContext(oddAnswer(prototypeEntries(), PROTOTYPE_NAMES), {
				current: current(
					name === 'searchMetadataObjects' ? 'objectMetadata' : 'connection',
					name === 'searchMetadataObjects' ? 'getForConnection' : 'getAll',
				),
			});
			const result = await outcome(method, context);
			expectListOrReason(result, name);
			const answer = (result as PromiseFulfilledResult<unknown>).value as
				| { results: Array<{ name: string; value: string }> }
				| Array<{ name: string; value: string }>;
			const items = Array.isArray(answer) ? answer : answer.results;
			expect(items.map((i) => i.value)).toEqual(expect.arrayContaining(PROTOTYPE_NAMES));
			for (const item of items) expect(item.name).not.toMatch(/native code|\[object /);
		},
	);
});
