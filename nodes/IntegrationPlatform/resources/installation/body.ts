import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseJsonParameter } from '../../routing/parameters';

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

function notSent(context: IExecuteSingleFunctions, message: string, description: string) {
	return new NodeOperationError(context.getNode(), message, {
		itemIndex: context.getItemIndex(),
		description: `No request was sent. ${description}`,
	});
}

/** Text for a query or body value; an object or a list from an expression is refused. */
function text(context: IExecuteSingleFunctions, label: string, value: unknown): string {
	if (typeof value !== 'string' && typeof value !== 'number') {
		throw notSent(
			context,
			`"${label}" must be text`,
			`Check the expression that sets it; it gave ${JSON.stringify(value)?.slice(0, 60)}.`,
		);
	}
	return String(value).trim();
}

/**
 * The connection of Installation → Create or Update: version 2 picks it from a list (a resource
 * locator), version 1 takes its ID as text; both read as text here.
 */
function connectionOf(
	context: IExecuteSingleFunctions,
	collection: string,
	fields: IDataObject,
): string | undefined {
	if (!('connectionId' in fields)) return undefined;
	const value = context.getNodeParameter(`${collection}.connectionId`, '', {
		extractValue: true,
	}) as unknown;
	return given(value) ? text(context, 'Connection', value) : undefined;
}

/** Query `groupRef` of both installation lists (docs/api-notes.md, "Installations"). */
export async function groupRefFilter(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const filters = this.getNodeParameter('installationFilters', {}) as IDataObject;
	if (!('groupRef' in filters)) return requestOptions;
	// Version 2's filter is a resource locator: its value, as the text filter's.
	const groupRef = this.getNodeParameter('installationFilters.groupRef', '', {
		extractValue: true,
	}) as unknown;
	if (given(groupRef)) {
		const value = text(this, 'Group', groupRef);
		requestOptions.qs = { ...(requestOptions.qs ?? {}), groupRef: value };
	}
	return requestOptions;
}

/** `?skipSampling=true` only when asked: the service defaults to sampling. */
function skipSampling(requestOptions: IHttpRequestOptions, fields: IDataObject): void {
	if (fields.skipSampling === true) {
		requestOptions.qs = { ...(requestOptions.qs ?? {}), skipSampling: true };
	}
}

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Read objects as the API's ReadConfigObject requires them: `selectedFields` and
 * `selectedFieldMappings` always present (docs/api-notes.md, "Installations"). A map the
 * user left out is sent empty, which is what "all fields" (`selectedFieldsAuto: "all"`) or "only
 * these mapped fields" means to the API; an object that chooses no fields at all is refused, since
 * two empty maps would read nothing. Every value the user gave is kept as given.
 */
function completeReadObjects(
	context: IExecuteSingleFunctions,
	label: string,
	objects: unknown,
): IDataObject {
	if (!isObject(objects)) {
		throw notSent(
			context,
			`"${label}": the read objects must be a JSON object keyed by object name`,
			`It is ${JSON.stringify(objects)?.slice(0, 60)}.`,
		);
	}
	const out: IDataObject = {};
	for (const [name, object] of Object.entries(objects)) {
		if (!isObject(object)) {
			throw notSent(
				context,
				`"${label}": read object "${name}" must be a JSON object`,
				`It is ${JSON.stringify(object)?.slice(0, 60)}.`,
			);
		}
		const allFields = object.selectedFieldsAuto === 'all';
		const chosen = (key: string) => isObject(object[key]) && Object.keys(object[key]).length > 0;
		if (!allFields && !chosen('selectedFields') && !chosen('selectedFieldMappings')) {
			throw notSent(
				context,
				`"${label}": read object "${name}" does not say which fields to read`,
				'Add "selectedFieldsAuto": "all" to read every field, or list the fields in "selectedFields" ({ "phone": true }) or "selectedFieldMappings" ({ "yourName": "phone" }).',
			);
		}
		// Only absent maps are added: a value the user gave (even a wrong one) goes as given, for
		// the service to judge.
		out[name] = { selectedFields: {}, selectedFieldMappings: {}, ...object };
	}
	return out;
}

/**
 * createInstallation's body (docs/api-notes.md, "Installations"): `{ groupRef, connectionId?,
 * config: { createdBy?, content } }`; groupRef is already placed by its template.
 */
export async function buildCreateBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const content = parseJsonParameter(this, 'configContent', 'Config Content (JSON)', 'object');
	const fields = this.getNodeParameter('createFields', {}) as IDataObject;
	const body = (requestOptions.body ?? {}) as IDataObject;
	const connectionId = connectionOf(this, 'createFields', fields);
	if (connectionId !== undefined) body.connectionId = connectionId;
	const read = (content as IDataObject).read;
	if (isObject(read) && read.objects !== undefined) {
		read.objects = completeReadObjects(this, 'Config Content (JSON)', read.objects);
	}
	const config: IDataObject = { content: content as IDataObject };
	if (given(fields.createdBy)) config.createdBy = text(this, 'Created By', fields.createdBy);
	body.config = config;
	requestOptions.body = body;
	skipSampling(requestOptions, fields);
	return requestOptions;
}

/**
 * updateInstallation's body (docs/api-notes.md, "Installations"): each field given becomes a
 * value under `installation` and its path in `updateMask`. Read objects are replaced one by one
 * (`config.content.read.objects.<name>`); write and subscribe maps are replaced whole.
 */
export async function buildUpdateBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const fields = this.getNodeParameter('installationUpdate', {}) as IDataObject;
	const updateMask: string[] = [];
	const installation: IDataObject = {};
	const config: IDataObject = {};
	const content: IDataObject = {};
	const connectionId = connectionOf(this, 'installationUpdate', fields);
	if (connectionId !== undefined) {
		installation.connectionId = connectionId;
		updateMask.push('connectionId');
	}
	if (given(fields.createdBy)) {
		config.createdBy = text(this, 'Created By', fields.createdBy);
		updateMask.push('config.createdBy');
	}
	if (typeof fields.proxyEnabled === 'boolean') {
		content.proxy = { enabled: fields.proxyEnabled };
		updateMask.push('config.content.proxy.enabled');
	}
	const objectMap = (action: string) => {
		const name = `${action.toLowerCase()}Objects`;
		if (!given(fields[name]) || fields[name] === '{}') return undefined;
		return parseJsonParameter(
			this,
			`installationUpdate.${name}`,
			`${action} Objects (JSON)`,
			'object',
		) as IDataObject;
	};
	const readObjects = objectMap('Read');
	const read = readObjects && completeReadObjects(this, 'Read Objects (JSON)', readObjects);
	if (read && Object.keys(read).length) {
		content.read = { objects: read };
		for (const objectName of Object.keys(read)) {
			updateMask.push(`config.content.read.objects.${objectName}`);
		}
	}
	for (const action of ['Write', 'Subscribe']) {
		const objects = objectMap(action);
		if (!objects) continue;
		content[action.toLowerCase()] = { objects };
		updateMask.push(`config.content.${action.toLowerCase()}.objects`);
	}
	if (Object.keys(content).length) config.content = content;
	if (Object.keys(config).length) installation.config = config;
	if (!updateMask.length) {
		throw notSent(
			this,
			'Nothing to update: add at least one field under Update Fields',
			'Add the field to change under Update Fields.',
		);
	}
	requestOptions.body = { updateMask, installation };
	skipSampling(requestOptions, fields);
	return requestOptions;
}

interface ChangeRow {
	op?: unknown;
	path?: unknown;
	value?: unknown;
}

/** A value as typed: JSON when it parses (true, 5, {…}, "quoted"), otherwise the text itself. */
function patchValue(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch {
		return value;
	}
}

/**
 * `changes` of patchObjectConfigContent from the rows (docs/api-notes.md, "Installations"): JSON
 * Patch operations limited to add, remove and replace; each path a JSON Pointer.
 */
export async function buildConfigChanges(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const { change: rows } = this.getNodeParameter('changes', {}) as { change?: ChangeRow[] };
	if (!Array.isArray(rows) || rows.length === 0) {
		throw notSent(
			this,
			'"Changes" is empty: add at least one change',
			'Add a change under Changes.',
		);
	}
	const changes = rows.map((row, index) => {
		const op = row.op;
		if (op !== 'add' && op !== 'remove' && op !== 'replace') {
			throw notSent(
				this,
				`Change ${index + 1}: the operation must be Add, Remove or Replace`,
				'Check the expression that sets it.',
			);
		}
		if (typeof row.path !== 'string' || !row.path.startsWith('/')) {
			throw notSent(
				this,
				`Change ${index + 1}: "Path" must be a JSON Pointer starting with /`,
				`It is ${JSON.stringify(row.path)?.slice(0, 60)}.`,
			);
		}
		const change: IDataObject = { op, path: row.path };
		if (op !== 'remove') change.value = patchValue(row.value) as IDataObject[string];
		return change;
	});
	requestOptions.body = { ...((requestOptions.body ?? {}) as IDataObject), changes };
	return requestOptions;
}
