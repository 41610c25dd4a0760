import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkDateTime } from '../../../common/timestamps';
import { parseJsonParameter, requiredParameter } from '../../routing/parameters';
import { pathValues } from '../../routing/templates';

/** OAuth scopes from text (commas or spaces) or a list of text; undefined for anything else. */
function scopeList(text: unknown): string[] | undefined {
	const isText = (value: unknown) => typeof value === 'string' || typeof value === 'number';
	if (text === undefined || text === null) return [];
	if (Array.isArray(text) ? !text.every(isText) : !isText(text)) return undefined;
	return (Array.isArray(text) ? text.map(String) : String(text).split(/[\s,]+/))
		.map((scope) => scope.trim())
		.filter(Boolean);
}

/** A token and, when given, its expiry as an ISO date; an expiry that is not a date is refused. */
function tokenRecord(
	context: IExecuteSingleFunctions,
	token: unknown,
	expiryParameter: string,
	expiryLabel: string,
): IDataObject | undefined {
	if (typeof token !== 'string' || token === '') return undefined;
	const expiresAt = context.getNodeParameter(expiryParameter, '') as unknown;
	if (expiresAt === undefined || expiresAt === null || expiresAt === '') return { token };
	const checked = checkDateTime(expiryLabel, expiresAt);
	if ('problem' in checked) {
		throw new NodeOperationError(context.getNode(), checked.problem, {
			itemIndex: context.getItemIndex(),
			description:
				'No request was sent. Give a date and time such as 2030-01-31T12:00:00Z, or leave the field empty.',
		});
	}
	return { token, expiresAt: checked.iso };
}

/**
 * Builds the GenerateConnectionRequest (docs/api-notes.md, "generateConnection"): groupRef, consumerRef, provider, and at
 * most one of the provider credential forms, with the shapes the real API documents (the spec
 * leaves them out).
 */
export async function buildConnectionBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const get = (name: string, fallback: unknown = '') => this.getNodeParameter(name, fallback);
	const required = (name: string, label: string) =>
		requiredParameter(this, name, label, { extractValue: true }) as IDataObject[string];
	const body: IDataObject = {
		provider: required('provider', 'Provider Name or ID'),
		groupRef: required('groupRef', 'Group'),
		consumerRef: required('consumerRef', 'Consumer'),
	};
	const form = get('providerCredentials', 'none') as string;
	const withScopes = (value: IDataObject) => {
		const scopes = scopeList(get('scopes'));
		if (scopes === undefined) {
			throw new NodeOperationError(
				this.getNode(),
				'"Scopes" must be text (separated by commas or spaces) or a list of text',
				{
					itemIndex: this.getItemIndex(),
					description: `No request was sent. Check the expression that sets it; it gave ${JSON.stringify(get('scopes'))?.slice(0, 60)}.`,
				},
			);
		}
		return scopes.length ? { ...value, scopes } : value;
	};
	switch (form) {
		case 'apiKey':
			body.apiKey = required('providerApiKey', 'Provider API Key');
			break;
		case 'basicAuth':
			body.basicAuth = {
				username: required('username', 'Username'),
				password: required('password', 'Password'),
			};
			break;
		case 'oauth2ClientCredentials':
			body.oauth2ClientCredentials = withScopes({
				clientId: required('clientId', 'Client ID'),
				clientSecret: required('clientSecret', 'Client Secret'),
			});
			break;
		case 'oauth2PasswordCredentials':
			body.oauth2PasswordCredentials = withScopes({
				username: required('username', 'Username'),
				password: required('password', 'Password'),
				clientId: required('clientId', 'Client ID'),
				clientSecret: required('clientSecret', 'Client Secret'),
			});
			break;
		case 'oauth2AuthorizationCode': {
			const accessToken = tokenRecord(
				this,
				get('accessToken'),
				'accessTokenExpiresAt',
				'Access Token Expires At',
			);
			const refreshToken = tokenRecord(
				this,
				get('refreshToken'),
				'refreshTokenExpiresAt',
				'Refresh Token Expires At',
			);
			body.oauth2AuthorizationCode = withScopes({
				...(accessToken ? { accessToken } : {}),
				...(refreshToken ? { refreshToken } : {}),
			});
			break;
		}
		case 'customAuth':
			body.customAuth = parseJsonParameter(
				this,
				'customAuth',
				'Custom Auth Values (JSON)',
				'object',
			) as IDataObject;
			break;
	}
	const extra = get('connectionFields', {}) as IDataObject & {
		providerMetadata?: {
			entry?: Array<{ key: string; value: string; source: string; displayName?: string }>;
		};
	};
	for (const key of ['groupName', 'consumerName', 'providerWorkspaceRef'] as const) {
		if (typeof extra[key] === 'string' && extra[key] !== '') body[key] = extra[key];
	}
	const metadata = extra.providerMetadata?.entry ?? [];
	if (metadata.length) {
		body.providerMetadata = Object.fromEntries(
			metadata.map(({ key, value, source, displayName }) => [
				key,
				{ value, source, ...(displayName ? { displayName } : {}) },
			]),
		);
	}
	requestOptions.body = body;
	return requestOptions;
}

/** The Connection echoes provider credentials (apiKey, OAuth tokens); keep them out unless asked. */
export async function hideProviderSecrets(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { includeSecrets } = this.getNodeParameter('connectionOptions', {}) as {
		includeSecrets?: boolean;
	};
	if (includeSecrets) return items;
	return items.map(({ json }) => {
		const connection = { ...json };
		delete connection.apiKey;
		const oauth = connection.oauth2AuthorizationCode as IDataObject | undefined;
		if (oauth) {
			const copy: IDataObject = { ...oauth };
			for (const key of ['accessToken', 'refreshToken']) {
				if (copy[key] && typeof copy[key] === 'object') {
					const record = { ...(copy[key] as IDataObject) };
					delete record.token;
					copy[key] = record;
				}
			}
			connection.oauth2AuthorizationCode = copy;
		}
		return { json: connection };
	});
}

/** Query `provider`, `groupRef`, `consumerRef` from the filters given (docs/api-notes.md, "Connections"). */
export async function connectionFilters(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const filters = this.getNodeParameter('connectionFilters', {}) as IDataObject;
	const qs: IDataObject = {};
	for (const key of ['provider', 'groupRef', 'consumerRef']) {
		if (!(key in filters)) continue;
		// Version 2's filters are resource locators: their value, as a text filter's.
		const value = this.getNodeParameter(`connectionFilters.${key}`, '', {
			extractValue: true,
		}) as unknown;
		if (value === undefined || value === null || value === '') continue;
		if (typeof value !== 'string' && typeof value !== 'number') {
			throw new NodeOperationError(this.getNode(), `Filter "${key}" must be text`, {
				itemIndex: this.getItemIndex(),
				description: `No request was sent. Check the expression that sets it; it gave ${JSON.stringify(value)?.slice(0, 60)}.`,
			});
		}
		qs[key] = String(value).trim();
	}
	if (Object.keys(qs).length) requestOptions.qs = { ...(requestOptions.qs ?? {}), ...qs };
	return requestOptions;
}

/**
 * UpdateConnectionRequest (docs/api-notes.md, "Connections"): `connection` holds the values given,
 * `updateMask` names each of them; at least one is needed. Username and password (basicAuth), and
 * client ID and secret (oauth2ClientCredentials), go together.
 */
export async function buildConnectionUpdate(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const fields = this.getNodeParameter('connectionUpdate', {}) as IDataObject;
	const given = (key: string) =>
		fields[key] !== undefined && fields[key] !== null && fields[key] !== '';
	const fail = (message: string) =>
		new NodeOperationError(this.getNode(), message, {
			itemIndex: this.getItemIndex(),
			description: 'No request was sent. Add the missing field under Update Fields.',
		});
	const connection: IDataObject = {};
	if (given('providerWorkspaceRef')) connection.providerWorkspaceRef = fields.providerWorkspaceRef;
	if (given('providerMetadata') && fields.providerMetadata !== '{}') {
		connection.providerMetadata = parseJsonParameter(
			this,
			'connectionUpdate.providerMetadata',
			'Provider Metadata (JSON)',
			'object',
		) as IDataObject;
	}
	if (given('providerApiKey')) connection.apiKey = fields.providerApiKey;
	if (given('username') || given('password')) {
		if (!given('username') || !given('password')) {
			throw fail('"Basic Auth Username" and "Basic Auth Password" go together: give both');
		}
		connection.basicAuth = { username: fields.username, password: fields.password };
	}
	if (given('clientId') || given('clientSecret')) {
		if (!given('clientId') || !given('clientSecret')) {
			throw fail('"OAuth2 Client ID" and "OAuth2 Client Secret" go together: give both');
		}
		connection.oauth2ClientCredentials = {
			clientId: fields.clientId,
			clientSecret: fields.clientSecret,
		};
	}
	const updateMask = Object.keys(connection);
	if (!updateMask.length) {
		throw fail('Nothing to update: add at least one field under Update Fields');
	}
	requestOptions.body = { updateMask, connection };
	return requestOptions;
}

/** Get Reauthorization URL's item: the URL, and the connection it renews. */
export async function addConnectionId(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { connectionId } = pathValues(this);
	return items.map(({ json }) => ({ json: { ...json, connectionId } }));
}
