/**
 * Checks one recorded request (a simulator journal entry: host, method, path, query, body) against
 * the request contract of the real API, docs/api-requests.json, which
 * scripts/generate-api-catalog.mjs writes from the API's OpenAPI documents (all four: management,
 * read, write, search). The documents themselves are not in the repository; the generated file is.
 *
 * What is checked (docs/testing.md, "Request contract"):
 * - the path matches an operation of that host (below /v1), and the method is that operation's;
 * - every path parameter decodes and validates against its schema;
 * - every required query parameter is present, no query parameter is unknown, each value validates
 *   (query text is coerced to the schema's type first, as a server would);
 * - a body is sent only where the operation declares one, is JSON, is present when required, and
 *   validates against the body schema with OpenAPI 3.0 semantics (`nullable`), all formats checked.
 * Requests to the proxy host have no contract (the proxy forwards to the provider's own API).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface SchemaObject {
	[keyword: string]: unknown;
}

export interface ContractOperation {
	operationId: string;
	document: string;
	host: string;
	method: string;
	path: string;
	pathParameters: Array<{ name: string; schema: SchemaObject }>;
	queryParameters: Array<{ name: string; required: boolean; schema: SchemaObject }>;
	body: null | { required: boolean; contentType: string; schema: SchemaObject };
}

export interface Contract {
	operations: ContractOperation[];
	definitions: Record<string, SchemaObject>;
}

/** The fields of a simulator journal entry (test/simulator/journal.js) the check reads. */
export interface RecordedRequest {
	host: string;
	method: string;
	pathname: string;
	query: Record<string, string | string[]>;
	headers?: Record<string, string | string[] | undefined>;
	body: unknown;
}

export interface Verdict {
	/** The operation the request matched, when it matched one. */
	operationId?: string;
	/** What does not conform; empty when the request conforms. */
	violations: string[];
	/** Set when the request has no contract to check against (the proxy host). */
	unchecked?: string;
}

/** Journal host → the contract's host names (docs/api-notes.md, "Hosts and base URLs"). */
export const HOSTS: Record<string, string> = {
	api: 'management',
	read: 'read',
	write: 'write',
	search: 'search',
};

const CONTRACT_FILE = path.join(__dirname, '..', '..', 'docs', 'api-requests.json');

/** The fields of an operation that locate it: its host (the contract's name), method and path. */
interface Located {
	host: string;
	method: string;
	path: string;
}

type Compiled<T extends Located> = T & {
	regex: RegExp;
	names: string[];
	/** Literal characters of the path: the most specific template wins. */
	specificity: number;
};

/** Compiles the path templates of a contract's operations for `locate`. */
export function compileOperations<T extends Located>(operations: T[]): Array<Compiled<T>> {
	return operations.map((operation) => {
		const names: string[] = [];
		const pattern = operation.path
			.split(/(\{[^}]+\})/)
			.map((part) => {
				const placeholder = /^\{([^}]+)\}$/.exec(part);
				if (placeholder) {
					names.push(placeholder[1]);
					return '([^/]+)';
				}
				return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
			})
			.join('');
		return {
			...operation,
			regex: new RegExp(`^${pattern}$`),
			names,
			specificity: operation.path.replace(/\{[^}]+\}/g, '').length,
		};
	});
}

/**
 * The operation a journaled request (host, method, path) reaches, with its path's match, or the
 * one violation that says why none does.
 */
export function locate<T extends Located>(
	operations: Array<Compiled<T>>,
	request: { host: string; method: string; pathname: string },
): { op: Compiled<T>; match: RegExpExecArray } | { violation: string } {
	const host = HOSTS[request.host];
	if (!host) return { violation: `unknown host "${request.host}"` };
	if (!request.pathname.startsWith('/v1/')) {
		return { violation: `path ${request.pathname} is not below /v1` };
	}
	const below = request.pathname.slice(3);
	const matches = operations
		.filter((op) => op.host === host)
		.map((op) => ({ op, match: op.regex.exec(below) }))
		.filter(({ match }) => match !== null)
		.sort((a, b) => b.op.specificity - a.op.specificity);
	if (matches.length === 0) {
		return { violation: `no operation of the ${host} host has the path ${below}` };
	}
	const found = matches.find(({ op }) => op.method === request.method.toUpperCase());
	if (!found) {
		const methods = [...new Set(matches.map(({ op }) => `${op.method} ${op.path}`))];
		return {
			violation: `${request.method} ${below}: the path exists only as ${methods.join(', ')}`,
		};
	}
	return found as { op: Compiled<T>; match: RegExpExecArray };
}

export class RequestContract {
	private readonly operations: Array<Compiled<ContractOperation>>;
	/** Body validation: exact types. */
	private readonly ajv: Ajv;
	/** Path and query values arrive as text: coerced to the schema's type first. */
	private readonly textAjv: Ajv;
	private readonly bodyValidators = new Map<string, ValidateFunction>();
	private readonly valueValidators = new Map<string, ValidateFunction>();

	constructor(readonly contract: Contract) {
		this.operations = compileOperations(contract.operations);
		const options = { strict: false, allErrors: true } as const;
		this.ajv = withFormats(new Ajv(options));
		this.textAjv = withFormats(new Ajv({ ...options, coerceTypes: 'array' }));
		this.ajv.addSchema({ $id: 'contract', definitions: contract.definitions });
		this.textAjv.addSchema({ $id: 'contract', definitions: contract.definitions });
	}

	static load(file = CONTRACT_FILE): RequestContract {
		return new RequestContract(JSON.parse(fs.readFileSync(file, 'utf8')) as Contract);
	}

	check(request: RecordedRequest): Verdict {
		if (request.host === 'proxy') {
			return {
				violations: [],
				unchecked: "proxy host: forwarded to the provider's own API, no contract",
			};
		}
		const found = locate(this.operations, request);
		if ('violation' in found) return { violations: [found.violation] };
		const { op, match } = found;
		const violations: string[] = [];

		op.names.forEach((name, index) => {
			const raw = match[index + 1];
			let value: string;
			try {
				value = decodeURIComponent(raw);
			} catch {
				violations.push(`path parameter ${name}: "${raw}" is not valid percent-encoding`);
				return;
			}
			const parameter = op.pathParameters.find((p) => p.name === name);
			if (parameter)
				violations.push(...this.checkText(`path parameter ${name}`, parameter.schema, value));
		});

		const query = request.query ?? {};
		for (const parameter of op.queryParameters) {
			if (parameter.required && !(parameter.name in query)) {
				violations.push(`query parameter ${parameter.name} is required and missing`);
			}
		}
		for (const [name, value] of Object.entries(query)) {
			const parameter = op.queryParameters.find((p) => p.name === name);
			if (!parameter) {
				const known = op.queryParameters.map((p) => p.name);
				violations.push(
					`query parameter ${name} is not declared (declared: ${known.length ? known.join(', ') : 'none'})`,
				);
				continue;
			}
			violations.push(...this.checkText(`query parameter ${name}`, parameter.schema, value));
		}

		violations.push(...this.checkBody(op, request));
		return { operationId: op.operationId, violations };
	}

	private checkBody(op: ContractOperation, request: RecordedRequest): string[] {
		const { body } = request;
		const sent = body !== undefined && body !== null && body !== '';
		if (!op.body) {
			return sent ? [`a body was sent, but ${op.operationId} declares none`] : [];
		}
		if (!sent) return op.body.required ? [`the body is required and missing`] : [];
		if (typeof body === 'string') return ['the body is not JSON'];
		const type = header(request.headers, 'content-type');
		const problems: string[] = [];
		if (type !== undefined && !/^application\/(.+\+)?json\b/i.test(type)) {
			problems.push(`content-type ${type} is not ${op.body.contentType}`);
		}
		let validate = this.bodyValidators.get(op.operationId);
		if (!validate) {
			validate = this.ajv.compile(rebase(op.body.schema) as SchemaObject);
			this.bodyValidators.set(op.operationId, validate);
		}
		if (!validate(body)) problems.push(...describe('body', validate.errors));
		return problems;
	}

	private checkText(where: string, schema: SchemaObject, value: string | string[]): string[] {
		const key = JSON.stringify(schema);
		let validate = this.valueValidators.get(key);
		if (!validate) {
			validate = this.textAjv.compile({
				type: 'object',
				properties: { value: rebase(schema) as SchemaObject },
			});
			this.valueValidators.set(key, validate);
		}
		// Coercion happens in place, on a copy.
		const holder = { value: Array.isArray(value) ? [...value] : value };
		return validate(holder) ? [] : describe(where, validate.errors, `"${String(value)}"`);
	}
}

/** Registers the formats the documents use: ajv-formats' own, and `pem` (text, not checked). */
export function withFormats(ajv: Ajv): Ajv {
	addFormats(ajv);
	ajv.addFormat('pem', true);
	return ajv;
}

/** `#/definitions/x` inside a schema compiled on its own → the registered contract's definitions. */
export function rebase(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(rebase);
	if (typeof schema !== 'object' || schema === null) return schema;
	return Object.fromEntries(
		Object.entries(schema).map(([key, value]) =>
			key === '$ref' && typeof value === 'string' && value.startsWith('#/')
				? [key, `contract${value}`]
				: [key, rebase(value)],
		),
	);
}

function header(headers: RecordedRequest['headers'], name: string): string | undefined {
	const value = headers?.[name];
	return Array.isArray(value) ? value[0] : value;
}

export function describe(
	where: string,
	errors: ErrorObject[] | null | undefined,
	value?: string,
): string[] {
	return (errors ?? []).map((error) => {
		const at = error.instancePath.replace(/^\/value/, '');
		const detail =
			error.keyword === 'additionalProperties'
				? `${error.message}: ${(error.params as { additionalProperty: string }).additionalProperty}`
				: error.message;
		return `${where}${at ? ` ${at}` : ''}${value && !at ? ` ${value}` : ''}: ${detail}`;
	});
}
