/**
 * Checks one answer of the simulator against the success answers the real API documents,
 * docs/api-responses.json, which scripts/generate-api-catalog.mjs writes from the API's OpenAPI
 * documents (docs/testing.md, "Response contract").
 *
 * What is checked, for an answer with a 2xx status (others have no contract here):
 * - the request reaches an operation of its host (as in requestContract.ts);
 * - the status is one the operation documents;
 * - an answer documented without content has no body;
 * - otherwise its content type is a documented one and its body validates against that schema
 *   (JSON parsed first; ajv with OpenAPI 3.0's `nullable`, all formats checked, every error kept).
 * Answers of the proxy host have no contract (they are the provider's own).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { compileOperations, describe, locate, rebase, withFormats } from './requestContract';

interface SchemaObject {
	[keyword: string]: unknown;
}

export interface ResponseOperation {
	operationId: string;
	document: string;
	host: string;
	method: string;
	path: string;
	responses: Array<{ status: string; content: null | Record<string, SchemaObject> }>;
}

export interface ResponseContractFile {
	operations: ResponseOperation[];
	definitions: Record<string, SchemaObject>;
}

/** An answer as the simulator's journal sees it (test/simulator/journal.js, `answered`). */
export interface RecordedAnswer {
	host: string;
	method: string;
	pathname: string;
	status: number;
	/** The Content-Type header sent, if any. */
	contentType?: string;
	/** The payload as sent ('' for none). */
	payload: string;
}

export interface AnswerVerdict {
	operationId?: string;
	violations: string[];
	/** Set when the answer has no contract to check against (not 2xx, or the proxy host). */
	unchecked?: string;
}

const CONTRACT_FILE = path.join(__dirname, '..', '..', 'docs', 'api-responses.json');

/**
 * oneOf schemas whose alternatives overlap as the documents write them (docs/api-notes.md, "Where
 * the specification differs"): a field with both `fieldName` and `mapToName` is the documented
 * "existing field, mapped" form, and it also satisfies the mapping form. Matching several of their
 * alternatives is what the documents describe; matching none is still an error.
 */
export const OVERLAPPING_ONE_OF = [
	'manifest.IntegrationField',
	'manifest.HydratedIntegrationField',
];

export class ResponseContract {
	private readonly operations;
	private readonly ajv: Ajv;
	private readonly validators = new Map<string, ValidateFunction>();

	constructor(readonly contract: ResponseContractFile) {
		this.operations = compileOperations(contract.operations);
		// verbose: errors carry the schema they come from (for OVERLAPPING_ONE_OF).
		this.ajv = withFormats(new Ajv({ strict: false, allErrors: true, verbose: true }));
		this.ajv.addSchema({ $id: 'contract', definitions: contract.definitions });
		this.overlapping = new Set(
			OVERLAPPING_ONE_OF.map((key) => JSON.stringify(contract.definitions[key])),
		);
	}

	private readonly overlapping: Set<string>;

	static load(file = CONTRACT_FILE): ResponseContract {
		return new ResponseContract(JSON.parse(fs.readFileSync(file, 'utf8')) as ResponseContractFile);
	}

	check(answer: RecordedAnswer): AnswerVerdict {
		if (answer.host === 'proxy') {
			return { violations: [], unchecked: "proxy host: the provider's own answer, no contract" };
		}
		if (answer.status < 200 || answer.status > 299) {
			return { violations: [], unchecked: `status ${answer.status}: only 2xx answers are checked` };
		}
		const found = locate(this.operations, answer);
		if ('violation' in found) return { violations: [found.violation] };
		const { op } = found;
		const documented = op.responses.find(
			(r) => r.status === String(answer.status) || r.status === '2XX',
		);
		if (!documented) {
			const statuses = op.responses.map((r) => r.status).join(', ');
			return {
				operationId: op.operationId,
				violations: [`status ${answer.status} is not documented (documented: ${statuses})`],
			};
		}
		return { operationId: op.operationId, violations: this.checkContent(op, documented, answer) };
	}

	private checkContent(
		op: ResponseOperation,
		documented: ResponseOperation['responses'][number],
		answer: RecordedAnswer,
	): string[] {
		if (documented.content === null) {
			return answer.payload === ''
				? []
				: [`status ${answer.status} is documented without content, but a body was sent`];
		}
		const types = Object.keys(documented.content);
		const mediaType = (answer.contentType ?? '').split(';')[0].trim().toLowerCase();
		if (!types.includes(mediaType)) {
			return [
				`content type ${answer.contentType ?? '(none)'} is not the documented ${types.join(', ')}`,
			];
		}
		let body: unknown = answer.payload;
		if (/json/.test(mediaType)) {
			try {
				body = JSON.parse(answer.payload);
			} catch {
				return [`the body is not JSON`];
			}
		}
		const key = `${op.operationId} ${documented.status} ${mediaType}`;
		let validate = this.validators.get(key);
		if (!validate) {
			validate = this.ajv.compile(rebase(documented.content[mediaType]) as SchemaObject);
			this.validators.set(key, validate);
		}
		if (validate(body)) return [];
		const errors = (validate.errors ?? []).filter(
			(error) =>
				!(
					error.keyword === 'oneOf' &&
					Array.isArray((error.params as { passingSchemas?: unknown }).passingSchemas) &&
					this.overlapping.has(JSON.stringify(error.parentSchema))
				),
		);
		return describe('body', errors);
	}
}
