import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { OperationDefinition } from '../../routing/defineOperation';


/**
 * `includeSecrets` query parameter from Options → Include Secrets. A flag that reveals the
 * signing secret is read strictly: true or false (or their text); anything else an expression
 * produces is refused (n8n's routing would send an object as `includeSecrets[key]=…`).
 */
async function includeSecretsQuery(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const { includeSecrets } = this.getNodeParameter('options', {}) as { includeSecrets?: unknown };
	if (includeSecrets === undefined) return requestOptions;
	const flag =
		includeSecrets === true || includeSecrets === 'true'
			? true
			: includeSecrets === false || includeSecrets === 'false'
				? false
				: undefined;
	if (flag === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`"Include Secrets" must be true or false, but its value is ${JSON.stringify(includeSecrets)?.slice(0, 40) ?? typeof includeSecrets}`,
			{
				itemIndex: this.getItemIndex(),
				description: 'No request was sent. Check the expression that sets the option.',
			},
		);
	}
	requestOptions.qs = { ...(requestOptions.qs ?? {}), includeSecrets: flag };
	return requestOptions;
}

const resource = 'destination';

// GET /projects/{projectIdOrName}/destinations/{destination} — docs/api-notes.md, "getDestination". The same GET
// rotates the signing secret when asked (`rotate=true`): a side effect on a GET, so it is its own,
// clearly labelled operation rather than a checkbox next to "Include Secrets".
export const destinationOperations: OperationDefinition[] = [
	{
		name: 'Get',
		value: 'get',
		action: 'Get a destination',
		description: 'Get a destination (webhook, stream, …), optionally with its signing secret',
		method: 'GET',
		path: '/projects/{project}/destinations/{destination}',
		preSend: [includeSecretsQuery],
	},
	{
		name: 'Rotate Signing Secret',
		value: 'rotateSecret',
		action: 'Rotate the signing secret of a destination',
		description:
			'Replace the webhook signing secret with a new one; deliveries are signed with the new secret from then on',
		method: 'GET',
		path: '/projects/{project}/destinations/{destination}',
		qs: { rotate: true },
		preSend: [includeSecretsQuery],
	},
];

export const destinationFields: INodeProperties[] = [
	{
		displayName:
			'Rotating takes effect at once: anything that verifies deliveries with the old secret must get the new one. The Integration Platform Trigger fetches it by itself.',
		name: 'rotateNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: [resource], operation: ['rotateSecret'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { resource: [resource] } },
		options: [
			{
				displayName: 'Include Secrets',
				name: 'includeSecrets',
				type: 'boolean',
				default: false,
				description:
					'Whether to return the webhook signing secret (secrets.webhookSigningKey). It then appears in the execution data.',
			},
		],
	},
];
