// @ts-check
/**
 * The item each output shape stands for: an operation of the action node names its shape in its
 * definition (`outputShape`, nodes/IntegrationPlatform/routing/outputShape.ts), and this table
 * writes that shape as JSON Schema from the operation's documented answer. A shape's name is
 * checked against this table, so a name without a schema stops the generator.
 */
import {
	answerOf,
	definition,
	extended,
	made,
	optional,
	requiring,
	STRING,
	TRUE,
} from './schemas.mjs';

/** @typedef {import('./schemas.mjs').Schema} Schema */

/**
 * @typedef {object} Context
 * @property {string | undefined} operationId the API operation the node operation sends
 * @property {() => Schema} answer its documented JSON answer
 * @property {() => Schema} entry one entry of its list answer
 */

/**
 * Shapes by name: the item one output entry is.
 *
 * @type {Record<string, (context: Context) => Schema>}
 */
export const SHAPES = {
	listEntry: ({ entry }) => entry(),

	// Options → Include Secrets off (the default): `key` becomes `keyEnding`, its last four
	// characters. With the option on, `key` is there: it stays a property, not a required one.
	hiddenKey: ({ answer }) => hiddenKey(answer()),
	hiddenKeyEntry: ({ entry }) => hiddenKey(entry()),
	// Options → Include Secrets off: the provider's API key and the OAuth tokens are left out.
	hiddenProviderSecrets: ({ answer }) => hiddenProviderSecrets(answer()),

	// Answers without a body (201 or 204): the item says what was done, with the values sent.
	claimed: () => made({ claimed: TRUE, domain: STRING, parentType: STRING, parentId: STRING }),
	revoked: () => made({ revoked: TRUE, orgId: STRING, inviteId: STRING }),
	memberAdded: () => made({ added: TRUE, orgId: STRING, builderId: STRING }),
	resultsRequested: () =>
		made({ requested: TRUE, object: STRING, groupRef: STRING, pages: { type: 'integer' } }),

	// Answers in text/plain: the text becomes `url` (and Reauthorization adds the connection ID).
	url: ({ operationId }) => made({ url: answerOf(String(operationId), 'text/plain') }),
	reauthorizationUrl: ({ operationId }) =>
		made({ url: answerOf(String(operationId), 'text/plain'), connectionId: STRING }),

	// createIntegration answers 201 without a body: the node reads the new integration and adds
	// `created: true`; when that read fails, the item has only the name and provider it sent.
	createdIntegration: () =>
		requiring(extended(definition('api.Integration'), { created: TRUE }), [
			'created',
			'name',
			'provider',
		]),
	// createRevision answers 201 without a body: the node reads the integration and gives its
	// latest revision (the new one) with `created: true` and the integration's ID; when that read
	// fails, only those two.
	latestRevision: () =>
		requiring(extended(definition('api.Revision'), { created: TRUE, integrationId: STRING }), [
			'created',
			'integrationId',
		]),
	// One item per field of the answer's `fields` (object → field → result), with the overall
	// success and the object's and field's names; an answer without fields gives `{ success }`.
	fieldResults: ({ answer }) => {
		const { success, fields } = answer().properties;
		const result = fields.additionalProperties.additionalProperties;
		return requiring(
			extended(result, { success, objectName: STRING, fieldName: result.properties.fieldName }),
			['success'],
		);
	},
	// The object's metadata `{ name, fields: { <field>: metadata } }`: one item per field marked
	// `isCustom`, with the object's name.
	customFields: ({ answer }) => {
		const { name, fields } = answer().properties;
		const field = extended(fields.additionalProperties, { objectName: name }, ['isCustom']);
		return { ...field, properties: { ...field.properties, isCustom: TRUE } };
	},
	// A paged answer `{ results, pagination }`: one item per entry of `results`, over all pages.
	pagedResults: ({ answer }) => answer().properties.results.items,
	// The catalog is an object keyed by provider name: one item per provider, its name added.
	providerCatalog: ({ answer }) =>
		extended(answer().additionalProperties, { name: STRING }, ['name']),
	// `{ result: [record, …] }`: one item per record.
	searchResults: ({ answer }) => answer().properties.result.items,
	writeResult,
	providerAnswer,
};

/**
 * The shapes with a value: `{ deleted: <the ID's name> }` and `{ reads: 'paused' | 'unpaused' }`.
 *
 * @type {Record<string, (value: string) => Schema>}
 */
export const VALUED_SHAPES = {
	// A delete answered 204: `{ deleted: true, <the ID's name>: … }`.
	deleted: (idName) => made({ deleted: TRUE, [idName]: STRING }),
	// Pause Reads and Unpause Reads (204): the objects asked for, or "all".
	reads: (flag) =>
		made({
			[flag]: TRUE,
			installationId: STRING,
			objects: {
				type: ['array', 'string'],
				items: STRING,
				anyOf: [{ type: 'array' }, { const: 'all' }],
			},
		}),
};

function hiddenKey(/** @type {Schema} */ apiKey) {
	return optional(extended(apiKey, { keyEnding: STRING }), ['key']);
}

function hiddenProviderSecrets(/** @type {Schema} */ connection) {
	let schema = optional(connection, ['apiKey']);
	for (const token of ['accessToken', 'refreshToken']) {
		schema = optional(schema, ['token'], ['oauth2AuthorizationCode', token]);
	}
	return schema;
}

/**
 * Records → Write runs in code (records/write.ts): one item per input item, in its order. A
 * record written: `success: true`, its ID, `deleted: true` for a delete, the operation ID and the
 * provider's data when the answer has them. An asynchronous write taken on: `accepted`. With
 * Continue On Fail, a record not written: `success: false` and the error's message.
 */
function writeResult() {
	const result = definition('write.WriteResult').properties;
	const { operationId } = definition('write.WriteResponseSingleSuccess').properties;
	const written = {
		type: 'object',
		properties: {
			success: TRUE,
			recordId: result.recordId,
			deleted: TRUE,
			operationId,
			data: result.data,
		},
		required: ['success', 'operationId'],
	};
	const accepted = made({
		accepted: TRUE,
		mode: { type: 'string', const: 'asynchronous' },
		operationId,
	});
	const failed = made({ success: { type: 'boolean', const: false }, error: STRING });
	// The three shapes' fields side by side for the editor; `success` is true or false there, and
	// the anyOf says which fields go together.
	return {
		type: 'object',
		properties: {
			...written.properties,
			...accepted.properties,
			...failed.properties,
			success: { type: 'boolean' },
		},
		anyOf: [written, accepted, failed],
	};
}

/**
 * Provider API → Send Request (providerApi/sendRequest.ts) passes the provider's own answer
 * through, which no document here describes: a JSON object as it is, a list as one item per
 * entry. Only the node's own fields can be named: Full Response's `statusCode`, `headers` and
 * `body`, a redirect's `location`, and `data` for an answer that is not an object.
 */
function providerAnswer() {
	return {
		type: 'object',
		description:
			"The provider's JSON answer as it is (its fields are the provider's); the fields below are the node's own, present only with Full Response, a redirect or an answer that is not a JSON object.",
		properties: {
			statusCode: { type: 'integer' },
			headers: { type: 'object', additionalProperties: STRING },
			body: {},
			location: { type: ['string', 'null'] },
			data: {},
		},
	};
}
