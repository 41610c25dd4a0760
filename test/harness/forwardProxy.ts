import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A plain HTTP forward proxy for Request Options → Proxy: the client sends absolute URLs. */
export interface ForwardProxy {
	url: string;
	/** Each request it forwarded: method and absolute URL. */
	seen: string[];
	close(): Promise<void>;
}

export async function startForwardProxy(): Promise<ForwardProxy> {
	const seen: string[] = [];
	const server = http.createServer((request, response) => {
		seen.push(`${request.method} ${request.url}`);
		const onward = http.request(
			request.url!,
			{ method: request.method, headers: request.headers },
			(answer) => {
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			},
		);
		onward.on('error', () => response.destroy());
		request.pipe(onward);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
