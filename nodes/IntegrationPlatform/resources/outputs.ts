import type { OperationDefinition } from '../routing/defineOperation';
import { listEntries, resultItem } from '../routing/results';

/** An operation's output step together with the shape it makes, so the two cannot disagree. */
type Output = Pick<OperationDefinition, 'output' | 'outputShape'>;

/** A list: one item per entry, honouring Return All / Limit. */
export const listOutput: Output = { outputShape: 'listEntry', output: [listEntries] };

/**
 * A delete answered without a body: `{ deleted: true, <idName>: … }`, the ID being the value of
 * the path placeholder `placeholder`.
 */
export function deletedOutput(idName: string, placeholder: string): Output {
	return {
		outputShape: { deleted: idName },
		output: [resultItem((values) => ({ deleted: true, [idName]: values[placeholder] }))],
	};
}
