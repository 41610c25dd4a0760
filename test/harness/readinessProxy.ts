/**
 * A load balancer's health check in miniature, for the queue-mode tests: forwards each request to
 * an n8n process only while that process's `/healthz/readiness` answers 200, and answers 503
 * otherwise (502 when the process cannot be reached). n8n answers every request with its own 200
 * while it starts (docs/n8n-notes.md, "Webhook triggers", "Start-up"); its readiness endpoint is
 * what tells a starting process from a ready one.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Headers a proxy does not pass on (hop by hop, or recomputed by fetch). */
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);

export async function startReadinessProxy(
	target: string,
): Promise<{ url: string; close: () => Promise<void> }> {
	const forward = async (req: http.IncomingMessage, res: http.ServerResponse) => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		try {
			const readiness = await fetch(`${target}/healthz/readiness`);
			await readiness.arrayBuffer();
			if (readiness.status !== 200) {
				res.writeHead(503, { 'content-type': 'text/plain' }).end('n8n is not ready');
				return;
			}
			const headers = Object.entries(req.headers)
				.filter(([name]) => !NOT_FORWARDED.has(name))
				.map(([name, value]): [string, string] => [name, String(value)]);
			const answer = await fetch(`${target}${req.url}`, {
				method: req.method,
				headers,
				body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
			});
			const body = Buffer.from(await answer.arrayBuffer());
			res
				.writeHead(answer.status, {
					'content-type': answer.headers.get('content-type') ?? 'text/plain',
				})
				.end(body);
		} catch (error) {
			res.writeHead(502, { 'content-type': 'text/plain' }).end(`Bad Gateway: ${String(error)}`);
		}
	};
	const server = http.createServer((req, res) => void forward(req, res));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
