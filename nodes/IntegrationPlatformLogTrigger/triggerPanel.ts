import type { TriggerPanelDefinition } from 'n8n-workflow';

import { TEST_EVENT_ENTRIES } from './pollOperations';

/**
 * What n8n's editor shows beside the trigger's parameters. n8n names the test button itself and
 * differently per place: "Fetch Test Event" in the header and in this panel (every polling
 * trigger), "Test this trigger" in the empty output panel (every trigger); a node cannot change
 * either (docs/n8n-notes.md, "The test buttons of a polling trigger"). The panel's help text can:
 * it says that both buttons do the same, and what that is for this trigger, where n8n's own text
 * speaks of "a single mock event".
 */
const TEST_RUN = `click <b>Fetch Test Event</b> (the output panel's <b>Test this trigger</b> does the same): the trigger reads the latest ${TEST_EVENT_ENTRIES} log entries of what it watches and shows them here, oldest first, without moving its cursor.`;

const EXECUTIONS =
	'These executions show up in the <a data-key="executions">executions list</a>, not in the editor.';

export const triggerPanel: TriggerPanelDefinition = {
	header: 'Fetch the latest log entries',
	executionsHelp: {
		inactive: `<b>While building your workflow</b>, ${TEST_RUN}<br /><br /><b>Once you're happy with your workflow</b>, publish it. Then n8n polls for new log entries on its schedule and starts the workflow once per new entry. ${EXECUTIONS}`,
		active: `<b>While building your workflow</b>, ${TEST_RUN}<br /><br /><b>Your workflow also runs automatically</b>, since it is published: n8n polls for new log entries on its schedule and starts the workflow once per new entry. ${EXECUTIONS}`,
	},
};
