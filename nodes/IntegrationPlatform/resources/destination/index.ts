import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { returnAllAndLimit } from '../../fields';
import type { OperationDefinition } from '../../routing/defineOperation';
import { deletedOutput, listOutput } from '../outputs';
import { parseJsonParameter } from '../../routing/parameters';
import { addSecretValue } from '../../routing/templates';
import { byId, listLocator } from '../../../common/locator';

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

/** Types whose metadata is a URL (docs/api-notes.md, "Destinations"). */
const URL_TYPES = ['webhook', 'slack'];
const TYPES: Array<{ name: string; value: string }> = [
	{ name: 'Azure Service Bus', value: 'azureservicebus' },
	{ name: 'BigQuery', value: 'bigquery' },
	{ name: 'ClickHouse', value: 'clickhouse' },
	{ name: 'Kinesis', value: 'kinesis' },
	{ name: 'Pub/Sub', value: 'pubsub' },
	{ name: 'RabbitMQ', value: 'rabbitmq' },
	{ name: 'Redshift', value: 'redshift' },
	{ name: 'S3', value: 's3' },
	{ name: 'Slack', value: 'slack' },
	{ name: 'Snowflake', value: 'snowflake' },
	{ name: 'SQS', value: 'sqs' },
	{ name: 'Webhook', value: 'webhook' },
];
const OTHER_TYPES = TYPES.map((t) => t.value).filter((t) => !URL_TYPES.includes(t));

const notSent = (context: IExecuteSingleFunctions, message: string, description: string) =>
	new NodeOperationError(context.getNode(), message, {
		itemIndex: context.getItemIndex(),
		description: `${description} No request was sent.`,
	});

/**
 * Destination secrets (AWS keys, passwords, service-account JSON) are write-only at the service
 * (docs/api-notes.md, "Destinations"); their values are masked in every error of the item, as
 * password fields are.
 */
function maskSecrets(context: IExecuteSingleFunctions, secrets: IDataObject): void {
	for (const value of Object.values(secrets)) {
		if (typeof value === 'string') addSecretValue(context, value);
	}
}

/** An optional JSON object parameter (text or object): empty text or `{}` means "none". */
function optionalJsonObject(
	context: IExecuteSingleFunctions,
	label: string,
	raw: unknown,
): IDataObject | undefined {
	if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
		return undefined;
	}
	let value = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw notSent(
				context,
				`"${label}" is not valid JSON: ${(error as Error).message}`,
				'Fix the JSON in the parameter, or the expression that produces it.',
			);
		}
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw notSent(
			context,
			`"${label}" must be a JSON object ({ … })`,
			'Fix the JSON in the parameter, or the expression that produces it.',
		);
	}
	return Object.keys(value).length ? (value as IDataObject) : undefined;
}

/**
 * Builds `{ name, type, metadata, secrets? }` (docs/api-notes.md, "Destinations"). Webhook and Slack
 * destinations take the URL (and for webhooks, headers); the other types take their metadata and
 * secrets as JSON objects, since each type has its own fields.
 */
async function buildCreateBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body = (requestOptions.body ?? {}) as IDataObject;
	const type = body.type as string;
	let metadata: IDataObject;
	if (URL_TYPES.includes(type)) {
		const url = this.getNodeParameter('url', '') as unknown;
		if (typeof url !== 'string' || url.trim() === '') {
			throw notSent(this, '"URL" is empty: the service requires it', 'Enter the https:// URL.');
		}
		metadata = { url: url.trim() };
		if (type === 'webhook') {
			const { headers } = this.getNodeParameter('additionalFields', {}) as { headers?: unknown };
			const parsed = optionalJsonObject(this, 'Headers (JSON)', headers);
			if (parsed) metadata.headers = parsed;
		}
	} else {
		metadata = parseJsonParameter(this, 'metadata', 'Metadata (JSON)', 'object') as IDataObject;
		// Like every JSON parameter of the node, read strictly: `{}` is sent, empty text refused.
		const secrets = parseJsonParameter(this, 'secrets', 'Secrets (JSON)', 'object') as IDataObject;
		maskSecrets(this, secrets);
		body.secrets = secrets;
	}
	body.metadata = metadata;
	requestOptions.body = body;
	return requestOptions;
}

/**
 * Builds `{ updateMask, destination }` from the fields the user added: `name`, and one mask entry
 * per metadata or secret field (`metadata.url`, `secrets.password`) (docs/api-notes.md,
 * "Destinations").
 */
async function buildUpdateBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const fields = this.getNodeParameter('updateFields', {}) as IDataObject;
	const updateMask: string[] = [];
	const destination: IDataObject = {};
	const metadata: IDataObject = {};
	if (fields.name !== undefined) {
		updateMask.push('name');
		destination.name = fields.name;
	}
	if (fields.url !== undefined) metadata.url = fields.url;
	const headers = optionalJsonObject(this, 'Headers (JSON)', fields.headers);
	if (headers) metadata.headers = headers;
	const more = optionalJsonObject(this, 'Metadata (JSON)', fields.metadata);
	Object.assign(metadata, more ?? {});
	for (const key of Object.keys(metadata)) updateMask.push(`metadata.${key}`);
	if (Object.keys(metadata).length) destination.metadata = metadata;
	const secrets = optionalJsonObject(this, 'Secrets (JSON)', fields.secrets);
	if (secrets) {
		maskSecrets(this, secrets);
		for (const key of Object.keys(secrets)) updateMask.push(`secrets.${key}`);
		destination.secrets = secrets;
	}
	if (updateMask.length === 0) {
		throw notSent(
			this,
			'Add at least one field to update: Name, URL, Headers, Metadata or Secrets',
			'The service needs a non-empty update mask.',
		);
	}
	requestOptions.body = { updateMask, destination };
	return requestOptions;
}

// GET /projects/{projectIdOrName}/destinations/{destination} — docs/api-notes.md, "getDestination". The same GET
// rotates the signing secret when asked (`rotate=true`): a side effect on a GET, so it is its own,
// clearly labelled operation rather than a checkbox next to "Include Secrets".
export const destinationOperations: OperationDefinition[] = [
	// POST /projects/{projectIdOrName}/destinations — docs/api-notes.md, "Destinations": 201 Destination.
	{
		name: 'Create',
		value: 'create',
		action: 'Create a destination',
		description:
			'Create a webhook, Slack, stream, queue or warehouse destination. Returns the new destination without its secrets.',
		method: 'POST',
		path: '/projects/{project}/destinations',
		body: { name: '{name}', type: '{destinationType}' },
		preSend: [buildCreateBody],
	},
	// DELETE /projects/{projectIdOrName}/destinations/{destination} (the ID) — 204.
	{
		name: 'Delete',
		value: 'delete',
		action: 'Delete a destination',
		description:
			'Delete a destination and the topic routes that deliver to it. Returns deleted: true and the destination ID.',
		method: 'DELETE',
		path: '/projects/{project}/destinations/{destinationId}',
		...deletedOutput('destinationId', 'destinationId'),
	},
	{
		name: 'Get',
		value: 'get',
		action: 'Get a destination',
		description:
			'Get a destination (webhook, stream, …), optionally with its signing secret. Returns its ID, name, type and metadata (URL, headers); the secret only when asked for.',
		method: 'GET',
		path: '/projects/{project}/destinations/{destination}',
		preSend: [includeSecretsQuery],
	},
	// GET /projects/{projectIdOrName}/destinations — a bare array, never with secrets.
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many destinations',
		description:
			'List the destinations of a project. Returns one item per destination, without secrets (at most Limit of them unless Return All is on).',
		method: 'GET',
		path: '/projects/{project}/destinations',
		...listOutput,
	},
	{
		name: 'Rotate Signing Secret',
		value: 'rotateSecret',
		action: 'Rotate the signing secret of a destination',
		description:
			'Replace the webhook signing secret with a new one; deliveries are signed with the new secret from then on. Returns the destination without its secrets.',
		method: 'GET',
		path: '/projects/{project}/destinations/{destination}',
		qs: { rotate: true },
		preSend: [includeSecretsQuery],
	},
	// PATCH /projects/{projectIdOrName}/destinations/{destination} (the ID) — update mask; 200 Destination.
	{
		name: 'Update',
		value: 'update',
		action: 'Update a destination',
		description:
			'Rename a destination or change its URL, headers, metadata or secrets. Returns the updated destination without its secrets.',
		method: 'PATCH',
		path: '/projects/{project}/destinations/{destinationId}',
		preSend: [buildUpdateBody],
	},
];

const show = (operation: string[], extra: IDataObject = {}) => ({
	show: { resource: [resource], operation, ...extra },
});
const showForCreate = show(['create']);

export const destinationFields: INodeProperties[] = [
	{
		displayName:
			'Rotating takes effect at once: anything that verifies deliveries with the old secret must get the new one. The Integration Platform Trigger fetches it by itself.',
		name: 'rotateNotice',
		type: 'notice',
		default: '',
		displayOptions: show(['rotateSecret']),
	},
	// PATCH and DELETE take the destination's ID (docs/api-notes.md, "getDestination").
	listLocator({
		displayName: 'Destination',
		name: 'destinationId',
		description: 'The destination, from the list (shown by name) or by ID',
		search: 'searchDestinationIds',
		select: 'Select a destination…',
		typed: [byId('0c5e…', { noun: 'destination', format: 'hex' })],
		displayOptions: show(['update', 'delete']),
	}),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. lead-converted-webhook',
		description: 'Unique in the project; letters, digits and dashes only',
		displayOptions: showForCreate,
	},
	{
		displayName: 'Type',
		name: 'destinationType',
		type: 'options',
		default: 'webhook',
		options: TYPES,
		description: 'Where the destination delivers',
		displayOptions: showForCreate,
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		// Checked when the item runs rather than marked required: with Type set by an expression,
		// n8n would demand a URL for every type before running.
		default: '',
		placeholder: 'e.g. https://hooks.example.com/ampersand',
		description:
			'Required. The webhook URL (for Slack, the incoming-webhook URL); the service accepts only https:// URLs.',
		displayOptions: show(['create'], { destinationType: URL_TYPES }),
	},
	{
		displayName: 'Metadata (JSON)',
		name: 'metadata',
		type: 'json',
		required: true,
		default: '{}',
		description:
			'The type\'s settings, e.g. { "queueUrl": "…" } for SQS, { "streamName": "…", "region": "…" } for Kinesis, { "bucket": "…" } for S3',
		displayOptions: show(['create'], { destinationType: OTHER_TYPES }),
	},
	{
		displayName: 'Secrets (JSON)',
		name: 'secrets',
		type: 'json',
		default: '{}',
		description:
			'Credentials for the type, e.g. { "awsKeyId": "…", "awsSecretKey": "…" }. The service never returns them; use an expression to keep them out of the workflow.',
		displayOptions: show(['create'], { destinationType: OTHER_TYPES }),
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['create'], { destinationType: ['webhook'] }),
		options: [
			{
				displayName: 'Headers (JSON)',
				name: 'headers',
				type: 'json',
				default: '{}',
				description: 'Extra HTTP headers sent with every delivery, e.g. { "X-Team": "sales" }',
			},
		],
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['update']),
		options: [
			{
				displayName: 'Headers (JSON)',
				name: 'headers',
				type: 'json',
				default: '{}',
				description: 'Webhook headers, replacing the current ones',
			},
			{
				displayName: 'Metadata (JSON)',
				name: 'metadata',
				type: 'json',
				default: '{}',
				description:
					'Metadata fields to change, e.g. { "streamName": "…" }; each key is updated on its own',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'New name; letters, digits and dashes only',
			},
			{
				displayName: 'Secrets (JSON)',
				name: 'secrets',
				type: 'json',
				default: '{}',
				description:
					'Secrets to replace, e.g. { "password": "…" }. The webhook signing secret is changed with Rotate Signing Secret instead.',
			},
			{
				displayName: 'URL',
				name: 'url',
				type: 'string',
				default: '',
				description: 'New webhook or Slack URL (https:// only)',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show(['get', 'rotateSecret']),
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
	...returnAllAndLimit(show(['getAll'])),
];
