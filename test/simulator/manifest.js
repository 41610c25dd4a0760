// @ts-check
'use strict';

/**
 * Integration content (the manifest, manifest.yaml) : its validation on createIntegration
 * and its hydrated form for getHydratedRevision.
 *
 * Validation follows the requiredness rules of docs/api-notes.md, "Enumerations", and the
 * manifest enums (enabled: always; optionalFieldsAuto: all; watchFieldsAuto: all|selected;
 * delivery.mode: onRequest|auto; delivery.pageSize 50-500; backfill.defaultPeriod needs
 * days or fullHistory).
 *
 * Hydration follows docs/api-notes.md, "getHydratedRevision": the hydrated content has only name, provider,
 * displayName, module, read, write and proxy (no subscribe, no watchSchema); hydrated read
 * objects gain displayName, allFieldsMetadata, allFields (deprecated) and error, and lose
 * delivery and enabled; write objects gain displayName and lose inheritMapping.
 */

const { PROVIDER_OBJECTS, PROVIDER_TYPES } = require('./catalog');

/**
 * @typedef {import('./validate').Schema} Schema
 * @typedef {import('./state').Rec} Rec
 * @typedef {import('./catalog').FieldMetadata} FieldMetadata
 */

/** @type {Schema} */
const str = { type: 'string' };
/** @type {Schema} */
const required = { type: 'string', minLength: 1 };
/** @type {Schema} */
const always = { type: 'string', enum: ['always'] };
/** @type {Schema} */
const toggle = { type: 'object', required: ['enabled'], properties: { enabled: always } };

/** Field entry: `{fieldName, mapToName?, mapToDisplayName?}` or `{mapToName, mapToDisplayName?, default?, prompt?}`. @type {Schema} */
const fieldEntry = {
	type: 'object',
	properties: { fieldName: required, mapToName: required, mapToDisplayName: str, prompt: str },
	check: (v) =>
		v.fieldName === undefined && v.mapToName === undefined
			? 'must have a fieldName or a mapToName'
			: undefined,
};

/** @type {Schema} */
const readObject = {
	type: 'object',
	required: ['objectName', 'destination', 'schedule'],
	properties: {
		objectName: required,
		destination: required,
		schedule: required,
		mapToName: str,
		mapToDisplayName: str,
		requiredFields: { type: 'array', items: fieldEntry },
		optionalFields: { type: 'array', items: fieldEntry },
		optionalFieldsAuto: { type: 'string', enum: ['all'] },
		backfill: {
			type: 'object',
			required: ['defaultPeriod'],
			properties: {
				defaultPeriod: {
					type: 'object',
					properties: { days: { type: 'integer', minimum: 0 }, fullHistory: { type: 'boolean' } },
					check: (v) =>
						v.days === undefined && v.fullHistory === undefined
							? 'must have days or fullHistory'
							: undefined,
				},
			},
		},
		delivery: {
			type: 'object',
			properties: {
				mode: { type: 'string', enum: ['onRequest', 'auto'] },
				pageSize: { type: 'integer', minimum: 50, maximum: 500 },
			},
		},
		enabled: always,
	},
};

/** @type {Schema} */
const subscribeObject = {
	type: 'object',
	required: ['objectName', 'destination'],
	properties: {
		objectName: required,
		destination: required,
		inheritFieldsAndMapping: { type: 'boolean' },
		createEvent: toggle,
		updateEvent: {
			type: 'object',
			required: ['enabled'],
			properties: {
				enabled: always,
				watchFieldsAuto: { type: 'string', enum: ['all', 'selected'] },
				requiredWatchFields: { type: 'array', items: str },
			},
		},
		deleteEvent: toggle,
		associationChangeEvent: {
			type: 'object',
			required: ['enabled'],
			properties: { enabled: always, includeFullRecords: { type: 'boolean' } },
		},
		otherEvents: { type: 'array', items: str },
	},
};

/** Integration content (manifest.yaml Integration). @type {Schema} */
const CONTENT = {
	type: 'object',
	required: ['name', 'provider'],
	properties: {
		name: required,
		provider: required,
		displayName: str,
		module: str,
		read: { type: 'object', properties: { objects: { type: 'array', items: readObject } } },
		write: {
			type: 'object',
			properties: {
				objects: {
					type: 'array',
					items: {
						type: 'object',
						required: ['objectName'],
						properties: {
							objectName: required,
							inheritMapping: { type: 'boolean' },
							valueDefaults: {
								type: 'object',
								properties: { allowAnyFields: { type: 'boolean' } },
							},
						},
					},
				},
			},
		},
		proxy: {
			type: 'object',
			properties: { enabled: { type: 'boolean' }, useModule: { type: 'boolean' } },
		},
		subscribe: {
			type: 'object',
			properties: { objects: { type: 'array', items: subscribeObject } },
		},
		watchSchema: {
			type: 'object',
			required: ['destination', 'allObjects'],
			properties: {
				destination: required,
				schedule: str,
				allObjects: {
					type: 'object',
					properties: { fieldCreated: toggle, fieldDeleted: toggle, fieldChanged: toggle },
				},
			},
		},
	},
};

/**
 * FieldMetadata of the fields upserted through op 3 (isCustom: true).
 * @param {string} provider
 * @param {Record<string, Rec> | undefined} stored fieldName → { definition }
 * @returns {FieldMetadata[]}
 */
function customFieldMetadata(provider, stored) {
	if (!stored) return [];
	const types =
		/** @type {Record<string, Record<string, string>>} */ (PROVIDER_TYPES)[provider] || {};
	return Object.values(stored).map(({ definition: d }) => {
		/** @type {FieldMetadata} */
		const meta = {
			fieldName:
				provider === 'salesforce' && !d.fieldName.endsWith('__c')
					? `${d.fieldName}__c`
					: d.fieldName,
			displayName: d.displayName,
			valueType: d.valueType,
			providerType: types[d.valueType] || d.valueType,
			readOnly: false,
			isCustom: true,
			isRequired: Boolean(d.required),
		};
		if (d.stringOptions && d.stringOptions.values)
			meta.values = d.stringOptions.values.map((/** @type {string} */ v) => ({
				value: v,
				displayValue: v,
			}));
		return meta;
	});
}

/**
 * @param {Rec[] | undefined} entries
 * @param {Record<string, FieldMetadata>} metadata
 */
function hydrateFields(entries, metadata) {
	if (!entries) return undefined;
	return entries.map((entry) => {
		if (entry.fieldName === undefined) return { ...entry };
		const meta = metadata[entry.fieldName];
		return { ...entry, displayName: meta ? meta.displayName : entry.fieldName };
	});
}

/**
 * The hydrated form of a revision's content for one connection.
 * @param {Rec} content manifest content
 * @param {Record<string, Record<string, Rec>>} customFields objectName → fieldName → stored definition
 * @returns {Rec}
 */
function hydrateContent(content, customFields) {
	const provider = content.provider;
	const catalog = PROVIDER_OBJECTS[provider] || {};
	/** @type {Rec} */
	const out = { name: content.name, provider };
	if (content.displayName !== undefined) out.displayName = content.displayName;
	if (content.module !== undefined) out.module = content.module;
	if (content.read) {
		out.read = {
			objects: (content.read.objects || []).map((/** @type {Rec} */ obj) => {
				const { delivery, enabled, requiredFields, optionalFields, ...rest } = obj;
				const known = catalog[obj.objectName];
				/** @type {Rec} */
				const hydrated = {
					objectName: obj.objectName,
					displayName: known ? known.displayName : obj.objectName,
					...rest,
				};
				/** @type {Record<string, FieldMetadata>} */
				const metadata = {};
				if (known) {
					for (const f of [
						...known.fields,
						...customFieldMetadata(provider, customFields[obj.objectName]),
					])
						metadata[f.fieldName] = f;
					hydrated.allFieldsMetadata = metadata;
					hydrated.allFields = Object.values(metadata).map((f) => ({
						fieldName: f.fieldName,
						displayName: f.displayName,
					}));
				} else {
					hydrated.error = `Object '${obj.objectName}' is not available in ${provider}`;
				}
				if (requiredFields) hydrated.requiredFields = hydrateFields(requiredFields, metadata);
				if (optionalFields) hydrated.optionalFields = hydrateFields(optionalFields, metadata);
				return hydrated;
			}),
		};
	}
	if (content.write) {
		out.write = {
			objects: (content.write.objects || []).map((/** @type {Rec} */ obj) => {
				const known = catalog[obj.objectName];
				/** @type {Rec} */
				const hydrated = {
					objectName: obj.objectName,
					displayName: known ? known.displayName : obj.objectName,
				};
				if (obj.valueDefaults) hydrated.valueDefaults = obj.valueDefaults;
				return hydrated;
			}),
		};
	}
	if (content.proxy) out.proxy = { ...content.proxy };
	return out;
}

module.exports = { CONTENT, hydrateContent };
