/**
 * What the output-schema tests expect, read from the action node's description: its versions,
 * the Resource → Operation options each version shows, and where n8n looks for each schema
 * (docs/architecture.md, "Output schemas"); and a check of trigger items against theirs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import Ajv from 'ajv';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { IntegrationPlatform } from '../../nodes/IntegrationPlatform/IntegrationPlatform.node';

export const SCHEMA_DIR = path.join(
	__dirname,
	'..',
	'..',
	'nodes',
	'IntegrationPlatform',
	'__schema__',
);
export const NODE_TYPE = 'n8n-nodes-integration-platform.integrationPlatform';

const { description } = new IntegrationPlatform();

/** Every version the node's description lists. */
export const nodeVersions = (): number[] =>
	Array.isArray(description.version) ? description.version : [description.version];

/** A version as n8n's editor writes it in the schema URL: 1 → 1.0.0, 2.1 → 2.1.0. */
export const paddedVersion = (version: number): string =>
	String(version).split('.').concat(['0', '0']).slice(0, 3).join('.');

/** `@version` conditions of a selector's displayOptions.show: plain values or `{ _cnd: … }`. */
function versionMatches(condition: unknown, version: number): boolean {
	if (typeof condition === 'number') return condition === version;
	const cnd = (condition as { _cnd?: Record<string, number> })._cnd;
	if (!cnd) throw new Error(`unknown @version condition ${JSON.stringify(condition)}`);
	return Object.entries(cnd).every(([op, value]) => {
		if (op === 'gte') return version >= value;
		if (op === 'gt') return version > value;
		if (op === 'lte') return version <= value;
		if (op === 'lt') return version < value;
		if (op === 'eq') return version === value;
		throw new Error(`unknown @version condition ${op}`);
	});
}

/** Every Resource → Operation option the node shows in `version`. */
export function operationsOf(version: number): Array<{ resource: string; operation: string }> {
	const resources = description.properties.find((p) => p.name === 'resource')!
		.options as INodePropertyOptions[];
	return resources.flatMap(({ value }) => {
		const resource = String(value);
		const selectors = description.properties.filter((p: INodeProperties) => {
			const show = p.displayOptions?.show ?? {};
			const versions = show['@version'] as unknown[] | undefined;
			return (
				p.name === 'operation' &&
				(show.resource as string[] | undefined)?.includes(resource) &&
				(!versions || versions.some((c) => versionMatches(c, version)))
			);
		});
		if (selectors.length !== 1) {
			throw new Error(`${resource}: ${selectors.length} operation selectors in version ${version}`);
		}
		return (selectors[0].options as INodePropertyOptions[]).map((option) => ({
			resource,
			operation: String(option.value),
		}));
	});
}

/** The schema's path below SCHEMA_DIR, as n8n's server resolves it. */
export const schemaFile = (version: number, resource: string, operation: string): string =>
	path.join(`v${paddedVersion(version)}`, resource, `${operation}.json`);

/**
 * The errors of `items` against a trigger's committed output schema for `version`
 * (`nodes/<folder>/__schema__/v<x.y.z>.json`): one line per item that does not match.
 */
export function triggerSchemaErrors(folder: string, version: number, items: unknown[]): string[] {
	const file = path.join(__dirname, '..', '..', 'nodes', folder, '__schema__');
	const schema = JSON.parse(
		fs.readFileSync(path.join(file, `v${paddedVersion(version)}.json`), 'utf8'),
	) as object;
	const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
	return items.flatMap((item, index) =>
		validate(item) ? [] : [`item ${index}: ${new Ajv().errorsText(validate.errors)}`],
	);
}
