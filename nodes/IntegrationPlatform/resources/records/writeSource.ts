import type { INodeProperties } from 'n8n-workflow';

/**
 * Record → Write's Records From: where each item's record comes from, per node version, and the
 * notice the node's AI tool variant shows on a form a tool cannot use (records/writeInput.ts).
 */

const writeShown = { resource: ['records'], operation: ['write'] };

const recordSourceOptions = [
	{
		name: 'Each Input Item',
		value: 'input',
		description: "Each item's fields are the record's fields, as they are",
	},
	{
		name: 'JSON',
		value: 'json',
		description: 'Each item writes the record given in Record (JSON)',
	},
];

const recordSource: INodeProperties = {
	displayName: 'Records From',
	name: 'recordSource',
	type: 'options',
	default: 'input',
	options: recordSourceOptions,
};

export const recordSourceFields: INodeProperties[] = [
	// Records From: version 2 maps fields with n8n's resource mapper by default; version 1 keeps
	// the item's JSON as its default, which its saved workflows rely on (docs/architecture.md,
	// "Node versions").
	{
		...recordSource,
		displayOptions: { show: { ...writeShown, '@version': [1] } },
	},
	{
		...recordSource,
		default: 'mapper',
		options: [
			{
				name: 'Field Mapping',
				value: 'mapper',
				description:
					"Map the object's fields, one input per field or automatically from the input, with their types",
			},
			...recordSourceOptions,
		],
		displayOptions: { show: { ...writeShown, '@version': [{ _cnd: { gte: 2 } }] } },
	},
	// As an AI tool there is no input item (records/writeInput.ts refuses these forms there).
	{
		displayName:
			"As an AI tool this node has no input item, only the tool's arguments: set Records From to JSON, with Record (JSON) given by $fromAI('record', …, 'json'), or map each field with $fromAI()",
		name: 'toolRecordNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...writeShown, '@tool': [true], recordSource: ['input'] } },
	},
];
