import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import { integrationLocator } from '../../../common/installation';
import { locatorProblem } from '../../../common/locator';
import { checkWholeNumber } from '../../../common/numbers';
import type { ItemParameters } from '../../inCode/customContext';
import { urlValue } from '../../inCode/customContext';
import type { MapperValue } from './mappedRecord';
import { mappedRecord, MappingProblem } from './mappedRecord';
import { V3_FIELDS_LABEL } from './writeMapper';

/**
 * Record → Write, first step: each input item becomes one record to write, or an error of that
 * item alone (docs/api-notes.md, "Data plane"). Nothing is sent here.
 */

export type WriteType = 'create' | 'update' | 'delete';

/** Where an item's record comes from: its own fields, Record (JSON), or the resource mapper (version 2). */
export type RecordSource = 'input' | 'json' | 'mapper';

/** Where the request of a record goes and how; records with equal targets may share a batch. */
export interface WriteTarget {
	project: string;
	integration: string;
	object: string;
	groupRef: string;
	type: WriteType;
	mode: 'synchronous' | 'asynchronous';
	allOrNone: boolean;
	batchSize: number;
	deadlineHours?: number;
}

export interface RecordToWrite {
	itemIndex: number;
	target: WriteTarget;
	/** What the batch carries for this record: `{ record, associations? }`. */
	entry: IDataObject;
	/** The provider's record ID, for update and delete (sent as `record.id`). */
	recordId?: string;
}

/** The API's largest batch (the `batch` array of the write request holds 1 to 100 records). */
export const MAX_BATCH_SIZE = 100;

/** The longest retry deadline of an asynchronous write (docs/api-notes.md, "Data plane"). */
export const MAX_DEADLINE_HOURS = 48;

interface WriteOptions {
	batchSize?: number;
	allOrNone?: boolean;
	deadlineHours?: number;
	fieldsToIgnore?: string;
	associationsField?: string;
}

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field of the record itself, never one an object inherits (`constructor`, `__proto__`). */
const ownField = (record: IDataObject, field: string): unknown =>
	Object.prototype.hasOwnProperty.call(record, field) ? record[field] : undefined;

/**
 * The node runs as an AI tool: its type is the tool variant n8n generates (docs/n8n-notes.md,
 * "The node as an AI tool").
 */
export const runsAsTool = (context: IExecuteFunctions) => context.getNode().type.endsWith('Tool');

const RECORD_SOURCES: readonly RecordSource[] = ['input', 'json', 'mapper'];

/**
 * The refusal's details. Its message holds what to do: an AI Agent hands the model only an
 * error's message (docs/n8n-notes.md, "The node as an AI tool").
 */
const TOOL_ARGUMENTS =
	"A tool's arguments are the values of its parameters' $fromAI() calls and nothing else.";

/** What to use instead of an input item when the node is a tool. */
const fromAiHint = (context: IExecuteFunctions) =>
	`Set Records From to JSON with Record (JSON) = {{ $fromAI('record', 'The record as a JSON object of field names and values', 'json') }}${context.getNode().typeVersion >= 2 ? ", or to Field Mapping with each field's value given by $fromAI()" : ''}.`;

/**
 * Where the item's record comes from. As an AI tool there is no input item: n8n hands the node
 * only the call's arguments, which hold the values of the $fromAI() parameters (project, group,
 * …), not a record; the forms that read the input item are refused rather than writing those.
 */
function sourceOf(context: IExecuteFunctions, params: ItemParameters, itemIndex: number) {
	const source = params.get<unknown>('recordSource', itemIndex, 'input');
	if (!RECORD_SOURCES.includes(source as RecordSource)) {
		throw itemError(
			context,
			itemIndex,
			`"Records From" must be ${context.getNode().typeVersion >= 2 ? 'Field Mapping, ' : ''}Each Input Item or JSON, but it is ${JSON.stringify(source) ?? String(source)}`,
			'Choose one from the list; an expression must give mapper, input or json.',
		);
	}
	if (source === 'input' && runsAsTool(context)) {
		throw itemError(
			context,
			itemIndex,
			`"Records From" → "Each Input Item" does not work when the node runs as an AI tool: a tool call has no input item, only the arguments the model gives through $fromAI(). ${fromAiHint(context)}`,
			TOOL_ARGUMENTS,
		);
	}
	return source as RecordSource;
}

function itemError(context: IExecuteFunctions, itemIndex: number, message: string, hint: string) {
	return new NodeOperationError(context.getNode(), message, {
		itemIndex,
		description: `No request was sent for this item. ${hint}`,
	});
}

/** The record of one item: the input item's fields, or the Record (JSON) parameter. */
function recordOf(
	context: IExecuteFunctions,
	params: ItemParameters,
	itemIndex: number,
	json: IDataObject,
	source: RecordSource,
): IDataObject {
	if (source === 'input') return { ...json };
	const raw = params.get('recordJson', itemIndex, {});
	let value: unknown = raw;
	if (typeof raw === 'string') {
		try {
			value = jsonParse(raw);
		} catch {
			throw itemError(
				context,
				itemIndex,
				'"Record (JSON)" is not valid JSON',
				'Write the record as a JSON object, e.g. {"email": "ada@example.com"}.',
			);
		}
	}
	if (!isObject(value)) {
		throw itemError(
			context,
			itemIndex,
			`"Record (JSON)" must be a JSON object, but it is ${Array.isArray(value) ? 'a list' : typeof value}`,
			'Write one record per item, as a JSON object of its fields.',
		);
	}
	return { ...value };
}

/** Reads one item's record and target; throws an error of this item alone when it cannot be sent. */
export function recordToWrite(
	context: IExecuteFunctions,
	params: ItemParameters,
	itemIndex: number,
	json: IDataObject,
): RecordToWrite {
	const node = context.getNode();
	const locator = (name: string, label: string) =>
		urlValue(node, itemIndex, label, params.get(name, itemIndex, undefined, true));
	const type = params.get<WriteType>('writeType', itemIndex, 'create');
	const options = params.get<WriteOptions>('writeOptions', itemIndex, {});
	const mode =
		type === 'delete'
			? 'synchronous'
			: params.get<WriteTarget['mode']>('writeMode', itemIndex, 'synchronous');
	const whole = (label: string, value: unknown, max: number) => {
		const checked = checkWholeNumber(label, value, 1, max);
		if (typeof checked === 'number') return checked;
		throw itemError(context, itemIndex, checked.problem, `Give a whole number from 1 to ${max}.`);
	};
	const batchSize =
		type === 'delete'
			? 1
			: whole('Batch Size', options.batchSize ?? MAX_BATCH_SIZE, MAX_BATCH_SIZE);
	const deadlineHours =
		mode === 'asynchronous' && options.deadlineHours !== undefined
			? whole('Retry Deadline (Hours)', options.deadlineHours, MAX_DEADLINE_HOURS)
			: undefined;
	// An expression's value in Integration "By ID" is checked as n8n checks a typed one
	// (nodes/common/locator.ts, `locatorProblem`).
	const integration = locator('integration', 'Integration');
	const notAnId = locatorProblem(
		integrationLocator,
		params.get('integration.mode', itemIndex, ''),
		integration,
	);
	if (notAnId) {
		throw itemError(
			context,
			itemIndex,
			notAnId,
			'Pick the integration from the list, or check the expression that sets it.',
		);
	}
	const target: WriteTarget = {
		project: locator('project', 'Project'),
		integration,
		object: locator('object', 'Object'),
		groupRef: locator('groupRef', 'Group'),
		type,
		mode,
		allOrNone: options.allOrNone === true,
		// The API writes deletes one at a time; a batch holds 1 to 100 records.
		batchSize,
		...(deadlineHours !== undefined ? { deadlineHours } : {}),
	};

	const source = sourceOf(context, params, itemIndex);
	let mapped: ReturnType<typeof mappedRecord> | undefined;
	let emptyReason: EmptyReason = source;
	const idOutsideMapper = context.getNode().typeVersion >= 3;
	// The mapped fields' label in Update, as the editor shows it (records/writeMapper.ts).
	const fieldsLabel = idOutsideMapper ? V3_FIELDS_LABEL : 'Fields to Change';
	if (source === 'mapper') {
		const mapper = params.get<MapperValue>('columns', itemIndex, {});
		if (mapper.mappingMode === 'autoMapInputData') {
			emptyReason = 'auto';
			if (runsAsTool(context)) {
				throw itemError(
					context,
					itemIndex,
					`"Fields" → "Map Automatically" does not work when the node runs as an AI tool: a tool call has no input item, only the arguments the model gives through $fromAI(). Choose Map Each Column Manually and give each field's value with $fromAI(), or ${fromAiHint(context).replace(/^Set/, 'set')}`,
					TOOL_ARGUMENTS,
				);
			}
		}
		try {
			// Version 3 holds the record ID in a parameter of its own (records/writeMapper.ts), and
			// Delete shows no fields.
			mapped =
				idOutsideMapper && type === 'delete'
					? { record: {}, matchField: 'id' }
					: mappedRecord(mapper, json, type, !idOutsideMapper);
		} catch (error) {
			if (error instanceof MappingProblem) {
				throw itemError(context, itemIndex, `Item ${itemIndex}: ${error.message}`, error.hint);
			}
			throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
		}
	}
	const record = mapped ? mapped.record : recordOf(context, params, itemIndex, json, source);
	for (const field of (options.fieldsToIgnore ?? '').split(',')) {
		if (field.trim()) delete record[field.trim()];
	}
	const entry: IDataObject = { record };
	const associationsField = options.associationsField?.trim();
	if (associationsField && ownField(record, associationsField) !== undefined) {
		const associations = record[associationsField];
		delete record[associationsField];
		if (!Array.isArray(associations)) {
			throw itemError(
				context,
				itemIndex,
				`The field "${associationsField}" (Associations Field) must be a list of associations`,
				'Each association is an object such as {"to": {"id": "…"}, "types": […]}.',
			);
		}
		entry.associations = associations;
	}

	if (type === 'create') {
		refuseEmpty(context, itemIndex, emptyReason, entry, type, fieldsLabel);
		return { itemIndex, target, entry };
	}
	const idField = mapped
		? mapped.matchField
		: String(params.get('idField', itemIndex, 'id')).trim() || 'id';
	const id =
		mapped && idOutsideMapper
			? params.get('recordId', itemIndex, '')
			: mapped
				? mapped.recordId
				: ownField(record, idField);
	if ((typeof id !== 'string' && typeof id !== 'number') || String(id).trim() === '') {
		const form = mapped ? (idOutsideMapper ? 'parameter' : 'match') : 'field';
		throw itemError(context, itemIndex, ...noRecordId(itemIndex, type, idField, form, id));
	}
	const recordId = String(id);
	if (idField !== 'id') delete record[idField];
	// A delete sends only the ID (docs/api-notes.md, "Data plane").
	if (type === 'delete') {
		entry.record = { id: recordId };
		return { itemIndex, target, entry, recordId };
	}
	delete record.id;
	refuseEmpty(context, itemIndex, emptyReason, entry, type, fieldsLabel);
	record.id = recordId;
	return { itemIndex, target, entry, recordId };
}

/**
 * The refusal of an Update or Delete without a record ID: where the ID should have come from in
 * each form (the Record ID parameter, the mapper's field to match on, or a field of the record).
 */
function noRecordId(
	itemIndex: number,
	type: WriteType,
	idField: string,
	form: 'parameter' | 'match' | 'field',
	given: unknown,
): [string, string] {
	const needs = `${type} needs the provider's record ID`;
	if (form === 'parameter') {
		const what =
			given === undefined || given === null || typeof given === 'string'
				? 'is empty'
				: `is ${Array.isArray(given) ? 'a list' : typeof given === 'object' ? 'an object' : `a ${typeof given}`}, not text or a number`;
		return [
			`Item ${itemIndex} has no record ID ("Record ID" ${what}): ${needs}`,
			"Set Record ID to the record's ID, e.g. the expression {{ $json.id }}.",
		];
	}
	if (form === 'match') {
		return [
			`Item ${itemIndex} has no record ID ("${idField}", the field to match on): ${needs}`,
			`Map the record's ID to the field to match on (Record ID).`,
		];
	}
	return [
		`The record has no "${idField}" (Record ID Field): ${needs}`,
		`Map the record's ID into the field "${idField}", or set Record ID Field to the field that holds it.`,
	];
}

/** Why a record is empty: its source, with the mapper's two modes told apart. */
type EmptyReason = RecordSource | 'auto';

/**
 * An item with nothing to write fails before anything is sent: a record without fields (an empty
 * input item, as after a Manual Trigger, or every mapped value left empty) would otherwise create
 * an empty record, or send an update that changes nothing.
 */
function refuseEmpty(
	context: IExecuteFunctions,
	itemIndex: number,
	source: EmptyReason,
	entry: IDataObject,
	type: WriteType,
	fieldsLabel: string,
) {
	const fields = Object.keys(entry.record as IDataObject);
	const associations = Array.isArray(entry.associations) && entry.associations.length > 0;
	if (fields.length > 0 || associations) return;
	// `source` is one of the known values (sourceOf), so no key reaches the object's prototype.
	const why: Record<EmptyReason, [string, string]> = {
		input: [
			'the input item has no fields',
			"With Records From → Each Input Item, each item's fields are the record's fields: feed the node items that hold them (a Manual Trigger gives one empty item), or map the fields in the node.",
		],
		json: [
			'"Record (JSON)" has no fields',
			'Give the record\'s fields, e.g. {"email": "ada@example.com"}.',
		],
		auto: [
			'the input item has no fields',
			"Map Automatically sends the input item's fields: feed the node items that hold them (a Manual Trigger gives one empty item), or map each field below.",
		],
		mapper: [
			'every mapped value is empty',
			'Set a value (or an expression) for at least one field, or map the input automatically.',
		],
	};
	// An update's ID was found (it is checked first): say that it is all there is.
	const idOnly: [string, string] = [
		'only the record ID ("Record ID") is set: no field to change is mapped',
		`Map a value or an expression to at least one field under "${fieldsLabel}" ("Add field to send" lists the others), or set Write Type to Delete to delete the record.`,
	];
	const [reason, hint] = source === 'mapper' && type === 'update' ? idOnly : why[source];
	throw itemError(context, itemIndex, `Item ${itemIndex} has nothing to write: ${reason}`, hint);
}
