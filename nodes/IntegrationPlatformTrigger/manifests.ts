/**
 * Which destinations the project's integrations deliver to, read from each integration's latest
 * revision (GET …/integrations returns it with its manifest, the amp.yaml content): read objects
 * and subscribe objects each name a `destination`, and schema watching names one for all objects
 * (docs/api-notes.md, "Delivered messages"). Pure: no n8n imports, so the Destination list and
 * registration read the manifests the same way.
 *
 * The answer may hold anything: entries that are not objects, missing content, names that are not
 * text or that are keys of every object's prototype (`__proto__`, `constructor`). Only text is a
 * name, and names are kept in Maps, never as keys of plain objects.
 */

export type DeliveryKind = 'read' | 'subscribe' | 'schemaWatch';

/** Per destination name: per kind of delivery, the integrations (by name) and their objects. */
export type ManifestDeliveries = Map<string, Map<DeliveryKind, Map<string, Set<string>>>>;

type Entry = Record<string, unknown>;

const entryOf = (value: unknown): Entry | undefined =>
	typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Entry)
		: undefined;

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

function add(
	deliveries: ManifestDeliveries,
	destination: unknown,
	kind: DeliveryKind,
	integration: string,
	objectName?: unknown,
): void {
	const name = text(destination);
	if (name === undefined) return;
	const kinds = deliveries.get(name) ?? new Map<DeliveryKind, Map<string, Set<string>>>();
	deliveries.set(name, kinds);
	const integrations = kinds.get(kind) ?? new Map<string, Set<string>>();
	kinds.set(kind, integrations);
	const objects = integrations.get(integration) ?? new Set<string>();
	integrations.set(integration, objects);
	const object = text(objectName);
	if (object !== undefined) objects.add(object);
}

/** The objects of a manifest section (`read`, `subscribe`): entries that are objects. */
function sectionObjects(section: unknown): Entry[] {
	const objects = entryOf(section)?.objects;
	return Array.isArray(objects)
		? objects.map(entryOf).filter((o): o is Entry => o !== undefined)
		: [];
}

/** What the integrations of a listIntegrations answer deliver to each destination they name. */
export function manifestDeliveries(integrations: unknown): ManifestDeliveries {
	const deliveries: ManifestDeliveries = new Map();
	if (!Array.isArray(integrations)) return deliveries;
	for (const value of integrations) {
		const integration = entryOf(value);
		if (!integration) continue;
		const name = text(integration.name) ?? text(integration.id) ?? 'an integration';
		const content = entryOf(entryOf(integration.latestRevision)?.content);
		if (!content) continue;
		for (const object of sectionObjects(content.read)) {
			add(deliveries, object.destination, 'read', name, object.objectName);
		}
		for (const object of sectionObjects(content.subscribe)) {
			add(deliveries, object.destination, 'subscribe', name, object.objectName);
		}
		// Schema watching covers all objects (allObjects): it names none.
		add(deliveries, entryOf(content.watchSchema)?.destination, 'schemaWatch', name);
	}
	return deliveries;
}

const KIND_WORDS: Array<[DeliveryKind, string]> = [
	['read', 'read results of'],
	['subscribe', 'subscribe events of'],
	['schemaWatch', 'schema changes of'],
];

/** At most this many integrations per kind, and objects per integration, are named in a mark. */
const MAX_INTEGRATIONS = 3;
const MAX_OBJECTS = 4;

function some(names: string[], max: number): string {
	const shown = names.slice(0, max).join(', ');
	return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/**
 * What the manifests deliver to one destination, in words, e.g. "read results of hubspot-sync
 * (companies, contacts); schema changes of hubspot-sync"; undefined when no manifest names it.
 */
export function deliveryMark(
	deliveries: ManifestDeliveries,
	destination: string,
): string | undefined {
	const kinds = deliveries.get(destination);
	if (!kinds) return undefined;
	const parts = KIND_WORDS.flatMap(([kind, words]) => {
		const integrations = kinds.get(kind);
		if (!integrations || integrations.size === 0) return [];
		const named = [...integrations.entries()]
			.sort(([a], [b]) => a.localeCompare(b))
			.map(([integration, objects]) =>
				objects.size === 0
					? integration
					: `${integration} (${some(
							[...objects].sort((a, b) => a.localeCompare(b)),
							MAX_OBJECTS,
						)})`,
			);
		return [`${words} ${some(named, MAX_INTEGRATIONS)}`];
	});
	return parts.length > 0 ? parts.join('; ') : undefined;
}
