// @ts-check
'use strict';

/**
 * Upload URLs (docs/api-notes.md, "OAuth connect and upload URLs"). `GET /generate-upload-url`
 * takes no parameters and answers 200 SignedUrl `{ url, bucket, path }`: a signed URL to PUT a zip
 * of integration definitions to, for the batch upsert and revision operations that take a zip
 * URL. Each call gives a new path.
 */

const { randomBytes } = require('node:crypto');
const { ok } = require('./common');

/**
 * @typedef {import('../router').Ctx} Ctx
 */

const BUCKET = 'amp-sim-uploads';

/** @param {Ctx} _ctx */
function generateUploadUrl(_ctx) {
	const path = `uploads/${randomBytes(8).toString('hex')}.zip`;
	return ok({
		url: `https://storage.googleapis.com/${BUCKET}/${path}?X-Goog-Expires=900&X-Goog-Signature=${randomBytes(16).toString('hex')}`,
		bucket: BUCKET,
		path,
	});
}

/** @type {import('../router').RouteDef[]} */
const routes = [
	{
		id: 'generateUploadUrl',
		method: 'GET',
		path: '/v1/generate-upload-url',
		handler: generateUploadUrl,
	},
];

module.exports = { routes };
