import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseJsonParameter, requiredParameter } from '../../routing/parameters';

interface FieldRow {
	fieldName: string;
	displayName: string;
	valueType: string;
	fieldOptions?: IDataObject;
}

const STRING_OPTIONS = {
	length: 'length',
	pattern: 'pattern',
	allowedValues: 'values',
	valuesRestricted: 'valuesRestricted',
	stringDefault: 'defaultValue',
};
const NUMERIC_OPTIONS = {
	precision: 'precision',
	scale: 'scale',
	min: 'min',
	max: 'max',
	numericDefault: 'defaultValue',
};
const ASSOCIATION_OPTIONS = {
	associationType: 'associationType',
	targetObject: 'targetObject',
	targetField: 'targetField',
	cardinality: 'cardinality',
	onDelete: 'onDelete',
	associationRequired: 'required',
	reverseLookupFieldName: 'reverseLookupFieldName',
};

const isText = (value: unknown) => typeof value === 'string' || typeof value === 'number';

/** Allowed values: comma-separated text, or (from an expression) a list of text. */
function isValueList(value: unknown): boolean {
	return isText(value) || (Array.isArray(value) && value.every(isText));
}

function pick(source: IDataObject, mapping: Record<string, string>): IDataObject | undefined {
	const out: IDataObject = {};
	for (const [from, to] of Object.entries(mapping)) {
		if (source[from] === undefined || source[from] === null || source[from] === '') continue;
		const value = source[from];
		out[to] =
			from === 'allowedValues'
				? (Array.isArray(value) ? value : String(value).split(','))
						.map((v) => String(v).trim())
						.filter(Boolean)
				: value;
	}
	return Object.keys(out).length ? out : undefined;
}

/** A FieldDefinition (docs/api-notes.md, "upsertMetadataForConnection") from one row: only the options the user added are sent. */
function fieldDefinition(row: FieldRow): IDataObject {
	const options = row.fieldOptions ?? {};
	const definition: IDataObject = {
		fieldName: row.fieldName,
		displayName: row.displayName,
		valueType: row.valueType,
	};
	for (const key of ['description', 'required', 'unique', 'indexed']) {
		if (options[key] !== undefined && options[key] !== '') definition[key] = options[key];
	}
	const stringOptions = pick(options, STRING_OPTIONS);
	if (stringOptions) definition.stringOptions = stringOptions;
	const numericOptions = pick(options, NUMERIC_OPTIONS);
	if (numericOptions) definition.numericOptions = numericOptions;
	const association = pick(options, ASSOCIATION_OPTIONS);
	if (association) {
		const labels = pick(options, { singularLabel: 'singular', pluralLabel: 'plural' });
		definition.association = labels ? { ...association, labels } : association;
	}
	return definition;
}

/** Body `{ groupRef, fields: { <objectName>: FieldDefinition[] } }`, from the rows or from JSON. */
export async function buildUpsertBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const groupRef = requiredParameter(this, 'groupRef', 'Group', { extractValue: true });
	let fields: IDataObject;
	if (this.getNodeParameter('definedWith', 'fields') === 'json') {
		fields = parseJsonParameter(this, 'fieldsJson', 'Fields (JSON)', 'object') as IDataObject;
	} else {
		// A key of the fields map: text (an object would become "[object Object]").
		const objectName = requiredParameter(this, 'objectName', 'Object Name');
		if (typeof objectName !== 'string' && typeof objectName !== 'number') {
			throw new NodeOperationError(
				this.getNode(),
				`"Object Name" must be text, but its value is ${Array.isArray(objectName) ? 'a list' : typeof objectName}`,
				{
					itemIndex: this.getItemIndex(),
					description:
						'No request was sent. Fill in the parameter, or check the expression that sets it.',
				},
			);
		}
		const rows =
			(this.getNodeParameter('fieldDefinitions', {}) as { field?: FieldRow[] }).field ?? [];
		for (const row of rows) {
			const allowed = row.fieldOptions?.allowedValues;
			if (allowed !== undefined && allowed !== null && !isValueList(allowed)) {
				throw new NodeOperationError(
					this.getNode(),
					`"Allowed Values" of field "${row.fieldName}" must be comma-separated text or a list of text`,
					{
						itemIndex: this.getItemIndex(),
						description: `No request was sent. Check the expression that sets it; it gave ${JSON.stringify(allowed)?.slice(0, 60)}.`,
					},
				);
			}
		}
		fields = { [objectName]: rows.map(fieldDefinition) };
	}
	requestOptions.body = { groupRef: groupRef as IDataObject[string], fields };
	return requestOptions;
}

/** One item per field: `{ objectName, fieldName, action, warnings, … }` with the overall success. */
export async function splitFieldResults(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = (response.body ?? {}) as {
		success?: boolean;
		fields?: Record<string, Record<string, IDataObject>>;
	};
	const items: INodeExecutionData[] = [];
	for (const [objectName, results] of Object.entries(body.fields ?? {})) {
		for (const [fieldName, result] of Object.entries(results ?? {})) {
			items.push({ json: { success: body.success ?? true, objectName, fieldName, ...result } });
		}
	}
	return items.length ? items : [{ json: { success: body.success ?? true } }];
}

/** One item per custom field of the object metadata answer (`isCustom`), with the object's name. */
export async function customFieldsOf(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = (response.body ?? {}) as { name?: string; fields?: Record<string, IDataObject> };
	return Object.values(body.fields ?? {})
		.filter((field) => field.isCustom === true)
		.map((field) => ({ json: { objectName: body.name, ...field } }));
}
