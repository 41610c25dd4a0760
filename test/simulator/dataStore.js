// @ts-check
'use strict';

/**
 * The data plane's shared pieces (docs/api-notes.md, "Data plane"): the records the fake provider
 * holds, the provider's rules, the entries search and read results carry, and the operations
 * that writes and triggered reads create.
 *
 * - Records live per installation and object (`state.records`, key `installationId/objectName`,
 *   then record id) as `{ id, fields, createTime, updateTime }`. Writes change them; search, triggered
 *   reads and the proxy's fake HubSpot (proxy.js) read them. The seeded installation's provider is
 *   HubSpot, so ids are numeric strings and the raw form is HubSpot's
 *   `{ id, properties, createdAt, updatedAt, archived }`.
 * - Field mappings: the installation's read config maps names (`selectedFieldMappings`, mapped →
 *   provider name). Writes accept mapped names and store provider names; result entries carry the
 *   mapped ones in `mappedFields` and the rest in `fields` ("Data plane", "Search").
 * - The provider's rules, so that failures are reproducible: a field named `email` whose value has
 *   no "@" is refused (errorCode INVALID_EMAIL, as HubSpot names it), and an update or delete of an
 *   id the object does not hold fails "not found" (OBJECT_NOT_FOUND).
 */

const { notFound } = require('./problems');
const { newId } = require('./state');
const { nowIso } = require('./time');

/**
 * @typedef {import('./state').State} State
 * @typedef {import('./state').Rec} Rec
 * @typedef {{ id: string, fields: Rec, createTime: string, updateTime: string }} StoredRecord
 * @typedef {{ message: string, errorCode: string }} ProviderError
 */

/** Provider-assigned ids: numeric strings, never reused while the process lives. */
let sequence = 10_000;
function nextRecordId() {
	sequence += 1;
	return String(sequence);
}

/** @param {string} installationId @param {string} objectName */
function storeKey(installationId, objectName) {
	return `${installationId}/${objectName}`;
}

/**
 * The records of one object of one installation (created empty on first use).
 * @param {State} state
 * @param {string} installationId
 * @param {string} objectName the provider's object name
 * @returns {Map<string, Rec>}
 */
function objectStore(state, installationId, objectName) {
	const key = storeKey(installationId, objectName);
	let store = state.records.get(key);
	if (!store) {
		store = new Map();
		state.records.set(key, store);
	}
	return store;
}

/**
 * The revision of an installation's config (its manifest content), or the integration's latest.
 * @param {State} state
 * @param {Rec} installation
 * @returns {Rec}
 */
function manifestOf(state, installation) {
	const revision = state.revisions.get(installation.config && installation.config.revisionId);
	const integration = state.integrations.get(installation.integrationId) || {};
	return (revision || integration.latestRevision || {}).content || {};
}

/**
 * The provider's name of an object: the name itself, or the object a read mapping renames to it
 * (`mapToName` in the manifest).
 * @param {State} state
 * @param {Rec} installation
 * @param {string} name
 */
function providerObjectName(state, installation, name) {
	const readObjects = ((installation.config || {}).content || {}).read || {};
	if ((readObjects.objects || {})[name]) return name;
	const declared = ((manifestOf(state, installation).read || {}).objects || []).find(
		(/** @type {Rec} */ o) => o.mapToName === name,
	);
	return declared ? declared.objectName : name;
}

/**
 * The installation's read config of an object, if it reads it.
 * @param {Rec} installation
 * @param {string} objectName provider name
 * @returns {Rec | undefined}
 */
function readConfigOf(installation, objectName) {
	const content = (installation.config || {}).content || {};
	return ((content.read || {}).objects || {})[objectName];
}

/**
 * Field mappings of an object, mapped name → provider field name.
 * @param {Rec} installation
 * @param {string} objectName provider name
 * @returns {Record<string, string>}
 */
function fieldMappings(installation, objectName) {
	const config = readConfigOf(installation, objectName);
	return (config && config.selectedFieldMappings) || {};
}

/**
 * A written record's fields with mapped names turned into the provider's names; `id` is left out.
 * @param {Rec} installation
 * @param {string} objectName
 * @param {Rec} fields
 */
function toProviderFields(installation, objectName, fields) {
	const mappings = fieldMappings(installation, objectName);
	/** @type {Rec} */
	const out = {};
	for (const [key, value] of Object.entries(fields || {})) {
		if (key === 'id') continue;
		out[mappings[key] || key] = value;
	}
	return out;
}

/**
 * The fake provider's validation: a refused record's reason, or undefined.
 * @param {Rec} fields provider field names
 * @returns {ProviderError | undefined}
 */
function providerReject(fields) {
	for (const [key, value] of Object.entries(fields)) {
		if (key.toLowerCase() !== 'email') continue;
		if (typeof value !== 'string' || !value.includes('@')) {
			return { message: `Email address ${String(value)} is invalid`, errorCode: 'INVALID_EMAIL' };
		}
	}
	return undefined;
}

/** @param {string} id @returns {ProviderError} */
function recordNotFound(id) {
	return { message: `The record with ID ${id} was not found`, errorCode: 'OBJECT_NOT_FOUND' };
}

/**
 * @param {Map<string, Rec>} store
 * @param {Rec} fields provider field names
 * @returns {{ record: Rec } | { error: ProviderError }}
 */
function createRecord(store, fields) {
	const error = providerReject(fields);
	if (error) return { error };
	const time = nowIso();
	const record = { id: nextRecordId(), fields: { ...fields }, createTime: time, updateTime: time };
	store.set(record.id, record);
	return { record };
}

/**
 * @param {Map<string, Rec>} store
 * @param {string} id
 * @param {Rec} fields provider field names (merged over the stored ones)
 * @returns {{ record: Rec } | { error: ProviderError }}
 */
function updateRecord(store, id, fields) {
	const record = store.get(String(id));
	if (!record) return { error: recordNotFound(String(id)) };
	const error = providerReject(fields);
	if (error) return { error };
	record.fields = { ...record.fields, ...fields };
	record.updateTime = nowIso();
	return { record };
}

/**
 * @param {Map<string, Rec>} store
 * @param {string} id
 * @returns {{ record: Rec } | { error: ProviderError }}
 */
function deleteRecord(store, id) {
	const record = store.get(String(id));
	if (!record) return { error: recordNotFound(String(id)) };
	store.delete(record.id);
	return { record };
}

/** RFC 3339 with milliseconds, as HubSpot writes its timestamps. @param {string} time */
function millis(time) {
	return new Date(Date.parse(time)).toISOString();
}

/**
 * A record as HubSpot's CRM API returns it (the `raw` of result entries, and the proxy's answers).
 * @param {Rec} record
 */
function hubspotRecord(record) {
	return {
		id: record.id,
		properties: {
			...record.fields,
			hs_object_id: record.id,
			createdate: millis(record.createTime),
			lastmodifieddate: millis(record.updateTime),
		},
		createdAt: millis(record.createTime),
		updatedAt: millis(record.updateTime),
		archived: false,
	};
}

/**
 * A record as search results and read deliveries carry it: `fields` (unmapped provider fields,
 * with `id`), `mappedFields` (mapped name → value) and `raw` (the provider's form).
 * @param {Rec} installation
 * @param {string} objectName
 * @param {Rec} record
 */
function resultEntry(installation, objectName, record) {
	const mappings = fieldMappings(installation, objectName);
	const mappedFrom = new Set(Object.values(mappings));
	/** @type {Rec} */
	const fields = { id: record.id };
	for (const [key, value] of Object.entries(record.fields)) {
		if (!mappedFrom.has(key)) fields[key] = value;
	}
	/** @type {Rec} */
	const mappedFields = {};
	for (const [mapped, raw] of Object.entries(mappings)) {
		if (record.fields[raw] !== undefined) mappedFields[mapped] = record.fields[raw];
	}
	return { fields, mappedFields, raw: hubspotRecord(record) };
}

/**
 * The installation of an integration for a groupRef, or a 404 naming where the groupRef came from
 * (the status the simulator gives every unknown resource).
 * @param {State} state
 * @param {Rec} integration
 * @param {string} groupRef
 * @param {'body' | 'query'} where
 */
function installationForGroup(state, integration, groupRef, where) {
	const installation = [...state.installations.values()].find(
		(i) => i.integrationId === integration.id && i.group && i.group.groupRef === groupRef,
	);
	if (!installation) {
		const detail = `No installation of integration ${integration.name} for group '${groupRef}'`;
		const error = notFound('groupRef', groupRef, detail);
		const first = /** @type {import('./problems').Issue[]} */ (error.options.issues)[0];
		first.in = where;
		throw error;
	}
	return installation;
}

/**
 * Creates an operation of an installation (visible to listOperations, getOperation and the logs).
 * @param {State} state
 * @param {Rec} installation
 * @param {Rec} partial
 */
function createOperation(state, installation, partial) {
	const operation = {
		id: newId(),
		projectId: installation.projectId,
		integrationId: installation.integrationId,
		installationId: installation.id,
		configId: (installation.config || {}).id,
		status: 'in_progress',
		createTime: nowIso(),
		...partial,
	};
	state.operations.set(operation.id, operation);
	state.logs.set(operation.id, []);
	return operation;
}

/**
 * Appends a log entry in the seeded entries' form: `{timestamp, severity, message: {msg,
 * operation_id, details?}}`, details a map of strings (docs/api-notes.md, "Operation logs").
 * @param {State} state
 * @param {string} operationId
 * @param {string} severity
 * @param {string} msg
 * @param {Record<string, unknown>} [details]
 */
function logOperation(state, operationId, severity, msg, details) {
	const logs = state.logs.get(operationId) || [];
	/** @type {Record<string, string>} */
	const strings = {};
	for (const [key, value] of Object.entries(details || {})) {
		if (value !== undefined) strings[key] = String(value);
	}
	logs.push({
		timestamp: nowIso(),
		severity,
		message: {
			msg,
			operation_id: operationId,
			...(Object.keys(strings).length ? { details: strings } : {}),
		},
	});
	state.logs.set(operationId, logs);
}

/**
 * Ends an operation: status, result text, and the installation's lastOperationStatus.
 * @param {State} state
 * @param {Rec} operation
 * @param {'success' | 'failure'} status
 * @param {string} result
 * @param {Rec} [metadata] merged into the operation's metadata
 */
function finishOperation(state, operation, status, result, metadata = {}) {
	operation.status = status;
	operation.result = result;
	operation.metadata = { ...(operation.metadata || {}), ...metadata };
	operation.updateTime = nowIso();
	const installation = state.installations.get(operation.installationId);
	if (installation) installation.lastOperationStatus = status;
}

/**
 * The common installation fields of a notification about an installation.
 * @param {State} state
 * @param {Rec} installation
 */
function installationFields(state, installation) {
	const integration = state.integrations.get(installation.integrationId) || {};
	const connection = state.connections.get(installation._connectionId) || {};
	const consumer = connection.consumer || {};
	const group = installation.group || {};
	return {
		projectId: installation.projectId,
		provider: integration.provider || connection.provider,
		integrationId: installation.integrationId,
		integrationName: integration.name,
		installationId: installation.id,
		connectionId: installation._connectionId,
		groupRef: group.groupRef,
		groupName: group.groupName,
		consumerRef: consumer.consumerRef,
		consumerName: consumer.consumerName,
	};
}

module.exports = {
	installationFields,
	storeKey,
	objectStore,
	manifestOf,
	providerObjectName,
	readConfigOf,
	fieldMappings,
	toProviderFields,
	providerReject,
	recordNotFound,
	createRecord,
	updateRecord,
	deleteRecord,
	hubspotRecord,
	resultEntry,
	installationForGroup,
	createOperation,
	logOperation,
	finishOperation,
	nextRecordId,
};
