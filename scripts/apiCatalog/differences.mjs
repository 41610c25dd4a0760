// @ts-check
/**
 * What differs between a committed file and the one the generator would write, for --check.
 */

/**
 * What differs between the committed file and the one the generator would write.
 * @param {string} committed
 * @param {any[]} operations
 */
export function describeDifferences(committed, operations) {
	let json;
	try {
		json = JSON.parse(committed);
	} catch {
		return ['the committed file is not valid JSON'];
	}
	const entries = Array.isArray(json) ? json : (json?.operations ?? []);
	const before = new Map(entries.map((/** @type {any} */ e) => [e.operationId, e]));
	const after = new Map(operations.map((e) => [e.operationId, e]));
	const lines = [];
	for (const id of after.keys()) if (!before.has(id)) lines.push(`+ ${id}: new operation`);
	for (const id of before.keys()) {
		if (!after.has(id)) lines.push(`- ${id}: no longer in the documents`);
	}
	for (const [id, entry] of after) {
		const old = before.get(id);
		if (!old) continue;
		const keys = new Set([...Object.keys(old), ...Object.keys(entry)]);
		for (const key of keys) {
			const was = JSON.stringify(old[key]);
			const is = JSON.stringify(entry[key]);
			if (was !== is) lines.push(`~ ${id}.${key}: ${was ?? '(absent)'} → ${is ?? '(absent)'}`);
		}
	}
	if (lines.length === 0) {
		const order = entries.map((/** @type {any} */ e) => e.operationId).join();
		lines.push(
			order !== operations.map((e) => e.operationId).join()
				? 'the operations are in a different order'
				: 'the same content, formatted differently (rerun the generator)',
		);
	}
	return lines;
}

/**
 * What differs between the committed request contract and the generated one, by operation and
 * definition.
 * @param {string} committed
 * @param {any} generated
 */
export function describeRequestDifferences(committed, generated) {
	let json;
	try {
		json = JSON.parse(committed);
	} catch {
		return ['the committed file is not valid JSON'];
	}
	const lines = [];
	for (const [what, id] of /** @type {const} */ ([
		['operations', 'operationId'],
		['definitions', undefined],
	])) {
		/** @param {any} container */
		const byId = (container) =>
			new Map(
				id
					? (container?.[what] ?? []).map((/** @type {any} */ e) => [e[id], e])
					: Object.entries(container?.[what] ?? {}),
			);
		const before = byId(json);
		const after = byId(generated);
		for (const key of new Set([...before.keys(), ...after.keys()])) {
			if (!before.has(key)) lines.push(`+ ${what} ${key}`);
			else if (!after.has(key)) lines.push(`- ${what} ${key}`);
			else if (JSON.stringify(before.get(key)) !== JSON.stringify(after.get(key))) {
				lines.push(`~ ${what} ${key}`);
			}
		}
	}
	if (lines.length === 0) lines.push('the same content, formatted or ordered differently');
	return lines;
}
