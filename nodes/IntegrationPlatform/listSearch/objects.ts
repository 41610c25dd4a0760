import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { editorRequest } from '../transport/send';
import { currentValue, idOf } from '../../common/locator';
import { embedded, isEntry, list, matches, results, selected } from './shared';

/** The lists of objects an integration reads or writes, from its latest revision. */

/** The objects a revision's content reads or writes, by name (a Set: any name is an ordinary one). */
function objectsOf(revision: unknown, into: Set<string>): Set<string> {
	const content = isEntry(revision) ? embedded(revision, 'content') : {};
	for (const action of ['read', 'write']) {
		const objects = embedded(content, action).objects;
		for (const object of Array.isArray(objects) ? objects : []) {
			const name = isEntry(object) ? idOf(object.objectName) : undefined;
			if (name !== undefined) into.add(name);
		}
	}
	return into;
}

const asItems = (names: Set<string>, filter: string | undefined) =>
	[...names].filter((name) => matches(filter, name)).map((name) => ({ name, value: name }));

/** Objects the integration reads or writes, from its latest revision; the value is the object name. */
export async function searchObjects(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const integration = selected(this, 'integration', 'integration');
	const body = await editorRequest(this, 'GET', `/projects/${project}/integrations/${integration}`);
	const names = objectsOf(isEntry(body) ? body.latestRevision : undefined, new Set<string>());
	return results(
		this,
		asItems(names, filter),
		filter,
		'The integration reads and writes no objects: its latest revision names none',
	);
}

/**
 * The Object list of the operations that read an object's metadata (Object Metadata, Custom Field
 * → Get Many): through an installation, the objects of its integration (searchObjects); through a
 * connection, the objects the project's integrations of the chosen provider read or write. Any
 * other object of the provider can be given By Name.
 */
export async function searchMetadataObjects(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	if (currentValue(this, 'operation') === 'getForInstallation') {
		return await searchObjects.call(this, filter);
	}
	const project = selected(this, 'project', 'project');
	const provider = currentValue(this, 'provider');
	if (!provider) throw new NodeOperationError(this.getNode(), 'Select a provider first');
	const names = new Set<string>();
	for (const integration of await list(this, `/projects/${project}/integrations`)) {
		if (integration.provider === provider) objectsOf(integration.latestRevision, names);
	}
	return results(
		this,
		asItems(names, filter),
		filter,
		`No integration of this project reads or writes ${provider} objects: give the object By Name`,
	);
}
