/**
 * Hostile input to the action node, table-driven over EVERY operation of its description
 * (operationTable.ts reads them, so a new operation is covered automatically).
 *
 * For each operation, every parameter that reaches the request is fed malformed values: empty and
 * whitespace text, `/ ? # % .. :` and friends, non-ASCII and malformed Unicode, wrong types from
 * expressions (objects, lists, booleans, numbers, null, missing fields), very long text, and for
 * JSON parameters invalid and non-object JSON. The expectation depends on where the value goes:
 *
 * - path placeholders: a value that cannot be valid is refused before any request, naming the
 *   parameter; any other value is sent as ONE encoded segment (checked on the raw path the
 *   simulator received: same segments as the template, decoded segment = value, route and method
 *   as expected, no query parameter but the operation's own);
 * - query template slots: like path values (an object must not turn into extra query parameters);
 * - body template slots: empty is refused; any other value is sent as it is (the service judges
 *   types and answers with a problem document naming the field; docs/api-notes.md, "Problem documents");
 * - JSON parameters: invalid, empty or non-object JSON is refused naming the parameter;
 * - other required parameters: empty is refused naming the parameter; the rest is the service's
 *   to judge;
 * - optional parameters (a hand-written list below): anything goes, but never a crash.
 *
 * Whatever happens, the node never crashes: every failure is an n8n error with a clear message
 * (never a TypeError, "URI malformed", "Invalid time value" or "Unknown error").
 *
 * Speed: values given through `$json` run as the items of one execution with Continue On Fail
 * (n8n runs the items' requests side by side, as in production); literal values, which are node
 * parameters, run one execution each, without Continue On Fail.
 */
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
} from 'n8n-workflow';

import { locatorProblem } from '../../../nodes/common/locator';
import { ROUTES, rl, run, type JournalEntry, type Simulator } from '../../harness/actionEngine';
import {
	allOperations,
	fieldOf,
	outputsByInput,
	SEED_VALUES,
	type OperationSpec,
	type Variant,
} from '../../harness/operationTable';

jest.setTimeout(120_000);

// eslint-disable-next-line @typescript-eslint/no-require-imports
const simulator = require('../../simulator') as {
	startSimulator(options: IDataObject): Promise<Simulator>;
};

// This file sends what a user might type, hostile on purpose (non-text values in text fields,
// objects where the API wants strings): the node passes many of them on and the service judges.
// So its simulator is not under the request-contract watch (test/openapi/contractWatch.ts); the
// baseline request of every operation is, in faults.test.ts and the resources/ tests.
let sim: Simulator;
beforeAll(async () => (sim = await simulator.startSimulator({ port: 0, readPort: 0 })));
afterAll(async () => await sim.close());

// ---------------------------------------------------------------------------------------------
// Values

type ValueClass =
	| 'empty'
	| 'wrongType'
	| 'number'
	| 'badNumber'
	| 'long'
	| 'badUnicode'
	| 'dots'
	| 'special';

interface HostileValue {
	label: string;
	cls: ValueClass;
	/** What the expression (or the literal) yields. */
	resolved: unknown;
	/** The parameter as written, when it is a literal; otherwise the value comes from `$json.v`. */
	literal?: unknown;
	/** `$json` has no `v` at all (a missing field). */
	missing?: boolean;
}

const viaJson = (label: string, cls: ValueClass, value: unknown): HostileValue => ({
	label: `${label} (from $json)`,
	cls,
	resolved: value,
});
const literal = (
	label: string,
	cls: ValueClass,
	written: unknown,
	resolved: unknown,
): HostileValue => ({
	label,
	cls,
	literal: written,
	resolved,
});

/** Text values that must travel intact, whatever they contain. */
const SPECIAL_TEXT: string[] = [
	'a/b',
	'/',
	'../../orgs/other',
	'./x',
	'...',
	'.%2e',
	'a?x=1',
	'?rotate=true&includeSecrets=true',
	'a#frag',
	'100%',
	'%2e%2e%2f',
	'&admin=1;b=c',
	'x:unpause',
	'{project}$&',
	'a b+c\\',
	'über-日本語🙂',
	'a\u0000b\nc',
	'\u202Eevil',
	'x'.repeat(512),
];

/** Values for text that goes into the URL (path placeholders, query slots). */
const URL_VALUES: HostileValue[] = [
	// empty, as written and as expressions yield it
	literal('empty text', 'empty', '', ''),
	literal('spaces', 'empty', '   ', '   '),
	literal('expression ""', 'empty', '={{ "" }}', ''),
	viaJson('tabs and newlines', 'empty', '\t\n \r'),
	viaJson('null', 'empty', null),
	{ label: 'missing field ($json.v absent)', cls: 'empty', resolved: undefined, missing: true },
	// wrong types
	viaJson('object', 'wrongType', { id: 'x' }),
	viaJson('list', 'wrongType', ['a', 'b']),
	viaJson('empty list', 'wrongType', []),
	viaJson('true', 'wrongType', true),
	literal('expression object', 'wrongType', '={{ { a: 1 } }}', { a: 1 }),
	viaJson('bigint', 'wrongType', BigInt(12)),
	// numbers
	viaJson('number 42', 'number', 42),
	viaJson('number 0', 'number', 0),
	literal('expression NaN', 'badNumber', '={{ 0/0 }}', NaN),
	viaJson('Infinity', 'badNumber', Infinity),
	// length
	viaJson('513 characters', 'long', 'x'.repeat(513)),
	viaJson('513 non-ASCII characters', 'long', 'é'.repeat(513)),
	// malformed Unicode (a lone surrogate cannot be percent-encoded)
	viaJson('lone high surrogate', 'badUnicode', 'a\uD800b'),
	viaJson('lone low surrogate', 'badUnicode', '\uDC00'),
	// "." and "..": however encoded, URL parsing resolves them (WHATWG: %2E%2E is "..")
	viaJson('"."', 'dots', '.'),
	viaJson('".."', 'dots', '..'),
	literal('literal ..', 'dots', '..', '..'),
	// text that must travel intact
	...SPECIAL_TEXT.map((text) => viaJson(JSON.stringify(text).slice(0, 40), 'special', text)),
	viaJson('padded with spaces', 'special', '  padded  '),
	literal('literal a/b?c#d', 'special', 'a/b?c#d', 'a/b?c#d'),
	literal('literal %2F, colon, non-ASCII', 'special', '%2F:Ünïcødé ✓', '%2F:Ünïcødé ✓'),
];

/** Values for parameters that go into the body: fewer, since the body carries them as they are. */
const BODY_VALUES: HostileValue[] = [
	...URL_VALUES.filter((v) => v.cls === 'empty'),
	viaJson('object', 'wrongType', { id: 'x' }),
	viaJson('list', 'wrongType', ['a', 'b']),
	viaJson('true', 'wrongType', true),
	viaJson('bigint', 'wrongType', BigInt(12)),
	viaJson('number 42', 'number', 42),
	viaJson('NaN', 'badNumber', NaN),
	viaJson('Infinity', 'badNumber', Infinity),
	viaJson('20,000 characters', 'long', 'y'.repeat(20_000)),
	viaJson('lone high surrogate', 'badUnicode', 'a\uD800b'),
	viaJson('".."', 'dots', '..'),
	viaJson('"a/b?c#d"', 'special', 'a/b?c#d'),
	viaJson('"日本語🙂 <x> \\u0000"', 'special', '日本語🙂 <x> \u0000'),
	viaJson('padded with spaces', 'special', '  padded  '),
];

interface JsonValue {
	label: string;
	written: unknown;
	/** undefined: refused; otherwise the value that must arrive in the body. */
	accepted?: unknown;
}

const BIG_OBJECT = Object.fromEntries(
	Array.from({ length: 500 }, (_, i) => [`key${i}`, 'v'.repeat(100)]),
);
let DEEP: Record<string, unknown> = { end: true };
for (let i = 0; i < 200; i++) DEEP = { a: DEEP };

const JSON_VALUES: JsonValue[] = [
	{ label: 'empty', written: '' },
	{ label: 'spaces', written: '   ' },
	{ label: 'expression ""', written: '={{ "" }}' },
	{ label: 'missing field', written: '={{ $json.missing }}' },
	{ label: 'not JSON', written: '{nope' },
	{ label: 'truncated', written: '{"a": 1' },
	{ label: 'trailing garbage', written: '{"a": 1}}' },
	{ label: 'single quotes', written: "{'a': 1}" },
	{ label: 'NaN', written: 'NaN' },
	{ label: 'JSON list', written: '[1, 2]' },
	{ label: 'JSON empty list', written: '[]' },
	{ label: 'JSON number', written: '1' },
	{ label: 'JSON string', written: '"text"' },
	{ label: 'JSON null', written: 'null' },
	{ label: 'JSON true', written: 'true' },
	{ label: 'expression number', written: '={{ 5 }}' },
	{ label: 'expression null', written: '={{ null }}' },
	{ label: 'expression list', written: '={{ [1] }}' },
	{ label: 'expression boolean', written: '={{ false }}' },
	{ label: 'expression text that is not JSON', written: '={{ "hello" }}' },
	{ label: 'empty object', written: '{}', accepted: {} },
	{
		label: 'non-ASCII and nesting',
		written: '{"ü": "日本🙂", "nested": {"a": [1, {"b": null}]}}',
		accepted: { ü: '日本🙂', nested: { a: [1, { b: null }] } },
	},
	{ label: 'escaped lone surrogate', written: '{"a": "\\ud800"}', accepted: { a: '\uD800' } },
	{ label: '50 KB object', written: JSON.stringify(BIG_OBJECT), accepted: BIG_OBJECT },
	{ label: '200 levels deep', written: JSON.stringify(DEEP), accepted: DEEP },
	{ label: 'expression object', written: '={{ { "a": [1, 2] } }}', accepted: { a: [1, 2] } },
	{
		label: 'expression text that is JSON',
		written: '={{ JSON.stringify({ b: "x" }) }}',
		accepted: { b: 'x' },
	},
];

/** Optional parameters: anything goes, never a crash; requests keep their shape. */
const OPTIONAL: Record<string, Array<{ parameter: string; values: unknown[] }>> = {
	'destination.get': [{ parameter: 'options.includeSecrets', values: optionalScalars() }],
	'destination.rotateSecret': [{ parameter: 'options.includeSecrets', values: optionalScalars() }],
	'operation.getLogs': [
		{
			parameter: 'logOptions.severity',
			values: [...optionalScalars(), ['ERROR', 'warning'], ' , ,'],
		},
		{ parameter: 'logOptions.order', values: optionalScalars() },
		{ parameter: 'returnAll', values: optionalScalars() },
	],
	'project.getAll': [{ parameter: 'returnAll', values: optionalScalars() }],
	'project.get': [{ parameter: 'options.includeEntitlements', values: optionalScalars() }],
	'project.update': [
		{ parameter: 'updateFields.appName', values: optionalScalars() },
		{ parameter: 'updateFields.name', values: optionalScalars() },
	],
	'provider.getAll': [{ parameter: 'returnAll', values: optionalScalars() }],
	'apiKey.create': [{ parameter: 'additionalFields.scopes', values: optionalScalars() }],
	'apiKey.get': [{ parameter: 'options.includeSecrets', values: optionalScalars() }],
	'apiKey.getAll': [
		{ parameter: 'returnAll', values: optionalScalars() },
		{ parameter: 'options.activeOnly', values: optionalScalars() },
		{ parameter: 'options.includeSecrets', values: optionalScalars() },
	],
	'apiKey.update': [
		{ parameter: 'updateFields.active', values: optionalScalars() },
		{ parameter: 'updateFields.scopes', values: optionalScalars() },
	],
	'jwtKey.getAll': [
		{ parameter: 'returnAll', values: optionalScalars() },
		{ parameter: 'options.activeOnly', values: optionalScalars() },
	],
	'providerApp.create': [
		{ parameter: 'additionalFields.scopes', values: optionalScalars() },
		{ parameter: 'additionalFields.metadata', values: [...optionalScalars(), '{ nope', '[]'] },
	],
	'providerApp.getAll': [{ parameter: 'returnAll', values: optionalScalars() }],
	'providerApp.update': [
		{ parameter: 'updateFields.clientSecret', values: optionalScalars() },
		{ parameter: 'updateFields.metadata', values: [...optionalScalars(), '{ nope'] },
		{ parameter: 'updateFields.scopes', values: optionalScalars() },
	],
	'integration.getAll': [{ parameter: 'returnAll', values: optionalScalars() }],
	'destination.getAll': [{ parameter: 'returnAll', values: optionalScalars() }],
	'destination.update': [
		{ parameter: 'updateFields.name', values: optionalScalars() },
		{ parameter: 'updateFields.headers', values: [...optionalScalars(), '{ nope', '[]'] },
		{ parameter: 'updateFields.metadata', values: [...optionalScalars(), '{ nope'] },
		{ parameter: 'updateFields.secrets', values: [...optionalScalars(), '{ nope'] },
	],
	'topic.getAll': [{ parameter: 'returnAll', values: optionalScalars() }],
	'notificationEventTopicRoute.getAll': [
		{ parameter: 'returnAll', values: optionalScalars() },
		{ parameter: 'filters.topicId', values: optionalScalars() },
		{ parameter: 'filters.eventType', values: optionalScalars() },
	],
	'topicDestinationRoute.getAll': [
		{ parameter: 'returnAll', values: optionalScalars() },
		{ parameter: 'filters.topicId', values: optionalScalars() },
		{ parameter: 'filters.destinationId', values: optionalScalars() },
	],
	'organization.getMembers': [{ parameter: 'returnAll', values: optionalScalars() }],
	'invite.getAll': [{ parameter: 'returnAll', values: optionalScalars() }],
	'claimedDomain.getAll': [{ parameter: 'returnAll', values: optionalScalars() }],
	'oauth.getAuthorizationUrl': [
		{ parameter: 'additionalFields.groupName', values: optionalScalars() },
		{ parameter: 'additionalFields.providerAppId', values: optionalScalars() },
		{ parameter: 'additionalFields.providerMetadata', values: [...optionalScalars(), '{ nope'] },
	],
	'jwtKey.update': [
		{ parameter: 'updateFields.label', values: optionalScalars() },
		{ parameter: 'updateFields.active', values: optionalScalars() },
	],
	'installation.unpauseReads': [
		{ parameter: 'unpauseFields.objects', values: [...optionalScalars(), ['contacts', 7], ' , '] },
		{ parameter: 'unpauseFields.note', values: [...optionalScalars(), 'n'.repeat(20_000)] },
	],
	'connection.generate': [
		{ parameter: 'connectionFields.groupName', values: optionalScalars() },
		{ parameter: 'connectionOptions.includeSecrets', values: optionalScalars() },
	],
	'customField.upsert': [
		{
			parameter: 'fieldDefinitions.field[0].fieldOptions.allowedValues',
			values: optionalScalars(),
		},
		{ parameter: 'fieldDefinitions.field[0].fieldOptions.length', values: optionalScalars() },
	],
};
/** Extra optional parameters of one variant (shown only for it). */
const OPTIONAL_IN_VARIANT: Record<string, Array<{ parameter: string; values: unknown[] }>> = {
	'destination.create destinationType=webhook': [
		{ parameter: 'additionalFields.headers', values: [...optionalScalars(), '{ nope', '[]'] },
	],
	'connection.generate providerCredentials=oauth2AuthorizationCode': [
		{
			parameter: 'accessTokenExpiresAt',
			values: ['not a date', '2030-13-45T99:00:00Z', ...optionalScalars()],
		},
		{ parameter: 'refreshTokenExpiresAt', values: ['yesterday', {}] },
		{ parameter: 'scopes', values: optionalScalars() },
		{ parameter: 'accessToken', values: optionalScalars() },
	],
};
function optionalScalars(): unknown[] {
	return [null, '', '   ', 'a/b?c=d#e', 5, -1, true, { a: 1 }, [1, 'x'], 'é'.repeat(600)];
}

// ---------------------------------------------------------------------------------------------
// Cases

type Kind = 'path' | 'qs' | 'body' | 'json' | 'text' | 'optional';
type Expectation = 'refused' | 'sent' | 'either';

interface Case {
	id: number;
	name: string;
	op: OperationSpec;
	variant: Variant;
	kind: Kind;
	/** The parameter's name (a dotted path for options inside collections). */
	parameter: string;
	/** The parameter's display name, as an error should name it. */
	label: string;
	parameters: IDataObject;
	/** The input item (what `$json` holds). */
	item: IDataObject;
	expect: Expectation;
	/** For 'sent': how to find this case's request and what it must carry. */
	sent?: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown };
}

const NAME_OR_ID = / Name or ID$/;

function setParameter(parameters: IDataObject, dotted: string, value: unknown): IDataObject {
	const out = structuredClone(parameters);
	const keys = dotted.split(/\.|\[(\d+)\]\.?/).filter((k) => k !== undefined && k !== '');
	let node: Record<string, unknown> = out;
	for (const key of keys.slice(0, -1)) {
		node[key] ??= /^\d+$/.test(keys[keys.indexOf(key) + 1]) ? [] : {};
		node = node[key] as Record<string, unknown>;
	}
	node[keys[keys.length - 1]] = value;
	return out;
}

const asText = (value: unknown) => String(value).trim();

function expectationFor(kind: Kind, cls: ValueClass, required: boolean): Expectation {
	if (kind === 'path' || kind === 'qs') {
		if (cls === 'empty') return required || kind === 'qs' ? 'refused' : 'either';
		// A query value is not resolved like a path segment: dots travel as they are.
		if (cls === 'dots') return kind === 'qs' ? 'sent' : 'refused';
		return cls === 'number' || cls === 'special' ? 'sent' : 'refused';
	}
	if (kind === 'body') return cls === 'empty' || cls === 'badNumber' ? 'refused' : 'sent';
	if (kind === 'text') return cls === 'empty' && required ? 'refused' : 'either';
	return 'either';
}

/** Baseline values of the path placeholders (what an untouched parameter must produce). */
function baselinePath(op: OperationSpec): Record<string, string> {
	return Object.fromEntries(op.placeholders.map((name) => [name, String(SEED_VALUES[name])]));
}

let nextId = 0;

function textCases(
	op: OperationSpec,
	variant: Variant,
	kind: Kind,
	name: string,
	slot?: string[],
): Case[] {
	const field = fieldOf(variant, name) as INodeProperties;
	const isLocator = field.type === 'resourceLocator';
	const wrap = (written: unknown) => (isLocator ? rl(written as string) : written);
	const required = field.required === true;
	const values = kind === 'path' || kind === 'qs' ? URL_VALUES : BODY_VALUES;
	// A "By ID" mode takes only IDs (nodes/common/locator.ts): other text is refused before
	// sending, as the mode's check says, where it would otherwise travel intact.
	const notAnId = (mode: string, value: unknown) => {
		if (!isLocator || kind === 'text' || kind === 'json' || kind === 'optional') return false;
		// A path or query value is checked as the text it is sent as; a body value as given.
		const text =
			kind === 'body'
				? value
				: typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
					? String(value).trim()
					: undefined;
		return locatorProblem(field, mode, text) !== undefined;
	};
	const out: Case[] = values.map((value) => {
		const plain = expectationFor(kind, value.cls, required);
		const expect = plain === 'sent' && notAnId('id', value.resolved) ? 'refused' : plain;
		const written = value.literal !== undefined ? value.literal : '={{ $json.v }}';
		const item: IDataObject =
			value.missing || value.literal !== undefined ? {} : { v: value.resolved as never };
		const c: Case = {
			id: nextId++,
			name: `${kind} ${name} ← ${value.label}`,
			op,
			variant,
			kind,
			parameter: name,
			label: field.displayName,
			parameters: setParameter(variant.parameters, name, wrap(written)),
			item,
			expect,
		};
		if (expect === 'sent') {
			if (kind === 'path')
				c.sent = { path: { ...baselinePath(op), [name]: asText(value.resolved) } };
			if (kind === 'qs') c.sent = { query: { [slot![0]]: asText(value.resolved) } };
			// n8n hands a BigInt over as its digits.
			if (kind === 'body') {
				c.sent = {
					body: typeof value.resolved === 'bigint' ? String(value.resolved) : value.resolved,
				};
			}
		}
		if (kind === 'path' && expect === 'either') {
			// An optional placeholder (the revision) left empty: the node fills in the default.
			c.sent = { path: baselinePath(op) };
		}
		return c;
	});
	if (isLocator) {
		// The other ways a locator arrives: another mode, or plain text instead of a locator.
		const modes = (field.modes ?? []).map((m) => m.name);
		for (const mode of modes) {
			out.push({
				id: nextId++,
				name: `${kind} ${name} ← mode ${mode} "a/b?c"`,
				op,
				variant,
				kind,
				parameter: name,
				label: field.displayName,
				parameters: setParameter(variant.parameters, name, rl('a/b?c', mode)),
				item: {},
				expect: kind === 'text' ? 'either' : notAnId(mode, 'a/b?c') ? 'refused' : 'sent',
				sent: notAnId(mode, 'a/b?c')
					? undefined
					: kind === 'path'
						? { path: { ...baselinePath(op), [name]: 'a/b?c' } }
						: kind === 'qs'
							? { query: { [slot![0]]: 'a/b?c' } }
							: kind === 'body'
								? { body: 'a/b?c' }
								: undefined,
			});
		}
		out.push({
			id: nextId++,
			name: `${kind} ${name} ← plain text instead of a locator "../x"`,
			op,
			variant,
			kind,
			parameter: name,
			label: field.displayName,
			parameters: setParameter(variant.parameters, name, '../x'),
			item: {},
			expect: kind === 'text' ? 'either' : 'sent',
			sent:
				kind === 'path'
					? { path: { ...baselinePath(op), [name]: '../x' } }
					: kind === 'qs'
						? { query: { [slot![0]]: '../x' } }
						: kind === 'body'
							? { body: '../x' }
							: undefined,
		});
	}
	return out;
}

/** JSON parameters for which an empty object is refused: Record → Write has nothing to write. */
const EMPTY_OBJECT_REFUSED = ['recordJson'];

function jsonCases(op: OperationSpec, variant: Variant, name: string): Case[] {
	const field = fieldOf(variant, name) as INodeProperties;
	const values = JSON_VALUES.map((value) =>
		EMPTY_OBJECT_REFUSED.includes(name) && value.label === 'empty object'
			? { ...value, accepted: undefined }
			: value,
	);
	return values.map((value) => ({
		id: nextId++,
		name: `json ${name} ← ${value.label}`,
		op,
		variant,
		kind: 'json' as const,
		parameter: name,
		label: field.displayName,
		parameters: setParameter(variant.parameters, name, value.written),
		item: {},
		expect: value.accepted === undefined ? ('refused' as const) : ('sent' as const),
		sent: value.accepted === undefined ? undefined : { body: value.accepted },
	}));
}

function optionalCases(
	op: OperationSpec,
	variant: Variant,
	list: Array<{ parameter: string; values: unknown[] }>,
): Case[] {
	return list.flatMap(({ parameter, values }) =>
		values.map((value) => ({
			id: nextId++,
			name: `optional ${parameter} ← ${JSON.stringify(value)?.slice(0, 30)} (from $json)`,
			op,
			variant,
			kind: 'optional' as const,
			parameter,
			label: parameter,
			parameters: setParameter(variant.parameters, parameter, '={{ $json.v }}'),
			item: { v: value as never },
			expect: 'either' as const,
		})),
	);
}

/** Fields whose hostile values have their own tests, because their shape is not the table's. */
const DRIVEN_ELSEWHERE = [
	// A free path below the provider's API (resources/providerApi.test.ts), not one path segment.
	'providerApi.sendRequest proxyPath',
];

function casesOf(op: OperationSpec): Case[] {
	const out: Case[] = [];
	const done = new Set<string>();
	for (const variant of op.variants) {
		const once = (name: string) => {
			if (done.has(name) || !fieldOf(variant, name)) return false;
			done.add(name);
			return true;
		};
		for (const name of op.placeholders)
			if (once(name)) out.push(...textCases(op, variant, 'path', name));
		for (const slot of op.slots) {
			if (once(slot.name)) out.push(...textCases(op, variant, slot.where, slot.name, slot.path));
		}
		for (const field of variant.visible) {
			if (field.type === 'json' && once(field.name))
				out.push(...jsonCases(op, variant, field.name));
		}
		for (const field of variant.visible) {
			if (
				!DRIVEN_ELSEWHERE.includes(`${op.key} ${field.name}`) &&
				field.required &&
				['string', 'options', 'resourceLocator'].includes(field.type) &&
				once(field.name)
			) {
				out.push(...textCases(op, variant, 'text', field.name));
			}
		}
		const optional = [
			...(variant === op.variants[0] ? (OPTIONAL[op.key] ?? []) : []),
			...(OPTIONAL_IN_VARIANT[`${op.key} ${variant.name}`] ?? []),
		];
		out.push(...optionalCases(op, variant, optional));
	}
	return out;
}

const OPERATIONS = allOperations();
const CASES = new Map(OPERATIONS.map((op) => [op.key, casesOf(op)]));
const TOTAL = [...CASES.values()].reduce((n, list) => n + list.length, 0);

// ---------------------------------------------------------------------------------------------
// Running and checking

interface Outcome {
	/** The item's error, or the node's error (thrown or returned) for a single run. */
	error?: Error & { description?: string; httpCode?: string };
	output: INodeExecutionData[];
	/** Requests of the execution the case ran in (shared by the cases of one batch). */
	requests: JournalEntry[];
	/** Problems found with the batch's requests as a whole. */
	batchProblems: string[];
	/** Cases of the batch that were expected to be sent. */
	batch: Case[];
}

/** Internal JavaScript failures that must never reach the user as the node's error. */
const INTERNAL =
	/is not a function|cannot read propert|cannot convert|undefined is not|is not iterable|uri malformed|invalid time value|maximum call stack|unknown error|is not defined|invalid array length|\[object object\]/i;
const CLEAR_ERROR_TYPES = ['NodeApiError', 'NodeOperationError', 'WorkflowHasIssuesError'];

function unclear(error: Outcome['error']): string | undefined {
	if (!error) return undefined;
	const type = error.name || error.constructor?.name;
	if (!CLEAR_ERROR_TYPES.includes(type)) return `error of type ${type}: ${error.message}`;
	const message = String(error.message ?? '');
	if (message.trim().length < 10) return `message too short: ${JSON.stringify(message)}`;
	if (INTERNAL.test(message)) return `internal failure in the message: ${message}`;
	if (INTERNAL.test(String(error.description ?? ''))) {
		return `internal failure in the description: ${error.description}`;
	}
	return undefined;
}

const reachedService = (error: Outcome['error']) => !error || /\[HTTP \d{3}/.test(error.message);

function decode(raw: string): string | undefined {
	try {
		return decodeURIComponent(raw);
	} catch {
		return undefined;
	}
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The placeholder values of a request, or a reason why its path does not fit the template. */
function pathValuesOf(op: OperationSpec, entry: JournalEntry): Record<string, string> | string {
	const template = `${op.host === 'proxy' ? '' : '/v1'}${op.path}`.split('/');
	const raw = entry.pathname.split('/');
	if (raw.length !== template.length) {
		return `${entry.pathname}: ${raw.length} segments, the template has ${template.length}`;
	}
	const values: Record<string, string> = {};
	for (let i = 0; i < template.length; i++) {
		const names: string[] = [];
		const pattern = template[i]
			.split(/(\{\w+\})/)
			.map((part) => {
				const placeholder = /^\{(\w+)\}$/.exec(part);
				if (!placeholder) return escapeRegex(part);
				names.push(placeholder[1]);
				return '([^/?#:]*)';
			})
			.join('');
		const match = new RegExp(`^${pattern}$`).exec(raw[i]);
		if (!match)
			return `${entry.pathname}: segment ${JSON.stringify(raw[i])} does not fit ${template[i]}`;
		for (const [j, name] of names.entries()) {
			const segment = match[j + 1];
			if (segment === '.' || segment === '..')
				return `${entry.pathname}: a bare ${segment} segment`;
			const decoded = decode(segment);
			if (decoded === undefined)
				return `${entry.pathname}: ${segment} is not valid percent-encoding`;
			values[name] = decoded;
		}
	}
	return values;
}

/** Problems with one request of the operation, whatever case caused it. */
function shapeProblems(op: OperationSpec, entry: JournalEntry, target: Case): string[] {
	const problems: string[] = [];
	if (entry.method !== op.method) problems.push(`method ${entry.method}, expected ${op.method}`);
	if (entry.host !== op.host) problems.push(`host ${entry.host}, expected ${op.host}`);
	const values = pathValuesOf(op, entry);
	if (typeof values === 'string') problems.push(values);
	else {
		for (const [name, value] of Object.entries(baselinePath(op))) {
			// The parameter under test may hold anything; the others must be untouched.
			if (name === target.parameter) continue;
			if (values[name] !== value) problems.push(`${name} became ${JSON.stringify(values[name])}`);
		}
	}
	const allowed = [...op.ownQuery, ...op.optionalQuery];
	for (const key of Object.keys(entry.query)) {
		if (!allowed.includes(key)) problems.push(`query parameter ${JSON.stringify(key)} added`);
	}
	return problems;
}

/**
 * Routes a request may reach besides the operation's own: lookups made in code (the integration's
 * latest revision; Send Request's Group given By Group Ref, looked up in the installations).
 */
const LOOKUP_ROUTES = ['getIntegration', 'listInstallations'];

function matches(op: OperationSpec, entry: JournalEntry, c: Case): boolean {
	if (entry.routeId !== op.routeId || !c.sent) return false;
	if (c.sent.path) {
		const values = pathValuesOf(op, entry);
		if (typeof values === 'string') return false;
		if (Object.entries(c.sent.path).some(([name, value]) => values[name] !== value)) return false;
	}
	if (c.sent.query) {
		if (Object.entries(c.sent.query).some(([name, value]) => entry.query[name] !== value))
			return false;
	}
	if (c.sent.body !== undefined && !containsValue(entry.body, c.sent.body, c)) return false;
	return true;
}

/** Whether the body carries `value` where the case's parameter goes. */
function containsValue(body: unknown, value: unknown, c: Case): boolean {
	const slot = c.op.slots.find((s) => s.name === c.parameter);
	if (slot) {
		let node: unknown = body;
		for (const key of slot.path) node = (node as Record<string, unknown> | undefined)?.[key];
		return isDeepStrictEqual(node, value);
	}
	// JSON parameters: anywhere in the body.
	const search = (node: unknown): boolean =>
		isDeepStrictEqual(node, value) ||
		(typeof node === 'object' && node !== null && Object.values(node).some(search));
	return search(body);
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isDeepStrictEqual } = require('node:util') as typeof import('node:util');

const outcomes = new Map<number, Outcome>();

/** Runs the cases of one operation: batches of identical parameters share one execution. */
async function runCases(op: OperationSpec, cases: Case[]): Promise<void> {
	const groups = new Map<string, Case[]>();
	for (const c of cases) {
		const key = JSON.stringify(c.parameters, (_k, v: unknown) =>
			typeof v === 'bigint' ? `${v}n` : v,
		);
		groups.set(key, [...(groups.get(key) ?? []), c]);
	}
	for (const group of groups.values()) await runGroup(op, group);
}

async function runGroup(op: OperationSpec, group: Case[]): Promise<void> {
	sim.reset();
	const batched = group.length > 1;
	let items: INodeExecutionData[] = [];
	let nodeError: Outcome['error'];
	let requests: JournalEntry[];
	try {
		const result = await run(sim, group[0].parameters as INodeParameters, {
			items: group.map((c) => c.item),
			continueOnFail: batched,
			nodeSettings: group[0].variant.nodeSettings,
		});
		items = result.items;
		nodeError = result.error;
		requests = result.requests;
	} catch (error) {
		// n8n refuses to start a node with an empty required parameter (WorkflowHasIssuesError).
		nodeError = error as Outcome['error'];
		requests = [...sim.journal.entries];
	}
	const batchProblems: string[] = [];
	for (const entry of requests) {
		// A value turned into text the JavaScript way was mangled on the way (String({}) …).
		if (/\[object\b|\bobject\]/i.test(`${entry.path} ${JSON.stringify(entry.body)}`)) {
			batchProblems.push(`a mangled value was sent: ${entry.method} ${entry.path.slice(0, 120)}`);
		}
		if (entry.routeId !== op.routeId && !LOOKUP_ROUTES.includes(entry.routeId)) {
			batchProblems.push(
				`a request reached ${entry.routeId ?? 'no route'}: ${entry.method} ${entry.path}`,
			);
		}
	}
	const byInput = outputsByInput(items, group.length);
	for (const [index, c] of group.entries()) {
		const own = byInput[index];
		const error = batched ? (own.find((item) => item.error)?.error as Outcome['error']) : nodeError;
		outcomes.set(c.id, { error, output: own, requests, batchProblems, batch: group });
	}
	// Every request of the operation comes from a case that reached the service.
	const reached = group.filter((c) => reachedService(outcomes.get(c.id)!.error)).length;
	const ownRequests = requests.filter((e) => e.routeId === op.routeId).length;
	if (ownRequests !== reached) {
		batchProblems.push(
			`${ownRequests} requests reached ${op.routeId}, but ${reached} items reached the service`,
		);
	}
}

function problemsOf(c: Case): string[] {
	const outcome = outcomes.get(c.id);
	if (!outcome) return ['not run'];
	const problems = [...outcome.batchProblems];
	const { error, requests } = outcome;
	const why = unclear(error);
	if (why) problems.push(why);
	const mine = requests.filter((entry) => matches(c.op, entry, c));
	const label = c.label.replace(NAME_OR_ID, '');
	switch (c.expect) {
		case 'refused':
			if (!error) problems.push('no error: the value should have been refused');
			else {
				// n8n's own check of a typed value names the field by the mode's message only.
				const modeMessages = (fieldOf(c.variant, c.parameter)?.modes ?? []).flatMap((mode) =>
					(mode.validation ?? []).map((rule) =>
						typeof rule === 'object'
							? (rule.properties as { errorMessage?: string }).errorMessage
							: '',
					),
				);
				const byMode =
					error.name === 'WorkflowHasIssuesError' &&
					modeMessages.some((m) => m !== undefined && m !== '' && error.message.includes(m));
				if (
					!byMode &&
					!error.message.includes(`"${label}"`) &&
					!error.message.includes(`"${c.label}"`)
				) {
					problems.push(`the error does not name "${label}": ${error.message}`);
				}
				if (reachedService(error)) problems.push(`sent anyway: ${error.message}`);
				if (
					error.name !== 'WorkflowHasIssuesError' &&
					!/No request was sent/.test(error.description ?? '')
				) {
					problems.push(`the description does not say that nothing was sent: ${error.description}`);
				}
			}
			break;
		case 'sent':
			if (mine.length !== 1) {
				problems.push(
					`expected one request carrying the value, found ${mine.length}: ${requests
						.map((e) => `${e.method} ${e.path}`)
						.join(' | ')
						.slice(0, 400)}`,
				);
			}
			if (error && !reachedService(error)) problems.push(`refused: ${error.message}`);
			break;
		case 'either':
			break;
	}
	// Every request of the operation in this execution has the operation's shape.
	for (const entry of requests.filter((e) => e.routeId === c.op.routeId)) {
		problems.push(
			...shapeProblems(c.op, entry, c).map((p) => `request ${entry.path.slice(0, 120)}: ${p}`),
		);
	}
	return problems;
}

// ---------------------------------------------------------------------------------------------
// The tests

test(`the table covers every operation with ${TOTAL} hostile-input cases`, () => {
	const perOperation = OPERATIONS.map((op) => `${op.key}: ${CASES.get(op.key)!.length}`);
	console.log(
		`Hostile input: ${TOTAL} cases over ${OPERATIONS.length} operations (${new Set(OPERATIONS.map((o) => o.routeId)).size} routes)\n  ${perOperation.join('\n  ')}`,
	);
	expect(OPERATIONS.length).toBeGreaterThanOrEqual(19);
	// An operation without any parameter (User → Get Current) has no input to be hostile with.
	for (const op of OPERATIONS) {
		if (op.variants.some((v) => v.visible.length > 0)) {
			expect(CASES.get(op.key)!.length).toBeGreaterThan(0);
		}
	}
	expect(TOTAL).toBeGreaterThanOrEqual(500);
	// The route ids come from the simulator's table; each operation reaches exactly one of them.
	// The proxy (Provider API → Send Request) has one route for every provider path, outside the table.
	for (const op of OPERATIONS) expect([...ROUTES.map((r) => r.id), 'proxy']).toContain(op.routeId);
});

describe.each(
	OPERATIONS.filter((op) => CASES.get(op.key)!.length > 0).map((op) => [op.label, op] as const),
)('%s', (_label, op) => {
	const cases = CASES.get(op.key)!;

	beforeAll(async () => {
		// The baseline itself is a valid request (otherwise the table proves little).
		sim.reset();
		const baseline = await run(sim, op.variants[0].parameters, {
			nodeSettings: op.variants[0].nodeSettings,
		});
		if (baseline.error) throw new Error(`${op.key} baseline fails: ${baseline.error.message}`);
		await runCases(op, cases);
	});

	// One test per parameter; a failure lists each failing case with what went wrong.
	const byParameter = new Map<string, Case[]>();
	for (const c of cases) {
		const key = `${c.kind} ${c.parameter}`;
		byParameter.set(key, [...(byParameter.get(key) ?? []), c]);
	}
	test.each([...byParameter].map(([key, list]) => [key, list.length, list] as const))(
		'%s: %i cases',
		(_key, _count, list) => {
			const failing = Object.fromEntries(
				list.map((c) => [c.name, problemsOf(c)] as const).filter(([, problems]) => problems.length),
			);
			expect(failing).toEqual({});
		},
	);
});

describe('Revision → Get Hydrated without a revision: the latest-revision lookup checks the same way', () => {
	const revision = OPERATIONS.find((op) => op.key === 'revision.getHydrated')!;
	const base = { ...revision.variants[0].parameters, revision: '' };
	test.each([
		['project', '..', 'Project'],
		['project', 'a\uD800', 'Project'],
		['integration', '={{ { id: 1 } }}', 'Integration'],
		['integration', '={{ 0/0 }}', 'Integration'],
		// By expression: a typed "." is not an integration ID, which n8n refuses before the run.
		['integration', '={{ "." }}', 'Integration'],
	])('%s ← %p: refused before the lookup, naming "%s"', async (name, value, label) => {
		sim.reset();
		const result = await run(sim, { ...base, [name]: rl(value) });
		expect(result.requests).toEqual([]);
		expect(result.error?.message).toContain(`"${label}"`);
		expect(result.error?.description).toMatch(/No request was sent/);
		expect(unclear(result.error)).toBeUndefined();
	});
});
