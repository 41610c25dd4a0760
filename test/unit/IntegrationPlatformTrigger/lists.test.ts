/**
 * The event trigger's list methods, as the node registers them, fed answers no API document
 * promises (test/harness/oddAnswers.ts): each answers with a list of text items or a reason (a
 * UserError), never a TypeError, and prototype names are ordinary destination and object names.
 */
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { IntegrationPlatformTrigger } from '../../../nodes/IntegrationPlatformTrigger/IntegrationPlatformTrigger.node';
import { answeringContext } from '../../harness/listSearch';
import {
	expectListOrReason,
	oddAnswer,
	oddEntries,
	PROTOTYPE_NAMES,
	prototypeEntries,
	WRONG_BODIES,
} from '../../harness/oddAnswers';

type ListMethod = (this: ILoadOptionsFunctions, filter?: string) => Promise<unknown>;

const { methods } = new IntegrationPlatformTrigger();
const listMethods = [
	...Object.entries(methods.listSearch),
	...Object.entries(methods.loadOptions),
] as Array<[string, ListMethod]>;

const inProject = (answer: Parameters<typeof answeringContext>[0]) =>
	answeringContext(answer, { current: { project: 'p' } });

async function outcome(method: ListMethod, context: ILoadOptionsFunctions, filter?: string) {
	return (await Promise.allSettled([method.call(context, filter)]))[0];
}

describe.each(listMethods)('%s', (name, method) => {
	test('entries with names of every odd kind, answers of the wrong shape: a list or a reason', async () => {
		for (const filter of [undefined, 'o']) {
			expectListOrReason(await outcome(method, inProject(oddAnswer(oddEntries())), filter), name);
		}
		for (const body of WRONG_BODIES) {
			expectListOrReason(
				await outcome(
					method,
					inProject(() => ({ body })),
				),
				`${name} given ${JSON.stringify(body)}`,
			);
		}
	});
});

test('Destination lists webhook destinations named __proto__, constructor, hasOwnProperty, toString once each', async () => {
	const entries = [...prototypeEntries(), ...prototypeEntries()];
	const result = (await methods.listSearch.searchWebhookDestinations.call(
		inProject(oddAnswer(entries)),
	)) as { results: Array<{ value: string }> };
	expect(result.results.map((r) => r.value).sort()).toEqual([...PROTOTYPE_NAMES].sort());
});

test('Object Names lists objects named __proto__, constructor, hasOwnProperty, toString, with their integrations', async () => {
	const options = await methods.loadOptions.getObjectNames.call(
		inProject(oddAnswer(prototypeEntries())),
	);
	expect(options.map((o) => o.value).sort()).toEqual([...PROTOTYPE_NAMES].sort());
	for (const option of options) expect(option.description).toBe(`In ${String(option.value)}`);
});

test('Destination marks destinations named __proto__, constructor, hasOwnProperty, toString with what their manifests deliver, first', async () => {
	const destinations = [...PROTOTYPE_NAMES, 'plain'].map((name) => ({ name, type: 'webhook' }));
	const integrations = PROTOTYPE_NAMES.map((name) => ({
		name,
		latestRevision: { content: { read: { objects: [{ objectName: name, destination: name }] } } },
	}));
	const context = inProject(({ url }) => ({
		body: JSON.parse(JSON.stringify(url.endsWith('/integrations') ? integrations : destinations)),
	}));
	const result = (await methods.listSearch.searchWebhookDestinations.call(context)) as {
		results: Array<{ name: string; value: string }>;
	};
	expect(result.results).toEqual([
		...[...PROTOTYPE_NAMES]
			.sort((a, b) => a.localeCompare(b))
			.map((name) => ({ name: `${name} — read results of ${name} (${name})`, value: name })),
		{ name: 'plain', value: 'plain' },
	]);
});
