/**
 * The lists of the trigger's Destination and Object Names fields (version 3 on): the project's
 * webhook destinations, marked with what the integrations' manifests deliver to them, and the
 * objects its integrations read or subscribe to. An empty
 * list throws an error that says why it is empty and what to do instead: n8n's editor shows a
 * list search's or a load-options method's error message in place of the list, while an empty
 * answer only reads "No results".
 */
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../common/api';
import { currentValue, idOf, withReason } from '../common/locator';
import { encodePathSegment } from '../common/paths';
import { deliveryMark, manifestDeliveries } from './manifests';
import type { ManifestDeliveries } from './manifests';
import { TEST_SUFFIX } from './registration';

// n8n's editor shows only an error's message in place of the list (not its description), so the
// message says both why the list is empty and what to do instead.
export const EMPTY_DESTINATIONS =
	'No webhook destinations in this project yet. Choose By Name and type one: with Register Automatically on, the trigger creates it when the workflow is activated.';
export const EMPTY_OBJECTS =
	'No objects yet: none of this project\'s integrations reads or subscribes to one. Give names in an expression instead, e.g. {{ ["contacts"] }}.';

/** The selected project (list, name or ID), or an error that says to choose one first. */
function selectedProject(context: ILoadOptionsFunctions): string {
	const project = currentValue(context, 'project');
	if (project === '') throw new NodeOperationError(context.getNode(), 'Choose a Project first');
	return project;
}

async function listOf(context: ILoadOptionsFunctions, path: string): Promise<IDataObject[]> {
	const body = await apiRequest(context, 'GET', path);
	// Entries that are objects: a list may hold anything.
	return (Array.isArray(body) ? (body as unknown[]) : []).filter(
		(entry): entry is IDataObject =>
			typeof entry === 'object' && entry !== null && !Array.isArray(entry),
	);
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * What the manifests deliver to each destination, or nothing when the integrations cannot be
 * listed (a key without access to them, a failed request): the destinations are then listed
 * unmarked, as the list is still the way to choose one.
 */
async function deliveriesOf(
	context: ILoadOptionsFunctions,
	project: string,
): Promise<ManifestDeliveries> {
	try {
		return manifestDeliveries(
			await apiRequest(context, 'GET', `/projects/${encodePathSegment(project)}/integrations`),
		);
	} catch {
		return new Map();
	}
}

/**
 * listSearch behind Destination: the project's webhook destinations by name (other types cannot
 * deliver to n8n). A `<name>-test` destination next to `<name>` is the one the trigger registers
 * while the editor listens; it is left out, as choosing it would make the next test `-test-test`.
 * Each destination an integration's manifest names says what it receives (manifests.ts) and comes
 * first; a name a manifest gives that no destination has yet is offered as new, since activation
 * creates it.
 */
export const searchWebhookDestinations = withReason(async function (
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selectedProject(this);
	const [destinations, deliveries] = await Promise.all([
		listOf(this, `/projects/${encodePathSegment(project)}/destinations`),
		deliveriesOf(this, project),
	]);
	const names = destinations
		.filter((d) => d.type === 'webhook')
		.map((d) => text(d.name))
		.filter((name): name is string => name !== undefined);
	// Names any destination has, whatever its type: a manifest's name taken by a Kinesis
	// destination is not offered as new (registration would refuse it).
	const taken = new Set(destinations.map((d) => text(d.name)));
	const fresh = [...deliveries.keys()].filter((name) => !taken.has(name));
	if (names.length === 0 && fresh.length === 0) {
		throw new NodeOperationError(this.getNode(), EMPTY_DESTINATIONS, {
			description: `Project ${project} has no webhook destination.`,
		});
	}
	const all = new Set(names);
	const needle = filter?.trim().toLowerCase();
	const entries = [
		// Each name once: the set holds them in the order first listed.
		...[...all]
			.filter(
				(name) => !(name.endsWith(TEST_SUFFIX) && all.has(name.slice(0, -TEST_SUFFIX.length))),
			)
			.map((name) => ({ name, mark: deliveryMark(deliveries, name), isNew: false })),
		...fresh.map((name) => ({ name, mark: deliveryMark(deliveries, name), isNew: true })),
	];
	return {
		results: entries
			.map((entry) => ({
				...entry,
				label:
					entry.mark === undefined
						? entry.name
						: `${entry.name}${entry.isNew ? ' (new)' : ''} — ${entry.mark}`,
			}))
			.filter((entry) => !needle || entry.label.toLowerCase().includes(needle))
			// What a manifest delivers to first, then by name.
			.sort(
				(a, b) =>
					Number(a.mark === undefined) - Number(b.mark === undefined) ||
					a.name.localeCompare(b.name),
			)
			.map((entry) => ({ name: entry.label, value: entry.name })),
	};
});

/** The object names a manifest section lists, with the names it maps them to. */
function sectionObjects(section: unknown): string[] {
	const objects = (section as { objects?: unknown } | undefined)?.objects;
	if (!Array.isArray(objects)) return [];
	return objects.flatMap((o: IDataObject) =>
		[text(o?.objectName), text(o?.mapToName)].filter((n): n is string => n !== undefined),
	);
}

/**
 * loadOptions behind Object Names: every object the project's integrations read or subscribe to,
 * from each integration's latest revision (GET …/integrations returns it with its manifest),
 * mapped names included since messages may carry either.
 */
export const getObjectNames = withReason(async function (
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	// The editor loads these options as soon as the panel opens, also on a new node without a
	// project: an error there is a failed request before the user did anything (the field's
	// description says to choose the project). The Destination list loads when it is opened.
	if (currentValue(this, 'project') === '') return [];
	const project = selectedProject(this);
	const integrations = await listOf(this, `/projects/${encodePathSegment(project)}/integrations`);
	const usedBy = new Map<string, Set<string>>();
	for (const integration of integrations) {
		const content = ((integration.latestRevision as IDataObject | undefined)?.content ??
			{}) as IDataObject;
		// Schema watching covers all objects (allObjects): it names none.
		const names = [...sectionObjects(content.read), ...sectionObjects(content.subscribe)];
		for (const name of names) {
			const integrationsOfName = usedBy.get(name) ?? new Set<string>();
			integrationsOfName.add(text(integration.name) ?? idOf(integration.id) ?? 'an integration');
			usedBy.set(name, integrationsOfName);
		}
	}
	if (usedBy.size === 0) {
		throw new NodeOperationError(this.getNode(), EMPTY_OBJECTS, {
			description: `Project ${project} has no integration that reads or subscribes to an object.`,
		});
	}
	return [...usedBy.entries()]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([name, users]) => ({
			name,
			value: name,
			description: `In ${[...users].sort().join(', ')}`,
		}));
});
