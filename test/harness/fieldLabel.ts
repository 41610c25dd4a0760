import type { INodeProperties } from 'n8n-workflow';

import { IntegrationPlatform } from '../../nodes/IntegrationPlatform/IntegrationPlatform.node';

const properties = new IntegrationPlatform().description.properties;

/**
 * The label the action node shows for a field of an operation: what its error messages must name
 * (routing/issueFields.ts), looked up rather than written out, so the tests follow a renamed label.
 */
export function fieldLabel(resource: string, operation: string, name: string): string {
	const field = properties.find(
		(p: INodeProperties) =>
			p.name === name &&
			((p.displayOptions?.show?.resource as unknown[] | undefined) ?? [resource]).includes(
				resource,
			) &&
			((p.displayOptions?.show?.operation as unknown[] | undefined) ?? [operation]).includes(
				operation,
			) &&
			!((p.displayOptions?.hide?.operation as unknown[] | undefined) ?? []).includes(operation),
	);
	if (!field) throw new Error(`no field ${name} for ${resource} → ${operation}`);
	return field.displayName;
}
