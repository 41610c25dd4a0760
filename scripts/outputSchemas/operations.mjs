// @ts-check
/**
 * The action node's operations as the output-schema generator sees them: every Resource →
 * Operation option of every version the node's description lists, with the output shape its
 * definition declares and the API operation docs/api-catalog.json says it sends.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

import { answerOf, entriesOf, readJson, ROOT } from './schemas.mjs';
import { SHAPES, VALUED_SHAPES } from './shapes.mjs';

/** @typedef {import('./schemas.mjs').Schema} Schema */

const require = createRequire(import.meta.url);
/** The node's TypeScript sources, transpiled (not type-checked). */
const { requireTypeScript } = require('../tsRequire.cjs');

export const NODE_DIR = path.join(ROOT, 'nodes', 'IntegrationPlatform');

const catalog = readJson(path.join(ROOT, 'docs', 'api-catalog.json'));

/** 1 → "v1.0.0", 1.1 → "v1.1.0": n8n pads a node version to three parts for the folder name. */
export const versionFolder = (/** @type {number} */ version) =>
	`v${String(version).split('.').concat(['0', '0']).slice(0, 3).join('.')}`;

/**
 * Whether a selector with these `@version` conditions shows in `version`: plain version numbers,
 * or `{ _cnd: { gte: 2 } }`-style comparisons; none means every version.
 * @param {number} version @param {unknown[] | undefined} conditions
 */
function shownIn(version, conditions) {
	if (!conditions) return true;
	/** @type {Record<string, (a: number, b: number) => boolean>} */
	const compare = {
		eq: (a, b) => a === b,
		gt: (a, b) => a > b,
		gte: (a, b) => a >= b,
		lt: (a, b) => a < b,
		lte: (a, b) => a <= b,
	};
	return conditions.some((condition) => {
		if (typeof condition === 'number') return condition === version;
		const cnd = /** @type {{ _cnd?: Record<string, number> }} */ (condition)._cnd ?? {};
		const entries = Object.entries(cnd);
		if (entries.length === 0 || entries.some(([op]) => !compare[op])) {
			throw new Error(`unknown @version condition ${JSON.stringify(condition)}`);
		}
		return entries.every(([op, value]) => compare[op](version, value));
	});
}

/**
 * Every operation of the node: `{ version, resource, operation, shape, ownOutput, operationId }`,
 * `shape` as its definition declares it and `ownOutput` whether it makes items of its own
 * (output steps, a text answer, code of its own).
 */
export function nodeOperations() {
	const { IntegrationPlatform } = requireTypeScript(
		path.join(NODE_DIR, 'IntegrationPlatform.node.ts'),
	);
	const { RESOURCE_DEFINITIONS } = requireTypeScript(path.join(NODE_DIR, 'resources', 'index.ts'));
	const { description } = new IntegrationPlatform();
	const versions = Array.isArray(description.version) ? description.version : [description.version];
	const resources = description.properties.find((/** @type {Schema} */ p) => p.name === 'resource');
	const operations = [];
	for (const version of versions) {
		for (const { value: resource } of resources.options) {
			// One Operation selector per resource, or one per range of versions (`@version`).
			const selectors = description.properties.filter(
				(/** @type {Schema} */ p) =>
					p.name === 'operation' &&
					p.displayOptions?.show?.resource?.includes(resource) &&
					shownIn(version, p.displayOptions.show['@version']),
			);
			if (selectors.length !== 1) throw new Error(`${resource}: not one selector in v${version}`);
			const [selector] = selectors;
			const written = RESOURCE_DEFINITIONS.find((/** @type {Schema} */ r) => r.value === resource);
			for (const option of selector.options) {
				const definition = written?.operations.find(
					(/** @type {Schema} */ o) => o.value === option.value,
				);
				if (!definition) throw new Error(`${resource}/${option.value}: no definition found`);
				const sent = catalog.operations.filter((/** @type {Schema} */ entry) =>
					(entry.nodeOperations ?? []).some(
						(/** @type {Schema} */ n) => n.resource === resource && n.operation === option.value,
					),
				);
				operations.push({
					version,
					resource,
					operation: option.value,
					shape: definition.outputShape,
					ownOutput: Boolean(
						definition.output?.length || definition.textAnswer || definition.custom,
					),
					operationId: sent.length === 1 ? sent[0].operationId : undefined,
				});
			}
		}
	}
	return operations;
}

/** The item schema of one operation: its declared shape, or its JSON answer as it is. */
export function itemSchema(/** @type {ReturnType<typeof nodeOperations>[number]} */ op) {
	const key = `${op.resource}/${op.operation}`;
	const { operationId, shape } = op;
	const need = () => {
		if (!operationId)
			throw new Error(`${key}: docs/api-catalog.json names no API operation for it`);
		return operationId;
	};
	/** @type {import('./shapes.mjs').Context} */
	const context = {
		operationId,
		answer: () => answerOf(need()),
		entry: () => entriesOf(answerOf(need()), need()),
	};
	if (shape === undefined) {
		if (op.ownOutput) {
			throw new Error(
				`${key}: it makes its own items: declare its outputShape (routing/outputShape.ts) and its schema in scripts/outputSchemas/shapes.mjs`,
			);
		}
		return context.answer();
	}
	if (typeof shape === 'string') {
		if (!(shape in SHAPES)) throw new Error(`${key}: no schema for the output shape ${shape}`);
		return SHAPES[shape](context);
	}
	const entries = Object.entries(shape);
	const [name, value] = entries[0] ?? [];
	if (entries.length !== 1 || !(name in VALUED_SHAPES)) {
		throw new Error(`${key}: no schema for the output shape ${JSON.stringify(shape)}`);
	}
	return VALUED_SHAPES[name](value);
}
