import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { recordStart } from './logCursor';
import { STATE_KEY } from './pollOperations';
import { DISCOVERY_KEY, scopeOf } from './pollScope';
import { startState } from './discoveryState';
import type { Settings } from './settings';

/*
 * Where "start from now" starts when n8n does not keep the activation poll's state. Every
 * activation polls once at once; with n8n's default scheduler its state is saved, but with n8n's
 * durable poll cursors a poll at activation that finds nothing is not committed (n8n-core's
 * PollTriggerExecutor skips the cursor-only commit for it), so the first scheduled poll would
 * start from its own time and skip what was logged in between. So the first poll also notes its
 * time in the workflow's global static data, which n8n saves after every activation, and a later
 * poll that finds no state of its own starts from that time (docs/triggers.md, "When main dies").
 */
const NOTE_PREFIX = 'integrationPlatformLogTriggerStart:';

/** Before a production poll: note or apply the activation time when the node has no state yet. */
export function startFromActivation(
	context: IPollFunctions,
	settings: Settings,
	now: number,
): void {
	if (settings.emitExisting) return; // the history is emitted anyway
	const node = context.getWorkflowStaticData('node');
	if (node[STATE_KEY] !== undefined || node[DISCOVERY_KEY] !== undefined) return;
	const global = context.getWorkflowStaticData('global');
	const key = `${NOTE_PREFIX}${context.getNode().id}`;
	const noted = global[key];
	// Noted once, like the state the default scheduler saves after the first activation poll: a
	// later activation goes on from it, as it would go on from that state.
	if (typeof noted !== 'number' || noted > now) {
		global[key] = now;
		return; // this poll starts from now, as any first poll does
	}
	if (settings.watch === 'operationIds') {
		const started = recordStart(undefined, settings.operationIds, noted);
		if (started) node[STATE_KEY] = started as unknown as IDataObject;
	} else {
		node[DISCOVERY_KEY] = startState(
			undefined,
			scopeOf(settings),
			noted,
			false,
		) as unknown as IDataObject;
	}
}
