/**
 * A scripted stand-in for an OpenAI-compatible model service, so that n8n's AI Agent can run in
 * the tests without a real model: `POST /v1/chat/completions` answers with the next step of a
 * script (a tool call or a text); `GET /v1/models` lists the one model. Every request is recorded.
 * Streaming is not scripted: the AI Agent only streams when its trigger streams the response, and
 * the OpenAI client then asks for `stream: true`, which is refused with a 400 that says so.
 *
 * A step is a function of the request, so a later step can use what the agent sent back (a tool
 * result) instead of a value fixed in advance.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message of a Chat Completions request, as the OpenAI client sends it. */
export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
	content?: string | Array<{ type: string; text?: string }> | null;
	tool_calls?: Array<{
		id: string;
		type: 'function';
		function: { name: string; arguments: string };
	}>;
	tool_call_id?: string;
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: Array<{
		type: 'function';
		function: { name: string; description?: string; parameters?: unknown };
	}>;
	stream?: boolean;
	[key: string]: unknown;
}

/** What one step of the script answers: tool calls, or a final text. */
export type ScriptedReply =
	| { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> }
	| { text: string };

export type ScriptStep = (request: ChatRequest) => ScriptedReply;

export interface RecordedRequest {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	body: ChatRequest | undefined;
	/** the reply sent (absent for requests other than chat completions) */
	reply?: ScriptedReply;
	/** the tool-call IDs the reply gave, in order */
	toolCallIds?: string[];
}

export interface ScriptedModel {
	/** the base URL to give an OpenAI credential, ending in /v1 */
	url: string;
	modelId: string;
	requests: RecordedRequest[];
	/** chat-completion requests only, in order */
	chatRequests(): RecordedRequest[];
	close(): Promise<void>;
}

export const toolCall = (name: string, args: Record<string, unknown>): ScriptedReply => ({
	toolCalls: [{ name, arguments: args }],
});
export const finalText = (text: string): ScriptedReply => ({ text });

/** The text of a message, whether the client sent a string or content parts. */
export function messageText(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	if (Array.isArray(message.content))
		return message.content.map((part) => part.text ?? '').join('');
	return '';
}

/**
 * The tool message answering the call of `toolName` made last in the conversation: the assistant
 * message's tool-call ID is matched with the tool message's `tool_call_id`.
 */
export function toolResult(request: ChatRequest, toolName: string): ChatMessage | undefined {
	const calls = request.messages.flatMap((m) => m.tool_calls ?? []);
	const call = calls.filter((c) => c.function.name === toolName).pop();
	if (!call) return undefined;
	return request.messages.find((m) => m.role === 'tool' && m.tool_call_id === call.id);
}

/**
 * Starts the server. Each chat-completion request takes the next step; a request beyond the
 * script is answered 500 with an OpenAI-style error, so an agent that loops shows up as a failure.
 */
export async function startScriptedModel(
	script: ScriptStep[],
	options: { modelId?: string } = {},
): Promise<ScriptedModel> {
	const modelId = options.modelId ?? 'scripted-model';
	const requests: RecordedRequest[] = [];
	let next = 0;

	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			const path = (req.url ?? '/').split('?')[0];
			let body: ChatRequest | undefined;
			try {
				body = raw ? (JSON.parse(raw) as ChatRequest) : undefined;
			} catch {
				body = undefined;
			}
			const record: RecordedRequest = {
				method: req.method ?? '',
				path,
				headers: req.headers,
				body,
			};
			requests.push(record);
			const json = (status: number, value: unknown) => {
				res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
			};
			const error = (status: number, message: string) =>
				json(status, { error: { message, type: 'invalid_request_error', code: null } });

			if (req.method === 'GET' && path === '/v1/models') {
				return json(200, {
					object: 'list',
					data: [{ id: modelId, object: 'model', created: 1_700_000_000, owned_by: 'tests' }],
				});
			}
			if (req.method !== 'POST' || path !== '/v1/chat/completions')
				return error(404, `no route ${req.method} ${path}`);
			if (!body || !Array.isArray(body.messages))
				return error(400, 'the body must be JSON with a messages array');
			if (body.stream) return error(400, 'streaming is not scripted; run the agent without it');
			const step = script[next++];
			if (!step) return error(500, `the script has ${script.length} steps; this was call ${next}`);
			let reply: ScriptedReply;
			try {
				reply = step(body);
			} catch (e) {
				return error(500, `script step ${next} failed: ${(e as Error).message}`);
			}
			record.reply = reply;
			const id = `chatcmpl-${crypto.randomUUID()}`;
			const created = Math.floor(Date.now() / 1000);
			const toolCalls =
				'toolCalls' in reply
					? reply.toolCalls.map((call) => ({
							id: `call_${crypto.randomBytes(9).toString('hex')}`,
							type: 'function' as const,
							function: { name: call.name, arguments: JSON.stringify(call.arguments) },
						}))
					: undefined;
			record.toolCallIds = toolCalls?.map((c) => c.id);
			const content = 'text' in reply ? reply.text : null;
			const finishReason = toolCalls ? 'tool_calls' : 'stop';
			const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

			return json(200, {
				id,
				object: 'chat.completion',
				created,
				model: body.model,
				choices: [
					{
						index: 0,
						message: {
							role: 'assistant',
							content,
							...(toolCalls ? { tool_calls: toolCalls } : {}),
							refusal: null,
						},
						logprobs: null,
						finish_reason: finishReason,
					},
				],
				usage,
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		modelId,
		requests,
		chatRequests: () => requests.filter((r) => r.path === '/v1/chat/completions'),
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
