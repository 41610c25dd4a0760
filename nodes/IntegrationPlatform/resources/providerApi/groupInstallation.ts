import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { problemError } from '../../../common/errors';
import {
	GROUP_REF_MODE,
	installationOfGroup,
	noInstallationOfGroup,
} from '../../../common/installation';
import { encodePathSegment } from '../../../common/paths';
import { sendRequest } from '../../transport/send';

/** The mode the Group field was given in: a plain string saved by an older workflow is an ID. */
export function groupFieldMode(context: IExecuteFunctions): string | undefined {
	const stored = context.getNode().parameters.installation;
	if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return undefined;
	const { mode } = stored as { mode?: unknown };
	return typeof mode === 'string' ? mode : undefined;
}

export const isGroupRefMode = (mode: string | undefined) => mode === GROUP_REF_MODE;

/**
 * The installation IDs of groups given By Group Ref, looked up in the integration's installations
 * list (`?groupRef=`) once per run for each project, integration and group ref; items in flight at
 * once share the lookup. Only answers are kept: a failed lookup fails the item that made it, and
 * every other item asks again, so each error names its own item.
 */
export class GroupInstallations {
	private readonly found = new Map<string, Promise<string | undefined>>();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly secrets: string[],
	) {}

	async installationOf(
		itemIndex: number,
		project: string,
		integration: string,
		groupRef: string,
	): Promise<string> {
		const key = JSON.stringify([project, integration, groupRef]);
		const lookUp = () => this.lookUp(itemIndex, project, integration, groupRef);
		const shared = this.found.get(key);
		let installation: string | undefined;
		if (shared) {
			installation = await shared.catch(lookUp);
		} else {
			const mine = lookUp();
			this.found.set(key, mine);
			mine.catch(() => this.found.delete(key));
			installation = await mine;
		}
		if (installation === undefined) {
			const { message, description } = noInstallationOfGroup(groupRef);
			throw new NodeOperationError(this.context.getNode(), message, {
				itemIndex,
				description: `No request was sent to the provider for this item. ${description}`,
			});
		}
		return installation;
	}

	private async lookUp(
		itemIndex: number,
		project: string,
		integration: string,
		groupRef: string,
	): Promise<string | undefined> {
		const response = await sendRequest(this.context, {
			method: 'GET',
			path: `/projects/${encodePathSegment(project)}/integrations/${encodePathSegment(integration)}/installations`,
			qs: { groupRef },
			secrets: this.secrets,
			itemIndex,
		});
		if (response.status >= 400) {
			throw problemError(
				this.context.getNode(),
				response.status,
				response.body,
				response.headers,
				this.secrets,
				itemIndex,
			);
		}
		return installationOfGroup(response.body, groupRef);
	}
}
