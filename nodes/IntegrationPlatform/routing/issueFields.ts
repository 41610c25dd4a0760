import type { IDataObject } from 'n8n-workflow';

import type { FieldLabeler } from '../../common/problem';
import type { PlaceholderFields } from './templates';
import { pathValues, slotsOf } from './templates';

/**
 * Which field of the node an invalid input of the service's problem document is about, so that
 * errors name it by its label ("Project") instead of the API's name for it ("path parameter
 * projectIdOrName"). The operation's templates say which field fills which query or body input;
 * an input named like one of the operation's fields (a body builder's `groupRef`) is that field;
 * a path parameter, which the API names after its own path template, is the placeholder that sent
 * the value the service quotes back. Without a match the API's name stays.
 */
export function issueLabeler(
	templates: { qs?: IDataObject; body?: IDataObject },
	fields: PlaceholderFields,
	/** Labels of the operation's own fields by name, for inputs a body builder fills from them. */
	named: Record<string, string> = {},
): (context: object) => FieldLabeler {
	const slots = [...slotsOf(templates.qs, 'qs'), ...slotsOf(templates.body, 'body')];
	return (context) => (input) => {
		// A query or body input by its name or JSON pointer ("groupRef", "/installation/config").
		const key = input.name.replace(/^\//, '').split('/').join('.');
		const where = input.in === 'query' ? 'qs' : input.in;
		const slot = slots.find(
			(candidate) =>
				(where === undefined || candidate.where === where) && candidate.path.join('.') === key,
		);
		if (slot) return fields[slot.name]?.label;
		if (Object.hasOwn(fields, input.name)) return fields[input.name].label;
		if (Object.hasOwn(named, input.name)) return named[input.name];
		if ((input.in === 'path' || input.in === undefined) && input.value !== undefined) {
			const sent = String(input.value);
			const values = pathValues(context);
			const labels = new Set(
				Object.keys(fields)
					.filter((name) => values[name] === sent)
					.map((name) => fields[name].label),
			);
			// Two fields with the same value: the API's name is less misleading than a guess.
			if (labels.size === 1) return [...labels][0];
		}
		return undefined;
	};
}
