import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { idOf } from '../../common/locator';
import { list, matches, results, selected, textOf } from './shared';

/** Keys shorter than this show no ending at all: four characters would be too much of them. */
const SHORTEST_KEY_WITH_ENDING = 12;

/**
 * How a key is named in the list: its label, its last four characters (as Get Many's `keyEnding`)
 * and whether it is inactive; never the key itself.
 */
export function keyName(key: string, label: string | undefined, active: unknown): string {
	const ending = key.length >= SHORTEST_KEY_WITH_ENDING ? `…${key.slice(-4)}` : '…';
	return `${label ?? 'Unlabelled key'} (${ending})${active === false ? ' · inactive' : ''}`;
}

/**
 * The project's API keys, for API Key → Get, Update and Delete. The key itself is what the API
 * identifies a key by (docs/api-notes.md, "API keys"), so it is the entry's value, which the
 * editor keeps in the parameter and does not show; the entry's name shows the label and the last
 * four characters. The search matches labels and endings only, so that typing part of a key
 * cannot probe for it.
 */
export async function searchApiKeys(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = selected(this, 'project', 'project');
	const keys = await list(this, `/projects/${project}/api-keys`);
	const items: INodeListSearchItems[] = [];
	for (const entry of keys) {
		const key = idOf(entry.key);
		if (key === undefined) continue;
		const name = keyName(key, textOf(entry.label), entry.active);
		if (matches(filter, name)) items.push({ name, value: key });
	}
	return results(
		this,
		items,
		filter,
		'No API keys in this project: create one (API Key → Create) or in the dashboard',
	);
}
