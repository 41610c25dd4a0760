// Runs before each engine test file: n8n-core's InstanceSettings writes an encryption key under
// N8N_USER_FOLDER on first use, which must not be the developer's ~/.n8n.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

if (!process.env.N8N_USER_FOLDER || !process.env.N8N_USER_FOLDER.includes('n8n-engine-')) {
	process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-engine-'));
}
process.env.N8N_ENCRYPTION_KEY ??= 'engine-tests-only';
process.env.N8N_LOG_LEVEL ??= 'silent';
