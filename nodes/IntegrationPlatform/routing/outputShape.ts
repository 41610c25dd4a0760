/**
 * What one item of an operation's output is, declared beside the operation so that its output
 * schema (the preview n8n's editor shows before the node has run) is written from the operation
 * itself: scripts/generate-output-schemas.mjs reads this field and has one shape per name
 * (scripts/outputSchemas/shapes.mjs). Without it the item is the JSON answer as it is, and an
 * operation with output steps, a text answer or code of its own must say what it makes.
 */
export type OutputShape =
	/** One item per entry of a list answer. */
	| 'listEntry'
	/** An API key with `key` replaced by `keyEnding` unless Include Secrets is on (and one per
	 * entry of a list of them). */
	| 'hiddenKey'
	| 'hiddenKeyEntry'
	/** A connection without the provider's API key and OAuth tokens unless Include Secrets is on. */
	| 'hiddenProviderSecrets'
	/** An answer without a body: the node says what was done, with the values it sent. */
	| 'claimed'
	| 'revoked'
	| 'memberAdded'
	| 'resultsRequested'
	/** A text/plain URL as `url` (and the connection's ID for a reauthorization). */
	| 'url'
	| 'reauthorizationUrl'
	/** The new integration, or the latest revision, read after a create answered without a body. */
	| 'createdIntegration'
	| 'latestRevision'
	/** One item per field of a custom-field upsert's answer. */
	| 'fieldResults'
	/** One item per custom field of an object's metadata. */
	| 'customFields'
	/** One item per entry of a paged answer's `results`, over all pages. */
	| 'pagedResults'
	/** One item per provider of the catalogue, its name added. */
	| 'providerCatalog'
	/** One item per record of a search's `result`. */
	| 'searchResults'
	/** Records → Write's result per input item. */
	| 'writeResult'
	/** The provider's own answer, passed through. */
	| 'providerAnswer'
	/** A delete answered without a body: `deleted: true` and the ID under this name. */
	| { deleted: string }
	/** Pause or Unpause Reads: the flag of this name and the objects asked for. */
	| { reads: 'paused' | 'unpaused' };
