// @ts-check
'use strict';
/** What the benchmarks share: output, medians, and the workflow shape trigger → Code → node. */

const say = (/** @type {string} */ m) => process.stdout.write(`${m}\n`);

const median = (/** @type {number[]} */ values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(2)} s`;

/** A workflow: manual trigger → Code node emitting the items → the node under test. */
function workflow(
	/** @type {string} */ jsCode,
	/** @type {any} */ node,
	name = `bench ${node.type}`,
) {
	return {
		name,
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: { jsCode },
				name: 'Items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
			},
			{ name: 'Under Test', position: [400, 0], ...node },
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Under Test', type: 'main', index: 0 }]] },
		},
	};
}

module.exports = { say, median, seconds, workflow };
