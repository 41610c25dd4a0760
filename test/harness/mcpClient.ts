/**
 * An MCP client for the e2e tests: the official TypeScript SDK's client over streamable HTTP,
 * pointed at an activated workflow's MCP Server Trigger (`/mcp/<path>`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { sleep } from './wait';

export interface ToolAnswer {
	isError: boolean;
	/** The text parts of the answer, joined. */
	text: string;
}

export interface McpSession {
	client: Client;
	call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
	close(): Promise<void>;
}

/**
 * Connects to `<baseUrl>/mcp/<path>`. n8n registers an activated workflow's webhooks
 * asynchronously, so the first attempts may meet a 404: retried until `timeoutMs`.
 */
export async function connectMcp(
	baseUrl: string,
	path: string,
	timeoutMs = 60_000,
): Promise<McpSession> {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const client = new Client({ name: 'n8n-nodes-integration-platform-e2e', version: '1.0.0' });
		try {
			await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/${path}`)));
			return {
				client,
				async call(name, args) {
					const result = await client.callTool({ name, arguments: args });
					const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
					return {
						isError: result.isError === true,
						text: content
							.filter((part) => part.type === 'text')
							.map((part) => part.text)
							.join('\n'),
					};
				},
				close: () => client.close(),
			};
		} catch (error) {
			await client.close().catch(() => undefined);
			if (Date.now() > until) throw error;
			await sleep(250);
		}
	}
}
