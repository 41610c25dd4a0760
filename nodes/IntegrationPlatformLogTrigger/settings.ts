import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	GROUP_REF_MODE,
	groupInstallationLocator,
	integrationLocator,
} from '../common/installation';
import { locatorProblem } from '../common/locator';
import type { Watch } from './description';
import { operationsParameter } from './description';
import { MAX_OPERATION_ID_LENGTH } from './discoveryState';
import type { LogFilters } from './output';
import { buildFilters, parseOperationIds } from './output';

/** Each operation costs one request per poll. */
export const MAX_OPERATIONS = 20;

export interface Settings {
	watch: Watch;
	project: string;
	/** Set when the project is given by ID; otherwise looked up by name when needed. */
	projectId?: string;
	integration: string;
	/** The installation's ID, or the group ref when `byGroupRef` (looked up on each poll). */
	installation: string;
	byGroupRef: boolean;
	operationIds: string[];
	filters: LogFilters;
	emitExisting: boolean;
}

function locatorValue(context: IPollFunctions, name: string): string {
	const value = context.getNodeParameter(name, '', { extractValue: true });
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

/**
 * An ID locator's value, refused when its mode's check refuses it: n8n checks a typed value only
 * in the editor and before running the execution a poll starts, and never the value of an
 * expression (nodes/common/locator.ts, `locatorProblem`).
 */
function checkedLocatorValue(context: IPollFunctions, field: INodeProperties): string {
	const value = locatorValue(context, field.name);
	const locator = context.getNodeParameter(field.name, '', { extractValue: false });
	const mode = typeof locator === 'object' && locator !== null ? (locator as IDataObject).mode : '';
	const problem = locatorProblem(field, mode, value);
	if (problem) {
		throw new NodeOperationError(context.getNode(), problem, {
			description: 'Nothing was read. Pick it from the list, or check the expression that sets it.',
		});
	}
	return value;
}

/**
 * Version 3's Operations: the ID of each row, once; a row's expression may give several (a list,
 * or text separated by commas). A row "By ID" is checked as n8n checks a typed one, since n8n
 * skips an expression's value (nodes/common/locator.ts, `locatorProblem`).
 */
function operationsOf(context: IPollFunctions): string[] {
	const collection = context.getNodeParameter('operations', {}) as IDataObject;
	const rows = Array.isArray(collection.operation) ? (collection.operation as IDataObject[]) : [];
	const field = operationsParameter.options?.[0];
	const modes = field && 'values' in field ? field.values[0].modes : undefined;
	const ids: string[] = [];
	rows.forEach((row, index) => {
		const locator = row?.operationId;
		const isLocator = typeof locator === 'object' && locator !== null && !Array.isArray(locator);
		const value = isLocator ? (locator as IDataObject).value : locator;
		const mode = isLocator ? (locator as IDataObject).mode : '';
		for (const id of parseOperationIds(value)) {
			const problem = locatorProblem({ displayName: `Operation ${index + 1}`, modes }, mode, id);
			if (problem) {
				throw new NodeOperationError(context.getNode(), problem, {
					description: 'Nothing was read. Pick the operation from the list, or give its ID.',
				});
			}
			ids.push(id);
		}
	});
	return [...new Set(ids)];
}

/** The node's parameters, checked before any request. Version 1 always watches operation IDs. */
export function readSettings(context: IPollFunctions): Settings {
	const node = context.getNode();
	const watch: Watch =
		node.typeVersion >= 2
			? (context.getNodeParameter('watch', 'installation') as Watch)
			: 'operationIds';
	const locator = context.getNodeParameter('project', undefined, { extractValue: false }) as
		| { mode?: string; value?: unknown }
		| string
		| undefined;
	const project = locatorValue(context, 'project');
	if (!project) {
		throw new NodeOperationError(node, 'Select a project', {
			description: 'The project is required: choose it from the list or give its name or ID.',
		});
	}
	let integration = '';
	let installation = '';
	let byGroupRef = false;
	let operationIds: string[] = [];
	if (watch === 'installation' || watch === 'integration') {
		integration = checkedLocatorValue(context, integrationLocator);
		if (!integration) {
			throw new NodeOperationError(node, 'Select an integration', {
				description: 'Choose the integration from the list or give its ID.',
			});
		}
	}
	if (watch === 'installation') {
		installation = checkedLocatorValue(context, groupInstallationLocator);
		if (!installation) {
			throw new NodeOperationError(node, 'Select a group', {
				description:
					'Choose the group from the list, or give its group ref or its installation ID, or watch the whole integration.',
			});
		}
		const stored = context.getNodeParameter('installation', undefined, { extractValue: false });
		byGroupRef = (stored as { mode?: unknown } | undefined)?.mode === GROUP_REF_MODE;
	}
	if (watch === 'operationIds') {
		operationIds =
			node.typeVersion >= 3
				? operationsOf(context)
				: parseOperationIds(context.getNodeParameter('operationIds', ''));
		if (!operationIds.length) {
			throw new NodeOperationError(
				node,
				node.typeVersion >= 3 ? 'Add at least one operation' : 'Enter at least one operation ID',
				{
					description:
						node.typeVersion >= 3
							? 'Under Operations, pick each operation from the list or give its ID (read results carry it as operationId).'
							: 'Operation IDs are found in read results (operationId) or in the dashboard; separate several with commas.',
				},
			);
		}
		const overlong = operationIds.find((id) => id.length > MAX_OPERATION_ID_LENGTH);
		if (overlong !== undefined) {
			throw new NodeOperationError(node, `Operation ID too long: ${overlong.length} characters`, {
				description: `Operation IDs are UUIDs (36 characters); the trigger keeps IDs of at most ${MAX_OPERATION_ID_LENGTH} in its state. Check the Operation IDs field.`,
			});
		}
		if (operationIds.length > MAX_OPERATIONS) {
			throw new NodeOperationError(node, `Too many operation IDs: ${operationIds.length}`, {
				description: `One trigger watches at most ${MAX_OPERATIONS} operations (each costs a request per poll). Split them over several triggers.`,
			});
		}
	}
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return {
		watch,
		project,
		projectId: typeof locator === 'object' && locator?.mode === 'id' ? project : undefined,
		integration,
		installation,
		byGroupRef,
		operationIds,
		filters: buildFilters(
			context.getNodeParameter('severities', []),
			options.customSeverities,
			options.messageContains,
		),
		emitExisting: options.emitExisting === true,
	};
}

export function describeFilters(filters: LogFilters): string {
	const parts = [];
	if (filters.severities.length) parts.push(`severity ${filters.severities.join(', ')}`);
	if (filters.text) parts.push(`message containing "${filters.text}"`);
	return parts.join(' and ');
}
