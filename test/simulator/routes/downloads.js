// @ts-check
'use strict';

/**
 * `GET /__downloads/{id}` on the management listener: the pre-signed URL a data message with
 * `resultInfo.type: url` points at (docs/api-notes.md, "Delivered messages"). No credential: the id is the capability, as
 * with a pre-signed cloud-storage URL. Expired links answer 403, unknown ones 404. Not an API
 * operation, so not in the route table (router.js) and not journaled.
 */

const PREFIX = '/__downloads/';

/** @param {string} pathname */
function isDownloadPath(pathname) {
	return pathname.startsWith(PREFIX);
}

/**
 * @param {import('../server').Core} core
 * @param {string} method
 * @param {string} pathname
 * @param {import('node:http').ServerResponse} res
 */
function handleDownload(core, method, pathname, res) {
	/** @type {{ status: number, body: string }} */
	let reply;
	if (method !== 'GET' && method !== 'HEAD') {
		reply = { status: 405, body: JSON.stringify({ error: 'Only GET' }) };
	} else {
		const id = decodeURIComponent(pathname.slice(PREFIX.length).replace(/\/+$/, ''));
		const deliveries = core.sim && core.sim.deliveries;
		reply = deliveries
			? deliveries.download(id)
			: { status: 404, body: JSON.stringify({ error: 'No such download' }) };
	}
	res.writeHead(reply.status, {
		'Content-Type': 'application/json',
		'Content-Length': Buffer.byteLength(reply.body),
		...(reply.status === 405 ? { Allow: 'GET' } : {}),
	});
	res.end(method === 'HEAD' ? undefined : reply.body);
}

module.exports = { handleDownload, isDownloadPath };
