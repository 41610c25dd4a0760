// @ts-check
'use strict';
/**
 * The raw floor of P1, run on the same Node 24 as n8n: the same GETs with a bare Node client
 * (keep-alive, sequential) and with fetch (sequential). Prints JSON milliseconds.
 * Usage: node floor.js <url> <headerName> <headerValue> <count>
 */
const http = require('node:http');

const [url, headerName, headerValue, countText] = process.argv.slice(2);
const count = Number(countText);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(/** @type {string} */ target) {
	return new Promise((resolve, reject) => {
		http
			.get(
				target,
				{ agent, headers: { [headerName]: headerValue, accept: 'application/json' } },
				(res) => {
					let body = '';
					res.on('data', (d) => (body += d));
					res.on('end', () =>
						res.statusCode === 200
							? resolve(JSON.parse(body))
							: reject(new Error(`${res.statusCode}`)),
					);
				},
			)
			.on('error', reject);
	});
}

(async () => {
	const targets = Array.from({ length: count }, (_, i) =>
		url.replace('{name}', i % 2 ? 'events-stream' : 'n8n-webhook'),
	);
	let started = process.hrtime.bigint();
	for (const target of targets) await get(target);
	const keepAliveMs = Number(process.hrtime.bigint() - started) / 1e6;
	started = process.hrtime.bigint();
	for (const target of targets) {
		const res = await fetch(target, {
			headers: { [headerName]: headerValue, accept: 'application/json' },
		});
		await res.json();
	}
	const fetchMs = Number(process.hrtime.bigint() - started) / 1e6;
	agent.destroy();
	process.stdout.write(JSON.stringify({ keepAliveMs, fetchMs }));
})().catch((error) => {
	process.stderr.write(String(error));
	process.exit(1);
});
