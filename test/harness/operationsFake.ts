/**
 * An in-process fake of the API routes the log trigger reads, for volume runs that would take
 * too long over HTTP: tens of thousands of operations and simulated days. It answers as the
 * simulator does and as the real API documents (docs/api-notes.md, "Operations of an
 * installation", "Operation logs"):
 * - listOperations: `pageSize` 1–1000, 200 by default (400 otherwise), an opaque base64
 *   `pageToken` (an offset, like the simulator's), `{ results, pagination: { done,
 *   nextPageToken? } }`; oldest first by `createTime` as the simulator lists (the API documents no
 *   order), or newest first with `order: 'newest'`;
 * - getOperation (404 when unknown), listOperationLogs (a bare array), the integration's
 *   installations (a bare array) and the project.
 * Time is the fake's own clock (`now`, ms), which tests move; createTime and log timestamps carry
 * microseconds and never repeat.
 */
export interface FakeOperation {
	id: string;
	installationId: string;
	createTime: string;
	status: string;
}

export interface FakeLogEntry {
	timestamp: string;
	severity: string;
	message: { msg: string; operation_id: string };
}

export const FAKE_BASE_URL = 'http://api.fake.invalid/v1';
export const FAKE_PROJECT = { id: '00000000-0000-4000-8000-00000000aaaa', name: 'fake-project' };
export const FAKE_INTEGRATION = 'fake-integration';

export class OperationsFake {
	/** The fake's clock, ms since the epoch. */
	now: number;

	readonly installations: string[];

	/** Per installation, in creation order. */
	private readonly lists = new Map<string, FakeOperation[]>();

	readonly operations = new Map<string, FakeOperation>();

	readonly logs = new Map<string, FakeLogEntry[]>();

	/** Requests answered, by route. */
	readonly requests: Record<string, number> = {};

	private lastMicros = 0;

	private sequence = 0;

	constructor(
		start: number,
		options: { installations?: string[]; order?: 'oldest' | 'newest' } = {},
	) {
		this.now = start;
		this.installations = options.installations ?? ['fake-installation-1'];
		this.order = options.order ?? 'oldest';
		for (const id of this.installations) this.lists.set(id, []);
	}

	readonly order: 'oldest' | 'newest';

	/** The clock with microseconds, strictly increasing (as the simulator's). */
	private stamp(): string {
		let micros = Math.floor(this.now) * 1000;
		if (micros <= this.lastMicros) micros = this.lastMicros + 1;
		this.lastMicros = micros;
		const ms = Math.floor(micros / 1000);
		return `${new Date(ms).toISOString().slice(0, 23)}${String(micros - ms * 1000).padStart(3, '0')}Z`;
	}

	/** A new operation; `id` replaces the generated UUID (hostile or very long IDs). */
	addOperation(
		installationId = this.installations[0],
		status = 'in_progress',
		id = `00000000-0000-4000-8000-${(this.sequence + 1).toString(16).padStart(12, '0')}`,
	): FakeOperation {
		this.sequence++;
		const operation = { id, installationId, createTime: this.stamp(), status };
		this.operations.set(id, operation);
		this.lists.get(installationId)!.push(operation);
		this.logs.set(id, []);
		return operation;
	}

	appendLog(operationId: string, msg: string): FakeLogEntry {
		const entry = {
			timestamp: this.stamp(),
			severity: 'INFO',
			message: { msg, operation_id: operationId },
		};
		this.logs.get(operationId)!.push(entry);
		return entry;
	}

	/** Retention: the installation's `count` oldest operations (and their logs) are gone. */
	forgetOldest(count: number, installationId = this.installations[0]): void {
		for (const operation of this.lists.get(installationId)!.splice(0, count)) {
			this.operations.delete(operation.id);
			this.logs.delete(operation.id);
		}
	}

	finish(operationId: string): void {
		this.operations.get(operationId)!.status = 'success';
	}

	/** The transport for PollRunner (test/harness/poll.ts). */
	readonly transport = (method: string, url: URL): { statusCode: number; body: unknown } => {
		const path = url.pathname.replace(/^\/v1/, '').split('/').map(decodeURIComponent);
		const answer = (route: string, statusCode: number, body: unknown) => {
			this.requests[route] = (this.requests[route] ?? 0) + 1;
			return { statusCode, body };
		};
		const notFound = { title: 'Not found', status: 404 };
		if (method !== 'GET' || path[1] !== 'projects') return answer('other', 404, notFound);
		// /projects/{p}
		if (path.length === 3) return answer('getProject', 200, FAKE_PROJECT);
		// /projects/{p}/operations/{id}[/logs]
		if (path[3] === 'operations') {
			const operation = this.operations.get(path[4]);
			if (!operation) return answer(path[5] ? 'listOperationLogs' : 'getOperation', 404, notFound);
			if (path[5] === 'logs') {
				return answer('listOperationLogs', 200, structuredClone(this.logs.get(path[4]) ?? []));
			}
			return answer('getOperation', 200, { ...operation });
		}
		// /projects/{p}/integrations/{i}/installations[/{inst}/operations]
		if (path[3] === 'integrations' && path[5] === 'installations') {
			if (path.length === 6) {
				return answer(
					'listInstallations',
					200,
					this.installations.map((id) => ({ id })),
				);
			}
			const list = this.lists.get(path[6]);
			if (!list || path[7] !== 'operations') return answer('listOperations', 404, notFound);
			return this.page(list, url.searchParams, answer);
		}
		return answer('other', 404, notFound);
	};

	private page(
		list: FakeOperation[],
		query: URLSearchParams,
		answer: (route: string, status: number, body: unknown) => { statusCode: number; body: unknown },
	) {
		const sizeText = query.get('pageSize');
		const pageSize = sizeText === null ? 200 : Number(sizeText);
		if (!/^\d+$/.test(sizeText ?? '200') || pageSize < 1 || pageSize > 1000) {
			return answer('listOperations', 400, { title: 'Invalid pageSize', status: 400 });
		}
		const token = query.get('pageToken');
		let offset = 0;
		if (token) {
			const match = /^o(\d+)$/.exec(Buffer.from(token, 'base64').toString('latin1'));
			if (!match) return answer('listOperations', 400, { title: 'Invalid pageToken', status: 400 });
			offset = Number(match[1]);
		}
		// kept in creation order; newest first reads it from the end
		const at = (i: number) => (this.order === 'oldest' ? list[i] : list[list.length - 1 - i]);
		const results: FakeOperation[] = [];
		for (let i = offset; i < Math.min(list.length, offset + pageSize); i++)
			results.push({ ...at(i) });
		const next = offset + pageSize;
		const done = next >= list.length;
		return answer('listOperations', 200, {
			results,
			pagination: done
				? { done }
				: { done, nextPageToken: Buffer.from(`o${next}`).toString('base64') },
		});
	}
}
