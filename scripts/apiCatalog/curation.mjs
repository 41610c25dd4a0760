// @ts-check
/**
 * The catalogue's hand-kept fields (status, reason, nodeOperations), carried over from the
 * committed file and checked.
 */

export const STATUSES = ['covered', 'planned', 'excluded', 'not yet covered'];

/**
 * @param {any} generated
 * @param {any} existing
 */
export function curate(generated, existing) {
	const status = existing?.status ?? 'not yet covered';
	const where = `${generated.operationId}`;
	if (!STATUSES.includes(status)) {
		throw new Error(
			`${where}: status ${JSON.stringify(status)} is not one of ${STATUSES.join(', ')}`,
		);
	}
	const entry = { ...generated, status };
	if (existing?.reason !== undefined) entry.reason = existing.reason;
	if (existing?.nodeOperations !== undefined) {
		// Key order fixed, so that hand edits in another order still give the same bytes.
		entry.nodeOperations = existing.nodeOperations.map(
			(/** @type {{ resource: string, operation: string }} */ o) => ({
				resource: o.resource,
				operation: o.operation,
			}),
		);
	}
	if (status === 'excluded' && !entry.reason)
		throw new Error(`${where}: excluded without a reason`);
	if (status === 'covered' && !entry.nodeOperations?.length) {
		throw new Error(`${where}: covered without nodeOperations`);
	}
	return entry;
}
