import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { editorRequest } from '../transport/send';
import { idOf } from '../../common/locator';
import { encodePathSegment } from '../../common/paths';
import { inOrder, isEntry, list, matches, onceEach, results, selected, textOf } from './shared';

/** The lists of providers, provider apps, JWT keys, organizations and invitations. */

interface Provider {
	name: string;
	label: string;
	displayName?: string;
}

/**
 * The provider catalog (GET /providers, public): an object of providers by name. A provider
 * without a name of its own is known by its key; one whose display name is not text, by its name.
 */
async function providerCatalog(context: ILoadOptionsFunctions): Promise<Provider[]> {
	const catalog = await editorRequest(context, 'GET', '/providers');
	if (catalog === undefined || catalog === null) return [];
	if (!isEntry(catalog)) {
		throw new NodeOperationError(
			context.getNode(),
			'The service answered GET /providers with something other than a catalog of providers, so the list cannot be shown',
		);
	}
	const providers: Provider[] = [];
	for (const [key, provider] of Object.entries(catalog)) {
		if (!isEntry(provider)) continue;
		const name = idOf(provider.name) ?? idOf(key);
		if (name === undefined) continue;
		const displayName = textOf(provider.displayName);
		providers.push({ name, label: displayName ?? name, displayName });
	}
	return providers;
}

/** The provider catalog for provider drop-downs (load options), by display name. */
export async function getProviders(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return onceEach(
		(await providerCatalog(this)).map((p) => ({ name: p.label, value: p.name })),
	).sort((a, b) => a.name.localeCompare(b.name));
}

/** The provider catalog for provider locators, by name. */
export async function searchProviders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return results(
		this,
		(await providerCatalog(this))
			.filter((p) => matches(filter, p.name, p.displayName))
			.map((p) => ({ name: p.label, value: p.name })),
		filter,
		'The provider catalog is empty: the service listed no providers',
	);
}

export async function searchProviderApps(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const apps = await list(this, `/projects/${project}/provider-apps`);
	const items: INodeListSearchItems[] = [];
	for (const app of apps) {
		const id = idOf(app.id);
		if (id === undefined) continue;
		const provider = textOf(app.provider) ?? 'unknown provider';
		const clientId = textOf(app.clientId) ?? id;
		if (matches(filter, provider, clientId, app.externalRef, id)) {
			items.push({ name: `${provider} (${clientId})`, value: id });
		}
	}
	return results(
		this,
		items,
		filter,
		'No provider apps yet in this project: add one (Provider App → Create)',
	);
}

export async function searchJwtKeys(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const keys = await list(this, `/projects/${project}/jwt-keys`);
	const items: INodeListSearchItems[] = [];
	for (const key of keys) {
		const id = idOf(key.id);
		if (id === undefined) continue;
		const label = textOf(key.label) ?? id;
		if (matches(filter, label, id)) {
			items.push({ name: `${label}${key.active === false ? ' (inactive)' : ''}`, value: id });
		}
	}
	return results(
		this,
		items,
		filter,
		'No JWT keys yet in this project: add one (JWT Key → Create)',
	);
}

/**
 * Organizations the credential reaches, for Project → Create. There is no list of organizations
 * in the API: their IDs come from the projects the credential sees, their labels from
 * GET /orgs/{orgId} (bearer only; the ID stands in when it fails).
 */
export async function searchOrganizations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const projects = await list(this, '/projects');
	const ids = [
		...new Set(projects.map((p) => idOf(p.orgId)).filter((id) => id !== undefined)),
	] as string[];
	const orgs = await Promise.all(
		ids.map(async (id) => {
			try {
				const org = await editorRequest(this, 'GET', `/orgs/${encodePathSegment(id)}`);
				return { id, label: (isEntry(org) ? textOf(org.label) : undefined) ?? id };
			} catch {
				return { id, label: id };
			}
		}),
	);
	return results(
		this,
		orgs
			.filter((o) => matches(filter, o.label, o.id))
			.map((o) => ({ name: o.label === o.id ? o.id : `${o.label} (${o.id})`, value: o.id })),
		filter,
		'No organization found: the credential reaches no project, and organizations are known only through their projects',
	);
}

/**
 * The invitations of the selected organization (GET /orgs/{orgId}/invites, bearer only), shown by
 * email and status; the API returns invites of every status, pending ones first here.
 */
export async function searchInvites(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const org = selected(this, 'orgId', 'organization');
	const invites = await list(this, `/orgs/${org}/invites`);
	const entries: Array<{ email: string; status: string; id: string }> = [];
	for (const invite of invites as IDataObject[]) {
		const id = idOf(invite.id);
		if (id === undefined) continue;
		const email = textOf(invite.invitedEmail) ?? 'no email';
		const status = textOf(invite.status) ?? 'unknown status';
		if (matches(filter, email, status, id)) entries.push({ email, status, id });
	}
	const pendingFirst = (status: string) => (status === 'pending' ? 0 : 1);
	return inOrder(
		this,
		entries
			.sort(
				(a, b) => pendingFirst(a.status) - pendingFirst(b.status) || a.email.localeCompare(b.email),
			)
			.map(({ email, status, id }) => ({ name: `${email} (${status})`, value: id })),
		filter,
		'No invitations yet in this organization: invite someone (Invite → Create)',
	);
}
