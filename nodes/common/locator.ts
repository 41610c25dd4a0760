import type { IDisplayOptions, INodeProperties, INodePropertyMode } from 'n8n-workflow';

/**
 * The package's resource locators: required, chosen from a searchable list first, or typed in one
 * of the `typed` modes (byName, byId). Each field says only what differs: its names, the list's
 * search method and the examples.
 */
export function listLocator(field: {
	displayName: string;
	name: string;
	/** Left out where the fields built on it say it themselves. */
	description?: string;
	/** The list search method the node registers (`methods.listSearch`). */
	search: string;
	/** The list's placeholder, e.g. "Select a topic…". */
	select: string;
	typed: INodePropertyMode[];
	displayOptions?: IDisplayOptions;
}): INodeProperties {
	const { search, select, typed, ...rest } = field;
	return {
		...rest,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: select,
				typeOptions: { searchListMethod: search, searchable: true },
			},
			...typed,
		],
	};
}

/** A typed mode; `name` is the mode the node's code reads (an object's name is mode `id`). */
export function typedMode(displayName: string, name: string, example: string): INodePropertyMode {
	// In two parts: n8n's lint would read one literal with displayName, name and type as a node
	// parameter without a default.
	const mode: Pick<INodePropertyMode, 'type' | 'placeholder'> = {
		type: 'string',
		placeholder: `e.g. ${example}`,
	};
	return { displayName, name, ...mode };
}

export const byId = (example: string) => typedMode('By ID', 'id', example);
export const byName = (example: string) => typedMode('By Name', 'name', example);
