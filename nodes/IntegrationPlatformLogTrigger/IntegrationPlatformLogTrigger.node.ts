import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeCredentials } from '../common/api';
import { searchInstallations, searchIntegrations } from '../common/installation';
import { searchProjects } from '../common/project';
import { startFromActivation } from './activationStart';
import { properties } from './description';
import { searchOperations } from './listSearch';
import { pollWithHandOff } from './handOff';
import { pollOperationIds } from './pollOperations';
import { pollScope } from './pollScope';
import { readSettings } from './settings';
import { triggerPanel } from './triggerPanel';

/**
 * Polling trigger on operation logs. Version 1 watches operation IDs typed by hand; version 2
 * watches a whole installation or integration, discovering its operations (pollScope.ts), or
 * operation IDs as before (pollOperations.ts); version 3 (the default for new nodes) picks those
 * operations from a list (listSearch.ts). Both keep the
 * exactly-once log cursor (logCursor.ts) in the node's static data; handOff.ts emits again what a
 * main killed during the hand-off to n8n may have lost.
 */
export class IntegrationPlatformLogTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Integration Platform Log Trigger',
		name: 'integrationPlatformLogTrigger',
		icon: {
			light: 'file:../../icons/integrationPlatform.svg',
			dark: 'file:../../icons/integrationPlatform.dark.svg',
		},
		group: ['trigger'],
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle:
			'={{ $parameter["watch"] === "installation" ? "Logs of a group" : $parameter["watch"] === "integration" ? "Logs of an integration" : "Logs of " + ($parameter["operationIds"] || "operations") }}',
		description:
			'Starts the workflow when new log entries appear on Integration Platform (Ampersand) operations of a group, an integration, or given operation IDs',
		defaults: { name: 'Integration Platform Log Trigger' },
		polling: true,
		triggerPanel,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: nodeCredentials,
		properties,
	};

	methods = {
		listSearch: { searchProjects, searchIntegrations, searchInstallations, searchOperations },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const settings = readSettings(this);
		const poll = async () =>
			settings.watch === 'operationIds'
				? await pollOperationIds(this, settings)
				: await pollScope(this, settings);
		// "Fetch Test Event" neither reads nor writes the state
		if (this.getMode() === 'manual') return await poll();
		return await pollWithHandOff(this, poll, () => startFromActivation(this, settings, Date.now()));
	}
}
